import { createHash, randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTHeaderParameters } from 'jose';

type CryptoKeyPair = client.CryptoKeyPair;
import { freePort } from '@life/test-support';
import { followAuthorize, startServiceStandIns, type ServiceStandIns } from '@life/test-support/standins/services';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const REDIRECT = 'http://127.0.0.1:7777/callback';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const ath = (token: string) => createHash('sha256').update(token).digest('base64url');

interface Key {
  pair: CryptoKeyPair;
  jwk: JWK;
  jkt: string;
}
const newKey = async (alg = 'ES256'): Promise<Key> => {
  const pair = (await generateKeyPair(alg, { extractable: true })) as CryptoKeyPair;
  const jwk = await exportJWK(pair.publicKey);
  return { pair, jwk, jkt: await calculateJwkThumbprint(jwk, 'sha256') };
};

/** A DPoP proof made by hand, so each claim can be wrong on purpose. */
const proofOf = async (
  key: Key,
  claims: { htm: string; htu: string; ath?: string; iat?: number; jti?: string } & Record<string, unknown>,
  header: Record<string, unknown> = {},
  alg = 'ES256',
) => {
  const { iat, ...rest } = claims;
  return new SignJWT({ jti: randomUUID(), ...rest })
    .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk: key.jwk, ...header })
    .setIssuedAt(iat ?? Math.floor(Date.now() / 1000))
    .sign(key.pair.privateKey as CryptoKey);
};

describe('DPoP (RFC 9449; real PostgreSQL + Redis; openid-client as the outside client)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let person: SeededUser;
  let stand: ServiceStandIns;

  const json = async (response: Response) => (await response.json()) as Json;
  const adminJson = (path: string, method: string, body?: unknown) =>
    t.fetch(path, {
      method,
      headers: { ...bearer(admin.token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const createClient = async (input: Json = {}): Promise<Json> => {
    const response = await adminJson('/oauth_clients', 'POST', {
      name: 'Agenda DPoP',
      redirect_uris: [REDIRECT],
      allowed_scopes: ['openid', 'profile', 'services:read', 'service:github'],
      ...input,
    });
    expect(response.status).toBe(201);
    return json(response);
  };
  const configFor = (app: Json) =>
    client.discovery(new URL(t.url), app.client_id, undefined, app.client_type === 'public' ? client.None() : client.ClientSecretBasic(app.client_secret), {
      execute: [client.allowInsecureRequests],
    });

  /** The SPA's consent POST for the person on openid-client's authorization URL; the URL the browser comes back to. */
  const consentOn = async (url: URL): Promise<URL> => {
    const response = await t.fetch('/oauth/authorize', {
      method: 'POST',
      headers: { ...bearer(person.token), 'content-type': 'application/json' },
      body: JSON.stringify({ ...Object.fromEntries(url.searchParams), action: 'allow' }),
    });
    const body = await json(response);
    expect([response.status, body.error]).toEqual([200, undefined]);
    return new URL(body.redirect_to as string);
  };

  /** openid-client's code flow with PKCE, the token request made with `dpop` (or plain Bearer). */
  const codeFlow = async (config: client.Configuration, scope: string, dpop?: client.DPoPHandle) => {
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope,
      state: 'st',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const back = await consentOn(url);
    return client.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedState: 'st' }, undefined, dpop ? { DPoP: dpop } : undefined);
  };

  const tokenEndpoint = () => `${t.url}/oauth/token`;
  /** client_credentials with a proof made by hand: the cheapest way to reach the token endpoint's checks. */
  const clientCredentials = (app: Json, dpop?: string) =>
    t.fetch('/oauth/token', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(app.client_id, app.client_secret),
        ...(dpop === undefined ? {} : { dpop }),
      },
      body: 'grant_type=client_credentials',
    });
  const meWith = (token: string, proof?: string, scheme = 'DPoP') =>
    t.fetch('/api/v1/me', { headers: { authorization: `${scheme} ${token}`, ...(proof === undefined ? {} : { dpop: proof }) } });
  const expectProofRefused = async (response: Response, status = 400) => {
    const body = await json(response);
    expect([response.status, body.error]).toEqual([status, 'invalid_dpop_proof']);
    expect(body.message).toEqual(expect.any(String));
  };

  beforeAll(async () => {
    stand = await startServiceStandIns({ families: ['github'] });
    const port = await freePort();
    t = await startTestApp({ role: 'web', env: { PORT: String(port), APP_URL: `http://127.0.0.1:${port}` } });
    [admin] = await seedUsers(t.db, 1, 'admin');
    [person] = await seedUsers(t.db, 1);
  });

  afterAll(async () => {
    await t?.close();
    await stand?.close();
  });

  it('discovery lists the DPoP signing algorithms', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const meta = await json(await t.fetch(path));
      expect(meta.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256', 'RS256', 'PS256', 'EdDSA', 'Ed25519']));
      expect(meta.dpop_signing_alg_values_supported).not.toContain('HS256');
    }
  });

  it('public client: openid-client gets DPoP tokens bound to its key, calls /api/v1/me with DPoP, refreshes with the same key only', async () => {
    const app = await createClient({ client_type: 'public' });
    const config = await configFor(app);
    const key = await newKey();
    const dpop = client.getDPoPHandle(config, key.pair);
    const tokens = await codeFlow(config, 'openid profile', dpop);
    expect(tokens.token_type).toBe('dpop');
    const row = (await t.db.query<Json>('select dpop_jkt from oauth_tokens where client_id = $1', [app.id])).rows;
    expect(row).toEqual([{ dpop_jkt: key.jkt }]);

    const me = await client.fetchProtectedResource(config, tokens.access_token, new URL(`${t.url}/api/v1/me`), 'GET', undefined, undefined, { DPoP: dpop });
    expect(me.status).toBe(200);
    expect(await json(me)).toMatchObject({ sub: person.id });

    // A scope it lacks: insufficient_scope, challenged in the scheme the token was sent with
    // (openid-client reads the challenge and throws it).
    const refused = (await client
      .fetchProtectedResource(config, tokens.access_token, new URL(`${t.url}/api/v1/services`), 'GET', undefined, undefined, { DPoP: dpop })
      .catch((error: unknown) => error)) as { response: Response; cause: { scheme: string; parameters: Json }[] };
    expect(refused.response.status).toBe(403);
    expect(refused.cause[0]).toMatchObject({ scheme: 'dpop', parameters: { error: 'insufficient_scope', scope: 'services:read' } });
    expect(refused.response.headers.get('www-authenticate')).toMatch(/^DPoP realm="life", error="insufficient_scope", scope="services:read", algs="/);

    // The bound token as a Bearer token: refused with the DPoP challenge (ASCII only).
    const asBearer = await t.fetch('/api/v1/me', { headers: bearer(tokens.access_token) });
    expect(asBearer.status).toBe(401);
    expect(await json(asBearer)).toMatchObject({ error: 'invalid_token' });
    const challenge = asBearer.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^DPoP /);
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain('algs="ES256 Ed25519 EdDSA PS256 RS256"');
    expect(challenge).toMatch(/^[\x20-\x7e]+$/);

    // Refresh: another key is refused (nothing is spent), no proof is refused, the same key works.
    const other = client.getDPoPHandle(config, (await newKey()).pair);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: other })).rejects.toMatchObject({ error: 'invalid_grant' });
    const noProof = await t.fetch('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: app.client_id }).toString(),
    });
    await expectProofRefused(noProof);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: dpop });
    expect(refreshed.token_type).toBe('dpop');
    const rows = (await t.db.query<Json>('select dpop_jkt from oauth_tokens where client_id = $1', [app.id])).rows;
    expect(rows).toEqual([{ dpop_jkt: key.jkt }, { dpop_jkt: key.jkt }]);
    const again = await client.fetchProtectedResource(config, refreshed.access_token, new URL(`${t.url}/api/v1/me`), 'GET', undefined, undefined, {
      DPoP: dpop,
    });
    expect(again.status).toBe(200);
  });

  it('confidential client: the access token is bound, the refresh token is not (RFC 9449 §5); introspection shows cnf.jkt', async () => {
    const app = await createClient();
    const config = await configFor(app);
    const key = await newKey('EdDSA');
    const dpop = client.getDPoPHandle(config, key.pair);
    const tokens = await codeFlow(config, 'openid', dpop);
    expect(tokens.token_type).toBe('dpop');

    const introspect = async (token: string) =>
      json(
        await t.fetch('/oauth/introspect', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(app.client_id, app.client_secret) },
          body: new URLSearchParams({ token }).toString(),
        }),
      );
    expect(await introspect(tokens.access_token)).toMatchObject({ active: true, token_type: 'DPoP', cnf: { jkt: key.jkt } });
    const refreshInfo = await introspect(tokens.refresh_token!);
    expect(refreshInfo).toMatchObject({ active: true, token_type: 'refresh_token' });
    expect(refreshInfo.cnf).toBeUndefined();

    // Without a proof the refresh works and answers a Bearer token, which works as Bearer.
    const plain = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(plain.token_type).toBe('bearer');
    expect((await t.fetch('/api/v1/me', { headers: bearer(plain.access_token) })).status).toBe(200);
    expect(await introspect(plain.access_token)).toMatchObject({ active: true, token_type: 'Bearer' });
    // With a new key the new access token is bound to that key.
    const next = await newKey();
    const rebound = await client.refreshTokenGrant(config, plain.refresh_token!, undefined, { DPoP: client.getDPoPHandle(config, next.pair) });
    expect(rebound.token_type).toBe('dpop');
    expect((await introspect(rebound.access_token)).cnf).toEqual({ jkt: next.jkt });
  });

  it('dpop_jkt binds the code to a key (RFC 9449 §10), as does a proof at the PAR endpoint: another key or none cannot redeem it', async () => {
    const app = await createClient({ client_type: 'public' });
    const config = await configFor(app);
    const key = await newKey();
    const dpop = client.getDPoPHandle(config, key.pair);
    const other = client.getDPoPHandle(config, (await newKey()).pair);
    const verifier = client.randomPKCECodeVerifier();
    const parameters = {
      redirect_uri: REDIRECT,
      scope: 'openid',
      state: 'st',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    };
    const checks = { pkceCodeVerifier: verifier, expectedState: 'st' };

    const back = await consentOn(client.buildAuthorizationUrl(config, { ...parameters, dpop_jkt: key.jkt }));
    await expect(client.authorizationCodeGrant(config, back, checks, undefined, { DPoP: other })).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(client.authorizationCodeGrant(config, back, checks)).rejects.toMatchObject({ error: 'invalid_grant' });
    // Nothing was spent by the refusals: the right key still redeems it.
    expect((await client.authorizationCodeGrant(config, back, checks, undefined, { DPoP: dpop })).token_type).toBe('dpop');

    const pushed = await client.buildAuthorizationUrlWithPAR(config, parameters, { DPoP: dpop });
    const viaPar = await consentOn(pushed);
    await expect(client.authorizationCodeGrant(config, viaPar, checks, undefined, { DPoP: other })).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await client.authorizationCodeGrant(config, viaPar, checks, undefined, { DPoP: dpop })).token_type).toBe('dpop');

    for (const bad of ['short', 'ñ'.repeat(43), 'a'.repeat(44)]) {
      const response = await t.fetch(`/oauth/authorize?${new URLSearchParams({ client_id: app.client_id, ...parameters, dpop_jkt: bad })}`);
      expect([response.status, (await json(response)).error]).toEqual([400, 'invalid_request']);
    }
  });

  it('token endpoint: wrong htm or htu, stale or future iat, replayed jti, bad typ/alg/key, garbage and huge proofs are 400 invalid_dpop_proof', async () => {
    const app = await createClient();
    const key = await newKey();
    const good = { htm: 'POST', htu: tokenEndpoint() };
    const now = Math.floor(Date.now() / 1000);

    // A good proof, then the very same proof again (replayed jti).
    const proof = await proofOf(key, good);
    const first = await clientCredentials(app, proof);
    const issued = await json(first);
    expect([first.status, issued.token_type]).toEqual([200, 'DPoP']);
    await expectProofRefused(await clientCredentials(app, proof));
    // The URL is compared without its query and fragment.
    expect((await clientCredentials(app, await proofOf(key, { ...good, htu: `${tokenEndpoint()}?x=1#y` }))).status).toBe(200);

    const bad = [
      await proofOf(key, { ...good, htm: 'GET' }),
      await proofOf(key, { ...good, htu: `${t.url}/oauth/par` }),
      await proofOf(key, { ...good, htu: 'https://evil.example/oauth/token' }),
      await proofOf(key, { ...good, htu: 'not a url' }),
      await proofOf(key, { ...good, iat: now - 600 }),
      await proofOf(key, { ...good, iat: now + 600 }),
      await proofOf(key, { ...good, jti: '' }),
      await proofOf(key, { htm: 'POST', htu: tokenEndpoint(), jti: undefined }),
      await proofOf(key, good, { typ: 'JWT' }),
      await proofOf(key, good, { jwk: (await newKey()).jwk }),
      await proofOf(key, good, { jwk: { ...(await exportJWK(key.pair.privateKey)) } }),
      await new SignJWT({ ...good, jti: randomUUID() })
        .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: { kty: 'oct', k: 'c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0' } } as unknown as JWTHeaderParameters)
        .setIssuedAt()
        .sign(new TextEncoder().encode('secretsecretsecretsecretsecretse')),
      'garbage',
      'a.b.c',
      `${'a'.repeat(9000)}.b.c`,
      'ñandú.b.c',
      `${proof}, ${proof}`,
    ];
    for (const value of bad) {
      const response = await clientCredentials(app, value);
      expect(response.status).toBe(400);
      expect(await json(response)).toMatchObject({ error: 'invalid_dpop_proof', error_description: expect.any(String) });
    }
    // RSA: a usual key works; one over 4096 bits is refused before its signature is checked (it costs CPU, proves nothing more).
    const rsaOf = async (modulusLength: number): Promise<Key> => {
      const pair = (await generateKeyPair('RS256', { extractable: true, modulusLength })) as CryptoKeyPair;
      const jwk = await exportJWK(pair.publicKey);
      return { pair, jwk, jkt: await calculateJwkThumbprint(jwk, 'sha256') };
    };
    const usual = await clientCredentials(app, await proofOf(await rsaOf(2048), good, {}, 'RS256'));
    expect([usual.status, (await json(usual)).token_type]).toEqual([200, 'DPoP']);
    const oversized = await proofOf(await rsaOf(4608), good, {}, 'RS256');
    expect(oversized.length).toBeLessThan(8000);
    await expectProofRefused(await clientCredentials(app, oversized));
    // An empty DPoP header is no proof at all.
    await expectProofRefused(await clientCredentials(app, ''));
    // Without a DPoP header: a Bearer token, as before.
    expect((await json(await clientCredentials(app))).token_type).toBe('Bearer');
  });

  it('resource API: the proof must carry ath and match method, URL and key; replays and unbound tokens are refused; Bearer tokens keep working', async () => {
    const app = await createClient({ client_type: 'public' });
    const config = await configFor(app);
    const key = await newKey();
    const tokens = await codeFlow(config, 'openid profile', client.getDPoPHandle(config, key.pair));
    const token = tokens.access_token;
    const me = `${t.url}/api/v1/me`;

    const good = await proofOf(key, { htm: 'GET', htu: me, ath: ath(token) });
    expect((await meWith(token, good)).status).toBe(200);
    const replayed = await meWith(token, good);
    await expectProofRefused(replayed, 401);
    expect(replayed.headers.get('www-authenticate')).toBe('DPoP realm="life", error="invalid_dpop_proof", algs="ES256 Ed25519 EdDSA PS256 RS256"');

    await expectProofRefused(await meWith(token), 401);
    await expectProofRefused(await meWith(token, await proofOf(key, { htm: 'GET', htu: me })), 401);
    await expectProofRefused(await meWith(token, await proofOf(key, { htm: 'GET', htu: me, ath: ath('lat_other') })), 401);
    await expectProofRefused(await meWith(token, await proofOf(key, { htm: 'POST', htu: me, ath: ath(token) })), 401);
    await expectProofRefused(await meWith(token, await proofOf(key, { htm: 'GET', htu: `${t.url}/api/v1/services`, ath: ath(token) })), 401);
    await expectProofRefused(await meWith(token, 'x'.repeat(9_000)), 401);
    // The query string is not part of htu.
    expect(
      (await t.fetch('/api/v1/me?x=1', { headers: { authorization: `DPoP ${token}`, dpop: await proofOf(key, { htm: 'GET', htu: me, ath: ath(token) }) } }))
        .status,
    ).toBe(200);

    // A valid proof of another key: the token is not bound to it.
    const stranger = await newKey();
    const wrongKey = await meWith(token, await proofOf(stranger, { htm: 'GET', htu: me, ath: ath(token) }));
    expect([wrongKey.status, (await json(wrongKey)).error]).toEqual([401, 'invalid_token']);
    expect(wrongKey.headers.get('www-authenticate')).toContain('DPoP realm="life", error="invalid_token"');
    // An unknown token with a good proof.
    const unknown = await meWith('lat_unknown', await proofOf(key, { htm: 'GET', htu: me, ath: ath('lat_unknown') }));
    expect([unknown.status, (await json(unknown)).error]).toEqual([401, 'invalid_token']);

    // An unbound (Bearer) token: works as Bearer, refused with the DPoP scheme.
    const plainApp = await createClient();
    const plain = await codeFlow(await configFor(plainApp), 'openid profile');
    expect(plain.token_type).toBe('bearer');
    expect((await t.fetch('/api/v1/me', { headers: bearer(plain.access_token) })).status).toBe(200);
    const unbound = await meWith(plain.access_token, await proofOf(key, { htm: 'GET', htu: me, ath: ath(plain.access_token) }));
    expect([unbound.status, (await json(unbound)).error]).toEqual([401, 'invalid_token']);
  });

  it('the proxy accepts a DPoP-bound token with its proof and refuses it as Bearer', async () => {
    const list = (await json(await t.fetch('/api/external-services/all', { headers: bearer(admin.token) }))) as unknown as Json[];
    const row = list.find((service) => service.service_name === 'github')!;
    expect((await adminJson(`/api/external-services/${row.id}`, 'PUT', stand.rows.github)).status).toBe(200);
    const auth = await json(await t.fetch('/api/external-services/github/auth', { method: 'POST', headers: bearer(person.token) }));
    const target = await followAuthorize(auth.auth_url as string);
    expect((await t.fetch(`/callback/github?${target.searchParams}`, { headers: { ...bearer(person.token), accept: 'application/json' } })).status).toBe(200);

    const app = await createClient({ client_type: 'public' });
    const config = await configFor(app);
    const key = await newKey();
    const dpop = client.getDPoPHandle(config, key.pair);
    const tokens = await codeFlow(config, 'services:read service:github', dpop);
    const url = new URL(`${t.url}/api/v1/services/github/proxy/user`);
    const proxied = await client.fetchProtectedResource(config, tokens.access_token, url, 'GET', undefined, undefined, { DPoP: dpop });
    expect(proxied.status).toBe(200);
    expect(await json(proxied)).toMatchObject({ login: expect.any(String) });
    expect(proxied.headers.get('x-life-proxied-service')).toBe('github');
    expect((await t.fetch('/api/v1/services/github/proxy/user', { headers: bearer(tokens.access_token) })).status).toBe(401);
  });
});
