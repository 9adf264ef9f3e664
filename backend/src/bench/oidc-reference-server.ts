import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';
import { stopWithParent } from './child-server.js';

/**
 * The reference authorization server of `npm run bench -- oauth`: the `oidc-provider` library
 * (a certified OpenID Provider, already a dependency: it is the development identity provider,
 * see modules/auth/dev-idp) configured like our token side for the workloads compared:
 *
 *   - one confidential client, `client_secret_basic`, allowed the client_credentials grant;
 *   - features clientCredentials and introspection on; a client may introspect only its own
 *     tokens (our rule; the library's default lets any confidential client introspect any token);
 *   - opaque access tokens (no resource indicator: what the library issues by default), one hour,
 *     like ours;
 *   - the refresh_token grant with rotation (`rotateRefreshToken: true`): a refresh spends the
 *     presented token and issues a new one; presenting a spent one revokes its grant, as ours
 *     revokes the family;
 *   - an in-memory adapter like its default one, but an unbounded `Map` (the default is an LRU of
 *     1,000 entries, which would drop the tokens seeded for the refresh row): nothing is written
 *     anywhere, nothing survives a restart, nothing is shared with another process.
 *
 * Runs in its own child process (like the baseline and the app) with an IPC channel: it reports
 * `{ port, clientId, clientSecret }` once listening and exits on SIGTERM or when the parent goes away.
 * `POST /__bench/seed-refresh?n=<n>` (bench only, loopback) makes n refresh tokens the way its authorization_code grant
 * would (each with its own Grant, scopes `read service:github`, 30 days) and answers `{ refreshTokens }`.
 */
const clientId = `bench-${randomBytes(6).toString('hex')}`;
const clientSecret = randomBytes(32).toString('base64url');
const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
const SEED_PATH = '/__bench/seed-refresh';
const REFRESH_TOKEN_LIFETIME_SECONDS = 30 * 24 * 3600;
const ACCOUNT_ID = 'bench-person';
/** The scopes of the seeded refresh tokens: the same as the app's refresh row (no openid: no ID token). */
const REFRESH_SCOPES = ['read', 'service:github'];

/** oidc-provider's memory adapter (lib/adapters/memory_adapter.js) without its LRU bound: plain Maps. */
const store = new Map<string, { payload: Record<string, unknown>; expiresAt: number }>();
const grantMembers = new Map<string, Set<string>>();
class MapAdapter {
  constructor(private readonly model: string) {}
  private key(id: string) {
    return `${this.model}:${id}`;
  }
  private live(key: string) {
    const entry = store.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      store.delete(key);
      return undefined;
    }
    return entry?.payload;
  }
  async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
    const key = this.key(id);
    store.set(key, { payload, expiresAt: typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : Infinity });
    if (typeof payload.grantId === 'string') {
      let members = grantMembers.get(payload.grantId);
      if (!members) grantMembers.set(payload.grantId, (members = new Set()));
      members.add(key);
    }
    if (typeof payload.uid === 'string') store.set(`sessionUid:${payload.uid}`, { payload: { id } as never, expiresAt: Infinity });
    if (typeof payload.userCode === 'string') store.set(`userCode:${payload.userCode}`, { payload: { id } as never, expiresAt: Infinity });
  }
  async find(id: string) {
    return this.live(this.key(id));
  }
  async findByUid(uid: string) {
    const ref = this.live(`sessionUid:${uid}`) as { id?: string } | undefined;
    return ref?.id ? this.find(ref.id) : undefined;
  }
  async findByUserCode(userCode: string) {
    const ref = this.live(`userCode:${userCode}`) as { id?: string } | undefined;
    return ref?.id ? this.find(ref.id) : undefined;
  }
  async consume(id: string) {
    const payload = this.live(this.key(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string) {
    store.delete(this.key(id));
  }
  async revokeByGrantId(grantId: string) {
    for (const key of grantMembers.get(grantId) ?? []) store.delete(key);
    grantMembers.delete(grantId);
  }
}

const server = http.createServer();
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const issuer = `http://127.0.0.1:${port}`;

// Never used by these workloads (no ID tokens), but the library wants a signing key.
const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: randomBytes(6).toString('hex') };

const configuration: Configuration = {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ['client_credentials', 'authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: ['http://127.0.0.1:7777/callback'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  adapter: MapAdapter as never,
  scopes: ['openid', 'offline_access', ...REFRESH_SCOPES],
  rotateRefreshToken: true,
  findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
  jwks: { keys: [jwk as never] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: {
      enabled: true,
      allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
    },
  },
  ttl: {
    ClientCredentials: ACCESS_TOKEN_LIFETIME_SECONDS,
    AccessToken: ACCESS_TOKEN_LIFETIME_SECONDS,
    RefreshToken: REFRESH_TOKEN_LIFETIME_SECONDS,
    Grant: REFRESH_TOKEN_LIFETIME_SECONDS,
  },
};
const provider = new Provider(issuer, configuration);
const callback = provider.callback();
server.on('request', (req, res) => {
  const seed = req.method === 'POST' && req.url?.startsWith(SEED_PATH) ? Number(new URL(req.url, issuer).searchParams.get('n')) : undefined;
  if (seed === undefined) return void callback(req, res);
  seedRefresh(Math.min(Math.max(0, seed || 0), 1_000_000)).then(
    (refreshTokens) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ refreshTokens })),
    (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
  );
});

/** n refresh tokens as its authorization_code grant stores them: a Grant each (one family each, like the app's seeded rows). */
async function seedRefresh(n: number): Promise<string[]> {
  const client = await provider.Client.find(clientId);
  if (!client) throw new Error('the bench client is missing');
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) {
    const grant = new provider.Grant({ accountId: ACCOUNT_ID, clientId });
    grant.addOIDCScope(REFRESH_SCOPES.join(' '));
    const grantId = await grant.save();
    const refresh = new provider.RefreshToken({ accountId: ACCOUNT_ID, client, grantId, scope: REFRESH_SCOPES.join(' '), gty: 'authorization_code' });
    tokens.push(await refresh.save());
  }
  return tokens;
}

stopWithParent(server);

if (process.send) process.send({ port, clientId, clientSecret });
else console.log(`oidc-provider reference at ${issuer} (client ${clientId} / ${clientSecret})`);
