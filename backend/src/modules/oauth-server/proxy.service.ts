import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
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
import { isPrivateHost, publicOnlyLookup } from '../../core/util/private-address.js';

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
  private readonly allowPrivate: boolean;

  constructor(
    private readonly queries: QueryBus,
    rateLimits: RateLimitService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limit = rateLimits.create({ name: 'oauth:proxy', points: config.oauth.proxyRatePerMinute, durationSeconds: 60 });
    this.allowPrivate = config.allowPrivateServiceUrls;
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
    if (!token.scopes.includes(serviceScope(serviceName))) throw insufficientScope(serviceScope(serviceName), token);
    await this.limit.consume(`${token.clientRowId}|${token.userId}`);
    const baseUrl = await this.queries.execute(new ServiceApiBaseQuery(serviceName));
    if (!baseUrl) throw new ProxyError(503, 'service_not_configured', `${serviceName} no tiene URL de API configurada.`);
    let url = ProxyService.target(baseUrl, input.path, input.search);
    const usable = await this.queries.execute(new ServiceAccessTokenQuery(token.userId, serviceName));
    // The connection's region has its own API host (Battle.net), and query defaults the app may leave out.
    if (usable.baseUrl && usable.baseUrl !== baseUrl) url = ProxyService.target(usable.baseUrl, input.path, input.search);
    for (const [name, value] of Object.entries(usable.query ?? {})) if (!url.searchParams.has(name)) url.searchParams.set(name, value);

    const headers: Record<string, string> = { 'user-agent': 'Life/1.0 (+proxy)' };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = input.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    Object.assign(headers, usable.headers, { authorization: `${usable.scheme} ${usable.accessToken}` });

    const body = input.body && input.body.length > 0 && !['GET', 'HEAD'].includes(input.method) ? input.body : undefined;
    let answer = await callUpstream(url, input.method, headers, body, !this.allowPrivate);
    // The provider refused a token our expiry called good (expired early, revoked, its clock):
    // refresh it now, if the connection can, and try once more with the new one.
    if (answer !== 'timeout' && answer !== 'unreachable' && answer.status === 401) {
      const fresh = await this.queries.execute(new ServiceAccessTokenQuery(token.userId, serviceName, usable.accessToken));
      if (fresh.accessToken !== usable.accessToken) {
        Object.assign(headers, fresh.headers, { authorization: `${fresh.scheme} ${fresh.accessToken}` });
        answer = await callUpstream(url, input.method, headers, body, !this.allowPrivate);
      }
    }
    if (answer === 'timeout') throw new ProxyError(504, 'upstream_timeout', `${serviceName} no respondió a tiempo.`);
    if (answer === 'unreachable') throw new ProxyError(502, 'upstream_unreachable', `${serviceName} no respondió.`);
    if (!answer.body) throw new ProxyError(502, 'upstream_too_large', msg('oauth.proxyResponseTooLarge', { service: serviceName }));
    const out: Record<string, string> = { 'x-life-proxied-service': serviceName, 'cache-control': 'no-store' };
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = answer.headers[name];
      if (value) out[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return { status: answer.status, headers: out, body: answer.body };
  }
}

/** Keep-alive connections to the providers' APIs, shared by every request of the process. */
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }),
};
/** The same, for production without ALLOW_PRIVATE_SERVICE_URLS: each address connected to is checked (decision 0050, DNS rebinding). */
const PUBLIC_ONLY_AGENTS = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 256, lookup: publicOnlyLookup() }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 256, lookup: publicOnlyLookup() }),
};

interface UpstreamAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** null: longer than MAX_UPSTREAM_BYTES (the rest was not read). */
  body: Buffer | null;
}

/**
 * One request to the provider on a keep-alive agent (node:http: about half the CPU of fetch for
 * a small answer), redirects not followed, the answer read up to MAX_UPSTREAM_BYTES. The timeout
 * is a timer cleared as soon as the answer is in, not AbortSignal.timeout: that one keeps its
 * timer, and through it the request's whole async context, alive for the full 15 s after a fast
 * answer (130 MB of live heap under load).
 */
export function callUpstream(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  publicOnly = false,
): Promise<UpstreamAnswer | 'timeout' | 'unreachable'> {
  // A private or loopback address written as such never reaches a lookup: refused here.
  if (publicOnly && isPrivateHost(url.hostname)) return Promise.resolve('unreachable');
  const agents = publicOnly ? PUBLIC_ONLY_AGENTS : AGENTS;
  return new Promise((resolve) => {
    let settled = false;
    let timedOut = false;
    let request: http.ClientRequest | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      request?.destroy();
      finish('timeout');
    }, UPSTREAM_TIMEOUT_MS);
    const finish = (outcome: UpstreamAnswer | 'timeout' | 'unreachable') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const client = url.protocol === 'https:' ? https : http;
    try {
      request = client.request(url, { method, headers, agent: agents[url.protocol as keyof typeof AGENTS] }, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const answer = (content: Buffer | null) => finish({ status: response.statusCode ?? 502, headers: response.headers, body: content });
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_UPSTREAM_BYTES) {
            answer(null);
            response.destroy();
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => answer(Buffer.concat(chunks, size)));
        response.on('error', () => finish(timedOut ? 'timeout' : 'unreachable'));
        response.on('aborted', () => finish(timedOut ? 'timeout' : 'unreachable'));
      });
    } catch {
      // A header value Node refuses (e.g. a control character in a catalog header).
      finish('unreachable');
      return;
    }
    request.on('error', () => finish(timedOut ? 'timeout' : 'unreachable'));
    request.end(body);
  });
}
