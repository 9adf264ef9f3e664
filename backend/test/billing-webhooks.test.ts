import { pollUntil } from '@life/test-support';
import type { StripeStandIn } from '@life/test-support/standins/stripe';
import { startBillingApp } from './helpers/billing-app.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import type { TestApp } from './helpers/test-app.js';

// Issue 17, the webhook side (docs/billing.md, decisions 0045 and 0046): no oversell when Stripe
// delivers a completion late, Stripe's tolerance both ways, poison events that give up and wait in
// Salud, refunds, disputes and payments that settle later, all against the Stripe stand-in.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

describe('billing webhooks: late completions, tolerance, poison events, refunds, disputes, async payments (real PostgreSQL + Redis + worker)', () => {
  let stripe: StripeStandIn;
  let t: TestApp;
  let admin: SeededUser;

  beforeAll(async () => {
    ({ stripe, t } = await startBillingApp('webhooks', {
      EDITION_LIMITS: '2,3,100',
      BILLING_SWEEP_MS: '300',
      STRIPE_EVENT_ATTEMPTS: '3',
      STRIPE_EVENT_BACKOFF_MS: '50',
    }));
    [admin] = await seedUsers(t.db, 1, 'admin');
  });

  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  const checkout = async (user: SeededUser) => {
    const response = await t.fetch('/api/stripe/create-checkout-session', { method: 'POST', headers: bearer(user.token) });
    expect(response.status).toBe(200);
    return (await response.json()) as { sessionId: string; edition: string };
  };
  const webhook = (signed: { payload: string; signature: string }) =>
    t.fetch('/api/stripe/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature },
      body: signed.payload,
    });
  const deliver = async (type: string, object: Record<string, unknown>, created?: number) => {
    const signed = stripe.signedEvent(type, object, created === undefined ? {} : { created });
    expect((await webhook(signed)).status).toBe(200);
    return signed.event.id;
  };
  const processed = (eventId: string) =>
    pollUntil(
      async () => (await t.db.query(`select 1 from stripe_events where id = $1 and processed_at is not null`, [eventId])).rowCount === 1,
      `event ${eventId} applied`,
    );
  const deliverAndApply = async (type: string, object: Record<string, unknown>, created?: number) => {
    const id = await deliver(type, object, created);
    await processed(id);
    return id;
  };
  const stock = async (edition: string) =>
    (
      await t.db.query<{ seat_limit: number; reserved: number; confirmed: number }>(
        `select seat_limit, reserved, confirmed from edition_stock where edition = $1`,
        [edition],
      )
    ).rows[0]!;
  const membershipAnswer = async (user: SeededUser) => (await (await t.fetch('/api/billing/membership', { headers: bearer(user.token) })).json()) as Json;
  const membershipRow = async (user: SeededUser) => (await t.db.query<Json>(`select * from memberships where user_id = $1`, [user.id])).rows[0];
  const audited = (action: string, targetId: string) =>
    pollUntil(
      async () => (await t.db.query(`select 1 from audit_events where action = $1 and target_id = $2`, [action, targetId])).rowCount === 1,
      `${action} in the audit log`,
    );
  /** Buys the edition on sale with a card: the membership exists when this returns. */
  const buy = async (user: SeededUser, created = Math.floor(Date.now() / 1000)) => {
    const { sessionId, edition } = await checkout(user);
    await deliverAndApply('checkout.session.completed', stripe.completeSession(sessionId), created);
    return { sessionId, edition };
  };

  it('never oversells when Stripe completes a checkout whose seat was released: a free seat is taken, otherwise the payment is refunded', async () => {
    const [first, second, third] = await seedUsers(t.db, 3);
    // Élite has two seats: the first two buyers hold them.
    const a = await checkout(first!);
    const b = await checkout(second!);
    expect([a.edition, b.edition]).toEqual(['elite', 'elite']);
    // The first checkout expires (the seat comes back) and a third person takes that seat.
    await deliverAndApply('checkout.session.expired', { ...stripe.sessions.get(a.sessionId)!, status: 'expired' });
    expect((await checkout(third!)).edition).toBe('elite');
    expect(await stock('elite')).toMatchObject({ seat_limit: 2, reserved: 2, confirmed: 0 });

    // Stripe then delivers the first checkout as completed and paid: no seat is left for it.
    const paid = stripe.completeSession(a.sessionId);
    const completed = stripe.signedEvent('checkout.session.completed', paid);
    expect((await webhook(completed)).status).toBe(200);
    await processed(completed.event.id);
    expect(await membershipRow(first!)).toBeUndefined();
    expect(await stock('elite')).toMatchObject({ reserved: 2, confirmed: 0 });
    // Refunded through Stripe: the subscription cancelled, its first invoice's payment refunded.
    await pollUntil(async () => (await membershipAnswer(first!)).late_refund?.status === 'refunded', 'the late checkout refunded');
    const answer = await membershipAnswer(first!);
    expect(answer.membership).toBeNull();
    expect(answer.late_refund).toMatchObject({ status: 'refunded', reason: 'sold_out', edition: 'elite', amount_cents: 200 });
    expect(stripe.cancelled).toContain(paid.subscription);
    const invoice = stripe.invoices.get(paid.invoice) as Json;
    expect(stripe.refunds.map((refund) => refund.payment_intent)).toEqual([invoice.payments.data[0].payment.payment_intent]);
    expect(stripe.chargeOf(a.sessionId).refunded).toBe(true);
    const reservation = (await t.db.query<Json>(`select * from seat_reservations where checkout_session_id = $1`, [a.sessionId])).rows[0]!;
    expect(reservation).toMatchObject({ status: 'released', refund_status: 'refunded', refund_id: stripe.refunds[0]!.id });
    await audited('billing.late_checkout_refunded', reservation.id as string);

    // Stripe redelivers the completion, and sends the refund and the cancellation it caused: nothing changes, no second refund.
    expect((await webhook(completed)).status).toBe(200);
    const refundedEvent = await deliverAndApply('charge.refunded', { ...stripe.chargeOf(a.sessionId) });
    const deletedEvent = await deliverAndApply('customer.subscription.deleted', { id: paid.subscription, object: 'subscription', status: 'canceled' });
    expect([refundedEvent, deletedEvent]).toHaveLength(2);
    expect(stripe.refunds).toHaveLength(1);
    expect(await membershipRow(first!)).toBeUndefined();

    // The second checkout also expires, and completes late: one Élite seat is free now, so it takes it.
    await deliverAndApply('checkout.session.expired', { ...stripe.sessions.get(b.sessionId)!, status: 'expired' });
    expect(await stock('elite')).toMatchObject({ reserved: 1, confirmed: 0 });
    await deliverAndApply('checkout.session.completed', stripe.completeSession(b.sessionId));
    expect(await membershipRow(second!)).toMatchObject({ edition: 'elite', status: 'active' });
    expect(await stock('elite')).toMatchObject({ reserved: 1, confirmed: 1 });
    expect((await membershipAnswer(second!)).late_refund).toBeNull();
    expect(stripe.refunds).toHaveLength(1);
  });

  it('refunds a late checkout of a person who became a member meanwhile (a repeated payment), keeping the one membership', async () => {
    const [person] = await seedUsers(t.db, 1);
    const first = await checkout(person!);
    await deliverAndApply('checkout.session.expired', { ...stripe.sessions.get(first.sessionId)!, status: 'expired' });
    const second = await buy(person!);
    const member = (await membershipRow(person!))!;
    const seats = await stock(second.edition);
    const refundsBefore = stripe.refunds.length;

    await deliverAndApply('checkout.session.completed', stripe.completeSession(first.sessionId));
    await pollUntil(async () => (await membershipAnswer(person!)).late_refund?.status === 'refunded', 'the repeated payment refunded');
    const answer = await membershipAnswer(person!);
    expect(answer.late_refund).toMatchObject({ reason: 'already_member', edition: first.edition });
    expect(answer.membership).toMatchObject({ member_number: member.member_number, status: 'active' });
    expect(Number((await t.db.query<{ n: string }>(`select count(*) as n from memberships where user_id = $1`, [person!.id])).rows[0]!.n)).toBe(1);
    expect(await stock(second.edition)).toEqual(seats);
    expect(stripe.refunds).toHaveLength(refundsBefore + 1);
    expect(stripe.chargeOf(first.sessionId).refunded).toBe(true);
    expect(stripe.chargeOf(second.sessionId).refunded).toBe(false);
  });

  it('a refund or dispute of a late checkout we refunded leaves the live membership of the same Stripe customer alone (a former member who bought again)', async () => {
    const [person] = await seedUsers(t.db, 1);
    await t.db.query(`update edition_stock set seat_limit = seat_limit + 2`);
    const old = await buy(person!);
    const customer = stripe.sessions.get(old.sessionId)!.customer as string;
    // The subscription ends (decision 0048): a former member, whose next checkouts reuse the Stripe customer.
    const ended = stripe.sessions.get(old.sessionId)!.subscription as string;
    await deliverAndApply('customer.subscription.deleted', { id: ended, object: 'subscription', status: 'canceled', ended_at: Math.floor(Date.now() / 1000) });
    const late = await checkout(person!);
    expect(stripe.sessions.get(late.sessionId)!.customer).toBe(customer);
    await deliverAndApply('checkout.session.expired', { ...stripe.sessions.get(late.sessionId)!, status: 'expired' });
    await buy(person!);
    const live = (await membershipRow(person!))!;
    expect(live).toMatchObject({ status: 'active', stripe_customer_id: customer, seat_released_at: null });
    const seats = await stock(live.edition as string);
    // The late checkout completes: the person is a member again, so it is refunded (already_member).
    await deliverAndApply('checkout.session.completed', stripe.completeSession(late.sessionId));
    await pollUntil(async () => (await membershipAnswer(person!)).late_refund?.status === 'refunded', 'the late checkout refunded');
    // Stripe then reports that refund, and a dispute of that same charge: the live membership is untouched.
    await deliverAndApply('charge.refunded', { ...stripe.chargeOf(late.sessionId) });
    await deliverAndApply('charge.dispute.created', stripe.dispute(late.sessionId, { status: 'needs_response' }));
    expect(await membershipRow(person!)).toMatchObject({ id: live.id, status: 'active', refunded_at: null, dispute_id: null, seat_released_at: null });
    expect(await stock(live.edition as string)).toEqual(seats);
  });

  it('refunds an open checkout that completes after another of the same person made them a member (no second row, the seat held goes back)', async () => {
    const [person] = await seedUsers(t.db, 1);
    // Seats to spare, whatever the tests before sold: the late completion finds one free.
    await t.db.query(`update edition_stock set seat_limit = seat_limit + 2`);
    const first = await checkout(person!);
    await deliverAndApply('checkout.session.expired', { ...stripe.sessions.get(first.sessionId)!, status: 'expired' });
    const second = await checkout(person!);
    // The first completes late and takes a free seat: the person is a member; the second still holds its seat.
    await deliverAndApply('checkout.session.completed', stripe.completeSession(first.sessionId));
    const member = (await membershipRow(person!))!;
    const seats = await stock(second.edition);
    await deliverAndApply('checkout.session.completed', stripe.completeSession(second.sessionId));
    await pollUntil(async () => (await membershipAnswer(person!)).late_refund?.status === 'refunded', 'the second payment refunded');
    expect((await membershipAnswer(person!)).late_refund).toMatchObject({ reason: 'already_member' });
    expect(Number((await t.db.query<{ n: string }>(`select count(*) as n from memberships where user_id = $1`, [person!.id])).rows[0]!.n)).toBe(1);
    expect((await membershipRow(person!))!.id).toBe(member.id);
    expect(await stock(second.edition)).toMatchObject({ reserved: seats.reserved - 1, confirmed: seats.confirmed });
    expect(stripe.chargeOf(second.sessionId).refunded).toBe(true);
  });

  it("applies Stripe's five-minute tolerance both ways: a signature dated in the future or the past is refused and nothing is stored", async () => {
    const now = Math.floor(Date.now() / 1000);
    const count = async () => Number((await t.db.query<{ n: string }>(`select count(*) as n from stripe_events`)).rows[0]!.n);
    const before = await count();
    for (const timestamp of [now + 3600, now + 301 + 30, now - 3600]) {
      const signed = stripe.signedEvent('customer.subscription.updated', { id: 'sub_tolerance', object: 'subscription', status: 'active' }, { timestamp });
      const response = await webhook(signed);
      expect(response.status).toBe(400);
      expect(((await response.json()) as Json).error).toBe('invalid_signature');
    }
    // A valid signature dated in the future, with a current `t=` put in front: the library reads
    // the last `t=`; a header with two is refused whatever their order.
    const future = stripe.signedEvent(
      'customer.subscription.updated',
      { id: 'sub_tolerance', object: 'subscription', status: 'active' },
      { timestamp: now + 3600 },
    );
    for (const signature of [`t=${now},${future.signature}`, `${future.signature},t=${now}`]) {
      const response = await webhook({ payload: future.payload, signature });
      expect([signature, response.status]).toEqual([signature, 400]);
    }
    expect(await count()).toBe(before);
    // A clock a minute ahead is within the tolerance.
    const skewed = stripe.signedEvent('checkout.session.completed', { id: 'cs_unknown_skewed', object: 'checkout.session' }, { timestamp: now + 60 });
    expect((await webhook(skewed)).status).toBe(200);
    expect(await count()).toBe(before + 1);
  });

  it('gives up on an event that can never apply after its attempts, keeps it for Salud, and lets an admin retry or dismiss it (audited)', async () => {
    const [person, waiting] = await seedUsers(t.db, 2);
    const adminFetch = (path: string, method = 'GET') => t.fetch(path, { method, headers: bearer(admin.token) });
    const row = async (id: string) => (await t.db.query<Json>(`select * from stripe_events where id = $1`, [id])).rows[0]!;
    const attention = async () => ((await (await adminFetch('/api/admin/health')).json()) as Json).stripeEvents as Json[];

    // A subscription update for a checkout that is not completed yet: it waits, then gives up after 3 attempts.
    const { sessionId } = await checkout(waiting!);
    const paid = stripe.completeSession(sessionId);
    const update = await deliver(
      'customer.subscription.updated',
      { id: paid.subscription, object: 'subscription', status: 'past_due' },
      Math.floor(Date.now() / 1000) + 5,
    );
    await pollUntil(async () => (await row(update)).failed_at !== null, 'the event gave up');
    expect(await row(update)).toMatchObject({ attempts: 3, processed_at: null, dismissed_at: null });
    expect((await row(update)).last_error).toMatch(/No membership for subscription/);
    // Its job leaves the queue: the event row is the one place it shows (not twice in Salud).
    const failedJobs = async () =>
      (((await (await adminFetch('/api/admin/health')).json()) as Json).queues as Json[]).find((queue) => queue.name === 'stripe-events')!.failed as Json[];
    await pollUntil(async () => !(await failedJobs()).some((job) => job.id === update), 'the given-up job removed from the queue');

    // The sweeper never queues it again: after a full sweep (it frees an abandoned seat) the attempts stay 3.
    const [abandoned] = await seedUsers(t.db, 1);
    await checkout(abandoned!);
    await t.db.query(`update seat_reservations set expires_at = now() - interval '20 minutes' where user_id = $1`, [abandoned!.id]);
    await pollUntil(
      async () => (await t.db.query(`select 1 from seat_reservations where user_id = $1 and status = 'released'`, [abandoned!.id])).rowCount === 1,
      'a sweep ran',
    );
    expect((await row(update)).attempts).toBe(3);

    // Salud lists it for admins only.
    expect((await attention()).map((event) => [event.id, event.type, event.attempts])).toContainEqual([update, 'customer.subscription.updated', 3]);
    expect((await t.fetch('/api/admin/health', { headers: bearer(person!.token) })).status).toBe(403);
    expect((await t.fetch(`/api/admin/stripe-events/${update}/retry`, { method: 'POST', headers: bearer(person!.token) })).status).toBe(403);
    expect((await t.fetch(`/api/admin/stripe-events/${update}/dismiss`, { method: 'POST' })).status).toBe(401);
    const missing = await adminFetch('/api/admin/stripe-events/evt_nope/retry', 'POST');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Json).error).toBe('event_not_found');

    // The checkout completes; an admin retries the event and now it applies.
    await deliverAndApply('checkout.session.completed', paid);
    expect((await adminFetch(`/api/admin/stripe-events/${update}/retry`, 'POST')).status).toBe(204);
    await processed(update);
    expect(await membershipRow(waiting!)).toMatchObject({ status: 'past_due' });
    expect((await attention()).map((event) => event.id)).not.toContain(update);
    const again = await adminFetch(`/api/admin/stripe-events/${update}/retry`, 'POST');
    expect(again.status).toBe(409);
    expect(((await again.json()) as Json).error).toBe('event_not_failed');
    await audited('admin.stripe_event_retried', update);

    // An event for a subscription that will never exist: dismissed, kept, never applied.
    const poison = await deliver('invoice.payment_failed', {
      id: 'in_never',
      object: 'invoice',
      parent: { subscription_details: { subscription: 'sub_never' } },
    });
    await pollUntil(async () => (await row(poison)).failed_at !== null, 'the poison event gave up');
    expect((await attention()).map((event) => event.id)).toContain(poison);
    expect((await adminFetch(`/api/admin/stripe-events/${poison}/dismiss`, 'POST')).status).toBe(204);
    expect(await row(poison)).toMatchObject({ processed_at: null });
    expect((await row(poison)).dismissed_at).not.toBeNull();
    expect((await attention()).map((event) => event.id)).not.toContain(poison);
    expect((await adminFetch(`/api/admin/stripe-events/${poison}/dismiss`, 'POST')).status).toBe(409);
    await audited('admin.stripe_event_dismissed', poison);
  });

  it('a full refund ends the membership and frees its seat; a partial one is recorded and keeps it; both are audited', async () => {
    const [member] = await seedUsers(t.db, 1);
    const { sessionId, edition } = await buy(member!);
    const seatsTaken = await stock(edition);
    const membershipId = (await membershipRow(member!))!.id as string;

    await deliverAndApply('charge.refunded', stripe.refundCharge(sessionId, 50));
    expect(await membershipRow(member!)).toMatchObject({ status: 'active', refunded_cents: 50, refunded_at: null });
    expect(await stock(edition)).toEqual(seatsTaken);

    const now = Math.floor(Date.now() / 1000);
    await deliverAndApply('charge.refunded', stripe.refundCharge(sessionId), now + 1);
    const row = (await membershipRow(member!))!;
    expect(row).toMatchObject({ status: 'refunded', refunded_cents: stripe.chargeOf(sessionId).amount });
    expect(row.refunded_at).not.toBeNull();
    expect(await stock(edition)).toMatchObject({ confirmed: seatsTaken.confirmed - 1 });
    expect((await membershipAnswer(member!)).membership.status).toBe('refunded');
    await pollUntil(
      async () =>
        (await t.db.query(`select 1 from audit_events where action = 'billing.membership_refunded' and target_id = $1`, [membershipId])).rowCount === 2,
      'both refunds audited',
    );

    // A later subscription event never turns a refunded membership back on.
    await deliverAndApply('customer.subscription.updated', { id: row.stripe_subscription_id, object: 'subscription', status: 'active' }, now + 5);
    expect((await membershipRow(member!))!.status).toBe('refunded');
  });

  it('a dispute suspends the membership and keeps its seat; won gives it back, lost ends it as refunded and frees the seat', async () => {
    const [winner, loser] = await seedUsers(t.db, 2);
    const won = await buy(winner!);
    const lost = await buy(loser!);
    const now = Math.floor(Date.now() / 1000);

    const opened = stripe.dispute(won.sessionId, { reason: 'fraudulent' });
    const seats = await stock(won.edition);
    await deliverAndApply('charge.dispute.created', opened, now + 1);
    expect(await membershipRow(winner!)).toMatchObject({
      status: 'disputed',
      dispute_id: opened.id,
      dispute_status: 'needs_response',
      dispute_reason: 'fraudulent',
    });
    expect(await stock(won.edition)).toEqual(seats);
    expect((await membershipAnswer(winner!)).membership.status).toBe('disputed');
    await deliverAndApply('charge.dispute.closed', { ...opened, status: 'won' }, now + 2);
    expect(await membershipRow(winner!)).toMatchObject({ status: 'active', dispute_status: 'won' });
    await audited('billing.dispute_closed', (await membershipRow(winner!))!.id as string);

    const against = stripe.dispute(lost.sessionId, { reason: 'product_not_received' });
    await deliverAndApply('charge.dispute.created', against, now + 1);
    const before = await stock(lost.edition);
    await deliverAndApply('charge.dispute.closed', { ...against, status: 'lost' }, now + 2);
    expect(await membershipRow(loser!)).toMatchObject({ status: 'refunded', dispute_status: 'lost', refunded_cents: against.amount });
    expect(await stock(lost.edition)).toMatchObject({ confirmed: before.confirmed - 1 });
    await audited('billing.membership_disputed', (await membershipRow(loser!))!.id as string);
  });

  it('a payment that settles later (SEPA) waits as pending_payment with its seat; settled it is active, failed it frees the seat and the person may buy again', async () => {
    const [settles, fails] = await seedUsers(t.db, 2);
    const now = Math.floor(Date.now() / 1000);

    const first = await checkout(settles!);
    const pending = stripe.completeSession(first.sessionId, { paymentStatus: 'unpaid' });
    expect(pending.payment_status).toBe('unpaid');
    await deliverAndApply('checkout.session.completed', pending, now);
    expect(await membershipRow(settles!)).toMatchObject({ status: 'pending_payment' });
    expect((await membershipAnswer(settles!)).membership.status).toBe('pending_payment');
    // The subscription's own events do not settle it: only the payment does.
    await deliverAndApply('customer.subscription.updated', { id: pending.subscription, object: 'subscription', status: 'incomplete' }, now + 1);
    expect(await membershipRow(settles!)).toMatchObject({ status: 'pending_payment' });
    await deliverAndApply('checkout.session.async_payment_succeeded', stripe.settlePayment(first.sessionId, true), now + 2);
    expect(await membershipRow(settles!)).toMatchObject({ status: 'active' });
    await audited('billing.payment_settled', (await membershipRow(settles!))!.id as string);

    const second = await checkout(fails!);
    const unpaid = stripe.completeSession(second.sessionId, { paymentStatus: 'unpaid' });
    await deliverAndApply('checkout.session.completed', unpaid, now);
    await deliverAndApply('customer.subscription.updated', { id: unpaid.subscription, object: 'subscription', status: 'active' }, now + 1);
    const held = await stock(second.edition);
    const membershipId = (await membershipRow(fails!))!.id as string;
    await deliverAndApply('checkout.session.async_payment_failed', stripe.settlePayment(second.sessionId, false), now + 2);
    // Nothing was paid: the seat goes back; the row stays as a former member's, with its number.
    expect(await membershipRow(fails!)).toMatchObject({ id: membershipId, status: 'cancelled', seat_released_at: expect.any(Date) });
    expect(await stock(second.edition)).toMatchObject({ confirmed: held.confirmed - 1 });
    await audited('billing.payment_failed', membershipId);
    // The person can check out again; paying later again (SEPA) makes the same row pending, not active.
    const retry = await t.fetch('/api/stripe/create-checkout-session', { method: 'POST', headers: bearer(fails!.token) });
    expect(retry.status).toBe(200);
    const again = stripe.completeSession(((await retry.json()) as Json).sessionId as string, { paymentStatus: 'unpaid' });
    await deliverAndApply('checkout.session.completed', again, now + 3);
    expect(await membershipRow(fails!)).toMatchObject({ id: membershipId, status: 'pending_payment', seat_released_at: null });
    expect(await stock(second.edition)).toMatchObject({ confirmed: held.confirmed });
  });
});
