// A local stand-in for the part of Stripe's API that Life calls, so the real `stripe`
// client can be pointed at it (STRIPE_API_URL → host/port/protocol):
//   POST /v1/checkout/sessions          create a Checkout Session (form-encoded, Bearer secret key)
//   GET  /v1/checkout/sessions/:id      read it back
//   POST /v1/checkout/sessions/:id/expire  end an open session (account erasure)
//   DELETE /v1/subscriptions/:id        cancel a subscription (account erasure); `cancelled` lists them
//   subscriptions, invoices, tax fields and the customer portal: stripe-billing.mjs (issue 17)
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

  const signer = new Stripe(options.secretKey);
  /** Where the portal's subscription events go (the app's webhook); the development Stripe's webhookUrl by default. */
  let eventsUrl = options.eventsUrl ?? options.webhookUrl;

  /**
   * A Stripe event as Stripe would send it, with its body and a valid Stripe-Signature header.
   * @param {string} type
   * @param {Record<string, unknown>} object
   * @param {{ id?: string, created?: number, secret?: string, previous?: Record<string, unknown> }} [extra]
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
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: extra.secret ?? options.webhookSecret });
    return { event, payload, signature };
  }

  /** @param {string} sessionId */
  function completeSession(sessionId) {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    Object.assign(session, { status: 'complete', customer: session.customer ?? id('cus'), subscription: session.subscription ?? id('sub') });
    // The subscription (and its first paid invoice) Stripe creates with a completed subscription checkout.
    if (session.mode === 'subscription' && !billing.subscriptions.has(String(session.subscription))) billing.subscriptionFor(session);
    return session;
  }

  const billing = createStripeBilling({
    baseUrl: () => `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`,
    signedEvent,
    eventsUrl: () => eventsUrl,
  });

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
    /** The session as Stripe reports it once paid (customer and subscription attached). */
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
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve(undefined));
      }),
  };
}
