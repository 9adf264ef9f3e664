import { expect, test, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { seedSession, signIn } from '../support/db.js';
import { checkoutSession, signedStripeEvent, stripeStandIn } from '../support/stripe.js';

const EDITION_NAMES: Record<string, string> = { elite: 'Élite', prestige: 'Prestige', legacy: 'Legacy' };

/** The card of the edition on sale, once the live editions have loaded. */
async function cardOnSale(page: Page) {
  await page.goto('/');
  const card = page.locator('[data-testid="edition-card"][data-on-sale="true"]');
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('edition-seats')).toContainText('Plazas libres:');
  return card;
}

/** The browser is on the Stripe stand-in's hosted checkout page; returns the session id from `/checkout/<id>`. */
async function expectStandInCheckout(page: Page): Promise<string> {
  const standIn = stripeStandIn().url;
  await expect(page).toHaveURL((url) => url.href.startsWith(`${standIn}/checkout/`));
  await expect(page.getByTestId('stripe-checkout')).toBeVisible();
  return decodeURIComponent(new URL(page.url()).pathname.slice('/checkout/'.length));
}

test.describe('billing: lifetime editions', () => {
  test('signed in, the cart of the edition on sale goes to Stripe Checkout', async ({ page }) => {
    await signIn(page, await seedSession('user'));
    const card = await cardOnSale(page);
    const edition = await card.getAttribute('data-edition');
    await card.getByTestId('edition-buy').click();

    const sessionId = await expectStandInCheckout(page);
    const session = await checkoutSession(sessionId);
    expect(session.metadata).toMatchObject({ edition });
  });

  test('profile "Pagar con Stripe" goes to Stripe Checkout; once paid, the profile shows the membership', async ({ page }) => {
    await signIn(page, await seedSession('user'));
    await page.goto('/profile');
    const pay = page.getByTestId('pay-with-stripe');
    await expect(pay).toHaveText('Pagar con Stripe');
    await expect(page.getByTestId('membership')).toHaveCount(0);
    await pay.click();

    const sessionId = await expectStandInCheckout(page);
    const session = await checkoutSession(sessionId);
    const edition = (session.metadata as { edition: string }).edition;

    // Stripe tells the app the checkout is paid (a signed webhook, as Stripe sends it).
    const { payload, signature } = signedStripeEvent('checkout.session.completed', {
      ...session,
      customer: 'cus_test_x',
      subscription: `sub_test_${randomBytes(8).toString('hex')}`,
      status: 'complete',
    });
    const webhook = await page.request.post('/api/stripe/webhook', {
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      data: payload,
    });
    expect(webhook.status()).toBe(200);

    // Back on the profile (where Stripe's success_url points): the membership appears once the webhook is processed.
    expect(session.success_url).toMatch(/\/profile\?checkout=success$/);
    await page.goto('/profile?checkout=success');
    const membership = page.getByTestId('membership');
    await expect(membership).toBeVisible({ timeout: 20_000 });
    await expect(membership.getByTestId('membership-edition')).toHaveText(EDITION_NAMES[edition]!);
    await expect(membership).toContainText('Miembro nº');
    await expect(membership.getByTestId('membership-status')).toHaveText('Activa');
    await expect(page.getByTestId('pay-with-stripe')).toHaveCount(0);

    // A plain visit to /profile shows it too.
    await page.goto('/profile');
    await expect(page.getByTestId('membership')).toContainText(EDITION_NAMES[edition]!);
    await expect(page.getByTestId('membership')).toContainText('Miembro nº');
  });

  test('signed out, the cart opens the login dialog', async ({ page }) => {
    const card = await cardOnSale(page);
    await card.getByTestId('edition-buy').click();
    await expect(page.getByRole('dialog', { name: 'Elige cómo loguearte' })).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
  });

  test('the carts say before any click which edition is for sale, each under its own name', async ({ page }) => {
    const onSale = await cardOnSale(page);
    const buttons = page.getByTestId('edition-buy');
    await expect(buttons).toHaveCount(3);
    const names = await buttons.evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label')));
    expect(names).toEqual(['Comprar Élite', 'Comprar Prestige', 'Comprar Legacy']);
    await expect(onSale.getByTestId('edition-buy')).toBeEnabled();
    await expect(onSale.getByTestId('edition-unavailable')).toHaveCount(0);
    const others = page.locator('[data-testid="edition-card"][data-on-sale="false"]');
    await expect(others).toHaveCount(2);
    for (const card of await others.all()) {
      await expect(card.getByTestId('edition-buy')).toBeDisabled();
      await expect(card.getByTestId('edition-unavailable')).toBeVisible();
    }
  });

  test('back from Stripe without paying, the landing says nothing was charged', async ({ page }) => {
    await page.goto('/?checkout=cancelled');
    const notice = page.getByTestId('checkout-cancelled');
    await expect(notice).toHaveText('Has cancelado el pago: no se te ha cobrado nada. Puedes elegir una edición cuando quieras.');
    await notice.getByRole('button', { name: 'Cerrar aviso' }).click();
    await expect(notice).toHaveCount(0);
    await expect(page).toHaveURL(/\/$/);
  });
});
