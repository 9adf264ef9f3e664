import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { networkReason } from '../../core/config-check/config-check.js';
import { outboundFetch, type OutboundFetch } from '../../core/http/outbound-fetch.js';
import type { ExternalService } from './entities/external-service.entity.js';

/** What a call to the token endpoint needs from a catalog row. */
export type TokenEndpointConfig = Pick<ExternalService, 'tokenUrl' | 'tokenAuth' | 'tokenBody' | 'extraHeaders' | 'apiKeyHeader'>;

export interface ClientCredentials {
  clientId: string;
  clientSecret?: string;
}

export interface TokenAnswer {
  accessToken: string;
  refreshToken?: string;
  expiresIn?: number;
  scope?: string;
  raw: Record<string, unknown>;
}

export class TokenEndpointError extends Error {
  constructor(
    readonly oauthError: string,
    readonly status: number,
    message: string,
    /** Why no answer came (a timeout, the network error's code), for the configuration check. */
    readonly reason?: string,
  ) {
    super(message);
  }
}

/** How a call to the token endpoint may differ from a connection's (the configuration check: shorter, no redirects). */
export interface TokenCallOptions {
  timeoutMs?: number;
  followRedirects?: boolean;
}

const TIMEOUT_MS = 10_000;

async function readAnswer(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return Object.fromEntries(new URLSearchParams(text));
  }
}

/**
 * The OAuth error code of a refusal, reduced to a short token (it ends up in logs and in
 * `last_error`, so nothing the provider echoes back verbatim). Fitbit answers
 * `{"errors":[{"errorType":"invalid_grant"}]}` instead of `{"error":"invalid_grant"}`.
 */
function oauthErrorOf(answer: Record<string, unknown>): string | undefined {
  const first = Array.isArray(answer.errors) ? (answer.errors[0] as Record<string, unknown> | undefined) : undefined;
  const raw = typeof answer.error === 'string' ? answer.error : typeof first?.errorType === 'string' ? first.errorType : undefined;
  const code = raw?.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 60);
  return code || undefined;
}

const asObject = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);
const NAME_KEYS = ['login', 'display_name', 'displayName', 'username', 'name', 'battletag', 'title', 'email'];
const ID_KEYS = ['id', 'sub', 'user_id', 'encodedId', 'membershipId'];
const pick = (from: Record<string, unknown>, keys: string[]) => {
  const value = keys.map((key) => from[key]).find((candidate) => (typeof candidate === 'string' && candidate !== '') || typeof candidate === 'number');
  return value === undefined ? undefined : String(value).slice(0, 255);
};

/**
 * A display name and id from a who-am-I answer, looking inside the envelopes providers use:
 * Fitbit `{user}`, Bungie `{Response: {bungieNetUser}}`, YouTube `{items: [{id, snippet}]}`,
 * Notion `{bot: {owner: {user}}}`.
 */
export function accountOf(me: unknown): { id?: string; name?: string } {
  const root = asObject(me) ?? {};
  const firstItem = Array.isArray(root.items) ? asObject(root.items[0]) : undefined;
  const candidates = [
    root,
    asObject(root.user),
    asObject(asObject(root.Response)?.bungieNetUser),
    firstItem ? { ...firstItem, ...asObject(firstItem.snippet) } : undefined,
    asObject(asObject(asObject(root.bot)?.owner)?.user),
  ].filter((candidate): candidate is Record<string, unknown> => !!candidate);
  for (const candidate of candidates) {
    const name = pick(candidate, NAME_KEYS);
    if (name) return { id: pick(candidate, ID_KEYS) ?? pick(root, ID_KEYS), name };
  }
  return { id: pick(root, ID_KEYS) };
}

/**
 * Speaks to a provider's token endpoint with the quirks its catalog row declares:
 * client authentication in a Basic header or the body, form or JSON bodies, extra
 * headers and an API-key header. One code path for every service.
 */
@Injectable()
export class ProviderClient {
  /** Catalog URLs reach public addresses only in production (decision 0050): checked at connection time. */
  private readonly fetch: OutboundFetch;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.fetch = outboundFetch(config.allowPrivateServiceUrls);
  }

  headers(service: Pick<ExternalService, 'extraHeaders' | 'apiKeyHeader'>, apiKey: string | undefined): Record<string, string> {
    return { ...service.extraHeaders, ...(service.apiKeyHeader && apiKey ? { [service.apiKeyHeader]: apiKey } : {}) };
  }

  async token(
    service: TokenEndpointConfig,
    client: ClientCredentials,
    params: Record<string, string>,
    apiKey: string | undefined,
    options: TokenCallOptions = {},
  ): Promise<TokenAnswer> {
    if (!service.tokenUrl) throw new TokenEndpointError('not_configured', 0, 'The service has no token URL.');
    const fields: Record<string, string> = { ...params };
    const headers: Record<string, string> = { accept: 'application/json', ...this.headers(service, apiKey) };
    if (service.tokenAuth === 'basic') {
      const user = encodeURIComponent(client.clientId);
      const pass = encodeURIComponent(client.clientSecret ?? '');
      headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
    } else {
      fields.client_id = client.clientId;
      if (client.clientSecret) fields.client_secret = client.clientSecret;
    }
    let body: string;
    if (service.tokenBody === 'json') {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(fields);
    } else {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(fields).toString();
    }
    let response: Response;
    try {
      response = await this.fetch(service.tokenUrl, {
        method: 'POST',
        headers,
        body,
        redirect: options.followRedirects === false ? 'manual' : 'follow',
        signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS),
      });
    } catch (error) {
      throw new TokenEndpointError(
        'network',
        0,
        `The token endpoint did not answer (${error instanceof Error ? error.message : 'error'}).`,
        networkReason(error),
      );
    }
    const answer = await readAnswer(response);
    if (!response.ok || answer.error !== undefined || typeof answer.access_token !== 'string') {
      const code = oauthErrorOf(answer) ?? `http_${response.status}`;
      throw new TokenEndpointError(code, response.status, `The token endpoint refused the request (${code}).`);
    }
    const expiresIn = Number(answer.expires_in);
    return {
      accessToken: answer.access_token,
      refreshToken: typeof answer.refresh_token === 'string' && answer.refresh_token ? answer.refresh_token : undefined,
      expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : undefined,
      scope: typeof answer.scope === 'string' ? answer.scope : undefined,
      raw: answer,
    };
  }

  /** The provider's "who am I": a display name for the card, or nothing when it has none. */
  async whoAmI(
    service: ExternalService,
    accessToken: string,
    apiKey: string | undefined,
    tokenAnswer?: Record<string, unknown>,
  ): Promise<{ id?: string; name?: string }> {
    const owner = (tokenAnswer?.owner as { user?: { id?: string; name?: string } } | undefined)?.user;
    if (owner?.name) return { id: owner.id, name: owner.name.slice(0, 255) };
    const fromAnswer = typeof tokenAnswer?.membership_id === 'string' ? { id: tokenAnswer.membership_id.slice(0, 255) } : {};
    if (!service.userUrl) return fromAnswer;
    try {
      const response = await this.fetch(service.userUrl, {
        headers: {
          authorization: `${service.apiAuthScheme} ${accessToken}`,
          accept: 'application/json',
          'user-agent': 'Life',
          ...this.headers(service, apiKey),
        },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!response.ok) return fromAnswer;
      const account = accountOf(await response.json());
      return { id: account.id ?? fromAnswer.id, name: account.name };
    } catch {
      return fromAnswer;
    }
  }
}
