// Small helpers shared by the stand-in servers (plain node:http, no framework).
import { createHash, randomBytes } from 'node:crypto';

export const MAX_BODY_BYTES = 64 * 1024;

/** @param {string} value */
export const escapeHtml = (value) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** @param {number} [bytes] */
export const randomToken = (bytes = 24) => randomBytes(bytes).toString('base64url');

/** RFC 7636 S256: BASE64URL(SHA256(ASCII(code_verifier))). */
export const s256 = (/** @type {string} */ verifier) => createHash('sha256').update(verifier).digest('base64url');

/** A PKCE verifier is 43-128 characters of [A-Za-z0-9-._~]. */
export const validVerifier = (/** @type {unknown} */ verifier) => typeof verifier === 'string' && /^[A-Za-z0-9._~-]{43,128}$/.test(verifier);

/**
 * The request body as form fields (application/x-www-form-urlencoded, or JSON when
 * the client sends JSON).
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<Record<string, string>>}
 */
export function readBody(req) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    req.on('data', (/** @type {Buffer} */ chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(Object.assign(new Error('body too large'), { status: 413 }));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const type = String(req.headers['content-type'] ?? '');
      if (type.includes('application/json')) {
        try {
          const parsed = JSON.parse(text || '{}');
          resolve(Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])));
        } catch {
          reject(Object.assign(new Error('invalid JSON'), { status: 400 }));
        }
        return;
      }
      resolve(Object.fromEntries(new URLSearchParams(text)));
    });
    req.on('error', reject);
  });
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
export function sendJson(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} title
 * @param {string} body
 * @param {string} [lang]
 */
export function sendHtml(res, status, title, body, lang = 'en') {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-language': lang });
  res.end(`<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1f2937}
.warn{background:#fef3c7;border:1px solid #f59e0b;border-radius:.5rem;padding:.75rem 1rem;margin-bottom:1.5rem}
.warn strong{display:block;margin-bottom:.25rem}.actions{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin-top:1rem}
a.button,button{display:inline-block;margin-top:1rem;padding:.6rem 1.2rem;border:0;border-radius:.4rem;background:#111827;color:#fff;font-size:1rem;cursor:pointer;text-decoration:none}
.actions a.button,.actions button{margin-top:0}a.secondary{color:#374151}code{overflow-wrap:anywhere}</style>
</head><body>${body}</body></html>`);
}

/**
 * Listens on 127.0.0.1 (a free port unless one is given) and returns the base URL
 * and a close() that also ends kept-alive connections.
 * @param {import('node:http').Server} server
 * @param {number} [port]
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function listen(server, port = 0) {
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  let closed = false;
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        if (closed) return resolve();
        closed = true;
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Runs an async request handler; unexpected errors become a 500 text answer.
 * @param {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>} handler
 */
export function guarded(handler) {
  return (/** @type {import('node:http').IncomingMessage} */ req, /** @type {import('node:http').ServerResponse} */ res) => {
    handler(req, res).catch((/** @type {any} */ error) => {
      if (!res.headersSent) res.writeHead(error?.status ?? 500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`Stand-in error: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
}

/**
 * The language of a stand-in page from the browser's Accept-Language, as real providers do:
 * Spanish (Life's first language) or English.
 * @param {import('node:http').IncomingMessage} req
 * @returns {'es' | 'en'}
 */
export function pageLanguage(req) {
  const header = String(req.headers['accept-language'] ?? '');
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? '1',
      );
      return { tag: (tag ?? '').toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag.startsWith('es')) return 'es';
    if (tag.startsWith('en')) return 'en';
  }
  return ranked.length === 0 ? 'es' : 'en';
}
