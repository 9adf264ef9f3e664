import { Injectable } from '@nestjs/common';
import type { ExternalService } from './entities/external-service.entity.js';

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
  ) {
    super(message);
  }
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
 * Speaks to a provider's token endpoint with the quirks its catalog row declares:
 * client authentication in a Basic header or the body, form or JSON bodies, extra
 * headers and an API-key header. One code path for every service.
 */
@Injectable()
export class ProviderClient {
  headers(service: ExternalService, apiKey: string | undefined): Record<string, string> {
    return { ...service.extraHeaders, ...(service.apiKeyHeader && apiKey ? { [service.apiKeyHeader]: apiKey } : {}) };
  }

  async token(service: ExternalService, client: ClientCredentials, params: Record<string, string>, apiKey: string | undefined): Promise<TokenAnswer> {
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
      response = await fetch(service.tokenUrl, { method: 'POST', headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      throw new TokenEndpointError('network', 0, `The token endpoint did not answer (${error instanceof Error ? error.message : 'error'}).`);
    }
    const answer = await readAnswer(response);
    if (!response.ok || typeof answer.error === 'string' || typeof answer.access_token !== 'string') {
      const code = typeof answer.error === 'string' ? answer.error : `http_${response.status}`;
      throw new TokenEndpointError(code, response.status, `The token endpoint refused the request (${code.slice(0, 80)}).`);
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
  async whoAmI(service: ExternalService, accessToken: string, apiKey: string | undefined, tokenAnswer?: Record<string, unknown>): Promise<{ id?: string; name?: string }> {
    const owner = (tokenAnswer?.owner as { user?: { id?: string; name?: string } } | undefined)?.user;
    if (owner?.name) return { id: owner.id, name: owner.name };
    if (!service.userUrl) return typeof tokenAnswer?.membership_id === 'string' ? { id: tokenAnswer.membership_id } : {};
    try {
      const response = await fetch(service.userUrl, {
        headers: { authorization: `${service.apiAuthScheme} ${accessToken}`, accept: 'application/json', 'user-agent': 'Life', ...this.headers(service, apiKey) },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!response.ok) return {};
      const me = (await response.json()) as Record<string, unknown>;
      const pick = (...keys: string[]) => keys.map((key) => me[key]).find((value) => typeof value === 'string' || typeof value === 'number');
      const name = pick('login', 'display_name', 'username', 'name', 'battletag', 'email');
      const id = pick('id', 'sub', 'user_id');
      return { id: id === undefined ? undefined : String(id), name: name === undefined ? undefined : String(name).slice(0, 255) };
    } catch {
      return {};
    }
  }
}
