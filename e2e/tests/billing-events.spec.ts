import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { useLanguage, type UiLanguage } from '../support/a11y.js';
import { seedSession, signIn, type SeededSession } from '../support/db.js';
import { checkoutSession, signedStripeEvent } from '../support/stripe.js';

// Issue 17 (docs/billing.md): what Stripe says after a checkout reaches the person and the admin.
// A refunded payment shows on the profile in the person's words; an event that can never apply
// gives up (STRIPE_EVENT_ATTEMPTS=2 here) and waits in Salud until an admin retries or dismisses it.

const SHOTS = process.env.E2E_BILLING_SHOTS_DIR ?? '/tmp/s8-shots/webhooks';

test.beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

const hex = () => randomBytes(8).toString('hex');

async function deliver(request: APIRequestContext, type: string, object: Record<string, unknown>): Promise<string> {
  const { payload, signature } = signedStripeEvent(type, object);
  const response = await request.post('/api/stripe/webhook', { headers: { 'content-type': 'application/json', 'stripe-signature': signature }, data: payload });
  expect(response.status()).toBe(200);
  return (JSON.parse(payload) as { id: string }).id;
}

async function health(request: APIRequestContext, admin: SeededSession): Promise<{ stripeEvents: { id: string }[] }> {
  const response = await request.get('/api/admin/health', { headers: { authorization: `Bearer ${admin.token}` } });
  expect(response.status()).toBe(200);
  return (await response.json()) as { stripeEvents: { id: string }[] };
}

async function membershipStatus(request: APIRequestContext, person: SeededSession): Promise<string | null> {
  const response = await request.get('/api/billing/membership', { headers: { authorization: `Bearer ${person.token}` } });
  return ((await response.json()) as { membership: { status: string } | null }).membership?.status ?? null;
}

/** A paid checkout of the edition on sale, its customer and subscription as Stripe would report them. */
async function paidSession(request: APIRequestContext, person: SeededSession) {
  const started = await request.post('/api/stripe/create-checkout-session', { headers: { authorization: `Bearer ${person.token}` } });
  expect(started.status()).toBe(200);
  const session = await checkoutSession(((await started.json()) as { sessionId: string }).sessionId);
  return {
    ...session,
    amount_total: Number(session.amount_total),
    status: 'complete',
    payment_status: 'paid',
    customer: `cus_test_${hex()}`,
    subscription: `sub_test_${hex()}`,
  };
}

async function openSalud(page: Page) {
  await page.goto('/');
  await page.getByTestId('admin-gear').click();
  await page.getByTestId('admin-nav-salud').click();
  return page.getByTestId('health-stripe-events');
}

for (const language of ['es', 'en'] as const satisfies UiLanguage[]) {
  const es = language === 'es';

  test(`${language}: Salud lists a Stripe event that gave up; Reintentar applies it once it can, Descartar keeps it out of the list (audited)`, async ({
    page,
  }) => {
    const admin = await seedSession('admin');
    const person = await seedSession('user');

    // A subscription update that arrives before its checkout: it gives up after its two attempts.
    const session = await paidSession(page.request, person);
    const early = await deliver(page.request, 'customer.subscription.updated', { id: session.subscription, object: 'subscription', status: 'active' });
    // And one for a subscription that will never exist.
    const poison = await deliver(page.request, 'invoice.payment_failed', {
      id: `in_test_${hex()}`,
      object: 'invoice',
      parent: { subscription_details: { subscription: `sub_never_${hex()}` } },
    });
    await expect
      .poll(async () => (await health(page.request, admin)).stripeEvents.map((event) => event.id), { timeout: 20_000 })
      .toEqual(expect.arrayContaining([early, poison]));
    // The checkout completes after all.
    await deliver(page.request, 'checkout.session.completed', session);
    await expect.poll(() => membershipStatus(page.request, person), { timeout: 20_000 }).toBe('active');

    await useLanguage(page, language);
    await signIn(page, admin);
    await page.setViewportSize({ width: 1280, height: 900 });
    const block = await openSalud(page);
    await expect(block.getByRole('heading')).toHaveText(es ? 'Eventos de Stripe que necesitan atención' : 'Stripe events needing attention');
    const earlyRow = block.locator(`[data-testid="health-stripe-event"][data-event="${early}"]`);
    const poisonRow = block.locator(`[data-testid="health-stripe-event"][data-event="${poison}"]`);
    await expect(earlyRow).toContainText('customer.subscription.updated');
    await expect(earlyRow.getByTestId('health-stripe-event-error')).toContainText('No membership for subscription');
    await expect(poisonRow).toContainText('invoice.payment_failed');
    await block.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, `salud-stripe-events-${language}-1280.png`) });

    await page.setViewportSize({ width: 360, height: 800 });
    await block.getByRole('heading').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, `salud-stripe-events-${language}-360.png`) });
    await page.setViewportSize({ width: 1280, height: 900 });

    await earlyRow.getByTestId('health-stripe-retry').click();
    await expect(block.getByTestId('health-stripe-action-done')).toHaveText(
      es ? `El evento ${early} se vuelve a aplicar.` : `Event ${early} is being applied again.`,
    );
    await expect(earlyRow).toHaveCount(0);

    page.once('dialog', (dialog) => void dialog.accept());
    await poisonRow.getByTestId('health-stripe-dismiss').click();
    await expect(block.getByTestId('health-stripe-action-done')).toHaveText(es ? `Evento ${poison} descartado.` : `Event ${poison} dismissed.`);
    await expect(poisonRow).toHaveCount(0);
    expect((await health(page.request, admin)).stripeEvents.map((event) => event.id)).not.toEqual(expect.arrayContaining([early]));

    // Both actions are in the audit log.
    const audit = await page.request.get('/api/admin/audit?limit=50', { headers: { authorization: `Bearer ${admin.token}` } });
    const actions = ((await audit.json()) as { items: { action: string; target_id: string }[] }).items.map((item) => `${item.action} ${item.target_id}`);
    expect(actions).toEqual(expect.arrayContaining([`admin.stripe_event_retried ${early}`, `admin.stripe_event_dismissed ${poison}`]));
  });

  test(`${language}: a refunded payment shows on the profile as Reembolsada with what it means`, async ({ page }) => {
    const person = await seedSession('user');
    const session = await paidSession(page.request, person);
    await deliver(page.request, 'checkout.session.completed', session);
    await expect.poll(() => membershipStatus(page.request, person), { timeout: 20_000 }).toBe('active');
    // Refunded in full from Stripe's dashboard: Stripe sends charge.refunded.
    await deliver(page.request, 'charge.refunded', {
      id: `ch_test_${hex()}`,
      object: 'charge',
      amount: session.amount_total,
      amount_refunded: session.amount_total,
      refunded: true,
      customer: session.customer,
      currency: 'eur',
      status: 'succeeded',
    });
    await expect.poll(() => membershipStatus(page.request, person), { timeout: 20_000 }).toBe('refunded');

    await useLanguage(page, language);
    await signIn(page, person);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/profile');
      const membership = page.getByTestId('membership');
      await expect(membership.getByTestId('membership-status')).toHaveText(es ? 'Reembolsada' : 'Refunded');
      await expect(membership.getByTestId('membership-status-explanation')).toHaveText(
        es
          ? 'Se te ha devuelto el pago de esta edición: ya no está activa y su plaza ha vuelto a la venta.'
          : 'Your payment for this edition was refunded: it is no longer active and its seat went back on sale.',
      );
      await membership.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, `profile-refunded-${language}-${width}.png`) });
    }
  });
}
