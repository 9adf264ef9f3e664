import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible, useLanguage, type UiLanguage } from '../support/a11y.js';
import { seedSession, signIn, withDb, type SeededSession } from '../support/db.js';
import { checkoutSession, signedStripeEvent } from '../support/stripe.js';

// Issue 17: the company's sales view ("Ventas", opened from the admin panel's header).

const SHOTS = process.env.E2E_SALES_SHOTS_DIR ?? '/tmp/s8-shots/sales';
const marker = randomBytes(3).toString('hex');
const buyers: { session: SeededSession; email: string }[] = [];

/** A real purchase: checkout at the stand-in, then Stripe's signed completion to our webhook; waits for the membership. */
async function buy(request: APIRequestContext, email: string): Promise<SeededSession> {
  const session = await seedSession('user');
  await withDb((db) => db.query('update users set email = $1 where id = $2', [email, session.user.id]));
  const started = await request.post('/api/stripe/create-checkout-session', { headers: { authorization: `Bearer ${session.token}` } });
  expect(started.status()).toBe(200);
  const checkout = await checkoutSession(((await started.json()) as { sessionId: string }).sessionId);
  const { payload, signature } = signedStripeEvent('checkout.session.completed', {
    ...checkout,
    status: 'complete',
    payment_status: 'paid',
    customer: `cus_${randomBytes(6).toString('hex')}`,
    subscription: `sub_${randomBytes(8).toString('hex')}`,
  });
  const webhook = await request.post('/api/stripe/webhook', { headers: { 'content-type': 'application/json', 'stripe-signature': signature }, data: payload });
  expect(webhook.status()).toBe(200);
  await expect
    .poll(async () => (await withDb((db) => db.query('select 1 from memberships where user_id = $1', [session.user.id]))).rowCount, { timeout: 20_000 })
    .toBe(1);
  return session;
}

test.beforeAll(async ({ playwright }) => {
  mkdirSync(SHOTS, { recursive: true });
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const emails = [`ana.${marker}@example.com`, `josé.núñez.${marker}@ejemplo.es`, `=1+1.${marker}@evil.example`, `gone.${marker}@example.com`];
  for (const email of emails) buyers.push({ session: await buy(request, email), email });
  await withDb(async (db) => {
    // States the webhook handlers of issue 17 (another change) will set, written here as they will.
    await db.query(`update memberships set status = 'refunded', status_at = now() where user_id = $1`, [buyers[2]!.session.user.id]);
    // An erased member: the row is kept without the person (docs/data-rights.md).
    await db.query(`update memberships set user_id = null, user_erased_at = now() where user_id = $1`, [buyers[3]!.session.user.id]);
    await db.query(
      `insert into stripe_events (id, type, payload, created_at, received_at, attempts, last_error, failed_at)
       values ($1, 'charge.dispute.created', '{}', now(), now() - interval '20 minutes', 10, $2, now())`,
      [`evt_sales_${marker}`, `No membership for charge ch_${marker}`],
    );
  });
  await request.dispose();
});

async function openSales(page: Page, language: UiLanguage, width: number) {
  const admin = await seedSession('admin');
  await useLanguage(page, language);
  await signIn(page, admin);
  await page.setViewportSize({ width, height: 900 });
  await page.goto('/');
  await page.getByTestId('admin-gear').click();
  await page.getByTestId('admin-header-ventas').click();
  const view = page.getByTestId('sales-view');
  await expect(view).toBeVisible();
  await expect(view.getByTestId('sales-edition')).toHaveCount(3);
  return view;
}

const T = {
  es: { title: 'Ventas', mrr: 'Ingresos mensuales (MRR)', erased: 'Cuenta eliminada', refunded: 'Reembolsada', search: 'Buscar por email o número' },
  en: { title: 'Sales', mrr: 'Monthly recurring revenue (MRR)', erased: 'Account deleted', refunded: 'Refunded', search: 'Search by email or number' },
} as const;

for (const language of ['es', 'en'] as const satisfies UiLanguage[]) {
  test(`${language}: the admin reads seats, money, members, refunds and events needing attention (1280 px)`, async ({ page }) => {
    const text = T[language];
    const view = await openSales(page, language, 1280);
    await expect(page.getByTestId('admin-section-ventas').getByRole('heading', { level: 3 })).toHaveText(text.title);
    await expect(view.getByTestId('sales-editions').getByRole('columnheader', { name: text.mrr })).toBeVisible();

    // Sold counts every membership; the numbers agree with the database.
    const sold = await withDb((db) => db.query<{ n: string }>(`select count(*) as n from memberships`));
    await expect(view.getByTestId('sales-total').getByTestId('sales-sold')).toHaveText(sold.rows[0]!.n);

    // This run's members, found by the marker in their e-mails.
    await view.getByLabel(text.search).fill(marker);
    const members = view.getByTestId('sales-member');
    await expect(members).toHaveCount(3);
    await expect(members.filter({ hasText: `josé.núñez.${marker}@ejemplo.es` })).toHaveCount(1);
    await expect(members.filter({ hasText: `=1+1.${marker}@evil.example` }).getByTestId('sales-status')).toHaveText(text.refunded);

    await expect(view.getByTestId('sales-refund').filter({ hasText: `=1+1.${marker}` })).toHaveCount(1);
    const event = view.locator(`[data-testid="sales-event"][data-event="evt_sales_${marker}"]`);
    await expect(event).toContainText(`No membership for charge ch_${marker}`);

    await expectAccessible(page, `ventas ${language} 1280`, { include: '[data-testid="admin-panel"]' });
    await page.getByTestId('admin-section-ventas').screenshot({ path: path.join(SHOTS, `ventas-${language}-1280.png`) });
    await view.getByTestId('sales-events').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, `ventas-${language}-1280-lower.png`) });

    // The erased member keeps their number, without an e-mail.
    const gone = await withDb((db) =>
      db.query<{ member_number: number }>(`select member_number from memberships where user_id is null order by member_number desc limit 1`),
    );
    // '#' makes it a member number only (no e-mail holds it).
    await view.getByLabel(text.search).fill(`#${gone.rows[0]!.member_number}`);
    await expect(members).toHaveCount(1);
    await expect(members.first()).toContainText(text.erased);
  });

  test(`${language}: on a phone the panel never scrolls sideways and the tables keep their first column in view (360 px)`, async ({ page }) => {
    const view = await openSales(page, language, 360);
    await view.getByLabel(T[language].search).fill(marker);
    await expect(view.getByTestId('sales-member')).toHaveCount(3);
    const panel = page.getByTestId('admin-panel');
    expect(await panel.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    for (const table of ['sales-editions', 'sales-members', 'sales-refunds', 'sales-events']) {
      await expect(view.getByTestId(table)).toHaveAttribute('data-pinned-first', 'true');
    }
    // Scrolled sideways, the member number still sits at the card's left edge.
    const card = view.getByTestId('sales-members').locator('..');
    await card.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    const [cardBox, numberBox] = await Promise.all([card.boundingBox(), view.getByTestId('sales-member').first().locator('td').first().boundingBox()]);
    expect(Math.abs(numberBox!.x - cardBox!.x)).toBeLessThan(2);
    await card.evaluate((el) => el.scrollTo({ left: 0 }));

    await expectAccessible(page, `ventas ${language} 360`, { include: '[data-testid="admin-panel"]' });
    await panel.evaluate((el) => el.scrollTo({ top: 0 }));
    await page.screenshot({ path: path.join(SHOTS, `ventas-${language}-360-top.png`) });
    await view.getByTestId('sales-members').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, `ventas-${language}-360-members.png`) });
    await view.getByTestId('sales-events').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, `ventas-${language}-360-events.png`) });
  });
}

test('es: Exportar CSV downloads every matching member: BOM, Spanish headers, formula cells neutralised, erased named, and it is audited', async ({ page }) => {
  const since = new Date();
  const view = await openSales(page, 'es', 1280);
  await view.getByLabel('Buscar por email o número').fill(marker);
  await expect(view.getByTestId('sales-member')).toHaveCount(3);
  const [download] = await Promise.all([page.waitForEvent('download'), view.getByTestId('sales-export').click()]);
  expect(download.suggestedFilename()).toMatch(/^members-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n');
  expect(lines[0]).toBe('Número de miembro,Email,Edición,Estado,Precio mensual (EUR),Alta,Estado desde');
  // The search applies to the export: this run's three members with an e-mail.
  expect(lines.slice(1, -1)).toHaveLength(3);
  expect(lines.find((line) => line.includes('ejemplo.es'))).toContain(`,josé.núñez.${marker}@ejemplo.es,`);
  expect(lines.find((line) => line.includes('evil.example'))).toContain(`,'=1+1.${marker}@evil.example,`);
  expect(lines.find((line) => line.includes('evil.example'))).toContain(',Reembolsada,');
  await expect
    .poll(
      async () =>
        // The entry says a search was used and how many rows went out, never the search text (it may be an e-mail).
        (
          await withDb((db) =>
            db.query(
              `select details::text as details from audit_events where action = 'admin.sales_members_exported' and at >= $1 and details->'filters'->>'searched' = 'true' and (details->>'rows')::int = 3`,
              [since],
            ),
          )
        ).rows.filter((row: { details: string }) => !row.details.includes(marker)).length,
    )
    .toBeGreaterThanOrEqual(1);
});
