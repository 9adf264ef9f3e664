import { pollUntil } from '@life/test-support';
import type { StripeStandIn } from '@life/test-support/standins/stripe';
import { startBillingApp } from './helpers/billing-app.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import type { TestApp } from './helpers/test-app.js';

// Issue 17, part B (decisions 0047, 0048): Stripe Tax at checkout, the member's own invoices, the
// customer portal and what cancelling does, against the Stripe stand-in (its portal page delivers
// the real signed customer.subscription.updated / deleted to our webhook).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

describe('billing with STRIPE_TAX=on: tax at checkout, invoices, the customer portal and cancelling (real PostgreSQL + Redis + worker)', () => {
  let stripe: StripeStandIn;
  let t: TestApp;

  beforeAll(async () => {
    ({ stripe, t } = await startBillingApp('portal', {
      STRIPE_TAX: 'on',
      EDITION_LIMITS: '2,5,5',
      BILLING_SWEEP_MS: '300',
    }));
    // The stand-in delivers what Stripe would (portal changes, the period's end) to our real webhook.
    stripe.setEventsUrl(`${t.url}/api/stripe/webhook`);
  });

  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  const json = async (response: Response) => (await response.json()) as Json;
  const checkout = (user: SeededUser) => t.fetch('/api/stripe/create-checkout-session', { method: 'POST', headers: bearer(user.token) });
  const membership = async (user: SeededUser) =>
    (await json(await t.fetch('/api/billing/membership', { headers: bearer(user.token) }))).membership as Json | null;
  const invoices = (user: SeededUser) => t.fetch('/api/billing/invoices', { headers: bearer(user.token) });
  const portal = (user: SeededUser) => t.fetch('/api/billing/portal', { method: 'POST', headers: bearer(user.token) });
  const seatsLeft = async (edition: string) =>
    ((await json(await t.fetch('/api/billing/editions'))).editions as Json[]).find((row) => row.id === edition)!.seats_left as number;
  const webhook = (signed: { payload: string; signature: string }) =>
    t.fetch('/api/stripe/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature },
      body: signed.payload,
    });
  const audits = async (action: string, membershipId: string) =>
    (
      await t.db.query<{ details: Json; actor_id: string | null }>(
        `select details, actor_id from audit_events where action = $1 and target_type = 'membership' and target_id = $2 order by at`,
        [action, membershipId],
      )
    ).rows;
  const row = async (user: SeededUser) =>
    (
      await t.db.query<{
        id: string;
        member_number: number;
        cancel_at: Date | null;
        seat_released_at: Date | null;
        stripe_subscription_id: string;
        stripe_customer_id: string;
      }>(`select id, member_number, cancel_at, seat_released_at, stripe_subscription_id, stripe_customer_id from memberships where user_id = $1`, [user.id])
    ).rows[0]!;
  const eventsApplied = (ids: string[]) =>
    pollUntil(
      async () =>
        Number(
          (await t.db.query<{ n: string }>(`select count(*) as n from stripe_events where id = any($1) and processed_at is not null`, [ids])).rows[0]!.n,
        ) === ids.length,
      'the events applied',
    );

  /** Buys the edition on sale through Checkout and Stripe's signed completion; answers the session as completed. */
  async function becomeMember(user: SeededUser): Promise<Json> {
    const started = await json(await checkout(user));
    const paid = stripe.completeSession(started.sessionId as string);
    expect((await webhook(stripe.signedEvent('checkout.session.completed', paid))).status).toBe(200);
    await pollUntil(async () => (await membership(user))?.status === 'active', 'the membership');
    return paid;
  }

  it('asks Stripe for automatic tax on VAT-inclusive prices, the billing address and tax ids', async () => {
    const [buyer] = await seedUsers(t.db, 1);
    const started = await json(await checkout(buyer!));
    const request = stripe.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(request.body.client_reference_id).toBe(stripe.sessions.get(started.sessionId as string)!.client_reference_id);
    expect(request.body).toMatchObject({
      'automatic_tax[enabled]': 'true',
      'tax_id_collection[enabled]': 'true',
      billing_address_collection: 'required',
      'line_items[0][price_data][tax_behavior]': 'inclusive',
      'line_items[0][price_data][unit_amount]': '200',
      customer_email: buyer!.email,
    });
    // A new customer: Checkout creates it, so there is nothing to update.
    expect(Object.keys(request.body).filter((key) => key.startsWith('customer_update'))).toEqual([]);
    expect(stripe.sessions.get(started.sessionId)).toMatchObject({ automatic_tax: { enabled: true }, tax_id_collection: { enabled: true } });
    // Give the seat back so the later counts start from a full Élite.
    await webhook(stripe.signedEvent('checkout.session.expired', { ...stripe.sessions.get(started.sessionId)!, status: 'expired' }));
    await pollUntil(async () => (await seatsLeft('elite')) === 2, 'seat freed');
  });

  it("lists each member's own invoices only, with Stripe's links, and refuses people without a membership", async () => {
    const [alice, bob, stranger] = await seedUsers(t.db, 3);
    const alicePaid = await becomeMember(alice!);
    const bobPaid = await becomeMember(bob!);
    const renewal = stripe.issueInvoice(alicePaid.subscription as string);

    const answer = await invoices(alice!);
    expect(answer.status).toBe(200);
    const body = await json(answer);
    expect(body.has_more).toBe(false);
    const aliceInvoices = [...stripe.invoices.values()].filter((invoice) => invoice.customer === alicePaid.customer);
    expect(aliceInvoices).toHaveLength(2);
    expect((body.invoices as Json[]).map((invoice) => invoice.id).sort()).toEqual(aliceInvoices.map((invoice) => invoice.id).sort());
    expect(body.invoices[0]).toMatchObject({
      id: renewal.id,
      number: renewal.number,
      amount_cents: 200,
      // VAT included in the 2 €: the stand-in charges 21 %.
      tax_cents: 35,
      currency: 'eur',
      status: 'paid',
      pdf_url: `${stripe.url}/invoice/${renewal.id}/pdf`,
      hosted_url: `${stripe.url}/invoice/${renewal.id}`,
    });
    expect(new Date(body.invoices[0].date as string).getTime()).not.toBeNaN();
    // Stripe was asked for Alice's customer only; Bob's invoices never show.
    const listed = stripe.requests.filter((r) => r.path === '/v1/invoices');
    expect(listed.length).toBeGreaterThan(0);
    const bobIds = [...stripe.invoices.values()].filter((invoice) => invoice.customer === bobPaid.customer).map((invoice) => invoice.id);
    expect(bobIds).toHaveLength(1);
    expect((body.invoices as Json[]).some((invoice) => bobIds.includes(invoice.id))).toBe(false);
    const bobs = await json(await invoices(bob!));
    expect((bobs.invoices as Json[]).map((invoice) => invoice.id)).toEqual(bobIds);
    // The PDF link downloads a PDF.
    const pdf = await fetch(body.invoices[0].pdf_url as string);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const none = await invoices(stranger!);
    expect(none.status).toBe(404);
    expect(await json(none)).toMatchObject({ error: 'not_a_member' });
    expect((await t.fetch('/api/billing/invoices')).status).toBe(401);
  });

  it("opens Stripe's customer portal for the member's own customer only, back to the profile", async () => {
    const [member, stranger, manual] = await seedUsers(t.db, 3);
    await t.db.query(`update edition_stock set seat_limit = seat_limit + 2 where edition = 'elite'`);
    const paid = await becomeMember(member!);
    const answer = await portal(member!);
    expect(answer.status).toBe(200);
    const { url } = await json(answer);
    expect(url).toMatch(new RegExp(`^${stripe.url}/p/session/bps_`));
    const created = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!;
    expect(created.body.customer).toBe(paid.customer);
    expect(created.body.return_url).toMatch(/^https?:\/\/[^/]+\/profile\?portal=return$/);
    const page = await (await fetch(url as string, { headers: { 'accept-language': 'es' } })).text();
    expect(page).toContain('Cancelar suscripción');

    const refused = await portal(stranger!);
    expect(refused.status).toBe(404);
    expect(await json(refused)).toMatchObject({ error: 'not_a_member' });
    // A membership without a Stripe customer (granted by hand) has no portal: a clear 409.
    const manualPaid = await becomeMember(manual!);
    await t.db.query(`update memberships set stripe_customer_id = null where stripe_subscription_id = $1`, [manualPaid.subscription]);
    const noCustomer = await portal(manual!);
    expect(noCustomer.status).toBe(409);
    expect(await json(noCustomer)).toMatchObject({ error: 'no_stripe_customer', message: expect.any(String) });
    expect((await t.fetch('/api/billing/portal', { method: 'POST' })).status).toBe(401);

    // Each answer is a call to Stripe with the company's key: one person looping is held back (429)
    // before they spend the account's Stripe limit; someone else is not.
    const statuses: number[] = [];
    for (let i = 0; i < 22; i += 1) statuses.push((await invoices(member!)).status);
    expect(statuses.slice(0, 19).every((status) => status === 200)).toBe(true);
    const limited = await invoices(member!);
    expect([limited.status, (await json(limited)).error]).toEqual([429, 'too_many_requests']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await portal(stranger!)).status).toBe(404);
  });

  it('cancelling in the portal keeps everything until the period ends; the end frees the seat and the locked price; buying again pays the edition on sale', async () => {
    await t.db.query(`update edition_stock set seat_limit = confirmed + 1 where edition = 'elite'`);
    const [member, newcomer] = await seedUsers(t.db, 2);
    const paid = await becomeMember(member!);
    const subscriptionId = paid.subscription as string;
    const before = await row(member!);
    expect(await seatsLeft('elite')).toBe(0);

    // The member cancels in the portal: Stripe schedules it at the period's end and tells us.
    const { url } = await json(await portal(member!));
    const cancel = await fetch(`${url as string}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(cancel.status).toBe(303);
    const subscription = stripe.subscriptions.get(subscriptionId)!;
    expect(subscription).toMatchObject({ cancel_at_period_end: true, status: 'active' });
    await pollUntil(async () => !!(await membership(member!))?.cancel_at, 'the cancellation date');
    const scheduled = (await membership(member!))!;
    expect(scheduled).toMatchObject({
      status: 'active',
      edition: 'elite',
      price_cents: 200,
      cancel_at: new Date(subscription.cancel_at! * 1000).toISOString(),
    });
    expect(await seatsLeft('elite')).toBe(0);
    expect(await audits('billing.cancellation_scheduled', before.id)).toEqual([{ details: { cancel_at: scheduled.cancel_at }, actor_id: member!.id }]);
    // Until then the member is still a member: no second purchase.
    expect((await checkout(member!)).status).toBe(409);

    // Taken back in the portal: it renews again.
    expect((await fetch(`${url as string}/renew`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    await pollUntil(async () => (await membership(member!))?.cancel_at === null, 'renewing again');
    await pollUntil(async () => (await audits('billing.cancellation_withdrawn', before.id)).length === 1, 'the withdrawal audited');

    // Cancelled again, and the period ends: Stripe deletes the subscription.
    const again = await stripe.cancelAtPeriodEnd(subscriptionId);
    expect(again.ok).toBe(true);
    const ended = await stripe.endSubscription(subscriptionId);
    expect(ended.ok).toBe(true);
    await eventsApplied([again.event.id, ended.event.id]);
    expect(await membership(member!)).toMatchObject({ status: 'cancelled', member_number: before.member_number });
    expect(await seatsLeft('elite')).toBe(1);
    const after = await row(member!);
    expect(after.seat_released_at).not.toBeNull();
    expect(await audits('billing.membership_ended', before.id)).toEqual([
      { details: { edition: 'elite', member_number: before.member_number, seat_released: true }, actor_id: null },
    ]);
    // Stripe repeats the deletion (a redelivery with a new id, as after a retry): the seat is freed once.
    const repeated = stripe.signedEvent('customer.subscription.deleted', stripe.subscriptions.get(subscriptionId)!);
    expect((await webhook(repeated)).status).toBe(200);
    await eventsApplied([repeated.event.id]);
    expect(await seatsLeft('elite')).toBe(1);
    expect(await audits('billing.membership_ended', before.id)).toHaveLength(1);

    // Someone else takes the freed Élite seat; the former member buys again and pays the edition on sale now.
    await becomeMember(newcomer!);
    expect(await seatsLeft('elite')).toBe(0);
    const rebuy = await checkout(member!);
    expect(rebuy.status).toBe(200);
    const rebought = await json(rebuy);
    expect(rebought.edition).toBe('prestige');
    const request = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    // The same Stripe customer (one invoice history); Stripe Tax may update its address and name.
    expect(request.body).toMatchObject({ customer: before.stripe_customer_id, 'customer_update[address]': 'auto', 'customer_update[name]': 'auto' });
    expect(request.body.customer_email).toBeUndefined();
    const repaid = stripe.completeSession(rebought.sessionId as string);
    expect((await webhook(stripe.signedEvent('checkout.session.completed', repaid))).status).toBe(200);
    await pollUntil(async () => (await membership(member!))?.status === 'active', 'a member again');
    expect(await membership(member!)).toMatchObject({ edition: 'prestige', price_cents: 300, member_number: before.member_number, cancel_at: null });
    const renewed = await row(member!);
    expect(renewed).toMatchObject({
      id: before.id,
      seat_released_at: null,
      stripe_customer_id: before.stripe_customer_id,
      stripe_subscription_id: repaid.subscription,
    });
    // Both subscriptions' invoices are the member's, under the one customer.
    const all = await json(await invoices(member!));
    expect((all.invoices as Json[]).length).toBe(2);
  });
});

describe('billing with STRIPE_TAX off (the default)', () => {
  let stripe: StripeStandIn;
  let t: TestApp;

  beforeAll(async () => {
    ({ stripe, t } = await startBillingApp('portal', {}, 'web'));
  });

  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  it('asks Stripe for no tax, no address and no tax id', async () => {
    const [buyer] = await seedUsers(t.db, 1);
    expect((await t.fetch('/api/stripe/create-checkout-session', { method: 'POST', headers: bearer(buyer!.token) })).status).toBe(200);
    const request = stripe.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(request.body.customer_email).toBe(buyer!.email);
    expect(request.body['line_items[0][price_data][unit_amount]']).toBe('200');
    const taxKeys = Object.keys(request.body).filter((key) => /tax|billing_address|customer_update/.test(key));
    expect(taxKeys).toEqual([]);
  });
});
