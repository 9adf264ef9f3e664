// A local stand-in for Sign in with Apple (the login provider "apple").
//   GET  /.well-known/openid-configuration   issuer = this server's URL
//   GET  /auth/keys                          JWKS of its RS256 signing key
//   GET  /auth/authorize                     needs response_mode=form_post; the "Continue" button
//                                            POSTs code, state (and `user` on the first sign-in) to redirect_uri
//   POST /auth/token                         verifies client_secret: an ES256 JWT signed with the
//                                            team's key (kid, iss = team id, sub = client id, aud = issuer)
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT } from 'jose';
import { escapeHtml, guarded, listen, randomToken, readBody, s256, sendHtml, sendJson, validVerifier } from './common.mjs';

/**
 * @typedef {object} AppleAccount
 * @property {string} sub
 * @property {string} email
 * @property {string} [firstName]
 * @property {string} [lastName]
 * @property {boolean} [emailVerified]  default true (sent as the string "true", like Apple)
 */

/**
 * @typedef {object} AppleTamper  changes the next id_token, to test that the app refuses it
 * @property {Record<string, unknown>} [claims]  claims to override (e.g. { nonce: 'x' } or { aud: 'other' })
 * @property {boolean} [foreignKey]             sign with a key that is not in the JWKS
 */

const CODE_TTL_MS = 5 * 60 * 1000;
/** Apple refuses client secrets that live longer than 6 months. */
const MAX_SECRET_LIFETIME_S = 15777000;

export const DEFAULT_APPLE_ACCOUNT = /** @type {AppleAccount} */ ({
  sub: '001234.5f3c0a9e1b2d4c6e8f0a1b2c3d4e5f60.1234',
  email: 'ana.apple@example.com',
  firstName: 'Ana',
  lastName: 'Apple',
});

/**
 * Starts the Apple stand-in on 127.0.0.1 (a free port).
 * @param {{ clientId: string, teamId: string, keyId: string, publicKey: CryptoKey | import('jose').JWK | import('node:crypto').KeyObject, redirectUri?: string, account?: AppleAccount, port?: number }} options
 */
export async function startAppleStandIn(options) {
  for (const key of /** @type {const} */ (['clientId', 'teamId', 'keyId', 'publicKey'])) {
    if (!options?.[key]) throw new Error(`startAppleStandIn needs ${key}`);
  }
  const clientKey = /** @type {any} */ (options.publicKey).kty
    ? await importJWK(/** @type {import('jose').JWK} */ (options.publicKey), 'ES256')
    : options.publicKey;
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomBytes(5).toString('hex');
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, use: 'sig', alg: 'RS256' }] };
  const foreign = await generateKeyPair('RS256');

  let account = { ...(options.account ?? DEFAULT_APPLE_ACCOUNT) };
  /** Accounts that already gave this app their name (Apple sends it only once). */
  const seen = new Set();
  /** @type {Map<string, { redirectUri: string, codeChallenge?: string, nonce?: string, account: AppleAccount, expiresAt: number }>} */
  const codes = new Map();
  /** @type {{ body: Record<string, string>, error?: string, clientSecretClaims?: Record<string, unknown> }[]} */
  const tokenCalls = [];
  /** @type {AppleTamper | undefined} */
  let tamper;

  const server = http.createServer();
  const { url, close } = await listen(server, options.port);
  const issuer = url;

  /** @param {AppleAccount} who @param {string} [nonce] */
  async function idToken(who, nonce) {
    const change = tamper;
    tamper = undefined;
    const now = Math.floor(Date.now() / 1000);
    /** @type {Record<string, unknown>} */
    const claims = {
      iss: issuer,
      aud: options.clientId,
      sub: who.sub,
      iat: now,
      exp: now + 600,
      auth_time: now,
      email: who.email,
      email_verified: who.emailVerified === false ? 'false' : 'true',
      is_private_email: who.email.endsWith('@privaterelay.appleid.com') ? 'true' : 'false',
      nonce_supported: true,
      ...(nonce ? { nonce } : {}),
      ...(change?.claims ?? {}),
    };
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).sign(change?.foreignKey ? foreign.privateKey : privateKey);
  }

  server.on(
    'request',
    guarded(async (req, res) => {
      const requestUrl = new URL(req.url ?? '/', url);
      const route = `${req.method} ${requestUrl.pathname}`;

      if (route === 'GET /.well-known/openid-configuration') {
        return sendJson(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/auth/authorize`,
          token_endpoint: `${issuer}/auth/token`,
          revocation_endpoint: `${issuer}/auth/revoke`,
          jwks_uri: `${issuer}/auth/keys`,
          response_types_supported: ['code'],
          response_modes_supported: ['query', 'fragment', 'form_post'],
          subject_types_supported: ['pairwise'],
          id_token_signing_alg_values_supported: ['RS256'],
          scopes_supported: ['openid', 'email', 'name'],
          token_endpoint_auth_methods_supported: ['client_secret_post'],
          claims_supported: [
            'aud',
            'email',
            'email_verified',
            'exp',
            'iat',
            'is_private_email',
            'iss',
            'nonce',
            'nonce_supported',
            'real_user_status',
            'sub',
            'transfer_sub',
          ],
        });
      }

      if (route === 'GET /auth/keys') return sendJson(res, 200, jwks);

      if (route === 'GET /auth/authorize') {
        const q = requestUrl.searchParams;
        const redirectUri = q.get('redirect_uri') ?? '';
        /** @param {string} text */
        const refuse = (text) => sendHtml(res, 400, 'Apple (stand-in)', `<h1>invalid_request</h1><p>${escapeHtml(text)}</p>`);
        if (q.get('client_id') !== options.clientId) return refuse('Invalid client id or web redirect url.');
        if (!/^https?:\/\//.test(redirectUri) || (options.redirectUri && redirectUri !== options.redirectUri)) return refuse('Invalid web redirect url.');
        if (q.get('response_type') !== 'code') return refuse('response_type must be code.');
        if (q.get('response_mode') !== 'form_post') return refuse('response_mode must be form_post when name or email scope is requested.');
        const method = q.get('code_challenge_method');
        if (q.get('code_challenge') && method !== 'S256') return refuse('Only S256 PKCE is supported.');

        const who = account;
        const code = `c${randomToken(32)}.0.apple`;
        codes.set(code, {
          redirectUri,
          codeChallenge: q.get('code_challenge') ?? undefined,
          nonce: q.get('nonce') ?? undefined,
          account: who,
          expiresAt: Date.now() + CODE_TTL_MS,
        });
        const scopes = (q.get('scope') ?? '').split(/\s+/);
        /** @type {Record<string, string>} */
        const fields = { code };
        if (q.get('state') !== null) fields.state = /** @type {string} */ (q.get('state'));
        if (!seen.has(who.sub) && (scopes.includes('name') || scopes.includes('email'))) {
          fields.user = JSON.stringify({
            ...(scopes.includes('name') ? { name: { firstName: who.firstName ?? 'Ana', lastName: who.lastName ?? 'Apple' } } : {}),
            email: who.email,
          });
        }
        const hidden = Object.entries(fields)
          .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
          .join('\n');
        return sendHtml(
          res,
          200,
          'Apple (stand-in)',
          `<div class="warn" role="alert"><strong>Apple (stand-in).</strong> A local test server, not appleid.apple.com.</div>
<h1>Sign in with Apple</h1>
<p>Apple ID: <strong data-testid="standin-account">${escapeHtml(who.email)}</strong></p>
<form method="post" action="${escapeHtml(redirectUri)}">
${hidden}
<button type="submit" data-testid="standin-authorize">Continue</button>
</form>`,
        );
      }

      if (route === 'POST /auth/token') {
        const body = await readBody(req);
        /** @type {{ body: Record<string, string>, error?: string, clientSecretClaims?: Record<string, unknown> }} */
        const call = { body };
        tokenCalls.push(call);
        /** @param {string} error @param {number} [status] */
        const fail = (error, status = 400) => {
          call.error = error;
          return sendJson(res, status, { error });
        };
        if (body.client_id !== options.clientId) return fail('invalid_client');
        try {
          const header = decodeProtectedHeader(body.client_secret ?? '');
          if (header.alg !== 'ES256' || header.kid !== options.keyId) return fail('invalid_client');
          const { payload } = await jwtVerify(body.client_secret, clientKey, {
            algorithms: ['ES256'],
            issuer: options.teamId,
            subject: options.clientId,
            audience: issuer,
          });
          if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number' || payload.exp - payload.iat > MAX_SECRET_LIFETIME_S)
            return fail('invalid_client');
          call.clientSecretClaims = payload;
        } catch {
          return fail('invalid_client');
        }
        if (body.grant_type !== 'authorization_code') return fail('unsupported_grant_type');
        const grant = body.code ? codes.get(body.code) : undefined;
        if (body.code) codes.delete(body.code);
        if (!grant || grant.expiresAt < Date.now()) return fail('invalid_grant');
        if (body.redirect_uri !== grant.redirectUri) return fail('invalid_grant');
        if (grant.codeChallenge && (!validVerifier(body.code_verifier) || s256(body.code_verifier) !== grant.codeChallenge)) return fail('invalid_grant');
        seen.add(grant.account.sub);
        return sendJson(res, 200, {
          access_token: `a${randomToken(32)}.0.apple`,
          token_type: 'Bearer',
          expires_in: 3600,
          refresh_token: `r${randomToken(32)}.0.apple`,
          id_token: await idToken(grant.account, grant.nonce),
        });
      }

      return sendJson(res, 404, { error: 'not_found' });
    }),
  );

  return {
    url,
    issuer,
    close,
    /** Every call to the token endpoint, oldest first (with the verified client-secret claims). */
    tokenCalls,
    /** The Apple ID the next authorize page signs in (and whether it already gave its name). */
    get account() {
      return account;
    },
    /** @param {AppleAccount} next */
    setAccount(next) {
      account = { ...next };
      return account;
    },
    /** Apple will send the name again for this account, as on a first sign-in. */
    forget(/** @type {string} */ sub) {
      seen.delete(sub);
    },
    /** Changes only the next id_token this stand-in issues. @param {AppleTamper} change */
    tamperNextIdToken(change) {
      tamper = change;
    },
  };
}
