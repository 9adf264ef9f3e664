import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { seedSession, withDb, signIn } from '../support/db.js';

test('a visitor writes from the contact page, sees what happens next, and an admin finds the message in the panel', async ({ page, browser }) => {
  const marker = randomBytes(4).toString('hex');
  const email = `visitante.${marker}@example.com`;
  const text = `Quiero ejercer mi derecho de acceso (ref ${marker}).`;

  // The visitor reaches the page from the footer, like from any page.
  await page.goto('/');
  await page.getByTestId('footer-contact').click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Contacto' })).toBeVisible();

  // Sending an empty form explains every field.
  await page.getByTestId('contact-submit').click();
  await expect(page.getByTestId('contact-error-name')).toHaveText('Escribe tu nombre.');
  await expect(page.getByTestId('contact-error-consent')).toBeVisible();
  await expect(page.getByTestId('contact-name')).toBeFocused();

  await page.getByTestId('contact-name').fill('Visitante Prueba');
  await page.getByTestId('contact-email').fill(email);
  await page.getByTestId('contact-subject').selectOption('privacy');
  await page.getByTestId('contact-message').fill(text);
  await page.getByTestId('contact-consent').check();
  await expect(page.getByTestId('contact-error-name')).toHaveCount(0);
  await page.getByTestId('contact-submit').click();

  const success = page.getByTestId('contact-success');
  await expect(success).toBeVisible();
  await expect(success).toContainText('Mensaje enviado');
  await expect(success).toContainText(`te responderemos por email a ${email}`);
  await expect(success).toContainText('plazo máximo de un mes');

  // Stored (no SMTP in this run: it waits, 'received', for the admins).
  const rows = await withDb((db) => db.query<{ status: string; subject: string }>(`select status, subject from contact_messages where email = $1`, [email]));
  expect(rows.rows).toEqual([{ status: 'received', subject: 'privacy' }]);

  // An admin opens the panel and the contact messages from its header.
  const { token, user } = await seedSession('admin');
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, { token, user });
  await admin.goto('/');
  await admin.getByTestId('admin-gear').click();
  await expect(admin.getByTestId('admin-panel')).toBeVisible();
  await admin.getByTestId('admin-header-contactmessages').click();
  await expect(admin.getByTestId('admin-section-contactmessages')).toBeVisible();

  const card = admin.getByTestId('contact-message').filter({ hasText: marker });
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('contact-message-from')).toContainText(email);
  await expect(card.getByTestId('contact-message-subject')).toHaveText('Privacidad y protección de datos');
  await expect(card.getByTestId('contact-message-text')).toHaveText(text);
  await expect(card.getByTestId('contact-message-status')).toContainText('Guardado, sin enviar por email');

  await card.getByTestId('contact-message-mark-handled').click();
  await expect(card.getByTestId('contact-message-handled')).toContainText(`Atendido por ${user.email}`);
  await expect(card).toHaveAttribute('data-handled', 'true');
  await adminContext.close();
});

test('a signed-in person finds name and e-mail already filled in', async ({ page }) => {
  const { token, user } = await seedSession('user');
  await signIn(page, { token, user });
  await page.goto('/contact');
  await expect(page.getByTestId('contact-name')).toHaveValue(user.username);
  await expect(page.getByTestId('contact-email')).toHaveValue(user.email);
  await expect(page.getByTestId('contact-prefilled')).toBeVisible();
});
