import { pollUntil } from '@life/test-support';
import type { StripeStandIn } from '@life/test-support/standins/stripe';
import { startBillingApp } from './helpers/billing-app.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

describe('billing: editions, seats, checkout and webhooks (real PostgreSQL + Redis + worker)', () => {
  let stripe: StripeStandIn;
  let t: TestApp;

  beforeAll(async () => {
    ({ stripe, t } = await startBillingApp('standin', {
      EDITION_LIMITS: '50,100,200',
      BILLING_SWEEP_MS: '300',
    }));
  });

  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  const checkout = (user: SeededUser) => t.fetch('/api/stripe/create-checkout-session', { method: 'POST', headers: bearer(user.token) });
  const editions = async () => (await (await t.fetch('/api/billing/editions')).json()) as Json;
  const webhook = (signed: { payload: string; signature: string }) =>
    t.fetch('/api/stripe/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature },
      body: signed.payload,
    });
  const count = async (sql: string, params: unknown[] = []) => Number((await t.db.query<{ n: string }>(sql, params)).rows[0]!.n);

  it('starts with Élite on sale and every seat free', async () => {
    const body = await editions();
    expect(body.payments_enabled).toBe(true);
    expect(body.editions.map((e: Json) => [e.id, e.price_cents, e.limit, e.seats_left, e.on_sale])).toEqual([
      ['elite', 200, 50, 50, true],
      ['prestige', 300, 100, 100, false],
      ['legacy', 400, 200, 200, false],
    ]);
  });

  it('never oversells: 200 concurrent checkouts reserve exactly 50 Élite seats, then move to Prestige', async () => {
    const users = await seedUsers(t.db, 200);
    const answers = await Promise.all(users.map(async (user) => ({ status: (await checkout(user)).status, user })));
    expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);
    const byEdition = await t.db.query<{ edition: string; n: string }>(
      `select edition, count(*) as n from seat_reservations where status = 'reserved' group by edition order by edition`,
    );
    expect(Object.fromEntries(byEdition.rows.map((r) => [r.edition, Number(r.n)]))).toEqual({ elite: 50, prestige: 100, legacy: 50 });
    const body = await editions();
    expect(body.editions.map((e: Json) => [e.id, e.seats_left, e.on_sale])).toEqual([
      ['elite', 0, false],
      ['prestige', 0, false],
      ['legacy', 150, true],
    ]);
    // Each checkout asked Stripe for its edition's locked price, in euros, monthly.
    const created = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions');
    expect(created).toHaveLength(200);
    const amounts = created.map((r) => Number(r.body['line_items[0][price_data][unit_amount]']));
    expect(amounts.filter((a) => a === 200)).toHaveLength(50);
    expect(new Set(created.map((r) => r.body['line_items[0][price_data][recurring][interval]']))).toEqual(new Set(['month']));
    expect(new Set(created.map((r) => r.body.mode))).toEqual(new Set(['subscription']));
  }, 60_000);

  it('keeps one open checkout per person', async () => {
    const [user] = await seedUsers(t.db, 1);
    const first = (await (await checkout(user!)).json()) as Json;
    const again = (await (await checkout(user!)).json()) as Json;
    expect(again.url).toBe(first.url);
    expect(again.sessionId).toBe(first.sessionId);
    expect(await count(`select count(*) as n from seat_reservations where user_id = $1`, [user!.id])).toBe(1);
  });

  it('refuses a webhook with a bad signature and stores nothing', async () => {
    const signed = stripe.signedEvent('checkout.session.completed', { id: 'cs_x' }, { secret: 'whsec_wrong' });
    const before = await count('select count(*) as n from stripe_events');
    const response = await webhook(signed);
    expect(response.status).toBe(400);
    expect(((await response.json()) as Json).error).toBe('invalid_signature');
    const unsigned = await t.fetch('/api/stripe/webhook', { method: 'POST', headers: { 'content-type': 'application/json' }, body: signed.payload });
    expect(unsigned.status).toBe(400);
    expect(await count('select count(*) as n from stripe_events')).toBe(before);
  });

  it('confirms a paid checkout exactly once, however often and in whatever order Stripe delivers', async () => {
    const [buyer] = await seedUsers(t.db, 1);
    const started = (await (await checkout(buyer!)).json()) as Json;
    const paid = stripe.completeSession(started.sessionId as string);
    const now = Math.floor(Date.now() / 1000);
    const updated = stripe.signedEvent(
      'customer.subscription.updated',
      { id: paid.subscription, object: 'subscription', status: 'past_due' },
      { created: now + 5 },
    );
    const completed = stripe.signedEvent('checkout.session.completed', paid, { created: now });

    // The subscription update arrives first: it waits for the membership instead of being lost.
    expect((await webhook(updated)).status).toBe(200);
    expect((await webhook(completed)).status).toBe(200);
    expect((await webhook(completed)).status).toBe(200);
    expect((await webhook(completed)).status).toBe(200);

    await pollUntil(
      async () =>
        (await count(`select count(*) as n from stripe_events where processed_at is null and id in ($1, $2)`, [updated.event.id, completed.event.id])) === 0,
      'both events processed',
    );
    expect(await count(`select count(*) as n from memberships where user_id = $1`, [buyer!.id])).toBe(1);
    const membership = ((await (await t.fetch('/api/billing/membership', { headers: bearer(buyer!.token) })).json()) as Json).membership;
    expect(membership).toMatchObject({ edition: started.edition, currency: 'eur', status: 'past_due' });
    expect(membership.member_number).toBeGreaterThanOrEqual(1);
    // The durable MembershipStartedEvent (outbox, same transaction) reaches the audit log once, whatever Stripe repeated.
    const started_ = `select count(*) as n from audit_events a join memberships m on m.id::text = a.target_id
      where a.action = 'billing.membership_started' and m.user_id = $1 and a.details->>'edition' = $2 and (a.details->>'member_number')::int = m.member_number`;
    await pollUntil(async () => (await count(started_, [buyer!.id, started.edition])) === 1, 'the membership in the audit log');
    await pollUntil(
      async () => (await count(`select count(*) as n from outbox_messages where type = 'billing.membership-started' and delivered_at is null`)) === 0,
      'the outbox message marked delivered',
    );

    // An older event never overwrites a newer status.
    const stale = stripe.signedEvent(
      'customer.subscription.updated',
      { id: paid.subscription, object: 'subscription', status: 'active' },
      { created: now + 1 },
    );
    await webhook(stale);
    await pollUntil(
      async () => (await count(`select count(*) as n from stripe_events where id = $1 and processed_at is not null`, [stale.event.id])) === 1,
      'stale event processed',
    );
    expect(((await (await t.fetch('/api/billing/membership', { headers: bearer(buyer!.token) })).json()) as Json).membership.status).toBe('past_due');

    // A member cannot buy a second edition.
    const twice = await checkout(buyer!);
    expect(twice.status).toBe(409);
    expect(((await twice.json()) as Json).error).toBe('already_member');

    // Cancelled at the end: the seat goes back and a former member may buy again (decision 0048).
    await webhook(
      stripe.signedEvent('customer.subscription.deleted', { id: paid.subscription, object: 'subscription', status: 'canceled' }, { created: now + 10 }),
    );
    await pollUntil(
      async () => ((await (await t.fetch('/api/billing/membership', { headers: bearer(buyer!.token) })).json()) as Json).membership.status === 'cancelled',
      'cancelled',
    );
    expect((await checkout(buyer!)).status).toBe(200);
  });

  it('frees the seat of an expired checkout', async () => {
    const legacyBefore = (await editions()).editions[2].seats_left as number;
    const [user] = await seedUsers(t.db, 1);
    const started = (await (await checkout(user!)).json()) as Json;
    expect((await editions()).editions[2].seats_left).toBe(legacyBefore - 1);
    await webhook(stripe.signedEvent('checkout.session.expired', { ...stripe.sessions.get(started.sessionId as string)!, status: 'expired' }));
    await pollUntil(async () => (await editions()).editions[2].seats_left === legacyBefore, 'seat freed');
    expect(await count(`select count(*) as n from seat_reservations where user_id = $1 and status = 'released'`, [user!.id])).toBe(1);
  });

  it('frees the seat of an abandoned checkout whose expiry passed (the sweeper)', async () => {
    const before = (await editions()).editions[2].seats_left as number;
    const [user] = await seedUsers(t.db, 1);
    expect((await checkout(user!)).status).toBe(200);
    expect((await editions()).editions[2].seats_left).toBe(before - 1);
    // No `expired` event ever comes: the reservation is past its end and the grace period.
    await t.db.query(`update seat_reservations set expires_at = now() - interval '20 minutes' where user_id = $1`, [user!.id]);
    await pollUntil(async () => (await editions()).editions[2].seats_left === before, 'abandoned seat freed');
    expect(await count(`select count(*) as n from seat_reservations where user_id = $1 and status = 'released'`, [user!.id])).toBe(1);
  });

  it('gives the seat back when Stripe refuses the checkout', async () => {
    const before = (await editions()).editions[2].seats_left as number;
    const [user] = await seedUsers(t.db, 1);
    stripe.failNextCheckouts(1);
    const response = await checkout(user!);
    expect(response.status).toBe(502);
    expect(((await response.json()) as Json).error).toBe('payment_provider_error');
    expect((await editions()).editions[2].seats_left).toBe(before);
  });

  it('needs a session to check out and to read a membership', async () => {
    expect((await t.fetch('/api/stripe/create-checkout-session', { method: 'POST' })).status).toBe(401);
    expect((await t.fetch('/api/billing/membership')).status).toBe(401);
  });
});

describe('billing without Stripe configured', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ role: 'web' });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('says payments are off: editions flag it and checkout answers 503', async () => {
    const body = (await (await t.fetch('/api/billing/editions')).json()) as Json;
    expect(body.payments_enabled).toBe(false);
    const [user] = await seedUsers(t.db, 1);
    const response = await t.fetch('/api/stripe/create-checkout-session', { method: 'POST', headers: bearer(user!.token) });
    expect(response.status).toBe(503);
    expect(((await response.json()) as Json).error).toBe('payments_not_configured');
    expect(Number((await t.db.query<{ n: string }>('select count(*) as n from seat_reservations')).rows[0]!.n)).toBe(0);
  });
});
