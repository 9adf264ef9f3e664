// A local stand-in for the part of Stripe's API that Life calls, so the real `stripe`
// client can be pointed at it (STRIPE_API_URL → host/port/protocol):
//   POST /v1/checkout/sessions          create a Checkout Session (form-encoded, Bearer secret key)
//   GET  /v1/checkout/sessions/:id      read it back
//   POST /v1/checkout/sessions/:id/expire  end an open session (account erasure)
//   DELETE /v1/subscriptions/:id        cancel a subscription (account erasure); `cancelled` lists them
//   GET  /checkout/:id                  the hosted checkout page (a tiny HTML page)
// Webhooks are signed with the `stripe` package's own test-header helper (signedEvent).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import Stripe from 'stripe';
import { escapeHtml, readBody } from './common.mjs';

const id = (prefix) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/**
 * @param {{ secretKey: string, webhookSecret: string, failNext?: number }} options
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

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const send = (status, body) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && url.pathname.startsWith('/checkout/')) {
        const session = sessions.get(decodeURIComponent(url.pathname.slice('/checkout/'.length)));
        res.writeHead(session ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          session
            ? `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Stripe Checkout (stand-in)</title></head><body><h1 data-testid="stripe-checkout">Stripe Checkout (stand-in)</h1><p>${escapeHtml(String(session.customer_email ?? ''))}</p><p data-testid="stripe-amount">${escapeHtml(String(session.amount_total))} ${escapeHtml(String(session.currency))}</p></body></html>`
            : 'not found',
        );
        return;
      }
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
          expires_at: Number(body.expires_at),
          success_url: body.success_url,
          cancel_url: body.cancel_url,
          metadata: Object.fromEntries(
            Object.entries(body)
              .filter(([k]) => k.startsWith('metadata['))
              .map(([k, v]) => [k.slice(9, -1), v]),
          ),
          customer: null,
          subscription: null,
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
        return send(200, { id: subscriptionId, object: 'subscription', status: 'canceled', canceled_at: Math.floor(Date.now() / 1000) });
      }
      return send(404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } });
    })().catch((error) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  const signer = new Stripe(options.secretKey);

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
    signedEvent(type, object, extra = {}) {
      const event = {
        id: extra.id ?? id('evt'),
        object: 'event',
        type,
        created: extra.created ?? Math.floor(Date.now() / 1000),
        livemode: false,
        data: { object },
        api_version: '2025-01-01',
      };
      const payload = JSON.stringify(event);
      const signature = signer.webhooks.generateTestHeaderString({ payload, secret: extra.secret ?? options.webhookSecret });
      return { event, payload, signature };
    },
    /** The session as Stripe reports it once paid (customer and subscription attached). */
    completeSession(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      Object.assign(session, { status: 'complete', customer: session.customer ?? id('cus'), subscription: session.subscription ?? id('sub') });
      return session;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve(undefined));
      }),
  };
}
