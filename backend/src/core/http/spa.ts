import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Paths that only ever answer JSON, even to a browser navigation. */
const API_PREFIXES = ['/api', '/oauth', '/.well-known', '/beta-invites', '/oauth_clients'];

/** Paths that are both a page and an API call (ARCHITECTURE.md "The API contract"). */
const NEGOTIATED_PAGES = [/^\/oauth\/authorize$/, /^\/oauth\/logout$/, /^\/login\/[^/]+\/callback$/, /^\/callback\/[^/]+$/];

export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

export function isApiPath(pathname: string): boolean {
  if (isNegotiatedPage(pathname)) return false;
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

export function isNegotiatedPage(pathname: string): boolean {
  return NEGOTIATED_PAGES.some((pattern) => pattern.test(pathname));
}

/**
 * A browser navigation asks for HTML first. fetch() calls from the SPA send
 * `Accept: application/json` and so get the API.
 */
export function wantsHtml(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const accept = request.headers.accept ?? '';
  if (!accept.includes('text/html')) return false;
  const html = accept.indexOf('text/html');
  const json = accept.indexOf('application/json');
  return json === -1 || html < json;
}

/** The built SPA's index.html, read once. */
export class SpaIndex {
  private html: string | undefined;

  constructor(private readonly staticDir: string) {}

  get available(): boolean {
    return this.read() !== undefined;
  }

  private read(): string | undefined {
    if (this.html === undefined) {
      try {
        this.html = readFileSync(path.join(this.staticDir, 'index.html'), 'utf8');
      } catch {
        return undefined;
      }
    }
    return this.html;
  }

  send(reply: FastifyReply, status = 200): FastifyReply {
    const html = this.read();
    if (html === undefined) {
      return reply
        .status(503)
        .type('application/json')
        .send({ error: 'frontend_not_built', message: 'The web app is not built. Run `npm run build` (npm start does it).' });
    }
    return reply.status(status).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  }
}
