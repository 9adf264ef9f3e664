// Local stand-ins for the outside services people connect (the dashboard's connections).
// One configurable OAuth 2.0 provider server; each family of quirks (PROVIDERS.md) is a
// preset of it, reachable by pointing a catalog row at it (`rows` below are ready bodies
// for PUT /api/external-services/:id).
//
//   GET  /oauth/authorize          consent page: an "Authorize" link (data-testid="standin-authorize")
//                                  to redirect_uri?code&state
//   POST /oauth/token              authorization_code and refresh_token grants, with the family's
//                                  client authentication (Basic or body), body encoding (form or
//                                  JSON), required headers and scope policy
//   <API endpoints>                one realistic endpoint (or a few) per service in the real answer shape,
//                                  with `Authorization: <Bearer|OAuth> <token>`; a refusal (no token, a
//                                  wrong scheme, an unknown or expired token, a missing required header)
//                                  is answered in the provider's own error body (`apiErrors`)
//   POST /__standin/expire-access-tokens  test control: every access token issued so far now counts as
//                                  expired (what an hour's wait does), so the next API call is refused
//   revocation                     per style: DELETE /applications/{client_id}/grant (github),
//                                  POST /oauth/revoke (rfc7009, google, notion), POST /sign-out (soundcloud)
import { Buffer } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { escapeHtml, guarded, listen, pageLanguage, randomToken, readBody, s256, sendHtml, sendJson, validVerifier } from './common.mjs';
import { dayApisA } from './day-apis-a.mjs';
import { dayApisB, wowProfileSummary } from './day-apis-b.mjs';

const CODE_TTL_MS = 10 * 60 * 1000;

/**
 * @typedef {object} ServiceAccount
 * @property {string} id
 * @property {string} name
 */

/**
 * @typedef {object} ServiceStandInOptions
 * @property {string} name                         shown on the consent page and used in token prefixes
 * @property {string} clientId
 * @property {string} clientSecret
 * @property {'basic' | 'body'} [tokenAuth]        how the client authenticates at the token endpoint (default body)
 * @property {'form' | 'json'} [body]              the token request encoding the server accepts (default form)
 * @property {boolean} [formAnswerUnlessJson]      answer form-encoded unless `Accept: application/json` (GitHub)
 * @property {Record<string, string>} [requiredHeaders]  headers every token, who-am-I and revocation call must carry
 * @property {boolean} [requireNoScope]            refuse a `scope` parameter (Bungie)
 * @property {Record<string, string>} [requiredAuthParams]  authorize parameters that must be present with these values
 * @property {Record<string, string>} [refreshTokenRequires]  authorize parameters without which no refresh token is issued (Google: access_type=offline, prompt=consent)
 * @property {string} [refreshTokenScope]          a scope without which no refresh token is issued (Microsoft: offline_access)
 * @property {{ authorize: string, token: string }} [paths]  where the authorize page and the token endpoint live, the provider's own paths (default /oauth/authorize, /oauth/token)
 * @property {string} [revokePath]                 where rfc7009, google and notion revocation live (default /oauth/revoke)
 * @property {'optional' | 'required' | 'refused'} [pkce]  default optional (verified when a challenge was sent)
 * @property {'none' | 'static' | 'rotating' | 'sometimes'} [refresh]  none: no refresh token; static: one that lasts (refresh answers carry none); rotating: single use, every refresh returns a new one; sometimes: every second refresh answer carries a new one and the old one keeps working (Spotify)
 * @property {boolean} [refreshAnswerIncludesRefreshToken]  static only: also send the same refresh token back on refresh
 * @property {number | null} [expiresIn]           access token lifetime in seconds; null = never expires (default 3600)
 * @property {'none' | 'rfc7009' | 'github' | 'google' | 'notion' | 'soundcloud'} [revoke]
 * @property {'Bearer' | 'OAuth'} [apiAuthScheme]  scheme the who-am-I endpoints expect (default Bearer)
 * @property {ApiEndpoint[]} [whoAmI]            the API endpoints (the first one is the who-am-I the catalog row points at)
 * @property {ApiErrorStyle} [apiErrors]           how the API refuses a call (default oauth: `{error, message}`)
 * @property {'oauth' | 'github' | 'fitbit' | 'microsoft'} [tokenErrors]  github: token errors come with HTTP 200 and GitHub's own codes (bad_verification_code, bad_refresh_token); fitbit: `{"errors":[{"errorType","message"}],"success":false}`; microsoft: AADSTS codes in `error_codes`, `trace_id`, `correlation_id`
 * @property {string} [invalidGrantDescription]  the error_description of a dead refresh token (Google: "Token has been expired or revoked.")
 * @property {string} [apiBasePath]               the API base under the stand-in's origin, as the catalog's base_url has it (Spotify /v1, Notion /v1, Bungie /Platform, Graph /v1.0)
 * @property {boolean} [requireUserAgent]          API calls without a User-Agent are refused with a 403 (GitHub)
 * @property {string} [tokenPrefix]                access token prefix (GitHub App: ghu_; refresh tokens then use ghr_)
 * @property {(account: ServiceAccount) => Record<string, unknown>} [tokenAnswerExtras]  extra fields of every token answer (Notion's owner, Bungie's membership_id)
 * @property {ServiceAccount} [account]
 * @property {boolean} [acceptAnyRefreshToken]     refresh tokens it never issued are accepted (seeded rows, the bench)
 * @property {boolean} [acceptAnyAccessToken]      access tokens it never issued are accepted (the app's development providers after a restart)
 * @property {number} [latencyMs]                  delay before each token answer (default 0: at once)
 * @property {boolean} [recordCalls]               keep every token call in `tokenCalls` (default true; the bench turns it off)
 * @property {{ method: string, pattern: RegExp, handle: (call: ServiceApiCall) => unknown }[]} [apiRoutes]  the service's own API (Hue's bridge link and CLIP v2, Battle.net's profile API), behind its access token
 * @property {number} [port]
 */

/**
 * @typedef {'oauth' | 'google' | 'spotify' | 'notion' | 'github' | 'fitbit' | 'soundcloud' | 'bungie' | 'graph'} ApiErrorStyle
 */

/**
 * @typedef {object} ApiEndpoint
 * @property {string} path
 * @property {'GET' | 'POST'} [method]            default GET
 * @property {(account: ServiceAccount, request: { url: URL, body: unknown }) => unknown} answer
 * @property {(request: { url: URL, body: unknown }) => string | undefined} [invalid]  a 400 reason for a malformed request
 */

/**
 * Why an API call is refused, as each provider words it.
 * @typedef {'missing' | 'invalid' | 'expired' | 'header' | 'bad_request'} ApiRefusal
 */

/**
 * The provider's own refusal: status, headers and body (shapes from the providers' API docs).
 * @param {ApiErrorStyle} style @param {ApiRefusal} why @param {string} detail
 * @returns {{ status: number, headers?: Record<string, string>, body: unknown }}
 */
export function apiRefusal(style, why, detail = '') {
  const status = why === 'bad_request' ? 400 : 401;
  switch (style) {
    case 'google':
      return {
        status,
        headers: status === 401 ? { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' } : {},
        body: {
          error: {
            code: status,
            message:
              status === 401
                ? 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.'
                : detail,
            errors: [
              status === 401
                ? { message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }
                : { message: detail, domain: 'global', reason: 'badRequest' },
            ],
            status: status === 401 ? 'UNAUTHENTICATED' : 'INVALID_ARGUMENT',
          },
        },
      };
    case 'spotify': {
      const message = {
        missing: 'No token provided',
        invalid: 'Invalid access token',
        expired: 'The access token expired',
        header: detail,
        bad_request: detail,
      }[why];
      return { status, body: { error: { status, message } } };
    }
    case 'notion':
      if (why === 'header') return { status: 400, body: { object: 'error', status: 400, code: 'missing_version', message: detail } };
      if (why === 'bad_request') return { status, body: { object: 'error', status, code: 'validation_error', message: detail } };
      return { status, body: { object: 'error', status: 401, code: 'unauthorized', message: 'API token is invalid.' } };
    case 'github':
      return why === 'bad_request'
        ? { status, body: { message: detail, documentation_url: 'https://docs.github.com/rest', status: String(status) } }
        : { status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' } };
    case 'fitbit': {
      const errorType = why === 'expired' ? 'expired_token' : why === 'bad_request' ? 'validation' : 'invalid_token';
      const message =
        why === 'expired'
          ? 'Access token expired. Visit https://dev.fitbit.com/docs/oauth2 for more information on the Fitbit Web API authorization process.'
          : detail || 'Access token invalid.';
      return { status, body: { errors: [{ errorType, message }], success: false } };
    }
    case 'soundcloud':
      return {
        status,
        body: {
          code: status,
          message: detail,
          link: 'https://developers.soundcloud.com/docs/api/explorer/open-api',
          status: `${status} - ${status === 401 ? 'Unauthorized' : 'Bad Request'}`,
          errors: [],
          error: null,
        },
      };
    case 'bungie':
      if (why === 'header')
        return {
          status: 401,
          body: { ErrorCode: 2101, ThrottleSeconds: 0, ErrorStatus: 'ApiInvalidOrExpiredKey', Message: 'The API key is invalid or expired.', MessageData: {} },
        };
      if (why === 'bad_request')
        return { status, body: { ErrorCode: 7, ThrottleSeconds: 0, ErrorStatus: 'ParameterParseFailure', Message: detail, MessageData: {} } };
      return {
        status: 401,
        body: { ErrorCode: 99, ThrottleSeconds: 0, ErrorStatus: 'WebAuthRequired', Message: 'Please sign-in to continue.', MessageData: {} },
      };
    case 'graph': {
      const now = new Date().toISOString().slice(0, 19);
      const message = {
        missing: 'Access token is empty.',
        invalid: 'IDX14100: JWT is not well formed.',
        expired: 'Lifetime validation failed, the token is expired.',
        header: detail,
        bad_request: detail,
      }[why];
      return {
        status,
        headers:
          status === 401
            ? {
                'www-authenticate':
                  'Bearer realm="", authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize", client_id="00000003-0000-0000-c000-000000000000"',
              }
            : {},
        body: {
          error: { code: status === 401 ? 'InvalidAuthenticationToken' : 'BadRequest', message, innerError: { date: now, 'request-id': randomToken(12) } },
        },
      };
    }
    default:
      return { status, body: { error: status === 401 ? 'invalid_token' : 'invalid_request', message: detail || 'Unknown, revoked or expired access token.' } };
  }
}

/**
 * @typedef {object} ServiceApiCall
 * @property {import('node:http').IncomingMessage} req
 * @property {URL} url
 * @property {RegExpExecArray} match
 * @property {ServiceAccount} account        whose access token the call carried
 * @property {Record<string, unknown> | unknown[] | null} json  the JSON body, if any
 * @property {(status: number, body: unknown) => void} send
 */

/** The raw body as text (JSON APIs). @param {import('node:http').IncomingMessage} req @returns {Promise<string>} */
async function readRaw(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(/** @type {Buffer} */ (chunk));
  return Buffer.concat(chunks).toString('utf8').slice(0, 100_000);
}

/** @param {import('node:http').IncomingMessage} req @param {string} name */
const header = (req, name) => {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

/** @param {string | undefined} authorization @returns {{ id: string, secret: string } | undefined} */
function parseBasic(authorization) {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) return undefined;
  try {
    // RFC 6749 2.3.1: both parts are form-urlencoded before encoding.
    return { id: decodeURIComponent(decoded.slice(0, separator)), secret: decodeURIComponent(decoded.slice(separator + 1)) };
  } catch {
    return undefined;
  }
}

/** The consent page's words: Spanish or English, from the browser's Accept-Language. */
const CONSENT_TEXT = {
  es: {
    label: (/** @type {string} */ name) => `${name}: proveedor de desarrollo (stand-in)`,
    notReal: (/** @type {string} */ name) =>
      `Un servidor de pruebas local que imita a ${name}. No es el servicio real: nada sale de este equipo y la cuenta es ficticia.`,
    heading: 'Autorizar aplicación',
    signedInAs: 'Has iniciado sesión como',
    scopes: 'Permisos:',
    noScope: '(ninguno)',
    authorize: 'Autorizar',
  },
  en: {
    label: (/** @type {string} */ name) => `${name}: development stand-in`,
    notReal: (/** @type {string} */ name) =>
      `A local test server imitating ${name}. Not the real service: nothing leaves this machine and the account is made up.`,
    heading: 'Authorize application',
    signedInAs: 'Signed in as',
    scopes: 'Scopes:',
    noScope: '(none)',
    authorize: 'Authorize',
  },
};

/**
 * Starts one configurable OAuth 2.0 provider on 127.0.0.1.
 * @param {ServiceStandInOptions} options
 */
export async function startServiceStandIn(options) {
  if (!options?.clientId || !options?.clientSecret) throw new Error('startServiceStandIn needs clientId and clientSecret');
  const o = {
    tokenAuth: 'body',
    body: 'form',
    formAnswerUnlessJson: false,
    requiredHeaders: {},
    requireNoScope: false,
    requiredAuthParams: {},
    refreshTokenRequires: {},
    refreshTokenScope: undefined,
    paths: { authorize: '/oauth/authorize', token: '/oauth/token' },
    revokePath: '/oauth/revoke',
    pkce: 'optional',
    refresh: 'static',
    refreshAnswerIncludesRefreshToken: false,
    expiresIn: 3600,
    revoke: 'none',
    apiAuthScheme: 'Bearer',
    apiErrors: 'oauth',
    tokenErrors: 'oauth',
    requireUserAgent: false,
    tokenPrefix: undefined,
    invalidGrantDescription: 'The refresh token is invalid, expired or revoked.',
    apiBasePath: '',
    whoAmI: [{ path: '/me', answer: (/** @type {ServiceAccount} */ a) => ({ id: a.id, name: a.name }) }],
    tokenAnswerExtras: () => ({}),
    acceptAnyRefreshToken: false,
    acceptAnyAccessToken: false,
    latencyMs: 0,
    recordCalls: true,
    ...options,
  };
  const prefix = o.name.toLowerCase().replace(/[^a-z0-9]/g, '');
  let account = o.account ?? { id: `${prefix}-user-1`, name: `${o.name} Tester` };

  /** @type {Map<string, { redirectUri: string, challenge?: string, scope?: string, offline: boolean, account: ServiceAccount, expiresAt: number }>} */
  const codes = new Map();
  /** @type {Map<string, { account: ServiceAccount, alive: boolean, expiresAt: number }>} */
  const accessTokens = new Map();
  /** @type {{ method: string, path: string, query: Record<string, string>, scheme?: string, headers: Record<string, string | undefined>, status: number }[]} */
  const apiCalls = [];
  /** @type {Map<string, { account: ServiceAccount, alive: boolean, uses: number }>} */
  const refreshTokens = new Map();
  const issued = { accessTokens: /** @type {string[]} */ ([]), refreshTokens: /** @type {string[]} */ ([]) };
  /** @type {import('./services.d.mts').ServiceTokenCall[]} */
  const tokenCalls = [];
  /** @type {import('./services.d.mts').ServiceAuthorizeRequest[]} */
  const authorizeRequests = [];
  /** @type {import('./services.d.mts').ServiceUserCall[]} */
  const userCalls = [];
  /** @type {import('./services.d.mts').ServiceRevocation[]} */
  const revocations = [];
  const counts = { authorization_code: 0, refresh_token: 0, refreshOk: 0, reusedRefreshTokens: 0, failedRefreshes: 0 };
  /** @type {{ kind: 'invalid_grant' | 500, remaining: number }[]} */
  const failures = [];

  const server = http.createServer();
  server.keepAliveTimeout = 60_000;
  const { url, close } = await listen(server, o.port);

  /** Missing or wrong required headers, or undefined when all are there. @param {import('node:http').IncomingMessage} req */
  const headerProblem = (req) => {
    for (const [name, value] of Object.entries(o.requiredHeaders)) {
      if (header(req, name) !== value) return `missing or wrong ${name} header`;
    }
    return undefined;
  };

  const lifetimeMs = () => (o.expiresIn === null ? Number.POSITIVE_INFINITY : o.expiresIn * 1000);
  /** @param {ServiceAccount} who @param {boolean} withRefresh */
  const issue = (who, withRefresh) => {
    const accessToken = o.tokenPrefix ? `${o.tokenPrefix}u_${randomToken(27)}` : `at_${prefix}_${randomToken(18)}`;
    accessTokens.set(accessToken, { account: who, alive: true, expiresAt: Date.now() + lifetimeMs() });
    if (o.recordCalls) issued.accessTokens.push(accessToken);
    /** @type {string | undefined} */
    let refreshToken;
    if (withRefresh) {
      refreshToken = o.tokenPrefix ? `${o.tokenPrefix}r_${randomToken(54)}` : `rt_${prefix}_${randomToken(18)}`;
      refreshTokens.set(refreshToken, { account: who, alive: true, uses: 0 });
      if (o.recordCalls) issued.refreshTokens.push(refreshToken);
    }
    return { accessToken, refreshToken };
  };

  /** @param {string} accessToken @param {string | undefined} refreshToken @param {ServiceAccount} who */
  const tokenAnswer = (accessToken, refreshToken, who) => ({
    access_token: accessToken,
    token_type: o.tokenErrors === 'github' ? 'bearer' : 'Bearer',
    ...(o.expiresIn === null ? {} : { expires_in: o.expiresIn }),
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
    ...o.tokenAnswerExtras(who),
  });
  /** Marks every access token issued so far expired; answers how many live ones it expired. */
  const expireAll = () => {
    let expired = 0;
    for (const token of accessTokens.values()) {
      if (token.alive && token.expiresAt > Date.now()) expired += 1;
      token.expiresAt = Math.min(token.expiresAt, Date.now() - 1);
    }
    return expired;
  };
  /** Every refresh through a `sometimes` stand-in, to rotate on every second one. */
  let sometimesCount = 0;

  server.on(
    'request',
    guarded(async (req, res) => {
      const requestUrl = new URL(req.url ?? '/', url);
      // The family's own authorize and token paths (Microsoft's /common/oauth2/v2.0/…) are the same two endpoints.
      // Only the family's own paths: the generic ones answer 404 when the provider has others.
      const pathname =
        requestUrl.pathname === o.paths.authorize
          ? '/oauth/authorize'
          : requestUrl.pathname === o.paths.token
            ? '/oauth/token'
            : ['/oauth/authorize', '/oauth/token'].includes(requestUrl.pathname)
              ? '/not-this-provider'
              : requestUrl.pathname;
      const route = `${req.method} ${pathname}`;

      if (route === 'GET /oauth/authorize') {
        const q = requestUrl.searchParams;
        const params = Object.fromEntries(q);
        authorizeRequests.push({ params });
        const page = (/** @type {number} */ status, /** @type {string} */ message) =>
          sendHtml(res, status, `${o.name} (stand-in)`, `<h1>${escapeHtml(message)}</h1>`);
        if (q.get('client_id') !== o.clientId) return page(400, 'Unknown client_id');
        const redirectUri = q.get('redirect_uri');
        if (!redirectUri || !/^https?:\/\//.test(redirectUri)) return page(400, 'redirect_uri is missing or invalid');
        if (q.get('response_type') !== 'code') return page(400, 'response_type must be code');
        if (o.requireNoScope && q.has('scope')) return page(400, 'invalid_scope: this provider takes no scope parameter');
        for (const [key, value] of Object.entries(o.requiredAuthParams)) {
          if (q.get(key) !== value) return page(400, `${key} must be ${value}`);
        }
        const challenge = q.get('code_challenge') ?? undefined;
        if (challenge && q.get('code_challenge_method') !== 'S256') return page(400, 'Only S256 PKCE is supported');
        if (o.pkce === 'required' && !challenge) return page(400, 'PKCE (code_challenge) is required');
        if (o.pkce === 'refused' && challenge) return page(400, 'This provider does not support PKCE');
        const offline =
          Object.entries(o.refreshTokenRequires).every(([key, value]) => q.get(key) === value) &&
          (!o.refreshTokenScope || (q.get('scope') ?? '').split(' ').includes(o.refreshTokenScope));
        const code = randomToken(15);
        codes.set(code, { redirectUri, challenge, scope: q.get('scope') ?? undefined, offline, account, expiresAt: Date.now() + CODE_TTL_MS });
        const target = new URL(redirectUri);
        target.searchParams.set('code', code);
        if (q.get('state') !== null) target.searchParams.set('state', /** @type {string} */ (q.get('state')));
        const lang = pageLanguage(req);
        const text = CONSENT_TEXT[lang];
        const name = escapeHtml(o.name);
        return sendHtml(
          res,
          200,
          `${o.name} (stand-in)`,
          `<div class="warn" role="alert" data-testid="standin-banner"><strong>${text.label(name)}</strong>${text.notReal(name)}</div>
<h1>${text.heading}</h1>
<p>${text.signedInAs} <strong data-testid="standin-account">${escapeHtml(account.name)}</strong>.</p>
<p>${text.scopes} <code>${escapeHtml(q.get('scope') ?? text.noScope)}</code></p>
<a class="button" data-testid="standin-authorize" href="${escapeHtml(target.toString())}">${text.authorize}</a>`,
          lang,
        );
      }

      if (route === 'POST /oauth/token') {
        const contentType = String(header(req, 'content-type') ?? '');
        const body = await readBody(req);
        const basic = parseBasic(header(req, 'authorization'));
        /** @type {'basic' | 'body' | 'none'} */
        const clientAuth = basic ? 'basic' : body.client_secret !== undefined ? 'body' : 'none';
        const grantType = body.grant_type ?? '';
        if (grantType === 'authorization_code') counts.authorization_code += 1;
        if (grantType === 'refresh_token') counts.refresh_token += 1;
        /** @type {import('./services.d.mts').ServiceTokenCall} */
        const call = {
          grantType,
          clientAuth,
          contentType,
          headers: Object.fromEntries(Object.keys(o.requiredHeaders).map((name) => [name, header(req, name)])),
          accept: header(req, 'accept'),
          body,
          status: 200,
        };
        if (o.recordCalls) tokenCalls.push(call);
        if (o.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, o.latencyMs));
        const wantsJson = !o.formAnswerUnlessJson || String(call.accept ?? '').includes('application/json');
        /** @param {number} status @param {Record<string, unknown>} answer */
        const answer = (status, answer) => {
          call.status = status;
          if (typeof answer.error === 'string') {
            call.error = answer.error;
            if (grantType === 'refresh_token') counts.failedRefreshes += 1;
          }
          if (wantsJson) return sendJson(res, status, answer);
          res.writeHead(status, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', 'cache-control': 'no-store' });
          res.end(
            new URLSearchParams(/** @type {Record<string, string>} */ (Object.fromEntries(Object.entries(answer).map(([k, v]) => [k, String(v)])))).toString(),
          );
        };
        /** @param {number} status @param {string} error @param {string} description */
        const fail = (status, error, description) => {
          // GitHub answers token errors with HTTP 200 and its own codes.
          if (o.tokenErrors === 'github' && status < 500) {
            const code =
              error === 'invalid_grant'
                ? grantType === 'refresh_token'
                  ? 'bad_refresh_token'
                  : 'bad_verification_code'
                : error === 'invalid_client'
                  ? 'incorrect_client_credentials'
                  : error;
            return answer(200, {
              error: code,
              error_description: description,
              error_uri: 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors',
            });
          }
          if (o.tokenErrors === 'fitbit') {
            call.error = error;
            if (grantType === 'refresh_token') counts.failedRefreshes += 1;
            const errorType = error === 'invalid_client' ? 'invalid_client' : error;
            return answer(status, {
              errors: [
                {
                  errorType,
                  message: `${description} Visit https://dev.fitbit.com/docs/oauth2 for more information on the Fitbit Web API authorization process.`,
                },
              ],
              success: false,
            });
          }
          if (o.tokenErrors === 'microsoft') {
            const aadsts = { invalid_grant: 70000, invalid_client: 7000215, invalid_request: 900144 }[error] ?? 90000;
            return answer(status, {
              error,
              error_description: `AADSTS${aadsts}: ${description} Trace ID: ${randomUUID()} Timestamp: ${new Date().toISOString().replace('T', ' ').slice(0, 19)}Z`,
              error_codes: [aadsts],
              timestamp: new Date().toISOString().replace('T', ' ').slice(0, 19) + 'Z',
              trace_id: randomUUID(),
              correlation_id: randomUUID(),
            });
          }
          return answer(status, { error, error_description: description });
        };

        const expectedType = o.body === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
        if (!contentType.includes(expectedType)) return fail(400, 'invalid_request', `The body must be ${expectedType}.`);
        const problem = headerProblem(req);
        if (problem) return fail(401, 'invalid_request', problem);
        if (o.tokenAuth === 'basic') {
          if (!basic) return fail(401, 'invalid_client', 'Client authentication must use HTTP Basic.');
          if (body.client_secret !== undefined) return fail(400, 'invalid_request', 'Send the client secret only in the Authorization header.');
          if (basic.id !== o.clientId || basic.secret !== o.clientSecret) return fail(401, 'invalid_client', 'Bad client credentials.');
        } else {
          if (basic) return fail(401, 'invalid_client', 'Send client_id and client_secret in the body.');
          if (body.client_id !== o.clientId || body.client_secret !== o.clientSecret) return fail(401, 'invalid_client', 'Bad client credentials.');
        }
        if (o.requireNoScope && body.scope !== undefined) return fail(400, 'invalid_scope', 'This provider takes no scope parameter.');

        if (grantType === 'authorization_code') {
          const grant = body.code ? codes.get(body.code) : undefined;
          if (body.code) codes.delete(body.code);
          if (!grant || grant.expiresAt < Date.now()) return fail(400, 'invalid_grant', 'The code is invalid or expired.');
          if (body.redirect_uri !== grant.redirectUri) return fail(400, 'invalid_grant', 'redirect_uri does not match.');
          if (grant.challenge) {
            if (!validVerifier(body.code_verifier) || s256(body.code_verifier) !== grant.challenge)
              return fail(400, 'invalid_grant', 'code_verifier does not match.');
          } else if (body.code_verifier !== undefined && o.pkce === 'refused') {
            return fail(400, 'invalid_request', 'No PKCE here.');
          }
          const tokens = issue(grant.account, o.refresh !== 'none' && grant.offline);
          return answer(200, {
            ...tokenAnswer(tokens.accessToken, tokens.refreshToken, grant.account),
            ...(grant.scope ? { scope: grant.scope } : {}),
          });
        }

        if (grantType === 'refresh_token') {
          if (o.refresh === 'none') return fail(400, 'unsupported_grant_type', 'This provider issues no refresh tokens.');
          const presented = body.refresh_token ?? '';
          let entry = refreshTokens.get(presented);
          if (!entry && o.acceptAnyRefreshToken && presented) {
            entry = { account, alive: true, uses: 0 };
            refreshTokens.set(presented, entry);
          }
          if (entry) {
            entry.uses += 1;
            if (entry.uses > 1) counts.reusedRefreshTokens += 1;
          }
          const failure = failures[0];
          if (failure) {
            failure.remaining -= 1;
            if (failure.remaining <= 0) failures.shift();
            if (failure.kind === 500) return fail(500, 'server_error', 'The stand-in was told to fail.');
            return fail(400, 'invalid_grant', o.invalidGrantDescription);
          }
          if (!entry || !entry.alive) return fail(400, 'invalid_grant', o.invalidGrantDescription);
          counts.refreshOk += 1;
          if (o.refresh === 'rotating') {
            entry.alive = false;
            const tokens = issue(entry.account, true);
            return answer(200, tokenAnswer(tokens.accessToken, tokens.refreshToken, entry.account));
          }
          if (o.refresh === 'sometimes') {
            // Spotify: "a new refresh token might be returned too"; the one presented keeps working.
            sometimesCount += 1;
            const tokens = issue(entry.account, sometimesCount % 2 === 0);
            return answer(200, tokenAnswer(tokens.accessToken, tokens.refreshToken, entry.account));
          }
          const tokens = issue(entry.account, false);
          return answer(200, tokenAnswer(tokens.accessToken, o.refreshAnswerIncludesRefreshToken ? presented : undefined, entry.account));
        }
        return fail(400, 'unsupported_grant_type', `Unsupported grant_type ${grantType}.`);
      }

      if (route === 'POST /__standin/expire-access-tokens') {
        // Test control (not part of any provider): what waiting out the tokens' lifetime does.
        return sendJson(res, 200, { expired: expireAll() });
      }

      const who = o.whoAmI.find((endpoint) => req.method === (endpoint.method ?? 'GET') && requestUrl.pathname === endpoint.path);
      if (who) {
        const authorization = String(header(req, 'authorization') ?? '');
        const match = /^(\S+)\s+(\S+)$/.exec(authorization);
        const body = req.method === 'POST' ? await readBody(req) : undefined;
        userCalls.push({
          path: requestUrl.pathname,
          scheme: match?.[1],
          headers: Object.fromEntries(Object.keys(o.requiredHeaders).map((name) => [name, header(req, name)])),
        });
        /** @param {ApiRefusal} why @param {string} [detail] */
        const refuse = (why, detail) => {
          const refusal = apiRefusal(o.apiErrors, why, detail);
          call.status = refusal.status;
          call.refusal = why;
          return sendJson(res, refusal.status, refusal.body, refusal.headers);
        };
        const call = userCalls[userCalls.length - 1];
        call.status = 200;
        if (o.requireUserAgent && !header(req, 'user-agent')) {
          call.status = 403;
          return sendJson(res, 403, {
            message: 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header.',
            documentation_url: 'https://docs.github.com/rest/overview/resources-in-the-rest-api#user-agent-required',
          });
        }
        const problem = headerProblem(req);
        if (problem) return refuse('header', problem);
        if (!match) return refuse('missing', 'No token provided');
        if (match[1] !== o.apiAuthScheme) return refuse('invalid', `Use Authorization: ${o.apiAuthScheme} <token>`);
        let token = accessTokens.get(match[2]);
        if (!token && o.acceptAnyAccessToken) {
          token = { account, alive: true, expiresAt: Date.now() + lifetimeMs() };
          accessTokens.set(match[2], token);
        }
        if (!token?.alive) return refuse('invalid');
        if (token.expiresAt <= Date.now()) return refuse('expired');
        const request = { url: requestUrl, body };
        const invalid = who.invalid?.(request);
        if (invalid) return refuse('bad_request', invalid);
        return sendJson(res, 200, who.answer(token.account, request));
      }

      // The service's own API, behind a live access token (Hue's bridge and CLIP v2, Battle.net's profile API).
      for (const route of o.apiRoutes ?? []) {
        const match = req.method === route.method ? route.pattern.exec(requestUrl.pathname) : null;
        if (!match) continue;
        const authorization = String(header(req, 'authorization') ?? '');
        const bearer = /^(\S+)\s+(\S+)$/.exec(authorization);
        const record = {
          method: req.method ?? 'GET',
          path: requestUrl.pathname,
          query: Object.fromEntries(requestUrl.searchParams),
          scheme: bearer?.[1],
          headers: Object.fromEntries(['hue-application-key', 'battlenet-namespace'].map((name) => [name, header(req, name)])),
          status: 200,
        };
        apiCalls.push(record);
        const send = (/** @type {number} */ status, /** @type {unknown} */ body) => {
          record.status = status;
          sendJson(res, status, body);
        };
        let token = bearer && bearer[1] === o.apiAuthScheme ? accessTokens.get(bearer[2]) : undefined;
        if (!token && bearer && o.acceptAnyAccessToken) {
          token = { account, alive: true, expiresAt: Date.now() + lifetimeMs() };
          accessTokens.set(bearer[2], token);
        }
        if (!token?.alive || (token.expiresAt && token.expiresAt <= Date.now()))
          return send(401, { error: 'invalid_token', message: 'Unknown, expired or revoked access token.' });
        const raw = ['GET', 'HEAD'].includes(req.method ?? 'GET') ? '' : await readRaw(req);
        /** @type {unknown} */
        let json;
        try {
          json = raw ? JSON.parse(raw) : null;
        } catch {
          return send(400, { error: 'invalid_json' });
        }
        return route.handle({ req, url: requestUrl, match, account: token.account, json, send });
      }

      const githubGrant = /^\/applications\/([^/]+)\/grant$/.exec(requestUrl.pathname);
      const isRevocation =
        (o.revoke === 'github' && req.method === 'DELETE' && githubGrant) ||
        (o.revoke === 'soundcloud' && route === 'POST /sign-out') ||
        (['rfc7009', 'google', 'notion'].includes(o.revoke) && req.method === 'POST' && requestUrl.pathname === o.revokePath);
      if (isRevocation) {
        const body = o.revoke === 'google' ? Object.fromEntries(requestUrl.searchParams) : await readBody(req);
        const basic = parseBasic(header(req, 'authorization'));
        const token = body.token ?? body.access_token ?? '';
        const kind = accessTokens.has(token) ? 'access' : refreshTokens.has(token) ? 'refresh' : 'unknown';
        revocations.push({ style: o.revoke, token, kind, clientAuth: basic ? 'basic' : 'none', contentType: String(header(req, 'content-type') ?? '') });
        const problem = headerProblem(req);
        if (problem) return sendJson(res, 401, { error: 'invalid_request', message: problem });
        const needsBasic = o.revoke === 'github' || o.revoke === 'rfc7009' || o.revoke === 'notion';
        if (needsBasic && (basic?.id !== o.clientId || basic?.secret !== o.clientSecret)) return sendJson(res, 401, { error: 'invalid_client' });
        if (githubGrant && decodeURIComponent(githubGrant[1]) !== o.clientId) return sendJson(res, 404, { message: 'Not Found' });
        const found = accessTokens.get(token) ?? refreshTokens.get(token);
        if (found) found.alive = false;
        if (o.revoke === 'github') {
          res.writeHead(204);
          return res.end();
        }
        return sendJson(res, 200, {});
      }

      return sendJson(res, 404, { error: 'not_found', message: `No route ${route} on the ${o.name} stand-in.` });
    }),
  );

  return {
    name: o.name,
    url,
    close,
    clientId: o.clientId,
    clientSecret: o.clientSecret,
    authorizeUrl: `${url}${o.paths.authorize}`,
    tokenUrl: `${url}${o.paths.token}`,
    userUrl: `${url}${o.whoAmI[0]?.path ?? '/me'}`,
    /** The revocation URL in the catalog's form (GitHub's carries `{client_id}`), or null. */
    revokeUrl:
      o.revoke === 'none'
        ? null
        : o.revoke === 'github'
          ? `${url}/applications/{client_id}/grant`
          : o.revoke === 'soundcloud'
            ? `${url}/sign-out`
            : `${url}${o.revokePath}`,
    tokenCalls,
    authorizeRequests,
    userCalls,
    revocations,
    issued,
    /** Calls to the service's own API (`apiRoutes`): method, path, query, scheme and the Hue/Battle.net headers. */
    apiCalls,
    /** The API routes' own state (Hue: `refuseLink`, the bridge `users`), or undefined. */
    apiState: /** @type {any} */ (o.apiRoutes)?.state,
    /** Token calls by grant type, refreshes that succeeded, refresh tokens presented more than once, refreshes answered with an error. */
    get counts() {
      return { ...counts };
    },
    /** Refresh tokens presented more than once (a concurrent or stale refresh): must stay 0. */
    get duplicateRefreshes() {
      return counts.reusedRefreshTokens;
    },
    get account() {
      return account;
    },
    /** @param {ServiceAccount} next */
    setAccount(next) {
      account = next;
      return account;
    },
    /**
     * The next `times` refresh calls answer `invalid_grant` (400) or a 500.
     * @param {'invalid_grant' | 500} kind
     */
    failNextRefresh(kind, times = 1) {
      failures.push({ kind, remaining: times });
    },
    /** Forgets queued failures. */
    clearFailures() {
      failures.length = 0;
    },
    /** Whether a refresh token is still usable (rotating ones die when used). @param {string} refreshToken */
    refreshTokenAlive(refreshToken) {
      return refreshTokens.get(refreshToken)?.alive ?? false;
    },
    /** Every access token issued so far now counts as expired (the API refuses it as the provider does); the count of live ones it expired. */
    expireAccessTokens() {
      return expireAll();
    },
    /** Clears the recorded calls and counters (issued tokens stay valid). */
    reset() {
      apiCalls.length = 0;
      tokenCalls.length = 0;
      authorizeRequests.length = 0;
      userCalls.length = 0;
      revocations.length = 0;
      for (const key of Object.keys(counts)) counts[/** @type {keyof typeof counts} */ (key)] = 0;
      for (const entry of refreshTokens.values()) entry.uses = 0;
    },
  };
}

/**
 * Fetches a stand-in's consent page (an auth_url the app built) and returns where its
 * "Authorize" link goes: the app's redirect_uri with code and state. What a person's click does.
 * @param {string} authUrl
 */
export async function followAuthorize(authUrl) {
  const response = await fetch(authUrl);
  const html = await response.text();
  if (response.status !== 200)
    throw new Error(
      `The stand-in refused the authorize request (${response.status}): ${html
        .replace(/<[^>]+>/g, ' ')
        .trim()
        .slice(0, 200)}`,
    );
  const match = /data-testid="standin-authorize" href="([^"]+)"/.exec(html);
  if (!match) throw new Error('No Authorize link on the stand-in page');
  return new URL(match[1].replace(/&amp;/g, '&').replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code))));
}

/**
 * Google's APIs behind one stand-in (they share accounts.google.com), in their answer shapes: the
 * calendar list here; Calendar's events, Drive's files, YouTube's subscriptions, channels and
 * uploads, and Fit's aggregate and sessions come from day-apis-a.mjs (withDayApis).
 * @type {ApiEndpoint[]}
 */
const GOOGLE_APIS = [
  {
    path: '/calendar/v3/users/me/calendarList',
    answer: (a) => ({
      kind: 'calendar#calendarList',
      etag: '"p33c9lq3r4ufl00g"',
      nextSyncToken: 'CPDAlvWDx70CEPDAlvWDx70CGAU=',
      items: [
        {
          kind: 'calendar#calendarListEntry',
          id: `${a.name.toLowerCase().replace(/\s+/g, '.')}@gmail.example`,
          summary: a.name,
          timeZone: 'Europe/Madrid',
          accessRole: 'owner',
          primary: true,
        },
        { kind: 'calendar#calendarListEntry', id: 'es.spain#holiday@group.v.calendar.google.com', summary: 'Festivos en España', accessRole: 'reader' },
      ],
    }),
  },
];

/**
 * GitHub App user tokens ("expire user authorization tokens" on): `ghu_` access tokens for 8 hours,
 * `ghr_` refresh tokens for 6 months, single use (a refresh returns a new pair). Pass as
 * `overrides.github`; without it the family is a GitHub OAuth app (no expiry, no refresh token).
 * @type {Partial<ServiceStandInOptions>}
 */
export const GITHUB_APP_TOKENS = {
  refresh: 'rotating',
  expiresIn: 28_800,
  tokenPrefix: 'gh',
  tokenAnswerExtras: () => ({ refresh_token_expires_in: 15_897_600 }),
};

/** @param {string} prefix */
const credentials = (prefix) => ({ clientId: `${prefix}-client-${randomToken(6)}`, clientSecret: `${prefix}-secret-${randomToken(18)}` });

/** Battle.net's regions; the stand-in serves each under `/{region}` (the real `{region}.api.blizzard.com`). */
export const BATTLENET_REGION_KEYS = /** @type {const} */ (['us', 'eu', 'kr', 'tw', 'cn']);

/**
 * Philips Hue's remote API behind the OAuth token: the remote link button
 * (`PUT /route/api/0/config {"linkbutton":true}`), the bridge user (`POST /route/api {"devicetype"}`
 * → `[{"success":{"username"}}]`, or error 101 "link button not pressed"), and CLIP v2
 * (`/route/clip/v2/resource/...`), which also wants `hue-application-key: <username>`.
 * `hueBridge.refuseLink` (on the returned routes) makes the bridge refuse the next link.
 */
export function hueBridge() {
  /** Bridge users by application key, and until when the link button counts as pressed. */
  const users = new Map();
  let pressedUntil = 0;
  const state = { refuseLink: false, users };
  /** @param {{ req: import('node:http').IncomingMessage, send: (status: number, body: unknown) => void }} call */
  const needsKey = (call) => {
    const key = header(call.req, 'hue-application-key');
    if (!key || !users.has(key)) {
      call.send(403, { errors: [{ description: 'unauthorized user' }], data: [] });
      return false;
    }
    return true;
  };
  const routes = [
    {
      method: 'PUT',
      pattern: /^\/route\/api\/0\/config$/,
      handle: (/** @type {ServiceApiCall} */ call) => {
        const body = /** @type {Record<string, unknown> | null} */ (call.json);
        if (body?.linkbutton !== true)
          return call.send(200, [{ error: { type: 7, address: '/config/linkbutton', description: 'invalid value for parameter, linkbutton' } }]);
        if (!state.refuseLink) pressedUntil = Date.now() + 30_000;
        return call.send(200, [{ success: { '/config/linkbutton': true } }]);
      },
    },
    {
      method: 'POST',
      pattern: /^\/route\/api\/?$/,
      handle: (/** @type {ServiceApiCall} */ call) => {
        const body = /** @type {Record<string, unknown> | null} */ (call.json);
        if (typeof body?.devicetype !== 'string' || !body.devicetype)
          return call.send(200, [{ error: { type: 5, address: '/', description: 'invalid/missing parameters in body' } }]);
        if (state.refuseLink || pressedUntil < Date.now()) {
          state.refuseLink = false;
          return call.send(200, [{ error: { type: 101, address: '', description: 'link button not pressed' } }]);
        }
        pressedUntil = 0;
        const username = randomToken(30);
        users.set(username, { devicetype: body.devicetype, account: call.account });
        return call.send(200, [{ success: { username } }]);
      },
    },
    // CLIP v2's lights, rooms and devices, and the light switch (`PUT resource/light/{id}`), with
    // each bridge's own light state: day-apis-b.mjs (added by withDayApis, sharing `users`).
    {
      method: 'GET',
      pattern: /^\/route\/clip\/v2\/resource\/bridge$/,
      handle: (/** @type {ServiceApiCall} */ call) => {
        if (!needsKey(call)) return undefined;
        return call.send(200, { errors: [], data: [{ id: 'b1d9e0c2-5f1a-4c3e-9a8b-7d6e5f4a3b2c', type: 'bridge', bridge_id: '001788fffe4a1b2c' }] });
      },
    },
  ];
  return Object.assign(routes, { state });
}

/**
 * Battle.net's profile API per region (`/{region}/profile/user/wow`, the real
 * `https://{region}.api.blizzard.com/profile/user/wow`): it wants `namespace=profile-{region}`
 * and answers 404 without it, like Blizzard's.
 */
export function battlenetProfileApi() {
  return [
    {
      method: 'GET',
      pattern: /^\/(us|eu|kr|tw|cn)\/profile\/user\/wow$/,
      handle: (/** @type {ServiceApiCall} */ call) => {
        const region = call.match[1];
        const namespace = call.url.searchParams.get('namespace') ?? header(call.req, 'battlenet-namespace');
        if (namespace !== `profile-${region}`) return call.send(404, { code: 404, type: 'BLZWEBAPI00000404', detail: 'Not Found' });
        // The account's characters in Blizzard's shape, names in `locale` (day-apis-b.mjs).
        return call.send(200, wowProfileSummary(region, call.account, call.url.searchParams.get('locale')));
      },
    },
  ];
}

/**
 * The families of quirks, as options of startServiceStandIn.
 * @param {string} [apiKey]  Bungie's X-API-Key value
 * @returns {Record<import('./services.d.mts').ServiceFamily, Omit<ServiceStandInOptions, 'clientId' | 'clientSecret'>>}
 */
export function familyPresets(apiKey = `bungie-key-${randomToken(12)}`) {
  return withDayApis({
    // GitHub OAuth App: client in the body, form answer unless JSON is asked for, no refresh token, never expires.
    github: {
      name: 'GitHub',
      tokenAuth: 'body',
      body: 'form',
      formAnswerUnlessJson: true,
      tokenErrors: 'github',
      paths: { authorize: '/login/oauth/authorize', token: '/login/oauth/access_token' },
      refresh: 'none',
      expiresIn: null,
      revoke: 'github',
      apiErrors: 'github',
      requireUserAgent: true,
      whoAmI: [
        {
          path: '/user',
          answer: (a) => ({
            login: a.name,
            id: Number.parseInt(a.id.replace(/\D/g, '') || '1', 10),
            node_id: `U_kgDO${a.id}`,
            type: 'User',
            name: a.name,
            html_url: `https://github.com/${a.name}`,
            public_repos: 12,
          }),
        },
      ],
      account: { id: '4242', name: 'octo-connector' },
    },
    // Google: a refresh token only with access_type=offline&prompt=consent; refresh answers carry none.
    google: {
      name: 'Google',
      tokenAuth: 'body',
      body: 'form',
      // accounts.google.com/o/oauth2/v2/auth, oauth2.googleapis.com/token and /revoke, on one origin here.
      paths: { authorize: '/o/oauth2/v2/auth', token: '/token' },
      revokePath: '/revoke',
      refresh: 'static',
      refreshTokenRequires: { access_type: 'offline', prompt: 'consent' },
      expiresIn: 3599,
      revoke: 'google',
      invalidGrantDescription: 'Token has been expired or revoked.',
      apiErrors: 'google',
      whoAmI: [
        { path: '/v1/userinfo', answer: (a) => ({ sub: a.id, email: `${a.name.toLowerCase().replace(/\s+/g, '.')}@gmail.example`, name: a.name }) },
        {
          path: '/youtube/v3/channels',
          answer: (a) => ({ kind: 'youtube#channelListResponse', items: [{ id: `UC${a.id}`, snippet: { title: `${a.name} channel` } }] }),
        },
        ...GOOGLE_APIS,
      ],
      account: { id: '1122334455', name: 'Gloria Google' },
    },
    // Fitbit / Philips Hue: Basic auth, every refresh returns a new pair and the old refresh token dies.
    rotating: {
      name: 'Fitbit',
      tokenAuth: 'basic',
      body: 'form',
      paths: { authorize: '/oauth2/authorize', token: '/oauth2/token' },
      revokePath: '/oauth2/revoke',
      refresh: 'rotating',
      expiresIn: 28_800,
      revoke: 'rfc7009',
      tokenErrors: 'fitbit',
      apiErrors: 'fitbit',
      whoAmI: [
        {
          path: '/1/user/-/profile.json',
          answer: (a) => ({
            user: { encodedId: a.id, displayName: a.name, fullName: a.name, memberSince: '2019-03-14', timezone: 'Europe/Madrid', averageDailySteps: 8412 },
          }),
        },
      ],
      account: { id: 'B4FIT1', name: 'Fiona Fitbit' },
    },
    // SoundCloud: rotating refresh tokens, client in the body, PKCE required, `Authorization: OAuth <token>`.
    soundcloud: {
      name: 'SoundCloud',
      tokenAuth: 'body',
      body: 'form',
      // secure.soundcloud.com/authorize and /oauth/token.
      paths: { authorize: '/authorize', token: '/oauth/token' },
      requireNoScope: true,
      pkce: 'required',
      refresh: 'rotating',
      expiresIn: 3600,
      revoke: 'soundcloud',
      apiAuthScheme: 'OAuth',
      apiErrors: 'soundcloud',
      whoAmI: [
        {
          path: '/me',
          answer: (a) => ({
            kind: 'user',
            id: Number.parseInt(a.id, 10) || 7,
            urn: `soundcloud:users:${a.id}`,
            username: a.name,
            permalink: a.name.toLowerCase(),
            permalink_url: `https://soundcloud.com/${a.name.toLowerCase()}`,
            track_count: 3,
          }),
        },
      ],
      account: { id: '777', name: 'sam-soundcloud' },
    },
    // Notion: Basic auth + JSON body + Notion-Version on every call; owner=user; the owner comes in the token answer.
    notion: {
      name: 'Notion',
      tokenAuth: 'basic',
      body: 'json',
      paths: { authorize: '/v1/oauth/authorize', token: '/v1/oauth/token' },
      revokePath: '/v1/oauth/revoke',
      requiredHeaders: { 'Notion-Version': '2022-06-28' },
      requireNoScope: true,
      requiredAuthParams: { owner: 'user' },
      refresh: 'rotating',
      expiresIn: 3600,
      revoke: 'notion',
      apiErrors: 'notion',
      apiBasePath: '/v1',
      whoAmI: [
        {
          path: '/v1/users/me',
          answer: (a) => ({ object: 'user', id: `bot-${a.id}`, type: 'bot', bot: { owner: { type: 'user', user: { id: a.id, name: a.name } } } }),
        },
      ],
      tokenAnswerExtras: (a) => ({
        bot_id: `bot-${a.id}`,
        workspace_name: `${a.name}'s workspace`,
        owner: { type: 'user', user: { object: 'user', id: a.id, name: a.name } },
      }),
      account: { id: 'notion-user-1', name: 'Nora Notion' },
    },
    // Bungie: X-API-Key on every call, no scope parameter at all, no PKCE, single-use refresh tokens.
    bungie: {
      name: 'Bungie',
      tokenAuth: 'basic',
      body: 'form',
      // www.bungie.net/en/OAuth/Authorize and /platform/app/oauth/token/ (lower case, trailing slash).
      paths: { authorize: '/en/OAuth/Authorize', token: '/platform/app/oauth/token/' },
      requiredHeaders: { 'X-API-Key': apiKey },
      requireNoScope: true,
      pkce: 'refused',
      refresh: 'rotating',
      expiresIn: 3600,
      revoke: 'none',
      apiErrors: 'bungie',
      apiBasePath: '/Platform',
      whoAmI: [
        {
          path: '/Platform/User/GetMembershipsForCurrentUser/',
          answer: (a) => ({
            Response: {
              bungieNetUser: { membershipId: a.id, displayName: a.name, uniqueName: a.name },
              destinyMemberships: [{ membershipType: 3, membershipId: `4611686018${a.id.slice(-9)}`, displayName: a.name.split('#')[0], crossSaveOverride: 0 }],
              primaryMembershipId: `4611686018${a.id.slice(-9)}`,
            },
            ErrorCode: 1,
            ThrottleSeconds: 0,
            ErrorStatus: 'Success',
            Message: 'Ok',
            MessageData: {},
          }),
        },
      ],
      // Refresh tokens last 90 days and are single use.
      tokenAnswerExtras: (a) => ({ membership_id: a.id, refresh_expires_in: 7_776_000 }),
      account: { id: '4611686018', name: 'Guardian#1234' },
    },
    // Spotify: Basic auth, a one-hour token, a refresh token that lasts (refresh answers usually carry none).
    spotify: {
      name: 'Spotify',
      tokenAuth: 'basic',
      body: 'form',
      // accounts.spotify.com/authorize and /api/token.
      paths: { authorize: '/authorize', token: '/api/token' },
      refresh: 'sometimes',
      expiresIn: 3600,
      revoke: 'none',
      apiErrors: 'spotify',
      apiBasePath: '/v1',
      whoAmI: [
        {
          path: '/v1/me',
          answer: (a) => ({
            id: a.id,
            display_name: a.name,
            type: 'user',
            uri: `spotify:user:${a.id}`,
            href: `https://api.spotify.com/v1/users/${a.id}`,
            external_urls: { spotify: `https://open.spotify.com/user/${a.id}` },
            followers: { href: null, total: 3 },
            images: [],
          }),
        },
      ],
      account: { id: 'spoti-user-31', name: 'Sofía Spotify' },
    },
    // Philips Hue (remote API): Basic auth, no scope, rotating refresh tokens, a 7-day token, no who-am-I endpoint.
    hue: {
      name: 'Philips Hue',
      tokenAuth: 'basic',
      body: 'form',
      requireNoScope: true,
      refresh: 'rotating',
      expiresIn: 604_800,
      revoke: 'none',
      whoAmI: [],
      account: { id: 'hue-bridge-1', name: 'Hue Bridge' },
      apiRoutes: hueBridge(),
    },
    // Microsoft identity platform v2 + Microsoft Graph: client in the body, a refresh token only with
    // `offline_access`, every refresh returns a new one; Graph's /me, OneDrive's files, Outlook's events and mail.
    microsoft: {
      name: 'Microsoft',
      tokenAuth: 'body',
      body: 'form',
      paths: { authorize: '/common/oauth2/v2.0/authorize', token: '/common/oauth2/v2.0/token' },
      refreshTokenScope: 'offline_access',
      refresh: 'rotating',
      expiresIn: 3599,
      revoke: 'none',
      tokenErrors: 'microsoft',
      apiErrors: 'graph',
      apiBasePath: '/v1.0',
      whoAmI: [
        {
          path: '/v1.0/me',
          answer: (a) => ({
            '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#users/$entity',
            id: a.id,
            displayName: a.name,
            userPrincipalName: `${a.name.toLowerCase().replace(/\s+/g, '.')}@outlook.example`,
            mail: `${a.name.toLowerCase().replace(/\s+/g, '.')}@outlook.example`,
          }),
        },
        {
          path: '/v1.0/me/drive/root/children',
          answer: () => ({
            '@odata.context': "https://graph.microsoft.com/v1.0/$metadata#users('me')/drive/root/children",
            value: [
              {
                id: '01BYE5RZ6QN3ZWBTUFOFD3GSPGOHDJD36K',
                name: 'Documentos',
                folder: { childCount: 3 },
                size: 1_048_576,
                lastModifiedDateTime: '2026-11-01T09:30:00Z',
              },
              {
                id: '01BYE5RZ5MYLM2SMX75ZBIPQZIHT6OAYPB',
                name: 'Presupuesto.xlsx',
                file: { mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
                size: 20_480,
                lastModifiedDateTime: '2026-11-20T18:02:00Z',
              },
            ],
          }),
        },
        {
          path: '/v1.0/me/events',
          answer: () => ({
            '@odata.context': "https://graph.microsoft.com/v1.0/$metadata#users('me')/events",
            value: [
              {
                id: 'AAMkAGI2TG93AAA=',
                subject: 'Revisión trimestral',
                start: { dateTime: '2026-12-01T10:00:00.0000000', timeZone: 'UTC' },
                end: { dateTime: '2026-12-01T11:00:00.0000000', timeZone: 'UTC' },
                organizer: { emailAddress: { name: 'Mara Microsoft', address: 'mara.microsoft@outlook.example' } },
              },
            ],
          }),
        },
        {
          path: '/v1.0/me/messages',
          answer: () => ({
            '@odata.context': "https://graph.microsoft.com/v1.0/$metadata#users('me')/messages",
            value: [
              {
                id: 'AAMkAGVmMDEzMTM4LTZmYWUtNDdkNC1hMDZiLTU1OGY5OTZhYmY4OABGAAAAAAAiQ8W967B7TKBjgx9rVEURBwAiIsqMbYjsT5e-T7KzowPTAAAAAAEMAAAiIsqMbYjsT5e-T7KzowPTAAAYbvZQAAA=',
                subject: 'Tu factura de noviembre',
                receivedDateTime: '2026-11-24T08:15:00Z',
                isRead: false,
                from: { emailAddress: { name: 'Contoso', address: 'facturas@contoso.example' } },
              },
            ],
          }),
        },
      ],
      account: { id: '48d31887-5fad-4d73-a9f5-3c356e68a038', name: 'Mara Microsoft' },
    },
    // Battle.net: Basic auth, a 24 h access token and no refresh token.
    battlenet: {
      name: 'Battle.net',
      tokenAuth: 'basic',
      body: 'form',
      refresh: 'none',
      expiresIn: 86_400,
      revoke: 'none',
      whoAmI: [{ path: '/oauth/userinfo', answer: (a) => ({ sub: a.id, id: Number.parseInt(a.id, 10) || 1, battletag: a.name }) }],
      account: { id: '99887766', name: 'Thrall#1111' },
      apiRoutes: battlenetProfileApi(),
    },
  });
}

/**
 * Adds what the "Tu día" views read (issue 19, `day-apis-a.mjs` and `day-apis-b.mjs`): more API
 * endpoints after each family's who-am-I (exact paths) and more routes (patterns), each in the
 * provider's real answer shape. An endpoint with the method and path of one the family already
 * has takes its place (only the first endpoint of a path is ever reached). The Hue routes share
 * the bridge's users (application keys).
 * @template {Record<string, any>} P
 * @param {P} presets
 * @returns {P}
 */
function withDayApis(presets) {
  const hueState = presets.hue.apiRoutes.state;
  /** @param {ApiEndpoint} a @param {ApiEndpoint} b */
  const same = (a, b) => a.path === b.path && (a.method ?? 'GET') === (b.method ?? 'GET');
  for (const extra of [dayApisA(), dayApisB({ hueUsers: hueState.users })]) {
    for (const [family, { endpoints = [], routes = [] }] of Object.entries(extra)) {
      const preset = presets[family];
      /** @type {ApiEndpoint[]} */
      const whoAmI = [...(preset.whoAmI ?? [])];
      for (const endpoint of endpoints) {
        const at = whoAmI.findIndex((existing) => same(existing, endpoint));
        if (at >= 0) whoAmI[at] = endpoint;
        else whoAmI.push(endpoint);
      }
      preset.whoAmI = whoAmI;
      if (routes.length) preset.apiRoutes = Object.assign([...(preset.apiRoutes ?? []), ...routes], { state: preset.apiRoutes?.state });
    }
  }
  return presets;
}

/** Which catalog rows each family serves in the tests (`startServiceStandIns()` without options). */
export const FAMILY_ROWS = /** @type {const} */ ({
  github: ['github'],
  google: ['googlecalendar', 'youtube'],
  rotating: ['fitbit'],
  soundcloud: ['soundcloud'],
  notion: ['notion'],
  bungie: ['destiny2'],
  battlenet: ['wow'],
  microsoft: ['microsoft'],
});

/**
 * Every connectable service of the catalog and the family that stands in for it: what the app's
 * development providers serve (DEV_SERVICES, docs/decisions/0020-development-providers.md).
 */
export const CATALOG_FAMILY_ROWS = /** @type {const} */ ({
  github: ['github'],
  google: ['googlecalendar', 'youtube', 'googledrive', 'googlefit'],
  rotating: ['fitbit'],
  hue: ['philipshue'],
  spotify: ['spotify'],
  soundcloud: ['soundcloud'],
  notion: ['notion'],
  bungie: ['destiny2'],
  battlenet: ['wow'],
  microsoft: ['microsoft'],
});

const SERVICE_TYPES = /** @type {Record<string, string>} */ ({
  github: 'código',
  googlecalendar: 'calendario',
  youtube: 'vídeo',
  googledrive: 'archivos',
  googlefit: 'salud',
  fitbit: 'salud',
  philipshue: 'hogar',
  spotify: 'música',
  soundcloud: 'música',
  notion: 'notas',
  destiny2: 'juegos',
  wow: 'juegos',
  microsoft: 'archivos',
});

/**
 * Starts one stand-in per family and returns them with ready PUT /api/external-services/:id
 * bodies (without the id) for the catalog rows they serve (`rowsByFamily`, default FAMILY_ROWS).
 * @param {{ families?: import('./services.d.mts').ServiceFamily[], overrides?: Partial<Record<import('./services.d.mts').ServiceFamily, Partial<ServiceStandInOptions>>>, rowsByFamily?: Partial<Record<import('./services.d.mts').ServiceFamily, readonly string[]>> }} [options]
 */
export async function startServiceStandIns(options = {}) {
  const apiKey = `bungie-key-${randomToken(12)}`;
  const presets = familyPresets(apiKey);
  /** @type {Partial<Record<import('./services.d.mts').ServiceFamily, readonly string[]>>} */
  const rowsByFamily = options.rowsByFamily ?? FAMILY_ROWS;
  const families = options.families ?? /** @type {import('./services.d.mts').ServiceFamily[]} */ (Object.keys(rowsByFamily));
  /** @type {Partial<Record<import('./services.d.mts').ServiceFamily, Awaited<ReturnType<typeof startServiceStandIn>>>>} */
  const standIns = {};
  /** @type {Record<string, import('./services.d.mts').ServiceRowBody>} */
  const rows = {};
  try {
    for (const family of families) {
      const preset = presets[family];
      const standIn = await startServiceStandIn({ ...credentials(family), ...preset, ...options.overrides?.[family] });
      standIns[family] = standIn;
      const o = { ...preset, ...options.overrides?.[family] };
      for (const serviceName of rowsByFamily[family] ?? []) {
        const whoAmI = o.whoAmI ?? [];
        const userPath = serviceName === 'youtube' ? (whoAmI[1]?.path ?? whoAmI[0]?.path) : whoAmI[0]?.path;
        rows[serviceName] = {
          service_name: serviceName,
          service_type: SERVICE_TYPES[serviceName] ?? 'otros',
          status: 'active',
          app_id: standIn.clientId,
          app_secret: standIn.clientSecret,
          auth_url: standIn.authorizeUrl,
          token_url: standIn.tokenUrl,
          base_url: `${standIn.url}${o.apiBasePath ?? ''}`,
          // A family without a who-am-I endpoint (Philips Hue) leaves it empty, like the catalog row.
          user_url: userPath ? `${standIn.url}${userPath}${serviceName === 'youtube' ? '?part=snippet&mine=true' : ''}` : '',
          token_auth: o.tokenAuth ?? 'body',
          token_body: o.body ?? 'form',
          send_scope: !o.requireNoScope,
          pkce: o.pkce !== 'refused',
          extra_headers: Object.fromEntries(Object.entries(o.requiredHeaders ?? {}).filter(([name]) => name.toLowerCase() !== 'x-api-key')),
          api_key_header: family === 'bungie' ? 'X-API-Key' : null,
          api_key: family === 'bungie' ? apiKey : '',
          revoke_url: standIn.revokeUrl ?? '',
          revoke_style: o.revoke ?? 'none',
          account_url: `${standIn.url}/account/connections`,
          // Battle.net: every region on the stand-in's own host, under /{region}.
          ...(family === 'battlenet'
            ? {
                base_url: `${standIn.url}/{region}`,
                region_settings: BATTLENET_REGION_KEYS.map((region) => ({ region, query: { namespace: 'profile-{region}' } })),
              }
            : {}),
        };
      }
    }
  } catch (error) {
    await Promise.allSettled(Object.values(standIns).map((s) => s.close()));
    throw error;
  }
  return {
    ...standIns,
    apiKey,
    rows,
    close: async () => {
      await Promise.allSettled(Object.values(standIns).map((s) => s.close()));
    },
  };
}
