import http from 'node:http';
import { promises as dns, type LookupAddress } from 'node:dns';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { outboundFetch } from '../src/core/http/outbound-fetch.js';
import { isPrivateAddress, PrivateAddressError, publicOnlyLookup, resolvesToPrivate } from '../src/core/util/private-address.js';
import type { AppConfig } from '../src/config/config.js';
import type { AuthError } from '../src/modules/auth/auth.errors.js';
import { OidcVerifier } from '../src/modules/auth/oidc-verifier.js';
import { callUpstream } from '../src/modules/oauth-server/proxy.service.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * Decision 0050 (issue 18's review, points 4 and 5): login provider URLs follow the catalog's
 * rules (https in production, no private or loopback host), and a host NAME that resolves to a
 * private or loopback address is refused too: when the admin saves it, and again when a
 * connection is made (DNS rebinding), in the proxy and in the provider calls.
 */

/**
 * A name the system resolver (what sockets use) maps to a loopback or private address without
 * being `localhost`, which is refused by its name alone: the machine's own host name (in
 * /etc/hosts on Linux and in containers), or Debian's ip6-localhost.
 */
async function nameOnThisMachine(): Promise<string> {
  for (const candidate of [hostname(), 'ip6-localhost', 'ip6-loopback']) {
    const answers = await dns.lookup(candidate, { all: true }).catch(() => [] as LookupAddress[]);
    if (!/localhost/i.test(candidate) && answers.length > 0 && answers.every((answer) => isPrivateAddress(answer.address))) return candidate;
  }
  throw new Error('This machine has no host name that resolves to a loopback or private address (its own name usually does, via /etc/hosts)');
}

async function upstream(): Promise<{ port: number; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('private addresses behind names, at save time and at connection time (decision 0050)', () => {
  let name: string;
  let server: Awaited<ReturnType<typeof upstream>>;

  beforeAll(async () => {
    name = await nameOnThisMachine();
    server = await upstream();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('save time: a name is refused when any of its addresses is private; a name that does not resolve is left to connection time', async () => {
    const answers: Record<string, LookupAddress[]> = {
      'metadata.example': [{ address: '169.254.169.254', family: 4 }],
      'intranet.example': [{ address: '10.1.2.3', family: 4 }],
      'mixed.example': [
        { address: '93.184.215.14', family: 4 },
        { address: 'fd00::7', family: 6 },
      ],
      'public.example': [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      ],
    };
    const resolver = (host: string) => (answers[host] ? Promise.resolve(answers[host]) : Promise.reject(new Error('ENOTFOUND')));
    expect(await resolvesToPrivate('https://metadata.example/latest', resolver)).toBe(true);
    expect(await resolvesToPrivate('https://intranet.example/api', resolver)).toBe(true);
    expect(await resolvesToPrivate('https://mixed.example/api', resolver)).toBe(true);
    expect(await resolvesToPrivate('https://public.example/api', resolver)).toBe(false);
    expect(await resolvesToPrivate('https://nowhere.example/api', resolver)).toBe(false);
    // Literal private hosts need no resolver at all.
    expect(await resolvesToPrivate('https://[::ffff:10.0.0.1]/x', () => Promise.reject(new Error('not asked')))).toBe(true);
    // The system resolver, as in production.
    expect(await resolvesToPrivate(`https://${name}/api`)).toBe(true);
  });

  it('connection time: the provider calls refuse a name that resolves to a private address, and a private literal, before any byte is sent', async () => {
    const guarded = outboundFetch(false);
    const hitsBefore = server.hits();
    const byName = await guarded(`http://${name}:${server.port}/token`, { method: 'POST', body: 'a=b' }).catch((error: unknown) => error as Error);
    expect(byName).toBeInstanceOf(TypeError);
    expect((byName as Error & { cause?: unknown }).cause).toBeInstanceOf(PrivateAddressError);
    const literal = await guarded(`http://127.0.0.1:${server.port}/token`).catch((error: unknown) => error as Error);
    expect((literal as Error & { cause?: unknown }).cause).toBeInstanceOf(PrivateAddressError);
    expect(server.hits()).toBe(hitsBefore);
    // Outside production (or with ALLOW_PRIVATE_SERVICE_URLS=true) the same call goes through.
    const open = await outboundFetch(true)(`http://${name}:${server.port}/token`);
    expect([open.status, await open.json()]).toEqual([200, { ok: true }]);
    expect(server.hits()).toBe(hitsBefore + 1);
  });

  it('connection time: the proxy refuses them too', async () => {
    const hitsBefore = server.hits();
    expect(await callUpstream(new URL(`http://${name}:${server.port}/v1/me`), 'GET', {}, undefined, true)).toBe('unreachable');
    expect(await callUpstream(new URL(`http://127.0.0.1:${server.port}/v1/me`), 'GET', {}, undefined, true)).toBe('unreachable');
    expect(server.hits()).toBe(hitsBefore);
    const open = await callUpstream(new URL(`http://${name}:${server.port}/v1/me`), 'GET', {}, undefined, false);
    expect(open).toMatchObject({ status: 200 });
    expect(server.hits()).toBe(hitsBefore + 1);
  });

  it("connection time: a login provider's OpenID discovery is refused too", async () => {
    let hits = 0;
    const oidc = http.createServer((req, res) => {
      hits++;
      res.setHeader('content-type', 'application/json');
      const base = `http://${name}:${(oidc.address() as AddressInfo).port}`;
      res.end(req.url === '/.well-known/openid-configuration' ? JSON.stringify({ issuer: base, jwks_uri: `${base}/jwks` }) : '{"keys":[]}');
    });
    await new Promise<void>((resolve) => oidc.listen(0, '0.0.0.0', resolve));
    try {
      const baseUrl = `http://${name}:${(oidc.address() as AddressInfo).port}`;
      const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';
      const guarded = new OidcVerifier({ allowPrivateServiceUrls: false } as AppConfig);
      const refused = (await guarded.verify(token, { baseUrl, audience: 'life', nonce: 'n' }).catch((error: unknown) => error)) as AuthError;
      expect([refused.status, refused.code]).toEqual([502, 'provider_error']);
      expect(hits).toBe(0);
      // Where private addresses are allowed the same verifier reads discovery and the JWKS (and refuses the fake token).
      const open = (await new OidcVerifier({ allowPrivateServiceUrls: true } as AppConfig)
        .verify(token, { baseUrl, audience: 'life', nonce: 'n' })
        .catch((error: unknown) => error)) as AuthError;
      expect(open.code).toBe('invalid_id_token');
      expect(hits).toBe(2);
    } finally {
      await new Promise<void>((resolve) => oidc.close(() => resolve()));
    }
  });

  it('DNS rebinding: the address checked is the one connected to, not the answer seen when the URL was saved', async () => {
    // The name answered a public address when it was saved; by the time of the call it answers loopback.
    let calls = 0;
    const rebinding = ((host: string, options: object, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void) => {
      calls++;
      const all = (options as { all?: boolean }).all;
      if (all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    }) as unknown as typeof import('node:dns').lookup;
    expect(await resolvesToPrivate('https://rebind.example/x', () => Promise.resolve([{ address: '93.184.215.14', family: 4 }]))).toBe(false);
    const agent = new http.Agent({ lookup: publicOnlyLookup(rebinding) });
    const hitsBefore = server.hits();
    const outcome = await new Promise<string>((resolve) => {
      const request = http.get({ host: 'rebind.example', port: server.port, path: '/', agent }, (response) => {
        response.resume();
        resolve(`answered ${response.statusCode}`);
      });
      request.on('error', (error) => resolve(error instanceof PrivateAddressError ? 'refused' : `error ${error.message}`));
    });
    agent.destroy();
    expect(outcome).toBe('refused');
    expect(calls).toBeGreaterThan(0);
    expect(server.hits()).toBe(hitsBefore);
  });
});

describe('the admin editors in production (decision 0050; real PostgreSQL + Redis)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let name: string;

  const json = async (response: Response) => (await response.json()) as Json;
  const put = (path: string, body: unknown) =>
    t.fetch(path, { method: 'PUT', headers: { ...bearer(admin.token), 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    name = await nameOnThisMachine();
    t = await startTestApp({ env: { NODE_ENV: 'production', APP_URL: 'https://life.example' } });
    [admin] = await seedUsers(t.db, 1, 'admin');
  });

  afterAll(async () => {
    await t?.close();
  });

  it('login providers: plain http is refused in production like in the catalog, in the language asked for, and nothing is stored', async () => {
    const providers = (await json(await t.fetch('/api/login-providers', { headers: bearer(admin.token) }))) as unknown as Json[];
    const google = providers.find((provider) => provider.service_name === 'google')!;
    for (const field of ['base_url', 'auth_url', 'token_url', 'user_url', 'redirect_url']) {
      const response = await put(`/api/login-providers/${google.id}`, { ...google, [field]: 'http://accounts.example.com/x' });
      const body = await json(response);
      expect([field, response.status, body.error, body.message]).toEqual([
        field,
        400,
        'insecure_service_url',
        `En producción, ${field} debe ser una URL https.`,
      ]);
    }
    const english = await t.fetch(`/api/login-providers/${google.id}`, {
      method: 'PUT',
      headers: { ...bearer(admin.token), 'content-type': 'application/json', 'accept-language': 'en' },
      body: JSON.stringify({ ...google, token_url: 'http://oauth2.googleapis.com/token' }),
    });
    expect((await json(english)).message).toBe('In production, token_url must be an https URL.');
    const stored = await t.db.query<Json>('select token_url from login_providers where id = $1', [google.id]);
    expect(stored.rows[0]!.token_url).toBe(google.token_url);
    // A new provider is held to the same rule.
    await t.db.query(`delete from login_providers where service_name = 'apple'`);
    const created = await t.fetch('/api/login-providers', {
      method: 'POST',
      headers: { ...bearer(admin.token), 'content-type': 'application/json' },
      body: JSON.stringify({ service_name: 'apple', auth_url: 'http://appleid.apple.com/auth/authorize' }),
    });
    expect([created.status, (await json(created)).error]).toEqual([400, 'insecure_service_url']);
    expect((await put(`/api/login-providers/${google.id}`, { ...google, token_url: 'https://oauth2.googleapis.com/token' })).status).toBe(200);
  });

  it('catalog and login providers: a name that resolves to a private or loopback address is refused when saved', async () => {
    const providers = (await json(await t.fetch('/api/login-providers', { headers: bearer(admin.token) }))) as unknown as Json[];
    const github = providers.find((provider) => provider.service_name === 'github')!;
    const refused = await put(`/api/login-providers/${github.id}`, { ...github, user_url: `https://${name}/user` });
    expect([refused.status, (await json(refused)).error]).toEqual([400, 'private_service_url']);

    const rows = (await json(await t.fetch('/api/external-services/all', { headers: bearer(admin.token) }))) as unknown as Json[];
    const youtube = rows.find((service) => service.service_name === 'youtube')!;
    const catalog = await put(`/api/external-services/${youtube.id}`, { ...youtube, token_url: `https://${name}/token` });
    const body = await json(catalog);
    expect([catalog.status, body.error, body.message]).toEqual([
      400,
      'private_service_url',
      'En producción, token_url no puede apuntar a una dirección local o privada (127.0.0.1, 10.x, 192.168.x, localhost…); ALLOW_PRIVATE_SERVICE_URLS=true lo permite.',
    ]);
    const stored = await t.db.query<Json>('select token_url from external_services where id = $1', [youtube.id]);
    expect(stored.rows[0]!.token_url).toBe(youtube.token_url);
  });

  it('ALLOW_PRIVATE_SERVICE_URLS=true lets such a name be saved in production; plain http stays refused', async () => {
    const allowed = await startTestApp({ env: { NODE_ENV: 'production', APP_URL: 'https://life.example', ALLOW_PRIVATE_SERVICE_URLS: 'true' } });
    try {
      const [owner] = await seedUsers(allowed.db, 1, 'admin');
      const providers = (await json(await allowed.fetch('/api/login-providers', { headers: bearer(owner!.token) }))) as unknown as Json[];
      const github = providers.find((provider) => provider.service_name === 'github')!;
      const send = (body: Json) =>
        allowed.fetch(`/api/login-providers/${github.id}`, {
          method: 'PUT',
          headers: { ...bearer(owner!.token), 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await send({ ...github, user_url: `https://${name}/user` })).status).toBe(200);
      const http = await send({ ...github, user_url: `http://${name}/user` });
      expect([http.status, (await json(http)).error]).toEqual([400, 'insecure_service_url']);
    } finally {
      await allowed.close();
    }
  });
});
