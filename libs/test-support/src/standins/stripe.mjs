// A local stand-in for the part of Stripe's API that Life calls, so the real `stripe`
// client can be pointed at it (STRIPE_API_URL → host/port/protocol):
//   POST /v1/checkout/sessions          create a Checkout Session (form-encoded, Bearer secret key)
//   GET  /v1/checkout/sessions/:id      read it back
//   POST /v1/checkout/sessions/:id/expire  end an open session (account erasure)
//   DELETE /v1/subscriptions/:id        cancel a subscription (account erasure, a late checkout's refund); `cancelled` lists them
//   GET  /v1/subscriptions/:id          read it (latest_invoice)
//   GET  /v1/invoices/:id               an invoice; the first one of a paid session has `payments` (as with expand[]=payments)
//   subscriptions, invoice lists, tax fields and the customer portal: stripe-billing.mjs (issue 17)
//   GET  /v1/charges/:id                the charge of a paid session (a dispute names only its charge)
//   POST /v1/refunds                    refund a payment intent (idempotent by Idempotency-Key); `refunds` lists them
//   GET  /v1/refunds/:id                read one back
// Helpers build the objects of the events Stripe sends after a checkout, with its real fields:
// completeSession (payment_status paid/unpaid, invoice, charge), refundCharge (charge.refunded),
// dispute (charge.dispute.created/closed); signedEvent can date its signature (`timestamp`).
//   GET  /checkout/:id                  the hosted checkout page (a tiny HTML page, labelled as a stand-in)
//   POST /checkout/:id/pay              with `webhookUrl`: completes the session, delivers a signed
//                                       checkout.session.completed to it, then goes to success_url
// Webhooks are signed with the `stripe` package's own test-header helper (signedEvent). The app's
// development Stripe (DEV_STRIPE) is this server with a `webhookUrl`.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import Stripe from 'stripe';
import { escapeHtml, pageLanguage, readBody, sendHtml } from './common.mjs';
import { createStripeBilling } from './stripe-billing.mjs';

const id = (prefix) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/** The checkout page's words: Spanish or English, from the browser's Accept-Language. */
const CHECKOUT_TEXT = {
  es: {
    label: 'Stripe de desarrollo (stand-in)',
    notReal: 'Un servidor de pruebas local que imita la página de pago de Stripe. No es Stripe: no se cobra nada y no se pide ninguna tarjeta.',
    perMonth: 'al mes',
    pay: 'Pagar (simulado)',
    cancel: 'Cancelar y volver',
    failed: (/** @type {string} */ status) => `La aplicación no aceptó el aviso de pago (${status}). Vuelve atrás e inténtalo de nuevo.`,
    notOpen: 'Este pago ya no está abierto.',
  },
  en: {
    label: 'Development Stripe (stand-in)',
    notReal: "A local test server imitating Stripe's payment page. Not Stripe: nothing is charged and no card is asked for.",
    perMonth: 'per month',
    pay: 'Pay (simulated)',
    cancel: 'Cancel and go back',
    failed: (/** @type {string} */ status) => `The app did not accept the payment notice (${status}). Go back and try again.`,
    notOpen: 'This checkout is no longer open.',
  },
};

/**
 * @param {{ secretKey: string, webhookSecret: string, failNext?: number, webhookUrl?: string, eventsUrl?: string }} options
 *   webhookUrl: where "Pagar" delivers the signed checkout.session.completed (the app's /api/stripe/webhook)
 */
export async function startStripeStandIn(options) {
  /** @type {Map<string, Record<string, unknown>>} */
  const sessions = new Map();
  /** @type {{ method: string, path: string, body: Record<string, string>, idempotencyKey?: string }[]} */
  const requests = [];
  /** @type {Map<string, Record<string, unknown>>} */
  const byIdempotencyKey = new Map();
  let failNext = options.failNext ?? 0;
  /** @type {string[]} */
  const cancelled = [];
  /** @type {Map<string, Record<string, any>>} charges by id */
  const charges = new Map();
  /** @type {Map<string, string>} a completed session's charge id (not a field Stripe shows on the session) */
  const chargeBySession = new Map();
  /** @type {Record<string, any>[]} refunds created through POST /v1/refunds, in order */
  const refunds = [];

  const signer = new Stripe(options.secretKey);
  const billing = createStripeBilling({
    baseUrl: () => `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`,
    signedEvent,
    eventsUrl: () => eventsUrl,
  });
  /** Invoices by id: the subscriptions' (stripe-billing.mjs), the first of each with its payment. */
  const invoices = billing.invoices;
  /** Where the portal's subscription events go (the app's webhook); the development Stripe's webhookUrl by default. */
  let eventsUrl = options.eventsUrl ?? options.webhookUrl;

  /**
   * A Stripe event as Stripe would send it, with its body and a valid Stripe-Signature header.
   * @param {string} type
   * @param {Record<string, unknown>} object
   * @param {{ id?: string, created?: number, secret?: string, previous?: Record<string, unknown>, timestamp?: number }} [extra]
   *   previous: `previous_attributes` of an update; timestamp: the signature's `t=` (seconds), as a clock that is off would date it
   */
  function signedEvent(type, object, extra = {}) {
    const event = {
      id: extra.id ?? id('evt'),
      object: 'event',
      type,
      created: extra.created ?? Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object, ...(extra.previous ? { previous_attributes: extra.previous } : {}) },
      api_version: '2025-01-01',
    };
    const payload = JSON.stringify(event);
    const signature = signer.webhooks.generateTestHeaderString({
      payload,
      secret: extra.secret ?? options.webhookSecret,
      ...(extra.timestamp === undefined ? {} : { timestamp: extra.timestamp }),
    });
    return { event, payload, signature };
  }

  /**
   * The session as Stripe reports it once the customer finished it: customer, subscription and its
   * first invoice, paid by card (`paid`, with a charge) or by a method that settles later (`unpaid`,
   * SEPA debit and the like: the charge is `pending` until settlePayment).
   * @param {string} sessionId
   * @param {{ paymentStatus?: 'paid' | 'unpaid' | 'no_payment_required' }} [how]
   */
  function completeSession(sessionId, how = {}) {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const paymentStatus = how.paymentStatus ?? 'paid';
    if (!session.invoice) {
      const customer = /** @type {string} */ (session.customer ?? id('cus'));
      const subscription = /** @type {string} */ (session.subscription ?? id('sub'));
      Object.assign(session, { customer, subscription });
      // The subscription Stripe creates with a completed subscription checkout, and its first invoice
      // (stripe-billing.mjs); then that invoice's payment: a charge, paid or still settling.
      const first =
        session.mode === 'subscription' && !billing.subscriptions.has(subscription)
          ? invoices.get(String(billing.subscriptionFor(session).latest_invoice))
          : undefined;
      const invoiceId = first?.id ?? id('in');
      const paymentIntent = id('pi');
      const charge = {
        id: id('ch'),
        object: 'charge',
        amount: Number(session.amount_total),
        amount_captured: paymentStatus === 'paid' ? Number(session.amount_total) : 0,
        amount_refunded: 0,
        captured: paymentStatus === 'paid',
        currency: session.currency,
        customer,
        payment_intent: paymentIntent,
        paid: paymentStatus === 'paid',
        refunded: false,
        disputed: false,
        status: paymentStatus === 'paid' ? 'succeeded' : 'pending',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
      };
      charges.set(charge.id, charge);
      invoices.set(invoiceId, {
        ...(first ?? {
          id: invoiceId,
          object: 'invoice',
          customer,
          currency: session.currency,
          parent: { type: 'subscription_details', subscription_details: { subscription } },
        }),
        status: paymentStatus === 'paid' ? 'paid' : 'open',
        amount_due: Number(session.amount_total),
        amount_paid: paymentStatus === 'paid' ? Number(session.amount_total) : 0,
        amount_remaining: paymentStatus === 'paid' ? 0 : Number(session.amount_total),
        payments: {
          object: 'list',
          data: [
            {
              id: id('inpay'),
              object: 'invoice_payment',
              invoice: invoiceId,
              is_default: true,
              status: paymentStatus === 'paid' ? 'paid' : 'open',
              amount_paid: paymentStatus === 'paid' ? Number(session.amount_total) : null,
              payment: { type: 'payment_intent', payment_intent: paymentIntent },
            },
          ],
          has_more: false,
          url: `/v1/invoice_payments?invoice=${invoiceId}`,
        },
      });
      chargeBySession.set(sessionId, charge.id);
      Object.assign(session, { invoice: invoiceId, payment_intent: null });
    }
    Object.assign(session, { status: 'complete', payment_status: paymentStatus });
    return session;
  }

  /**
   * A later-settling payment settled (or failed): the session as in
   * checkout.session.async_payment_succeeded / _failed.
   * @param {string} sessionId
   * @param {boolean} succeeded
   */
  function settlePayment(sessionId, succeeded) {
    const session = sessions.get(sessionId);
    if (!session?.invoice) throw new Error(`session ${sessionId} is not completed`);
    const charge = charges.get(String(chargeBySession.get(sessionId)));
    const invoice = invoices.get(String(session.invoice));
    if (charge)
      Object.assign(charge, {
        status: succeeded ? 'succeeded' : 'failed',
        paid: succeeded,
        captured: succeeded,
        amount_captured: succeeded ? charge.amount : 0,
      });
    if (invoice && succeeded) {
      Object.assign(invoice, { status: 'paid', amount_paid: invoice.amount_due });
      Object.assign(invoice.payments.data[0], { status: 'paid', amount_paid: invoice.amount_due });
    }
    session.payment_status = succeeded ? 'paid' : 'unpaid';
    return session;
  }

  /** @param {string} sessionId */
  function chargeOf(sessionId) {
    const session = sessions.get(sessionId);
    const charge = session && charges.get(String(chargeBySession.get(sessionId)));
    if (!charge) throw new Error(`session ${sessionId} has no charge`);
    return charge;
  }

  /**
   * Refunds (part of) a session's charge as the dashboard would: the charge as in `charge.refunded`.
   * @param {string} sessionId
   * @param {number} [amount] cents; the whole charge by default
   */
  function refundCharge(sessionId, amount) {
    const charge = chargeOf(sessionId);
    charge.amount_refunded = Math.min(charge.amount, charge.amount_refunded + (amount ?? charge.amount));
    charge.refunded = charge.amount_refunded === charge.amount;
    return { ...charge };
  }

  /**
   * A dispute (chargeback) of a session's charge, as in charge.dispute.created (`needs_response`)
   * and charge.dispute.closed (`won`, `lost`).
   * @param {string} sessionId
   * @param {{ status?: string, reason?: string, id?: string }} [how]
   */
  function dispute(sessionId, how = {}) {
    const charge = chargeOf(sessionId);
    charge.disputed = true;
    return {
      id: how.id ?? id('dp'),
      object: 'dispute',
      amount: charge.amount,
      charge: charge.id,
      currency: charge.currency,
      payment_intent: charge.payment_intent,
      reason: how.reason ?? 'fraudulent',
      status: how.status ?? 'needs_response',
      is_charge_refundable: false,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const send = (status, body) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const pay = /^\/checkout\/([^/]+)\/pay$/.exec(url.pathname);
      if (req.method === 'POST' && pay && options.webhookUrl) {
        const text = CHECKOUT_TEXT[pageLanguage(req)];
        const session = sessions.get(decodeURIComponent(pay[1]));
        if (!session || session.status !== 'open') return sendHtml(res, 409, text.label, `<h1>${escapeHtml(text.notOpen)}</h1>`, pageLanguage(req));
        const paid = completeSession(session.id);
        const { payload, signature } = signedEvent('checkout.session.completed', paid);
        // Delivered as Stripe does: a signed POST to the app's webhook endpoint.
        const delivered = await fetch(options.webhookUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'stripe-signature': signature,
            'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks; stand-in)',
          },
          body: payload,
        }).catch((/** @type {unknown} */ error) => ({ ok: false, status: String(error) }));
        if (!delivered.ok) return sendHtml(res, 502, text.label, `<h1>${escapeHtml(text.failed(String(delivered.status)))}</h1>`, pageLanguage(req));
        res.writeHead(303, { location: String(session.success_url) });
        res.end();
        return;
      }
      if (req.method === 'GET' && url.pathname.startsWith('/checkout/')) {
        const session = sessions.get(decodeURIComponent(url.pathname.slice('/checkout/'.length)));
        if (!session) {
          res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
          res.end('not found');
          return;
        }
        const lang = pageLanguage(req);
        const text = CHECKOUT_TEXT[lang];
        const amount = new Intl.NumberFormat(lang === 'es' ? 'es-ES' : 'en-GB', {
          style: 'currency',
          currency: String(session.currency ?? 'eur').toUpperCase(),
        }).format(Number(session.amount_total) / 100);
        const actions =
          options.webhookUrl && session.status === 'open'
            ? `<form method="post" action="/checkout/${escapeHtml(String(session.id))}/pay" class="actions"><button type="submit" data-testid="stripe-pay">${escapeHtml(text.pay)}</button>${
                session.cancel_url
                  ? `<a class="secondary" data-testid="stripe-cancel" href="${escapeHtml(String(session.cancel_url))}">${escapeHtml(text.cancel)}</a>`
                  : ''
              }</form>`
            : '';
        return sendHtml(
          res,
          200,
          'Stripe Checkout (stand-in)',
          `<div class="warn" role="alert" data-testid="stripe-standin-banner"><strong>${escapeHtml(text.label)}</strong>${escapeHtml(text.notReal)}</div>
<h1 data-testid="stripe-checkout">Stripe Checkout (stand-in)</h1>
<p data-testid="stripe-product">${escapeHtml(String(session.product_name ?? ''))}</p>
<p data-testid="stripe-amount" data-amount="${escapeHtml(String(session.amount_total))}" data-currency="${escapeHtml(String(session.currency))}"><strong>${escapeHtml(amount)}</strong> ${escapeHtml(text.perMonth)}</p>
<p>${escapeHtml(String(session.customer_email ?? ''))}</p>${actions}`,
          lang,
        );
      }
      if (await billing.handlePage(req, res, url)) return;
      if (!url.pathname.startsWith('/v1/')) return send(404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } });
      if (req.headers.authorization !== `Bearer ${options.secretKey}`)
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      const body = req.method === 'POST' ? await readBody(req) : {};
      const idempotencyKey = /** @type {string | undefined} */ (req.headers['idempotency-key']);
      requests.push({ method: req.method ?? 'GET', path: url.pathname, body, idempotencyKey });
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        if (failNext > 0) {
          failNext -= 1;
          return send(400, { error: { type: 'invalid_request_error', message: 'Stand-in refused this request' } });
        }
        if (idempotencyKey && byIdempotencyKey.has(idempotencyKey)) return send(200, byIdempotencyKey.get(idempotencyKey));
        const sessionId = id('cs');
        const address = /** @type {import('node:net').AddressInfo} */ (server.address());
        const session = {
          id: sessionId,
          object: 'checkout.session',
          mode: body.mode,
          status: 'open',
          url: `http://127.0.0.1:${address.port}/checkout/${sessionId}`,
          client_reference_id: body.client_reference_id ?? null,
          customer_email: body.customer_email ?? null,
          currency: body['line_items[0][price_data][currency]'],
          amount_total: Number(body['line_items[0][price_data][unit_amount]']),
          product_name: body['line_items[0][price_data][product_data][name]'] ?? null,
          expires_at: Number(body.expires_at),
          success_url: body.success_url,
          cancel_url: body.cancel_url,
          metadata: Object.fromEntries(
            Object.entries(body)
              .filter(([k]) => k.startsWith('metadata['))
              .map(([k, v]) => [k.slice(9, -1), v]),
          ),
          customer: body.customer ?? null,
          subscription: null,
          // Tax (decision 0047): what Checkout was asked for, as Stripe echoes it on the session.
          automatic_tax: {
            enabled: body['automatic_tax[enabled]'] === 'true',
            liability: null,
            status: body['automatic_tax[enabled]'] === 'true' ? 'requires_location_inputs' : null,
          },
          tax_id_collection: { enabled: body['tax_id_collection[enabled]'] === 'true', required: 'never' },
          billing_address_collection: body.billing_address_collection ?? null,
          customer_update:
            body['customer_update[address]'] || body['customer_update[name]']
              ? { address: body['customer_update[address]'] ?? 'never', name: body['customer_update[name]'] ?? 'never' }
              : null,
          tax_behavior: body['line_items[0][price_data][tax_behavior]'] ?? null,
          total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
          subscription_metadata: Object.fromEntries(
            Object.entries(body)
              .filter(([k]) => k.startsWith('subscription_data[metadata]['))
              .map(([k, v]) => [k.slice('subscription_data[metadata]['.length, -1), v]),
          ),
        };
        sessions.set(sessionId, session);
        if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, session);
        return send(200, session);
      }
      const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && match) {
        const session = sessions.get(match[1]);
        return session ? send(200, session) : send(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
      }
      const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(url.pathname);
      if (req.method === 'POST' && expire) {
        const session = sessions.get(decodeURIComponent(expire[1]));
        if (!session) return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such checkout.session' } });
        if (session.status !== 'open') return send(400, { error: { type: 'invalid_request_error', message: 'Only open sessions can be expired.' } });
        session.status = 'expired';
        return send(200, session);
      }
      const object = /^\/v1\/(charges|invoices|subscriptions)\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && object) {
        const key = decodeURIComponent(object[2]);
        if (object[1] === 'subscriptions') {
          const known = billing.subscriptions.get(key);
          if (known) return send(200, known);
          const session = [...sessions.values()].find((candidate) => candidate.subscription === key);
          if (!session) return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such subscription' } });
          return send(200, {
            id: key,
            object: 'subscription',
            customer: session.customer,
            latest_invoice: session.invoice ?? null,
            status: cancelled.includes(key) ? 'canceled' : 'active',
          });
        }
        const found = (object[1] === 'charges' ? charges : invoices).get(key);
        return found
          ? send(200, found)
          : send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${object[1].slice(0, -1)}: '${key}'` } });
      }
      const refundId = /^\/v1\/refunds\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && refundId) {
        const refund = refunds.find((candidate) => candidate.id === decodeURIComponent(refundId[1]));
        return refund
          ? send(200, refund)
          : send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such refund: '${refundId[1]}'` } });
      }
      if (req.method === 'POST' && url.pathname === '/v1/refunds') {
        if (idempotencyKey) {
          const again = refunds.find((refund) => refund._idempotencyKey === idempotencyKey);
          if (again) return send(200, again);
        }
        const charge = [...charges.values()].find((candidate) => candidate.payment_intent === body.payment_intent || candidate.id === body.charge);
        if (!charge)
          return send(400, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${body.payment_intent}'` } });
        if (charge.status !== 'succeeded')
          return send(400, { error: { type: 'invalid_request_error', code: 'charge_not_refundable', message: 'This payment has not succeeded yet.' } });
        const amount = body.amount ? Number(body.amount) : charge.amount - charge.amount_refunded;
        if (amount <= 0)
          return send(400, { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'Charge has already been refunded.' } });
        charge.amount_refunded += amount;
        charge.refunded = charge.amount_refunded === charge.amount;
        const refund = {
          id: id('re'),
          object: 'refund',
          amount,
          charge: charge.id,
          currency: charge.currency,
          payment_intent: charge.payment_intent,
          reason: body.reason ?? null,
          status: 'succeeded',
          metadata: Object.fromEntries(
            Object.entries(body)
              .filter(([k]) => k.startsWith('metadata['))
              .map(([k, v]) => [k.slice(9, -1), v]),
          ),
          created: Math.floor(Date.now() / 1000),
        };
        Object.defineProperty(refund, '_idempotencyKey', { value: idempotencyKey, enumerable: false });
        refunds.push(refund);
        return send(200, refund);
      }
      const subscription = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'DELETE' && subscription) {
        const subscriptionId = decodeURIComponent(subscription[1]);
        if (!subscriptionId.startsWith('sub_'))
          return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such subscription' } });
        if (!cancelled.includes(subscriptionId)) cancelled.push(subscriptionId);
        if (billing.subscriptions.has(subscriptionId)) {
          const ended = billing.end(subscriptionId);
          // Stripe then sends customer.subscription.deleted (delivered when the stand-in knows the app's webhook).
          if (eventsUrl) void billing.deliver('customer.subscription.deleted', ended);
          return send(200, ended);
        }
        return send(200, { id: subscriptionId, object: 'subscription', status: 'canceled', canceled_at: Math.floor(Date.now() / 1000) });
      }
      if (billing.handleApi(req, url, body, send)) return;
      return send(404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } });
    })().catch((error) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());

  return {
    url: `http://127.0.0.1:${port}`,
    sessions,
    requests,
    /** Subscription ids cancelled through DELETE /v1/subscriptions/:id, in order. */
    cancelled,
    failNextCheckouts(count = 1) {
      failNext = count;
    },
    /**
     * A Stripe event as Stripe would send it, with its body and a valid Stripe-Signature header.
     * @param {string} type
     * @param {Record<string, unknown>} object
     * @param {{ id?: string, created?: number, secret?: string }} [extra]
     */
    signedEvent,
    /** The session as Stripe reports it once finished (customer, subscription, invoice; `paymentStatus`). */
    completeSession,
    /** Subscriptions (created by completed checkouts) and invoices, by id, as Stripe's API answers them. */
    subscriptions: billing.subscriptions,
    invoices: billing.invoices,
    /** Where subscription events (portal, period end, erasure's cancel) are delivered: the app's webhook. */
    setEventsUrl(/** @type {string} */ url) {
      eventsUrl = url;
    },
    /** The member cancels in the portal (at period end): delivers the signed customer.subscription.updated. */
    cancelAtPeriodEnd(/** @type {string} */ subscriptionId) {
      const change = billing.scheduleCancel(subscriptionId);
      return billing.deliver('customer.subscription.updated', change.subscription, change.previous);
    },
    /** The paid period ran out: Stripe ends the subscription and delivers the signed customer.subscription.deleted. */
    endSubscription(/** @type {string} */ subscriptionId) {
      return billing.deliver('customer.subscription.deleted', billing.end(subscriptionId));
    },
    /** A renewal: a new paid invoice for the subscription's customer. */
    issueInvoice(/** @type {string} */ subscriptionId) {
      const subscription = billing.subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
      return billing.issueInvoice(subscription);
    },
    settlePayment,
    chargeOf,
    refundCharge,
    dispute,
    charges,
    refunds,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve(undefined));
      }),
  };
}
