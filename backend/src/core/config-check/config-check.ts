import { randomBytes } from 'node:crypto';
import type { ConfigurationCheck, Language } from '@life/contracts';
import { msg, render, type Message } from '../i18n/messages.js';
import { isPrivateUrl } from '../util/private-address.js';
import { outboundFetch } from '../http/outbound-fetch.js';

/**
 * The admin panel's configuration check of a login provider or a catalog service (issue 16,
 * decision 0044): each line says what was checked, whether it passed and what to do, without
 * starting a sign-in. The owning module (auth, external-services) decides which lines apply; the
 * pieces every provider shares live here.
 */
export interface CheckLine {
  id: string;
  ok: boolean;
  message: Message;
}

export interface CheckReport {
  ok: boolean;
  checks: CheckLine[];
}

/** Every request a check makes gives up after this long (a check makes at most four, in parallel where independent). */
export const CHECK_TIMEOUT_MS = 5000;

/** Checks per admin and window: each one makes outbound requests to the configured URLs. */
export const CHECK_RATE = { name: 'config-check:admin', points: 30, durationSeconds: 600 } as const;

/** Bodies larger than this are not read (a discovery document or a token error is a few kilobytes). */
const MAX_BODY = 256 * 1024;

export const report = (checks: CheckLine[]): CheckReport => ({ ok: checks.every((check) => check.ok), checks });

export const line = (id: string, ok: boolean, message: Message): CheckLine => ({ id, ok, message });

/** What a probe got: an HTTP answer (any status), or why no request was made or none came back. */
export type ProbeResult = { kind: 'answered'; status: number; body: Record<string, unknown> | undefined } | { kind: 'failed'; message: Message };

/**
 * A short, safe reason for a failed request (it ends up on screen): a timeout, or the network
 * error's code (ECONNREFUSED, ENOTFOUND…), never a provider's words. Duck-typed: the error may
 * come from another realm, where `instanceof Error` is false.
 */
export function networkReason(error: unknown): string {
  const shape = (error ?? {}) as { name?: unknown; message?: unknown; cause?: { code?: unknown; errors?: { code?: unknown }[] } };
  if (shape.name === 'TimeoutError' || shape.name === 'AbortError') return `timeout ${CHECK_TIMEOUT_MS / 1000} s`;
  const code = shape.cause?.code ?? shape.cause?.errors?.[0]?.code;
  if (typeof code === 'string') return code.slice(0, 40);
  return typeof shape.message === 'string' ? shape.message.slice(0, 80) : 'error';
}

async function readBody(response: Response): Promise<Record<string, unknown> | undefined> {
  const length = Number(response.headers.get('content-length') ?? '0');
  if (length > MAX_BODY) {
    await response.body?.cancel();
    return undefined;
  }
  // Counted while it streams: a chunked answer says no length and could be anything.
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    // GitHub answers the token endpoint form-encoded unless asked for JSON; HTML pages give nothing useful.
    const form = Object.fromEntries(new URLSearchParams(text));
    return typeof form.error === 'string' ? form : undefined;
  }
}

/**
 * One outbound request of a check: the same private-address rule as saving the URL (decision
 * 0032: refused in production unless ALLOW_PRIVATE_SERVICE_URLS), a 5 s limit, redirects not
 * followed (a 3xx is an answer; following it could lead to an address the rule refuses).
 */
export async function probe(url: string, init: RequestInit, allowPrivate: boolean): Promise<ProbeResult> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'failed', message: msg('configCheck.invalidUrl', { url }) };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { kind: 'failed', message: msg('configCheck.invalidUrl', { url }) };
  if (!allowPrivate && isPrivateUrl(url)) return { kind: 'failed', message: msg('configCheck.privateAddress', { url }) };
  try {
    // The address connected to is checked too (a name that resolves to a private one: decision 0050).
    const response = await outboundFetch(allowPrivate)(parsed, {
      ...init,
      redirect: 'manual',
      headers: { 'user-agent': 'Life configuration check', ...(init.headers as Record<string, string> | undefined) },
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    return { kind: 'answered', status: response.status, body: await readBody(response) };
  } catch (error) {
    return { kind: 'failed', message: msg('configCheck.unreachable', { url, reason: networkReason(error) }) };
  }
}

export function checkClientId(appId: string | null | undefined): CheckLine {
  return appId ? line('client_id', true, msg('configCheck.clientIdSet')) : line('client_id', false, msg('configCheck.clientIdMissing'));
}

export function checkSecret(hasSecret: boolean): CheckLine {
  return hasSecret ? line('client_secret', true, msg('configCheck.secretSet')) : line('client_secret', false, msg('configCheck.secretMissing'));
}

/** The URL fields a flow needs, by name as the admin form shows them. */
export function checkUrlsSet(fields: Record<string, string | null | undefined>): CheckLine {
  const missing = Object.entries(fields)
    .filter(([, value]) => !value)
    .map(([name]) => name);
  return missing.length === 0
    ? line('urls', true, msg('configCheck.urlsSet'))
    : line('urls', false, msg('configCheck.urlsMissing', { fields: missing.join(', ') }));
}

/** Production needs https everywhere, the redirect URI included (providers refuse http ones too, except for loopback). */
export function checkHttps(fields: Record<string, string | null | undefined>, isProduction: boolean): CheckLine {
  const plain = Object.entries(fields)
    .filter(([, value]) => !!value && !value.startsWith('https://'))
    .map(([name]) => name);
  if (plain.length === 0) return line('https', true, msg('configCheck.httpsOk'));
  if (isProduction) return line('https', false, msg('configCheck.httpsRequired', { fields: plain.join(', ') }));
  return line('https', true, msg('configCheck.httpAllowed', { fields: plain.join(', ') }));
}

/**
 * The authorization endpoint answers: a GET with only the client id (no redirect_uri, no state,
 * no response_type, so nothing can come back to us and no sign-in starts). Any answer below 500
 * but 404 means a server is there; providers answer such a request with an error page (400) or a
 * redirect to their sign-in page (3xx). A 404 is a wrong path or, at GitHub, an unknown client id.
 */
export async function checkAuthorizationEndpoint(authUrl: string, clientId: string | null | undefined, allowPrivate: boolean): Promise<CheckLine> {
  const url = new URL(authUrl);
  if (clientId) url.searchParams.set('client_id', clientId);
  const answer = await probe(url.toString(), { method: 'GET', headers: { accept: 'text/html' } }, allowPrivate);
  if (answer.kind === 'failed') return line('authorization_endpoint', false, answer.message);
  if (answer.status === 404) return line('authorization_endpoint', false, msg('configCheck.authorizationNotFound', { url: authUrl }));
  if (answer.status >= 500) return line('authorization_endpoint', false, msg('configCheck.authorizationServerError', { url: authUrl, status: answer.status }));
  return line('authorization_endpoint', true, msg('configCheck.authorizationOk', { status: answer.status }));
}

/** A made-up authorization code: no provider ever issued it, so the grant itself must be refused. */
export const madeUpCode = () => `life-configuration-check-${randomBytes(12).toString('base64url')}`;
/** A well-formed PKCE verifier (43 to 128 characters) for providers that check its presence first. */
export const madeUpVerifier = () => randomBytes(48).toString('base64url');

/** OAuth error codes that mean "the client authenticated; the code is what is wrong" (GitHub says bad_verification_code). */
const CLIENT_ACCEPTED = new Set(['invalid_grant', 'bad_verification_code']);
/** Codes that mean the client id or the secret was refused (GitHub: incorrect_client_credentials). */
const CLIENT_REFUSED = new Set(['invalid_client', 'unauthorized_client', 'incorrect_client_credentials']);
const REDIRECT_REFUSED = new Set(['redirect_uri_mismatch', 'invalid_redirect_uri']);

/** An OAuth error code, reduced to a short token (`{error}`, or Fitbit's `{errors:[{errorType}]}`). */
export function oauthErrorOf(body: Record<string, unknown> | undefined): string | undefined {
  if (!body) return undefined;
  const first = Array.isArray(body.errors) ? (body.errors[0] as Record<string, unknown> | undefined) : undefined;
  const raw = typeof body.error === 'string' ? body.error : typeof first?.errorType === 'string' ? first.errorType : undefined;
  return raw?.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 60) || undefined;
}

/**
 * What the token endpoint said to an authorization_code grant with a made-up code and the
 * configured client credentials (decision 0044): `invalid_grant` means it authenticated the client
 * and refused only the code, so the id and the secret are accepted; `invalid_client` (or a 401)
 * means they are not. Anything else is reported as it came, since it tells neither.
 */
export function classifyTokenAnswer(code: string | undefined, status: number, redirectUri: string): CheckLine {
  if (code && CLIENT_ACCEPTED.has(code)) return line('token_endpoint', true, msg('configCheck.tokenAccepted', { code }));
  if ((code && CLIENT_REFUSED.has(code)) || (!code && status === 401)) {
    return line('token_endpoint', false, msg('configCheck.tokenClientRefused', { code: code ?? `HTTP ${status}` }));
  }
  if (code && REDIRECT_REFUSED.has(code)) return line('token_endpoint', false, msg('configCheck.tokenRedirectRefused', { code, uri: redirectUri }));
  return line('token_endpoint', false, msg('configCheck.tokenUnexpected', { code: code ?? `HTTP ${status}` }));
}

const trimmed = (url: string) => url.replace(/\/+$/, '');

/**
 * Whether a discovery document's issuer belongs to `base_url`: equal (trailing slash aside), or
 * Microsoft's multi-tenant template (`https://login.microsoftonline.com/{tenantid}/v2.0`) for a
 * base_url naming a tenant or common/organizations/consumers in its place.
 */
export function issuerMatches(issuer: string, baseUrl: string): boolean {
  if (trimmed(issuer) === trimmed(baseUrl)) return true;
  if (!issuer.includes('{tenantid}')) return false;
  const [before, after] = trimmed(issuer).split('{tenantid}') as [string, string];
  const base = trimmed(baseUrl);
  if (!base.startsWith(before) || !base.endsWith(after)) return false;
  const tenant = base.slice(before.length, base.length - after.length);
  return /^[A-Za-z0-9.-]{1,64}$/.test(tenant);
}

/**
 * OpenID Connect discovery at `base_url`: the document answers and its issuer belongs to base_url;
 * its authorization and token endpoints are the row's; its signing keys answer.
 */
export async function checkDiscovery(row: { baseUrl: string; authUrl?: string | null; tokenUrl?: string | null }, allowPrivate: boolean): Promise<CheckLine[]> {
  const url = `${trimmed(row.baseUrl)}/.well-known/openid-configuration`;
  const answer = await probe(url, { method: 'GET', headers: { accept: 'application/json' } }, allowPrivate);
  if (answer.kind === 'failed') return [line('discovery', false, answer.message)];
  if (answer.status !== 200) return [line('discovery', false, msg('configCheck.discoveryStatus', { url, status: answer.status }))];
  const document = answer.body;
  if (!document || typeof document.issuer !== 'string' || typeof document.jwks_uri !== 'string') {
    return [line('discovery', false, msg('configCheck.discoveryInvalid', { url }))];
  }
  if (!issuerMatches(document.issuer, row.baseUrl)) {
    return [line('discovery', false, msg('configCheck.discoveryIssuerMismatch', { issuer: document.issuer, baseUrl: row.baseUrl }))];
  }
  const lines = [line('discovery', true, msg('configCheck.discoveryOk', { issuer: document.issuer }))];
  const differing = (
    [
      ['auth_url', row.authUrl, document.authorization_endpoint],
      ['token_url', row.tokenUrl, document.token_endpoint],
    ] as const
  ).find(([, value, expected]) => typeof expected === 'string' && !!value && trimmed(value) !== trimmed(expected));
  lines.push(
    differing
      ? line(
          'discovery_endpoints',
          false,
          msg('configCheck.discoveryEndpointsDiffer', { field: differing[0], value: String(differing[1]), expected: String(differing[2]) }),
        )
      : line('discovery_endpoints', true, msg('configCheck.discoveryEndpointsOk')),
  );
  const jwks = await probe(document.jwks_uri, { method: 'GET', headers: { accept: 'application/json' } }, allowPrivate);
  const keys = jwks.kind === 'answered' && jwks.status === 200 && Array.isArray(jwks.body?.keys) ? (jwks.body.keys as unknown[]).length : 0;
  lines.push(
    keys > 0
      ? line('jwks', true, msg('configCheck.jwksOk', { count: keys }))
      : line('jwks', false, jwks.kind === 'failed' ? jwks.message : msg('configCheck.jwksEmpty', { url: document.jwks_uri })),
  );
  return lines;
}

/** The answer as the API sends it: each message in the admin's language. */
export function renderReport(result: CheckReport, language: Language): ConfigurationCheck {
  return { ok: result.ok, checks: result.checks.map((check) => ({ id: check.id, ok: check.ok, message: render(check.message, language) })) };
}
