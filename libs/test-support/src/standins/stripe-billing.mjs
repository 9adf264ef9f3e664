// The Stripe stand-in's subscriptions, invoices, tax and customer portal (issue 17, decisions 0047
// and 0048), plugged into stripe.mjs. Payload shapes follow Stripe's API (2025 versions: the
// billing period lives on the subscription items, an invoice's subscription under `parent`):
//   GET  /v1/subscriptions/:id            read a subscription
//   GET  /v1/invoices?customer=&limit=    list a customer's invoices, newest first (list object)
//   POST /v1/billing_portal/sessions      a customer portal session (customer, return_url)
//   GET  /p/session/:id                   the portal page (labelled as a stand-in): the subscription,
//                                         its invoices, "Cancelar suscripción" / "Renovar", and back
//   POST /p/session/:id/cancel|renew      cancel at period end / take it back, then deliver the signed
//                                         customer.subscription.updated to `eventsUrl`
//   GET  /invoice/:id, /invoice/:id/pdf   the hosted invoice page and its PDF
// With automatic tax on, the stand-in charges Spain's 21 % VAT, included in the price (Stripe
// computes the real rate from the billing address).
import { randomBytes } from 'node:crypto';
import { escapeHtml, pageLanguage, sendHtml } from './common.mjs';

const id = (/** @type {string} */ prefix) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
const MONTH = 30 * 24 * 3600;
/** The stand-in's VAT rate (Spain's standard 21 %) when automatic tax is on. */
export const STANDIN_VAT_PERCENT = 21;

const PORTAL_TEXT = {
  es: {
    label: 'Portal de cliente de Stripe de desarrollo (stand-in)',
    notReal: 'Un servidor de pruebas local que imita el portal de cliente de Stripe. No es Stripe.',
    title: 'Tu suscripción',
    perMonth: 'al mes',
    active: 'Activa: se renueva cada mes.',
    cancelsOn: (/** @type {string} */ date) => `Se cancelará el ${date}.`,
    ended: 'Cancelada.',
    cancel: 'Cancelar suscripción',
    renew: 'Renovar suscripción',
    invoices: 'Facturas',
    back: 'Volver',
    failed: (/** @type {string} */ status) => `La aplicación no aceptó el aviso (${status}).`,
  },
  en: {
    label: 'Development Stripe customer portal (stand-in)',
    notReal: "A local test server imitating Stripe's customer portal. Not Stripe.",
    title: 'Your subscription',
    perMonth: 'per month',
    active: 'Active: renews every month.',
    cancelsOn: (/** @type {string} */ date) => `Cancels on ${date}.`,
    ended: 'Cancelled.',
    cancel: 'Cancel subscription',
    renew: 'Renew subscription',
    invoices: 'Invoices',
    back: 'Return',
    failed: (/** @type {string} */ status) => `The app did not accept the notice (${status}).`,
  },
};

/** A minimal valid one-page PDF naming the invoice (what `invoice_pdf` downloads). */
function invoicePdf(/** @type {Record<string, unknown>} */ invoice) {
  const text = `Invoice ${String(invoice.number)} - ${(Number(invoice.total) / 100).toFixed(2)} ${String(invoice.currency).toUpperCase()} (stand-in)`.replace(
    /[()\\]/g,
    '',
  );
  const stream = `BT /F1 14 Tf 50 780 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = pdf.length;
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/**
 * @param {{
 *   baseUrl: () => string,
 *   signedEvent: (type: string, object: Record<string, unknown>, extra?: { id?: string, created?: number, secret?: string, previous?: Record<string, unknown> }) => { event: Record<string, unknown>, payload: string, signature: string },
 *   eventsUrl: () => string | undefined,
 * }} deps
 */
export function createStripeBilling(deps) {
  /** @type {Map<string, Record<string, any>>} */
  const subscriptions = new Map();
  /** @type {Map<string, Record<string, any>>} */
  const invoices = new Map();
  /** @type {Map<string, Record<string, any>>} */
  const portalSessions = new Map();
  let invoiceCount = 0;

  /** Delivers a signed event to the app, as Stripe does (with `previous_attributes` for updates); resolves to the outcome and the event. */
  async function deliver(
    /** @type {string} */ type,
    /** @type {Record<string, unknown>} */ object,
    /** @type {Record<string, unknown> | undefined} */ previous = undefined,
  ) {
    const url = deps.eventsUrl();
    const signed = deps.signedEvent(type, object, previous ? { previous } : {});
    if (!url) return { ok: false, status: 'no events URL', ...signed };
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signed.signature,
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks; stand-in)',
      },
      body: signed.payload,
    }).catch((/** @type {unknown} */ error) => ({ ok: false, status: String(error) }));
    return { ok: response.ok, status: String(response.status), ...signed };
  }

  /** A paid invoice of the subscription's period, as Stripe issues it at each renewal. */
  function issueInvoice(/** @type {Record<string, any>} */ subscription, reason = 'subscription_cycle') {
    const item = subscription.items.data[0];
    const total = Number(item.price.unit_amount);
    const taxed = subscription.automatic_tax.enabled;
    const tax = taxed ? Math.round(total - total / (1 + STANDIN_VAT_PERCENT / 100)) : 0;
    invoiceCount += 1;
    const invoiceId = id('in');
    const base = deps.baseUrl();
    const invoice = {
      id: invoiceId,
      object: 'invoice',
      account_country: 'ES',
      amount_due: total,
      amount_paid: total,
      amount_remaining: 0,
      automatic_tax: { enabled: taxed, liability: taxed ? { type: 'self' } : null, status: taxed ? 'complete' : null },
      billing_reason: reason,
      collection_method: 'charge_automatically',
      created: now(),
      currency: item.price.currency,
      customer: subscription.customer,
      customer_tax_ids: [],
      hosted_invoice_url: `${base}/invoice/${invoiceId}`,
      invoice_pdf: `${base}/invoice/${invoiceId}/pdf`,
      livemode: false,
      number: `STANDIN-${String(invoiceCount).padStart(4, '0')}`,
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { metadata: subscription.metadata, subscription: subscription.id } },
      period_start: item.current_period_start,
      period_end: item.current_period_end,
      status: 'paid',
      subtotal: total,
      total,
      total_excluding_tax: total - tax,
      total_taxes: taxed
        ? [
            {
              amount: tax,
              tax_behavior: item.price.tax_behavior ?? 'inclusive',
              tax_rate_details: { tax_rate: 'txr_test_es_vat' },
              taxability_reason: 'standard_rated',
              taxable_amount: total - tax,
              type: 'tax_rate_details',
            },
          ]
        : [],
    };
    invoices.set(invoiceId, invoice);
    subscription.latest_invoice = invoiceId;
    return invoice;
  }

  /** The subscription a completed Checkout Session creates (active, first period paid). */
  function subscriptionFor(/** @type {Record<string, any>} */ session) {
    const start = now();
    const subscription = {
      id: String(session.subscription),
      object: 'subscription',
      automatic_tax: { enabled: !!session.automatic_tax?.enabled, liability: session.automatic_tax?.enabled ? { type: 'self' } : null },
      billing_cycle_anchor: start,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: 'charge_automatically',
      created: start,
      currency: session.currency,
      customer: String(session.customer),
      ended_at: null,
      items: {
        object: 'list',
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            current_period_start: start,
            current_period_end: start + MONTH,
            price: {
              id: id('price'),
              object: 'price',
              currency: session.currency,
              product: id('prod'),
              recurring: { interval: 'month', interval_count: 1 },
              tax_behavior: session.tax_behavior ?? 'unspecified',
              type: 'recurring',
              unit_amount: session.amount_total,
            },
            quantity: 1,
          },
        ],
        has_more: false,
        url: `/v1/subscription_items?subscription=${String(session.subscription)}`,
      },
      latest_invoice: null,
      livemode: false,
      metadata: session.subscription_metadata ?? {},
      start_date: start,
      status: 'active',
    };
    subscriptions.set(subscription.id, subscription);
    issueInvoice(subscription, 'subscription_create');
    return subscription;
  }

  /** The member cancels in the portal: at the period's end, as Stripe's portal does by default. */
  function scheduleCancel(/** @type {string} */ subscriptionId) {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
    const previous = { cancel_at: subscription.cancel_at, cancel_at_period_end: subscription.cancel_at_period_end, canceled_at: subscription.canceled_at };
    Object.assign(subscription, {
      cancel_at: subscription.items.data[0].current_period_end,
      cancel_at_period_end: true,
      canceled_at: now(),
      cancellation_details: { comment: null, feedback: null, reason: 'cancellation_requested' },
    });
    return { subscription, previous };
  }

  /** The member takes the cancellation back before it takes effect. */
  function renew(/** @type {string} */ subscriptionId) {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
    const previous = { cancel_at: subscription.cancel_at, cancel_at_period_end: subscription.cancel_at_period_end, canceled_at: subscription.canceled_at };
    Object.assign(subscription, {
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
    });
    return { subscription, previous };
  }

  /** The period ran out (or the subscription was cancelled now): Stripe ends it and sends `deleted`. */
  function end(/** @type {string} */ subscriptionId) {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
    Object.assign(subscription, { status: 'canceled', ended_at: now(), canceled_at: subscription.canceled_at ?? now() });
    return subscription;
  }

  const list = (/** @type {unknown[]} */ data, /** @type {string} */ url, hasMore = false) => ({ object: 'list', data, has_more: hasMore, url });

  /**
   * The API routes (after the key check). Returns true when it answered.
   * @param {import('node:http').IncomingMessage} req
   * @param {URL} url
   * @param {Record<string, string>} body
   * @param {(status: number, body: unknown) => void} send
   */
  function handleApi(req, url, body, send) {
    const missing = (/** @type {string} */ what) =>
      send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } });
    const subscription = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && subscription) {
      const found = subscriptions.get(decodeURIComponent(subscription[1]));
      if (found) send(200, found);
      else missing('subscription');
      return true;
    }
    if (req.method === 'GET' && url.pathname === '/v1/invoices') {
      const customer = url.searchParams.get('customer');
      const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? 10) || 10));
      // Newest first, as Stripe lists them (the later issued first within one second).
      const all = [...invoices.values()]
        .reverse()
        .filter((invoice) => !customer || invoice.customer === customer)
        .sort((a, b) => b.created - a.created);
      send(200, list(all.slice(0, limit), '/v1/invoices', all.length > limit));
      return true;
    }
    if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
      if (!body.customer) {
        send(400, { error: { type: 'invalid_request_error', code: 'parameter_missing', param: 'customer', message: 'Missing required param: customer.' } });
        return true;
      }
      const sessionId = id('bps');
      const session = {
        id: sessionId,
        object: 'billing_portal.session',
        configuration: 'bpc_test_default',
        created: now(),
        customer: body.customer,
        flow: null,
        livemode: false,
        locale: body.locale ?? null,
        on_behalf_of: null,
        return_url: body.return_url ?? null,
        url: `${deps.baseUrl()}/p/session/${sessionId}`,
      };
      portalSessions.set(sessionId, session);
      send(200, session);
      return true;
    }
    return false;
  }

  /**
   * The portal and invoice pages (no API key: what a browser opens). Returns true when it answered.
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {URL} url
   */
  async function handlePage(req, res, url) {
    const pdf = /^\/invoice\/([^/]+)\/pdf$/.exec(url.pathname);
    if (req.method === 'GET' && pdf) {
      const invoice = invoices.get(decodeURIComponent(pdf[1]));
      if (!invoice) {
        sendHtml(res, 404, 'Not found', '<h1>404</h1>');
        return true;
      }
      const bytes = invoicePdf(invoice);
      res.writeHead(200, {
        'content-type': 'application/pdf',
        'content-disposition': `attachment; filename="${invoice.number}.pdf"`,
        'content-length': bytes.length,
      });
      res.end(bytes);
      return true;
    }
    const hosted = /^\/invoice\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && hosted) {
      const invoice = invoices.get(decodeURIComponent(hosted[1]));
      if (!invoice) return (sendHtml(res, 404, 'Not found', '<h1>404</h1>'), true);
      sendHtml(
        res,
        200,
        `Invoice ${invoice.number}`,
        `<h1 data-testid="stripe-invoice">${escapeHtml(invoice.number)}</h1><p>${(invoice.total / 100).toFixed(2)} ${escapeHtml(invoice.currency.toUpperCase())}</p><a class="button" href="${escapeHtml(invoice.invoice_pdf)}">PDF</a>`,
      );
      return true;
    }
    const action = /^\/p\/session\/([^/]+)\/(cancel|renew)$/.exec(url.pathname);
    const page = /^\/p\/session\/([^/]+)$/.exec(url.pathname);
    const sessionId = decodeURIComponent((action ?? page)?.[1] ?? '');
    if (!action && !page) return false;
    const lang = pageLanguage(req);
    const text = PORTAL_TEXT[lang];
    const session = portalSessions.get(sessionId);
    if (!session) return (sendHtml(res, 404, text.label, '<h1>404</h1>', lang), true);
    const mine = [...subscriptions.values()].filter((s) => s.customer === session.customer).sort((a, b) => b.created - a.created);
    const current = mine.find((s) => s.status !== 'canceled') ?? mine[0];
    if (req.method === 'POST' && action && current && current.status !== 'canceled') {
      const change = action[2] === 'cancel' ? scheduleCancel(current.id) : renew(current.id);
      const delivered = await deliver('customer.subscription.updated', change.subscription, change.previous);
      if (!delivered.ok) return (sendHtml(res, 502, text.label, `<h1>${escapeHtml(text.failed(delivered.status))}</h1>`, lang), true);
      res.writeHead(303, { location: `/p/session/${encodeURIComponent(sessionId)}` });
      res.end();
      return true;
    }
    if (req.method !== 'GET') return false;
    const date = (/** @type {number} */ seconds) =>
      new Intl.DateTimeFormat(lang === 'es' ? 'es-ES' : 'en-GB', { dateStyle: 'long' }).format(new Date(seconds * 1000));
    let state = '';
    let button = '';
    if (current) {
      const price = current.items.data[0].price;
      const amount = new Intl.NumberFormat(lang === 'es' ? 'es-ES' : 'en-GB', { style: 'currency', currency: String(price.currency).toUpperCase() }).format(
        price.unit_amount / 100,
      );
      state = current.status === 'canceled' ? text.ended : current.cancel_at ? text.cancelsOn(date(current.cancel_at)) : text.active;
      button =
        current.status === 'canceled'
          ? ''
          : current.cancel_at
            ? `<form method="post" action="/p/session/${escapeHtml(sessionId)}/renew"><button type="submit" data-testid="portal-renew">${escapeHtml(text.renew)}</button></form>`
            : `<form method="post" action="/p/session/${escapeHtml(sessionId)}/cancel"><button type="submit" data-testid="portal-cancel">${escapeHtml(text.cancel)}</button></form>`;
      state = `<p data-testid="portal-price"><strong>${escapeHtml(amount)}</strong> ${escapeHtml(text.perMonth)}</p><p data-testid="portal-state">${escapeHtml(state)}</p>`;
    }
    const rows = [...invoices.values()]
      .filter((invoice) => invoice.customer === session.customer)
      .sort((a, b) => b.created - a.created)
      .map((invoice) => `<li><a href="${escapeHtml(invoice.hosted_invoice_url)}">${escapeHtml(invoice.number)}</a> · ${escapeHtml(date(invoice.created))}</li>`)
      .join('');
    sendHtml(
      res,
      200,
      text.label,
      `<div class="warn" role="alert" data-testid="stripe-portal-banner"><strong>${escapeHtml(text.label)}</strong>${escapeHtml(text.notReal)}</div>
<h1 data-testid="stripe-portal">${escapeHtml(text.title)}</h1>${state}${button}
<h2>${escapeHtml(text.invoices)}</h2><ul>${rows}</ul>
${session.return_url ? `<a class="secondary" data-testid="portal-return" href="${escapeHtml(session.return_url)}">${escapeHtml(text.back)}</a>` : ''}`,
      lang,
    );
    return true;
  }

  return {
    subscriptions,
    invoices,
    portalSessions,
    subscriptionFor,
    issueInvoice,
    scheduleCancel,
    renew,
    end,
    deliver,
    handleApi,
    handlePage,
  };
}
