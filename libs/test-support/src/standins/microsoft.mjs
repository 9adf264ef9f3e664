// A local stand-in for signing in with Microsoft (the login provider "microsoft"): the Microsoft
// identity platform v2.0 as an app registered for "any Entra ID tenant + personal accounts" sees it.
//   GET  /{tenant}/v2.0/.well-known/openid-configuration   tenant = common | organizations | consumers | a tenant id;
//        common/organizations answer the issuer template https://…/{tenantid}/v2.0, consumers and a
//        tenant id their own issuer (personal accounts live in tenant 9188040d-6c67-4c5b-b112-36a304b66dad)
//   GET  /{tenant}/discovery/v2.0/keys                      JWKS (RS256)
//   GET  /{tenant}/oauth2/v2.0/authorize                    a page where the person types their e-mail; consumers
//        refuses work accounts, organizations personal ones, a tenant id everyone outside it (AADSTS errors)
//   POST /{tenant}/oauth2/v2.0/token                        client_secret in the body (or Basic), PKCE S256
//   GET  /oidc/userinfo                                     Graph's OIDC userinfo: sub, name, email; never email_verified
// Like Microsoft, the id_token carries `tid`, `oid`, `ver: "2.0"`, `iss` with the account's tenant,
// `email` only with the email scope, never `email_verified`, and `xms_edov` only when the app
// registration asked for that optional claim (and an e-mail is in the token).
import http from 'node:http';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { escapeHtml, guarded, listen, pageLanguage, randomToken, readBody, s256, sendHtml, sendJson, validVerifier } from './common.mjs';

/** The tenant of every personal Microsoft account (Outlook.com, Xbox, Skype...). */
export const MICROSOFT_CONSUMER_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

/**
 * @typedef {object} MicrosoftAccount
 * @property {string} email
 * @property {'personal' | 'work'} [kind]    default personal
 * @property {string} [tenantId]             a work account's tenant (default: the stand-in's organisation tenant)
 * @property {string} [oid]                  object id (made from the e-mail when absent)
 * @property {string} [name]
 * @property {boolean | string} [edov]       what `xms_edov` says for this account when the app asks for it:
 *                                           default true for personal accounts, and for work accounts
 *                                           whose tenant verified the e-mail's domain; Microsoft sends
 *                                           it as true/false or "1"/"0"
 */

const CODE_TTL_MS = 10 * 60 * 1000;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Starts the Microsoft stand-in on 127.0.0.1 (a free port).
 * @param {{ clientId: string, clientSecret: string, accounts?: MicrosoftAccount[], optionalClaims?: string[], organizationTenant?: string, port?: number }} options
 *   optionalClaims: the app registration's ID token optional claims (Token configuration), default ['xms_edov']
 */
export async function startMicrosoftStandIn(options) {
  if (!options?.clientId || !options?.clientSecret) throw new Error('startMicrosoftStandIn needs clientId and clientSecret');
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomBytes(6).toString('base64url');
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, kty: 'RSA', use: 'sig' }] };
  const organizationTenant = options.organizationTenant ?? randomUUID();
  /** @type {MicrosoftAccount[]} */
  const accounts = [...(options.accounts ?? [])];
  let optionalClaims = [...(options.optionalClaims ?? ['xms_edov'])];
  /** @type {Map<string, { clientId: string, redirectUri: string, scope: string, state?: string, nonce?: string, codeChallenge?: string, tenant: string }>} */
  const pending = new Map();
  /** @type {Map<string, { redirectUri: string, codeChallenge?: string, nonce?: string, scope: string, account: Required<MicrosoftAccount>, expiresAt: number }>} */
  const codes = new Map();
  /** @type {Map<string, Required<MicrosoftAccount>>} */
  const accessTokens = new Map();
  /** @type {{ body: Record<string, string>, error?: string, claims?: Record<string, unknown> }[]} */
  const tokenCalls = [];

  const server = http.createServer();
  const { url, close } = await listen(server, options.port);
  const issuerOf = (/** @type {string} */ tenantId) => `${url}/${tenantId}/v2.0`;

  /** @param {string} email @returns {Required<MicrosoftAccount>} */
  function account(email) {
    const known = accounts.find((a) => a.email.toLowerCase() === email.toLowerCase());
    const base = known ?? { email };
    const kind = base.kind ?? 'personal';
    const tenantId = kind === 'personal' ? MICROSOFT_CONSUMER_TENANT : (base.tenantId ?? organizationTenant);
    const digest = createHash('sha256').update(`${tenantId}:${email.toLowerCase()}`).digest('hex');
    return {
      email: base.email,
      kind,
      tenantId,
      oid: base.oid ?? `${digest.slice(0, 8)}-${digest.slice(8, 12)}-${digest.slice(12, 16)}-${digest.slice(16, 20)}-${digest.slice(20, 32)}`,
      name: base.name ?? base.email.split('@')[0],
      edov: base.edov ?? true,
    };
  }

  /** The tenant part of a request path decides who may sign in (as Microsoft's endpoints do). @returns {string | undefined} an AADSTS error */
  function refusal(/** @type {string} */ tenant, /** @type {Required<MicrosoftAccount>} */ who) {
    if (tenant === 'consumers' && who.kind !== 'personal')
      return 'AADSTS50020: User account from identity provider does not exist in tenant and cannot access the application.';
    if (tenant === 'organizations' && who.kind === 'personal') return 'AADSTS50020: Personal Microsoft accounts cannot sign in to the organizations endpoint.';
    if (GUID.test(tenant) && tenant !== who.tenantId) return `AADSTS50020: User account ${who.email} does not exist in tenant ${tenant}.`;
    return undefined;
  }

  /** Microsoft's pairwise subject: one value per account and app. */
  const subjectOf = (/** @type {Required<MicrosoftAccount>} */ who) =>
    createHash('sha256').update(`${who.oid}:${options.clientId}`).digest('base64url').slice(0, 43);

  /** @param {Required<MicrosoftAccount>} who @param {string} scope @param {string} [nonce] */
  async function idToken(who, scope, nonce) {
    const now = Math.floor(Date.now() / 1000);
    const scopes = scope.split(/\s+/);
    const withEmail = scopes.includes('email');
    /** @type {Record<string, unknown>} */
    const claims = {
      ver: '2.0',
      iss: issuerOf(who.tenantId),
      sub: subjectOf(who),
      aud: options.clientId,
      exp: now + 3600,
      iat: now,
      nbf: now,
      tid: who.tenantId,
      oid: who.oid,
      aio: randomToken(16),
      uti: randomToken(12),
      ...(nonce ? { nonce } : {}),
      ...(scopes.includes('profile') ? { name: who.name, preferred_username: who.email } : {}),
      ...(withEmail ? { email: who.email } : {}),
      // Optional claim: only when the app registration asks for it, and only next to an e-mail.
      ...(withEmail && optionalClaims.includes('xms_edov') ? { xms_edov: who.edov } : {}),
    };
    return { claims, token: await new SignJWT(claims).setProtectedHeader({ typ: 'JWT', alg: 'RS256', kid }).sign(privateKey) };
  }

  /** @param {string} text @param {number} [status] */
  const aadError = (/** @type {import('node:http').ServerResponse} */ res, text, status = 400) =>
    sendHtml(res, status, 'Microsoft (stand-in)', `<h1>Sign in</h1><p role="alert" data-testid="standin-error">${escapeHtml(text)}</p>`);

  server.on(
    'request',
    guarded(async (req, res) => {
      const requestUrl = new URL(req.url ?? '/', url);
      const path = requestUrl.pathname;
      const [, tenant = '', ...rest] = path.split('/');
      const tail = rest.join('/');
      const knownTenant = tenant === 'common' || tenant === 'organizations' || tenant === 'consumers' || GUID.test(tenant);

      if (req.method === 'GET' && knownTenant && tail === 'v2.0/.well-known/openid-configuration') {
        const issuer = tenant === 'consumers' ? issuerOf(MICROSOFT_CONSUMER_TENANT) : GUID.test(tenant) ? issuerOf(tenant) : `${url}/{tenantid}/v2.0`;
        return sendJson(res, 200, {
          token_endpoint: `${url}/${tenant}/oauth2/v2.0/token`,
          token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
          jwks_uri: `${url}/${tenant}/discovery/v2.0/keys`,
          response_modes_supported: ['query', 'fragment', 'form_post'],
          subject_types_supported: ['pairwise'],
          id_token_signing_alg_values_supported: ['RS256'],
          response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
          scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
          issuer,
          request_uri_parameter_supported: false,
          userinfo_endpoint: `${url}/oidc/userinfo`,
          authorization_endpoint: `${url}/${tenant}/oauth2/v2.0/authorize`,
          http_logout_supported: true,
          frontchannel_logout_supported: true,
          end_session_endpoint: `${url}/${tenant}/oauth2/v2.0/logout`,
          claims_supported: [
            'sub',
            'iss',
            'cloud_instance_name',
            'cloud_instance_host_name',
            'cloud_graph_host_name',
            'msgraph_host',
            'aud',
            'exp',
            'iat',
            'auth_time',
            'acr',
            'nonce',
            'preferred_username',
            'name',
            'tid',
            'ver',
            'at_hash',
            'c_hash',
            'email',
          ],
          tenant_region_scope: null,
          cloud_instance_name: 'microsoftonline.com',
        });
      }

      if (req.method === 'GET' && knownTenant && tail === 'discovery/v2.0/keys') return sendJson(res, 200, jwks);

      if (req.method === 'GET' && knownTenant && tail === 'oauth2/v2.0/authorize') {
        const q = requestUrl.searchParams;
        if (q.get('client_id') !== options.clientId)
          return aadError(res, `AADSTS700016: Application with identifier '${q.get('client_id') ?? ''}' was not found in the directory.`);
        if (!/^https?:\/\//.test(q.get('redirect_uri') ?? '')) return aadError(res, 'AADSTS50011: The redirect URI specified in the request does not match.');
        if (q.get('response_type') !== 'code') return aadError(res, 'AADSTS700054: response_type must be code for this app.');
        if (q.get('code_challenge') && q.get('code_challenge_method') !== 'S256') return aadError(res, 'AADSTS501491: Invalid code challenge method.');
        const transaction = randomToken(16);
        pending.set(transaction, {
          clientId: options.clientId,
          redirectUri: /** @type {string} */ (q.get('redirect_uri')),
          scope: q.get('scope') ?? '',
          state: q.get('state') ?? undefined,
          nonce: q.get('nonce') ?? undefined,
          codeChallenge: q.get('code_challenge') ?? undefined,
          tenant,
        });
        const es = pageLanguage(req) === 'es';
        return sendHtml(
          res,
          200,
          'Microsoft (stand-in)',
          `<div class="warn" role="alert"><strong>Microsoft (stand-in).</strong> ${es ? 'Un servidor local de pruebas, no login.microsoftonline.com.' : 'A local test server, not login.microsoftonline.com.'}</div>
<h1>${es ? 'Iniciar sesión' : 'Sign in'}</h1>
<form method="post" action="${escapeHtml(`${url}/${tenant}/oauth2/v2.0/authorize/continue?tx=${transaction}`)}">
<label>${es ? 'Correo electrónico' : 'Email'} <input type="email" name="email" required autocomplete="off" data-testid="standin-email"></label>
<div class="actions"><button type="submit" data-testid="standin-authorize">${es ? 'Siguiente' : 'Next'}</button></div>
</form>`,
          es ? 'es' : 'en',
        );
      }

      if (req.method === 'POST' && knownTenant && tail === 'oauth2/v2.0/authorize/continue') {
        const transaction = requestUrl.searchParams.get('tx') ?? '';
        const flow = pending.get(transaction);
        pending.delete(transaction);
        if (!flow || flow.tenant !== tenant) return aadError(res, 'AADSTS90014: The request has expired; start the sign-in again.');
        const body = await readBody(req);
        const email = String(body.email ?? '').trim();
        if (!/^[^@\s]+@[^@\s]+$/.test(email)) return aadError(res, 'AADSTS50034: The user account does not exist in the directory.');
        const who = account(email);
        const refused = refusal(tenant, who);
        if (refused) return aadError(res, refused);
        const code = `0.A${randomToken(48)}`;
        codes.set(code, {
          redirectUri: flow.redirectUri,
          codeChallenge: flow.codeChallenge,
          nonce: flow.nonce,
          scope: flow.scope,
          account: who,
          expiresAt: Date.now() + CODE_TTL_MS,
        });
        const back = new URL(flow.redirectUri);
        back.searchParams.set('code', code);
        if (flow.state !== undefined) back.searchParams.set('state', flow.state);
        // No `iss` here: Microsoft does not send RFC 9207's parameter. session_state like the real one.
        back.searchParams.set('session_state', randomUUID());
        res.writeHead(302, { location: back.href, 'cache-control': 'no-store' });
        return void res.end();
      }

      if (req.method === 'POST' && knownTenant && tail === 'oauth2/v2.0/token') {
        const body = await readBody(req);
        /** @type {{ body: Record<string, string>, error?: string, claims?: Record<string, unknown> }} */
        const call = { body };
        tokenCalls.push(call);
        /** @param {string} error @param {string} description @param {number} [status] */
        const fail = (error, description, status = 400) => {
          call.error = error;
          return sendJson(res, status, {
            error,
            error_description: `${description}\r\nTrace ID: ${randomUUID()}\r\nCorrelation ID: ${randomUUID()}\r\nTimestamp: ${new Date().toISOString()}`,
            error_codes: [Number(/AADSTS(\d+)/.exec(description)?.[1] ?? 0)],
            timestamp: new Date().toISOString(),
            trace_id: randomUUID(),
            correlation_id: randomUUID(),
          });
        };
        let [clientId, clientSecret] = [body.client_id, body.client_secret];
        const basic = /^Basic (.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
        if (basic) [clientId, clientSecret] = Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent);
        if (clientId !== options.clientId) return fail('unauthorized_client', `AADSTS700016: Application with identifier '${clientId ?? ''}' was not found.`);
        if (clientSecret !== options.clientSecret) return fail('invalid_client', 'AADSTS7000215: Invalid client secret provided.', 401);
        if (body.grant_type !== 'authorization_code') return fail('unsupported_grant_type', 'AADSTS70003: The app requested an unsupported grant type.');
        const grant = body.code ? codes.get(body.code) : undefined;
        if (body.code) codes.delete(body.code);
        if (!grant || grant.expiresAt < Date.now())
          return fail('invalid_grant', 'AADSTS70008: The provided authorization code or refresh token has expired or was already redeemed.');
        if (body.redirect_uri !== grant.redirectUri)
          return fail('invalid_grant', 'AADSTS50148: The redirect_uri does not match the one of the authorization request.');
        if (grant.codeChallenge && (!validVerifier(body.code_verifier) || s256(body.code_verifier) !== grant.codeChallenge))
          return fail('invalid_grant', 'AADSTS501481: The Code_Verifier does not match the code_challenge supplied in the authorization request.');
        const { claims, token } = await idToken(grant.account, grant.scope, grant.nonce);
        call.claims = claims;
        const accessToken = `EwB${randomToken(48)}`;
        accessTokens.set(accessToken, grant.account);
        return sendJson(res, 200, {
          token_type: 'Bearer',
          scope: grant.scope
            .split(/\s+/)
            .filter((s) => s && s !== 'offline_access')
            .join(' '),
          expires_in: 3600,
          ext_expires_in: 3600,
          access_token: accessToken,
          ...(grant.scope.split(/\s+/).includes('offline_access') ? { refresh_token: `M.C5${randomToken(48)}` } : {}),
          id_token: token,
        });
      }

      if (req.method === 'GET' && path === '/oidc/userinfo') {
        const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
        const who = bearer ? accessTokens.get(bearer) : undefined;
        if (!who) return sendJson(res, 401, { error: { code: 'InvalidAuthenticationToken', message: 'Access token is empty or invalid.' } });
        const [given, ...family] = who.name.split(' ');
        return sendJson(res, 200, {
          sub: subjectOf(who),
          name: who.name,
          family_name: family.join(' '),
          given_name: given,
          picture: `${url}/v1.0/me/photo/$value`,
          email: who.email,
        });
      }

      return sendJson(res, 404, { error: 'not_found' });
    }),
  );

  return {
    url,
    close,
    organizationTenant,
    /** The base URL (discovery) of an endpoint: common (the default row), organizations, consumers or a tenant id. */
    baseUrl: (/** @type {string} */ tenant = 'common') => `${url}/${tenant}/v2.0`,
    /** Every call to the token endpoint, oldest first, with the claims of the id_token it answered. */
    tokenCalls,
    /** Adds or replaces an account (by e-mail); other e-mails typed on the page are personal accounts. @param {MicrosoftAccount} next */
    setAccount(next) {
      const index = accounts.findIndex((a) => a.email.toLowerCase() === next.email.toLowerCase());
      if (index === -1) accounts.push(next);
      else accounts[index] = next;
      return account(next.email);
    },
    /** The app registration's ID token optional claims (Entra: Token configuration). @param {string[]} claims */
    setOptionalClaims(claims) {
      optionalClaims = [...claims];
    },
  };
}
