import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { seedUsers, sessionFor } from './connections.scenarios.js';
import { firstMessage, startNodeChild, stopChild, type ManagedChild } from './processes.js';
import type { AnyScenario, BenchContext, Scenario } from './scenarios.js';

/**
 * Authorization server benchmarks (`npm run bench -- oauth`): the token endpoint
 * (client_credentials), introspection, the refresh_token grant with a fresh refresh token on
 * every request, and the proxy to a connected service; the first two also against
 * `oidc-provider` (oidc-reference-server.ts), configured the same way, as the reference to beat.
 *
 * The app runs with its OAuth rate limits raised out of the way (run.ts), so the numbers are
 * the endpoints' own cost, including the limiter's Redis round trips.
 */

export const OAUTH_GROUP = 'oauth';

const here = path.dirname(fileURLToPath(import.meta.url));
const STANDIN_JS = path.resolve(here, 'standin-server.js');

const REDIRECT_URI = 'http://127.0.0.1:7777/callback';
/** The scopes of the person's grant: the refresh tokens and the proxy token carry them (no openid: no ID token to sign). */
const GRANT_SCOPES = ['read', 'service:github'];
const FORM = 'application/x-www-form-urlencoded';
/** Refresh tokens seeded per second of load (warm-up + measured), far above what 2 cores reach. */
const REFRESH_TOKENS_PER_SECOND = 20_000;
const MIN_REFRESH_TOKENS = 20_000;

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/** RFC 6749 §2.3.1 client_secret_basic: both parts form-encoded, then base64. */
const basicAuth = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;

type Json = Record<string, unknown>;

/** One request to a bench server (loopback only); throws with the answer when the status is not the expected one. */
async function call(baseUrl: string, pathAndQuery: string, init: RequestInit & { expect?: number } = {}): Promise<Json> {
  const response = await fetch(`${baseUrl}${pathAndQuery}`, { ...init, signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  if (response.status !== (init.expect ?? 200)) {
    throw new Error(`${init.method ?? 'GET'} ${pathAndQuery} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  return text ? (JSON.parse(text) as Json) : {};
}

const form = (authorization: string, values: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { authorization, 'content-type': FORM },
  body: new URLSearchParams(values).toString(),
});

interface OAuthFixture {
  adminToken: string;
  personId: string;
  personToken: string;
  /** The confidential client: its row id, public client_id and secret. */
  clientRowId: string;
  clientId: string;
  basic: string;
  grantId: string;
  /** An access token of the person's, with GRANT_SCOPES (from a real code flow). */
  personAccessToken: string;
}

/**
 * What every OAuth scenario needs, made once per run through the app's own endpoints: an admin
 * registers a confidential client, a person consents (POST /oauth/authorize) and the code is
 * exchanged (client_secret_basic), which also makes the person's grant row.
 */
const fixtures = new WeakMap<BenchContext, Promise<OAuthFixture>>();
function oauthFixture(ctx: BenchContext): Promise<OAuthFixture> {
  let fixture = fixtures.get(ctx);
  if (!fixture) {
    fixture = makeFixture(ctx);
    fixtures.set(ctx, fixture);
  }
  return fixture;
}

async function makeFixture(ctx: BenchContext): Promise<OAuthFixture> {
  const [adminId] = await seedUsers(ctx.db, 1, 'admin');
  const [personId] = await seedUsers(ctx.db, 1);
  const adminToken = await sessionFor(ctx.db, adminId!);
  const personToken = await sessionFor(ctx.db, personId!);
  const client = await call(ctx.appUrl, '/oauth_clients', {
    method: 'POST',
    expect: 201,
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench App', redirect_uris: [REDIRECT_URI], allowed_scopes: ['openid', 'profile', ...GRANT_SCOPES] }),
  });
  const clientId = client.client_id as string;
  const basic = basicAuth(clientId, client.client_secret as string);
  const consent = await call(ctx.appUrl, '/oauth/authorize', {
    method: 'POST',
    headers: { authorization: `Bearer ${personToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, redirect_uri: REDIRECT_URI, scope: GRANT_SCOPES.join(' '), state: 'bench', action: 'allow' }),
  });
  const code = new URL(consent.redirect_to as string).searchParams.get('code');
  if (!code) throw new Error(`the consent answered no code: ${JSON.stringify(consent)}`);
  const tokens = await call(ctx.appUrl, '/oauth/token', form(basic, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }));
  const grant = await ctx.db.query<{ id: string }>('select id from oauth_grants where user_id = $1 and client_id = $2', [personId, client.id]);
  ctx.log(`oauth: client ${clientId}, a person's grant and a code-flow token ready`);
  return {
    adminToken,
    personId: personId!,
    personToken,
    clientRowId: client.id as string,
    clientId,
    basic,
    grantId: grant.rows[0]!.id,
    personAccessToken: tokens.access_token as string,
  };
}

function oidcProviderOf(ctx: BenchContext): NonNullable<BenchContext['oidcProvider']> {
  if (!ctx.oidcProvider) throw new Error('the oidc-provider reference server was not started');
  return ctx.oidcProvider;
}

// --- client_credentials --------------------------------------------------------------------

const tokenScenario: Scenario<{ basic: string }> = {
  name: 'oauth-token',
  description: 'POST /oauth/token, client_credentials with client_secret_basic: a new opaque access token per request (stored in PostgreSQL)',
  reference: 'oidc-token',
  async setup(ctx) {
    const { basic } = await oauthFixture(ctx);
    const first = await call(ctx.appUrl, '/oauth/token', form(basic, { grant_type: 'client_credentials' }));
    if (typeof first.access_token !== 'string') throw new Error(`no access token: ${JSON.stringify(first)}`);
    return { basic };
  },
  request: (_ctx, state) => ({
    method: 'POST',
    path: '/oauth/token',
    headers: { authorization: state.basic, 'content-type': FORM },
    body: 'grant_type=client_credentials',
    expectStatus: [200],
  }),
};

const oidcTokenScenario: Scenario<{ basic: string }> = {
  name: 'oidc-token',
  description: 'The same client_credentials request against oidc-provider (same client setup, in-memory adapter)',
  target: 'oidc-provider',
  async setup(ctx) {
    const reference = oidcProviderOf(ctx);
    const basic = basicAuth(reference.clientId, reference.clientSecret);
    const first = await call(reference.url, '/token', form(basic, { grant_type: 'client_credentials' }));
    if (typeof first.access_token !== 'string') throw new Error(`no access token: ${JSON.stringify(first)}`);
    return { basic };
  },
  request: (_ctx, state) => ({
    method: 'POST',
    path: '/token',
    headers: { authorization: state.basic, 'content-type': FORM },
    body: 'grant_type=client_credentials',
    expectStatus: [200],
  }),
};

// --- introspection -------------------------------------------------------------------------

interface IntrospectState {
  basic: string;
  body: string;
}

const introspectScenario: Scenario<IntrospectState> = {
  name: 'oauth-introspect',
  description: 'POST /oauth/introspect (client_secret_basic) of a valid client_credentials access token of the same client',
  reference: 'oidc-introspect',
  async setup(ctx) {
    const { basic } = await oauthFixture(ctx);
    const token = await call(ctx.appUrl, '/oauth/token', form(basic, { grant_type: 'client_credentials' }));
    const body = new URLSearchParams({ token: token.access_token as string }).toString();
    const answer = await call(ctx.appUrl, '/oauth/introspect', { ...form(basic, {}), body });
    if (answer.active !== true) throw new Error(`the token is not active: ${JSON.stringify(answer)}`);
    return { basic, body };
  },
  request: (_ctx, state) => ({
    method: 'POST',
    path: '/oauth/introspect',
    headers: { authorization: state.basic, 'content-type': FORM },
    body: state.body,
    expectStatus: [200],
  }),
};

const oidcIntrospectScenario: Scenario<IntrospectState> = {
  name: 'oidc-introspect',
  description: 'The same introspection against oidc-provider (a client_credentials token of the same client)',
  target: 'oidc-provider',
  async setup(ctx) {
    const reference = oidcProviderOf(ctx);
    const basic = basicAuth(reference.clientId, reference.clientSecret);
    // Issued now, like ours (the reference's adapter is an unbounded Map: it would still be there).
    const token = await call(reference.url, '/token', form(basic, { grant_type: 'client_credentials' }));
    const body = new URLSearchParams({ token: token.access_token as string }).toString();
    const answer = await call(reference.url, '/token/introspection', { ...form(basic, {}), body });
    if (answer.active !== true) throw new Error(`the token is not active: ${JSON.stringify(answer)}`);
    return { basic, body };
  },
  request: (_ctx, state) => ({
    method: 'POST',
    path: '/token/introspection',
    headers: { authorization: state.basic, 'content-type': FORM },
    body: state.body,
    expectStatus: [200],
  }),
};

// --- refresh_token, a fresh token per request ----------------------------------------------

interface RefreshState {
  basic: string;
  /** Refresh token i is `${prefix}${i, 8 digits}`; only its SHA-256 is in the database. */
  prefix: string;
  count: number;
  /** How many tokens the load generator has handed out (warm-up included). */
  next: number;
  grantId: string;
  /** PostgreSQL's clock when seeding ended: rows created later were issued by the refreshes. */
  seededAt: Date;
}

const refreshTokenAt = (state: RefreshState, i: number) => `${state.prefix}${String(i).padStart(8, '0')}`;

/**
 * Every request presents a refresh token never presented before. They are seeded the way the
 * TokenStore stores them (SHA-256 hex of the token, one row per token, each its own family under
 * the person's grant, 30-day expiry): one INSERT ... SELECT from generate_series, with the hash
 * computed by PostgreSQL, so tens of thousands take a second or two instead of one code flow each.
 */
const refreshScenario: Scenario<RefreshState> = {
  name: 'oauth-refresh',
  reference: 'oidc-refresh',
  description: 'POST /oauth/token, refresh_token grant (client_secret_basic), a different never-used refresh token on every request: rotation + new pair',
  async setup(ctx) {
    const fixture = await oauthFixture(ctx);
    const count = Math.max(MIN_REFRESH_TOKENS, Math.ceil((ctx.options.warmup + ctx.options.duration) * REFRESH_TOKENS_PER_SECOND));
    const seed = randomBytes(27).toString('base64url');
    const prefix = `lrt_${seed}`;
    const started = Date.now();
    await ctx.db.query(
      `insert into oauth_tokens (id, created_at, updated_at, access_token_hash, refresh_token_hash, access_expires_at, refresh_expires_at,
         client_id, user_id, grant_id, code_id, family_id, scopes)
       select gen_random_uuid(), now(), now(),
         encode(sha256(convert_to($1 || lpad(i::text, 8, '0'), 'UTF8')), 'hex'),
         encode(sha256(convert_to($2 || lpad(i::text, 8, '0'), 'UTF8')), 'hex'),
         now() + interval '1 hour', now() + interval '30 days', $3, $4, $5, null, gen_random_uuid(), $6::jsonb
       from generate_series(0, $7::int - 1) as i`,
      [`lat_${seed}`, prefix, fixture.clientRowId, fixture.personId, fixture.grantId, JSON.stringify(GRANT_SCOPES), count],
    );
    await ctx.db.query('analyze oauth_tokens');
    const seededAt = (await ctx.db.query<{ now: Date }>('select now()')).rows[0]!.now;
    const state: RefreshState = { basic: fixture.basic, prefix, count, next: 0, grantId: fixture.grantId, seededAt };
    // The hash PostgreSQL computed is the one the app computes.
    const probe = await ctx.db.query('select 1 from oauth_tokens where refresh_token_hash = $1', [sha256Hex(refreshTokenAt(state, count - 1))]);
    if (probe.rowCount !== 1) throw new Error('seeded refresh token hashes do not match sha256(token)');
    ctx.log(`oauth-refresh: seeded ${count.toLocaleString('en-US')} refresh tokens in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return state;
  },
  request: (_ctx, state) => ({
    method: 'POST',
    path: '/oauth/token',
    headers: { authorization: state.basic, 'content-type': FORM },
    body: 'grant_type=refresh_token',
    expectStatus: [200],
    autocannon: {
      // autocannon calls setupRequest for every request (the first on each connection too).
      requests: [
        {
          setupRequest: (request) => {
            // Past the seeded ones, tokens repeat: those answers are 400 (reuse) and the note says so.
            const token = refreshTokenAt(state, state.next++ % state.count);
            return { ...request, body: `grant_type=refresh_token&refresh_token=${token}` };
          },
        },
      ],
    },
  }),
  async notes(ctx, state) {
    // The person's grant holds the code-flow token, the seeded ones and those the refreshes issued.
    const counts = (
      await ctx.db.query<{ spent: string; issued: string; revoked: string }>(
        `select count(*) filter (where created_at <= $2 and refresh_used_at is not null) as spent,
                count(*) filter (where created_at > $2) as issued,
                count(*) filter (where revoked_at is not null) as revoked
           from oauth_tokens where grant_id = $1`,
        [state.grantId, state.seededAt],
      )
    ).rows[0]!;
    const n = (value: number | string) => Number(value).toLocaleString('en-US');
    if (state.next > state.count) throw new Error(`ran out of seeded refresh tokens (${n(state.count)} seeded, ${n(state.next)} requests)`);
    if (Number(counts.revoked) > 0) throw new Error(`${n(counts.revoked)} tokens were revoked: a refresh token was presented twice`);
    return [
      `${n(state.next)} distinct refresh tokens presented (warm-up included) of ${n(state.count)} seeded; ` +
        `${n(counts.spent)} spent, ${n(counts.issued)} new token pairs stored, ${n(counts.revoked)} revoked.`,
    ];
  },
};

interface OidcRefreshState {
  basic: string;
  tokens: string[];
  next: number;
}

/**
 * The same workload against oidc-provider with `rotateRefreshToken: true`: its refresh tokens are
 * made inside the reference server the way its authorization_code grant makes them (a Grant each,
 * the same scopes, no openid), through its own models into its in-memory Map adapter, and handed
 * to the load generator one per request.
 */
const oidcRefreshScenario: Scenario<OidcRefreshState> = {
  name: 'oidc-refresh',
  description: 'The same refresh_token grant with rotation against oidc-provider (rotateRefreshToken: true, unbounded in-memory Map adapter)',
  target: 'oidc-provider',
  async setup(ctx) {
    const reference = oidcProviderOf(ctx);
    const basic = basicAuth(reference.clientId, reference.clientSecret);
    const count = Math.max(MIN_REFRESH_TOKENS, Math.ceil((ctx.options.warmup + ctx.options.duration) * REFRESH_TOKENS_PER_SECOND));
    const started = Date.now();
    const { refreshTokens } = (await call(reference.url, `/__bench/seed-refresh?n=${count}`, { method: 'POST' })) as { refreshTokens: string[] };
    if (refreshTokens.length !== count) throw new Error(`oidc-provider seeded ${refreshTokens.length} of ${count} refresh tokens`);
    // The last one is checked by hand (and so spent): a rotation answers a new refresh token.
    const probe = await call(reference.url, '/token', form(basic, { grant_type: 'refresh_token', refresh_token: refreshTokens.pop()! }));
    if (typeof probe.refresh_token !== 'string' || typeof probe.access_token !== 'string') throw new Error(`no rotation: ${JSON.stringify(probe)}`);
    ctx.log(`oidc-refresh: seeded ${count.toLocaleString('en-US')} refresh tokens in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { basic, tokens: refreshTokens, next: 0 };
  },
  request: (_ctx, state) => ({
    method: 'POST',
    path: '/token',
    headers: { authorization: state.basic, 'content-type': FORM },
    body: 'grant_type=refresh_token',
    expectStatus: [200],
    autocannon: {
      requests: [
        {
          setupRequest: (request) => {
            const token = state.tokens[state.next++ % state.tokens.length]!;
            return { ...request, body: `grant_type=refresh_token&refresh_token=${token}` };
          },
        },
      ],
    },
  }),
  async notes(_ctx, state) {
    if (state.next > state.tokens.length) throw new Error(`ran out of seeded refresh tokens (${state.tokens.length} seeded, ${state.next} requests)`);
    return [
      `${state.next.toLocaleString('en-US')} distinct refresh tokens presented to oidc-provider (warm-up included) of ${state.tokens.length.toLocaleString('en-US')} seeded.`,
    ];
  },
};

// --- the proxy -----------------------------------------------------------------------------

interface ProxyState {
  standIn: ManagedChild;
  token: string;
  callsBefore: number;
}

async function standInUserCalls(standIn: ManagedChild): Promise<number> {
  const answer = firstMessage<{ userCalls: number }>(standIn, 5_000);
  standIn.process.send!('user-calls');
  return (await answer).userCalls;
}

/**
 * The load generator stops with requests still in the app; they reach the stand-in a little
 * later. Waits until its count stops moving (at most 5 s), so that stopping it does not turn
 * them into 502s in the app's log.
 */
async function settledUserCalls(standIn: ManagedChild): Promise<number> {
  let last = await standInUserCalls(standIn);
  for (const deadline = Date.now() + 5_000; Date.now() < deadline;) {
    await sleep(300);
    const now = await standInUserCalls(standIn);
    if (now === last) break;
    last = now;
  }
  return last;
}

/**
 * GET /api/v1/services/github/proxy/user with an app token carrying service:github: the person
 * connected GitHub through the app's own flow (a stand-in in its own process answering at once),
 * so each request is token check + rate limit + catalog + the person's sealed token + one
 * upstream call, passed through.
 */
const proxyScenario: Scenario<ProxyState> = {
  name: 'oauth-proxy',
  description: 'GET /api/v1/services/github/proxy/user with an app token (service:github) to a local GitHub stand-in answering at once',
  async setup(ctx) {
    const fixture = await oauthFixture(ctx);
    const standIn = startNodeChild('standin', STANDIN_JS, [], { ...process.env }, { ipc: true });
    try {
      const { row } = await firstMessage<{ row: Json }>(standIn, 10_000);
      const admin = { authorization: `Bearer ${fixture.adminToken}` };
      const person = { authorization: `Bearer ${fixture.personToken}` };
      const catalog = (await call(ctx.appUrl, '/api/external-services/all', { headers: admin })) as unknown as Json[];
      const github = catalog.find((service) => service.service_name === 'github');
      if (!github) throw new Error('no github row in the catalog');
      // The app runs as in production, which refuses plain-http service URLs (decision 0026), and the
      // stand-in is plain http on loopback: the row goes through the admin API with https
      // placeholders (so its secret is sealed as the app seals it), then its URL columns point at the
      // stand-in in SQL, and the bench waits out the catalog's one-second per-process copy.
      const urlFields = ['base_url', 'auth_url', 'token_url', 'user_url', 'revoke_url', 'redirect_url', 'account_url'] as const;
      const placeholders = Object.fromEntries(urlFields.map((field) => [field, row[field] ? `https://standin.invalid/${field}` : row[field]]));
      await call(ctx.appUrl, `/api/external-services/${github.id as string}`, {
        method: 'PUT',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ ...row, ...placeholders }),
      });
      await ctx.db.query(`update external_services set ${urlFields.map((field, index) => `${field} = $${index + 2}`).join(', ')} where id = $1`, [
        github.id,
        ...urlFields.map((field) => (row[field] as string | null | undefined) || null),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      // The person connects GitHub: the app's auth URL, the stand-in's consent, the app's callback.
      // followAuthorize (@life/test-support, a dev-only dependency of the bench): what a person's click does.
      const { followAuthorize } = await import('@life/test-support/standins/services');
      const auth = await call(ctx.appUrl, '/api/external-services/github/auth', { method: 'POST', headers: person });
      const back = await followAuthorize(auth.auth_url as string);
      await call(ctx.appUrl, `/callback/github?${back.searchParams.toString()}`, { headers: { ...person, accept: 'application/json' } });
      const proxied = await call(ctx.appUrl, '/api/v1/services/github/proxy/user', { headers: { authorization: `Bearer ${fixture.personAccessToken}` } });
      if (typeof proxied.login !== 'string') throw new Error(`unexpected proxy answer: ${JSON.stringify(proxied)}`);
      ctx.log('oauth-proxy: GitHub connected through the stand-in; the proxy answers');
      return { standIn, token: fixture.personAccessToken, callsBefore: await standInUserCalls(standIn) };
    } catch (error) {
      await stopChild(standIn);
      throw error;
    }
  },
  request: (_ctx, state) => ({
    path: '/api/v1/services/github/proxy/user',
    headers: { authorization: `Bearer ${state.token}`, accept: 'application/json' },
    expectStatus: [200],
  }),
  async notes(_ctx, state) {
    const calls = (await settledUserCalls(state.standIn)) - state.callsBefore;
    return [`the stand-in served ${calls.toLocaleString('en-US')} GET /user calls (warm-up included): every proxied request reached it.`];
  },
  async teardown(_ctx, state) {
    await stopChild(state.standIn);
  },
};

/** In this order: each of ours right before its oidc-provider counterpart. */
export const oauthScenarios: AnyScenario[] = [
  tokenScenario,
  oidcTokenScenario,
  introspectScenario,
  oidcIntrospectScenario,
  refreshScenario,
  oidcRefreshScenario,
  proxyScenario,
] as AnyScenario[];
