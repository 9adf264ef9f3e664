import { QueryBus } from '@nestjs/cqrs';
import { Inject, Injectable } from '@nestjs/common';
import { serviceScope } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { AppError } from '../../core/http/app-error.js';
import { RateLimitService, type RateLimit } from '../../core/rate-limit/rate-limit.service.js';
import { ServiceAccessTokenQuery, ServiceApiBaseQuery } from '../external-services/public/queries.js';
import { insufficientScope, invalidToken } from './oauth.errors.js';
import type { AccessTokenInfo } from './token-store.service.js';
import { msg } from '../../core/i18n/messages.js';

const UPSTREAM_TIMEOUT_MS = 15_000;
const MAX_UPSTREAM_BYTES = 10 * 1024 * 1024;
const FORWARDED_REQUEST_HEADERS = ['accept', 'content-type', 'accept-language', 'if-none-match', 'if-modified-since'];
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'etag', 'last-modified', 'retry-after', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'link'];

export interface ProxyAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The app's request to forward: method, the path under the service's API base, its query string, headers and raw body. */
export interface ProxyRequest {
  method: string;
  path: string;
  search: string;
  headers: Record<string, string | string[] | undefined>;
  body?: Buffer;
}

class ProxyError extends AppError {}

/**
 * `/api/v1/services/{name}/proxy/{path}`: calls a connected service's API with the person's
 * stored token (refreshed first when due), for an app whose token carries service:<name>.
 * The app never sees the provider token; the path cannot leave the service's API base.
 */
@Injectable()
export class ProxyService {
  private readonly limit: RateLimit;

  constructor(
    private readonly queries: QueryBus,
    rateLimits: RateLimitService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limit = rateLimits.create({ name: 'oauth:proxy', points: config.oauth.proxyRatePerMinute, durationSeconds: 60 });
  }

  /** The provider URL for `path` under the service's API base, or an error for anything that escapes it. */
  static target(baseUrl: string, path: string, search: string): URL {
    const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    const segments = path.split('/');
    for (const segment of segments) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        throw new ProxyError(400, 'invalid_path', msg('oauth.proxyPathInvalid'));
      }
      if (decoded === '.' || decoded === '..' || decoded.includes('/') || decoded.includes('\\')) {
        throw new ProxyError(400, 'invalid_path', msg('oauth.proxyPathEscapes'));
      }
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('/')) throw new ProxyError(400, 'invalid_path', msg('oauth.proxyPathNotRelative'));
    const url = new URL(path, base);
    if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) {
      throw new ProxyError(400, 'invalid_path', msg('oauth.proxyPathEscapes'));
    }
    url.search = search;
    return url;
  }

  async forward(token: AccessTokenInfo, serviceName: string, input: ProxyRequest): Promise<ProxyAnswer> {
    if (!token.userId) throw invalidToken(msg('oauth.appTokenNotPerson'));
    if (!token.scopes.includes(serviceScope(serviceName))) throw insufficientScope(serviceScope(serviceName));
    await this.limit.consume(`${token.clientRowId}|${token.userId}`);
    const baseUrl = await this.queries.execute(new ServiceApiBaseQuery(serviceName));
    if (!baseUrl) throw new ProxyError(503, 'service_not_configured', `${serviceName} no tiene URL de API configurada.`);
    const url = ProxyService.target(baseUrl, input.path, input.search);
    const usable = await this.queries.execute(new ServiceAccessTokenQuery(token.userId, serviceName));

    const headers: Record<string, string> = { 'user-agent': 'Life/1.0 (+proxy)' };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = input.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    Object.assign(headers, usable.headers, { authorization: `${usable.scheme} ${usable.accessToken}` });

    // A timer cleared when the answer is read, not AbortSignal.timeout: that one keeps its timer,
    // and through it the request's whole async context (entity manager included), alive for the
    // full 15 s after a fast answer: 130 MB of live heap under load.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, UPSTREAM_TIMEOUT_MS);
    let response: Response;
    let body: Buffer | null;
    try {
      try {
        response = await fetch(url, {
          method: input.method,
          headers,
          body: input.body && input.body.length > 0 && !['GET', 'HEAD'].includes(input.method) ? new Uint8Array(input.body) : undefined,
          redirect: 'manual',
          signal: controller.signal,
        });
      } catch {
        throw new ProxyError(
          timedOut ? 504 : 502,
          timedOut ? 'upstream_timeout' : 'upstream_unreachable',
          `${serviceName} no respondió${timedOut ? ' a tiempo' : ''}.`,
        );
      }
      try {
        body = await readCapped(response, MAX_UPSTREAM_BYTES);
      } catch (error) {
        if (timedOut) throw new ProxyError(504, 'upstream_timeout', `${serviceName} no respondió a tiempo.`);
        throw error;
      }
    } finally {
      clearTimeout(timer);
    }
    if (!body) throw new ProxyError(502, 'upstream_too_large', msg('oauth.proxyResponseTooLarge', { service: serviceName }));
    const out: Record<string, string> = { 'x-life-proxied-service': serviceName, 'cache-control': 'no-store' };
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = response.headers.get(name);
      if (value) out[name] = value;
    }
    return { status: response.status, headers: out, body };
  }
}

async function readCapped(response: Response, limit: number): Promise<Buffer | null> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
