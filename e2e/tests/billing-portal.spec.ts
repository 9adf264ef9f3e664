import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { useLanguage, type UiLanguage } from '../support/a11y.js';
import { seedSession, signIn } from '../support/db.js';
import { stripeStandIn } from '../support/stripe.js';

// Issue 17, part B (decisions 0047, 0048): the member opens Stripe's customer portal (the stand-in's,
// which sends the real signed customer.subscription.updated), cancels, comes back and sees when it
// ends; the invoices download from Stripe's link. Screenshots in SHOTS, es and en, 1280 and 360 px.

const SHOTS = process.env.E2E_BILLING_SHOTS_DIR ?? '/tmp/s8-shots/commerce';

const WORDS = {
  es: {
    manage: 'Gestionar suscripción',
    cancel: 'Cancelar suscripción',
    cancelsOn: 'Se cancelará el',
    invoices: 'Facturas',
    download: 'Descargar PDF',
    paid: 'Pagada',
  },
  en: { manage: 'Manage subscription', cancel: 'Cancel subscription', cancelsOn: 'Cancels on', invoices: 'Invoices', download: 'Download PDF', paid: 'Paid' },
} as const;

test.beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

/** Buys the edition on sale from the profile through the stand-in's checkout ("Pagar" sends the signed completion). */
async function becomeMember(page: Page): Promise<void> {
  await page.goto('/profile');
  await page.getByTestId('pay-with-stripe').click();
  await expect(page).toHaveURL((url) => url.href.startsWith(`${stripeStandIn().url}/checkout/`));
  await page.getByTestId('stripe-pay').click();
  await expect(page).toHaveURL(/\/profile\?checkout=success$/);
  await expect(page.getByTestId('membership')).toBeVisible({ timeout: 20_000 });
}

for (const language of ['es', 'en'] as const satisfies UiLanguage[]) {
  test.describe(`${language}`, () => {
    // The stand-in's pages speak the browser's language (Accept-Language), as Stripe's do.
    test.use({ locale: language === 'es' ? 'es-ES' : 'en-US' });
    test(`${language}: a member manages the subscription in Stripe's portal, cancels, comes back and sees when it ends; invoices download`, async ({
      page,
    }) => {
      const words = WORDS[language];
      await useLanguage(page, language);
      await page.setViewportSize({ width: 1280, height: 900 });
      const member = await seedSession('user');
      await signIn(page, member);
      await becomeMember(page);

      // The invoices: the first one, paid, with Stripe's PDF link (it downloads a PDF).
      const invoices = page.getByTestId('invoices');
      await expect(invoices.getByRole('heading', { name: words.invoices })).toBeVisible();
      const invoice = invoices.getByTestId('invoice');
      await expect(invoice).toHaveCount(1);
      await expect(invoice.getByTestId('invoice-status')).toHaveText(words.paid);
      const pdf = invoice.getByTestId('invoice-pdf');
      await expect(pdf).toHaveText(words.download);
      const href = (await pdf.getAttribute('href'))!;
      expect(href.startsWith(`${stripeStandIn().url}/invoice/`)).toBe(true);
      const download = await page.request.get(href);
      expect(download.headers()['content-type']).toBe('application/pdf');
      expect((await download.body()).subarray(0, 5).toString()).toBe('%PDF-');

      // Nothing cancelled yet.
      await expect(page.getByTestId('membership-cancel-at')).toHaveCount(0);

      // "Gestionar suscripción" → Stripe's portal → cancel → back.
      const manage = page.getByTestId('manage-subscription');
      await expect(manage).toHaveText(words.manage);
      await manage.click();
      await expect(page).toHaveURL((url) => url.href.startsWith(`${stripeStandIn().url}/p/session/`));
      await expect(page.getByTestId('stripe-portal-banner')).toBeVisible();
      await page.getByRole('button', { name: words.cancel }).click();
      await expect(page.getByTestId('portal-state')).toContainText(words.cancelsOn);
      await page.screenshot({ path: path.join(SHOTS, `portal-cancelled-${language}-1280.png`) });
      await page.getByTestId('portal-return').click();
      await expect(page).toHaveURL(/\/profile\?portal=return$/);

      // The signed customer.subscription.updated reached the app: the date it ends, still active until then.
      // No reload: back from the portal, the profile asks again until the webhook has been applied.
      await expect(page.getByTestId('membership-cancel-at')).toBeVisible({ timeout: 20_000 });
      const note = page.getByTestId('membership-cancel-at');
      await expect(note).toContainText(words.cancelsOn);
      const cancelAt = new Date((await note.getAttribute('data-cancel-at'))!);
      // A month's period from now (the stand-in's), never today.
      expect(cancelAt.getTime()).toBeGreaterThan(Date.now() + 25 * 24 * 3600 * 1000);
      await expect(page.getByTestId('membership-status')).toHaveAttribute('data-status', 'active');
      await expect(page.getByTestId('pay-with-stripe')).toHaveCount(0);

      await page.getByTestId('membership').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, `profile-cancelling-${language}-1280.png`), fullPage: true });
      await page.getByTestId('membership').screenshot({ path: path.join(SHOTS, `membership-cancelling-${language}-1280.png`) });
      await page.setViewportSize({ width: 360, height: 800 });
      await expect(note).toBeVisible();
      // Nothing runs off the side at 360 px.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(SHOTS, `profile-cancelling-${language}-360.png`), fullPage: true });
      await page.getByTestId('membership').screenshot({ path: path.join(SHOTS, `membership-cancelling-${language}-360.png`) });
    });
  });
}
