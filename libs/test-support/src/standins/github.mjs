// A local stand-in for GitHub's OAuth App protocol (the login provider "github").
// Speaks the same paths and shapes as github.com + api.github.com:
//   GET  /login/oauth/authorize     the consent page ("Authorize" → redirect_uri?code&state); like
//                                   GitHub's, a `login` parameter picks the account (created if new,
//                                   e-mail <login>@example.com) for this request only
//   POST /login/oauth/access_token  form body; form-encoded answer unless Accept: application/json;
//                                   errors are HTTP 200 with {error} like GitHub's
//   GET  /user, GET /user/emails    with `Authorization: Bearer <token>` (or `token <token>`)
import http from 'node:http';
import { escapeHtml, guarded, listen, randomToken, readBody, s256, sendHtml, sendJson, validVerifier } from './common.mjs';

/**
 * @typedef {object} GithubAccount
 * @property {number} id
 * @property {string} login
 * @property {string} [name]
 * @property {string} email       the primary e-mail
 * @property {boolean} [verified] whether the primary e-mail is verified (default true)
 * @property {{ email: string, primary: boolean, verified: boolean, visibility: string | null }[]} [emails] overrides the /user/emails list
 */

/**
 * @typedef {object} GithubTokenCall
 * @property {Record<string, string>} body     the form fields received
 * @property {string | undefined} accept
 * @property {string | undefined} error       the error answered, if any
 */

const CODE_TTL_MS = 10 * 60 * 1000;

export const DEFAULT_GITHUB_ACCOUNT = /** @type {GithubAccount} */ ({
  id: 4242,
  login: 'octo-tester',
  name: 'Octo Tester',
  email: 'octo@example.com',
  verified: true,
});

/** @param {Partial<GithubAccount> & { login: string }} account @returns {GithubAccount} */
function normalise(account) {
  return {
    id: account.id ?? Math.floor(100000 + Math.random() * 900000),
    login: account.login,
    name: account.name ?? account.login,
    email: account.email ?? `${account.login}@example.com`,
    verified: account.verified ?? true,
    ...(account.emails ? { emails: account.emails } : {}),
  };
}

/** @param {GithubAccount} account */
function emailsOf(account) {
  return account.emails ?? [{ email: account.email, primary: true, verified: account.verified !== false, visibility: 'private' }];
}

/**
 * Starts the GitHub stand-in on 127.0.0.1 (a free port).
 * @param {{ clientId: string, clientSecret: string, accounts?: (Partial<GithubAccount> & { login: string })[], port?: number }} options
 */
export async function startGithubStandIn(options) {
  if (!options?.clientId || !options?.clientSecret) throw new Error('startGithubStandIn needs clientId and clientSecret');
  /** @type {GithubAccount[]} */
  const accounts = (options.accounts?.length ? options.accounts : [DEFAULT_GITHUB_ACCOUNT]).map(normalise);
  let current = accounts[0];
  /** @type {Map<string, { redirectUri: string, codeChallenge?: string, scope: string, account: GithubAccount, expiresAt: number }>} */
  const codes = new Map();
  /** @type {Map<string, GithubAccount>} */
  const tokens = new Map();
  /** @type {GithubTokenCall[]} */
  const tokenCalls = [];

  const server = http.createServer();
  const { url, close } = await listen(server, options.port);

  /** @param {import('node:http').IncomingMessage} req */
  const accountOf = (req) => {
    const match = /^(?:Bearer|token)\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
    return match ? tokens.get(match[1]) : undefined;
  };

  server.on(
    'request',
    guarded(async (req, res) => {
      const requestUrl = new URL(req.url ?? '/', url);
      const route = `${req.method} ${requestUrl.pathname}`;

      if (route === 'GET /login/oauth/authorize') {
        const q = requestUrl.searchParams;
        const clientId = q.get('client_id');
        const redirectUri = q.get('redirect_uri');
        if (clientId !== options.clientId) return sendHtml(res, 404, 'GitHub (stand-in)', '<h1>404</h1><p>Unknown client_id.</p>');
        if (!redirectUri || !/^https?:\/\//.test(redirectUri)) return sendHtml(res, 400, 'GitHub (stand-in)', '<h1>redirect_uri is missing or invalid</h1>');
        const method = q.get('code_challenge_method');
        if (q.get('code_challenge') && method && method !== 'S256') return sendHtml(res, 400, 'GitHub (stand-in)', '<h1>Only S256 PKCE is supported</h1>');
        // Another person at the same stand-in, without changing who the next page shows to others.
        const login = q.get('login');
        let account = current;
        if (login && /^[A-Za-z0-9-]{1,39}$/.test(login)) {
          account = accounts.find((a) => a.login === login) ?? normalise({ login });
          if (!accounts.includes(account)) accounts.push(account);
        }
        const code = randomToken(15);
        codes.set(code, {
          redirectUri,
          codeChallenge: q.get('code_challenge') ?? undefined,
          scope: q.get('scope') ?? '',
          account,
          expiresAt: Date.now() + CODE_TTL_MS,
        });
        const target = new URL(redirectUri);
        target.searchParams.set('code', code);
        if (q.get('state') !== null) target.searchParams.set('state', /** @type {string} */ (q.get('state')));
        return sendHtml(
          res,
          200,
          'GitHub (stand-in)',
          `<div class="warn" role="alert"><strong>GitHub (stand-in).</strong> A local test server, not github.com.</div>
<h1>Authorize application</h1>
<p>Signed in as <strong data-testid="standin-account">${escapeHtml(account.login)}</strong> (${escapeHtml(account.email)}).</p>
<p>Scopes: <code>${escapeHtml(q.get('scope') ?? '')}</code></p>
<a class="button" data-testid="standin-authorize" href="${escapeHtml(target.toString())}">Authorize</a>`,
        );
      }

      if (route === 'POST /login/oauth/access_token') {
        const body = await readBody(req);
        const wantsJson = String(req.headers.accept ?? '').includes('application/json');
        /** @param {Record<string, string>} answer @param {string} [error] */
        const answer = (answer, error) => {
          tokenCalls.push({ body, accept: req.headers.accept, error });
          if (wantsJson) return sendJson(res, 200, answer);
          res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' });
          res.end(new URLSearchParams(answer).toString());
        };
        /** @param {string} error @param {string} description */
        const fail = (error, description) =>
          answer(
            {
              error,
              error_description: description,
              error_uri: 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors',
            },
            error,
          );

        if (body.client_id !== options.clientId || body.client_secret !== options.clientSecret)
          return fail('incorrect_client_credentials', 'The client_id and/or client_secret passed are incorrect.');
        const grant = body.code ? codes.get(body.code) : undefined;
        if (body.code) codes.delete(body.code); // single use, even when the rest is wrong
        if (!grant || grant.expiresAt < Date.now()) return fail('bad_verification_code', 'The code passed is incorrect or expired.');
        if (body.redirect_uri !== undefined && body.redirect_uri !== grant.redirectUri)
          return fail('redirect_uri_mismatch', 'The redirect_uri MUST match the registered callback URL for this application.');
        if (grant.codeChallenge) {
          if (!validVerifier(body.code_verifier) || s256(body.code_verifier) !== grant.codeChallenge)
            return fail('bad_verification_code', 'The code_verifier does not match the code_challenge.');
        }
        const accessToken = `gho_${randomToken(27)}`;
        tokens.set(accessToken, grant.account);
        return answer({
          access_token: accessToken,
          token_type: 'bearer',
          scope: grant.scope
            .split(/[\s,]+/)
            .filter(Boolean)
            .join(','),
        });
      }

      if (route === 'GET /user' || route === 'GET /user/emails') {
        const account = accountOf(req);
        if (!account) return sendJson(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
        if (route === 'GET /user/emails') return sendJson(res, 200, emailsOf(account));
        // Like GitHub: the public profile e-mail says nothing about verification.
        return sendJson(res, 200, {
          login: account.login,
          id: account.id,
          node_id: `U_${account.id}`,
          type: 'User',
          name: account.name ?? null,
          email: account.email,
          html_url: `https://github.com/${account.login}`,
        });
      }

      return sendJson(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
    }),
  );

  return {
    url,
    close,
    /** Every call to the token endpoint, oldest first. */
    tokenCalls,
    accounts,
    /** The account signed in at the stand-in right now (used by the next authorize page). */
    get account() {
      return current;
    },
    /**
     * Chooses who is signed in at the stand-in: a known login, or an account to add
     * (or replace, by login). Returns the chosen account.
     * @param {string | (Partial<GithubAccount> & { login: string })} account
     */
    setAccount(account) {
      if (typeof account === 'string') {
        const found = accounts.find((a) => a.login === account);
        if (!found) throw new Error(`No GitHub stand-in account ${account}`);
        current = found;
        return current;
      }
      const next = normalise(account);
      const index = accounts.findIndex((a) => a.login === next.login);
      if (index === -1) accounts.push(next);
      else accounts[index] = next;
      current = next;
      return current;
    },
  };
}
