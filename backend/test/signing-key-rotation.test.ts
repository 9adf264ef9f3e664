import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { COMMANDS } from '../src/cli.js';
import { SIGNING_KEYS_MAX_AGE_MS, SigningKeysService } from '../src/modules/oauth-server/signing-keys.service.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, TEST_REDIS_URL, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const REDIRECT = 'http://127.0.0.1:7777/callback';
const KEYS = `k1:${randomBytes(32).toString('base64')}`;

interface Issued {
  process: 'a' | 'b';
  kid: string;
  /** Local clock: when the token was asked for, and when it arrived (the JWKS were fetched right after). */
  askedAt: number;
  arrivedAt: number;
  verifiedByA: boolean;
  verifiedByB: boolean;
  /** The key ids each instance published then. */
  publishedByA: string[];
  publishedByB: string[];
}

/**
 * Issue 21, point 2: two app instances on one database and one Redis (two web processes), the
 * signing key rotated by the CLI (its own connections, no Nest) while both issue ID tokens. The
 * new key is published by both before either signs with it (decision 0030).
 */
describe('signing key rotation across two app instances (real PostgreSQL + Redis)', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: SeededUser;
  let person: SeededUser;
  let app: Json;

  const json = async (response: Response) => (await response.json()) as Json;
  const jwks = async (t: TestApp) => (await json(await t.fetch('/oauth/jwks'))) as unknown as JSONWebKeySet;
  const verifies = async (idToken: string, set: JSONWebKeySet) =>
    jwtVerify(idToken, createLocalJWKSet(set)).then(
      () => true,
      () => false,
    );

  /** Consent on one instance, code exchanged on the other (as a balancer would), then both JWKS fetched at once. */
  const issue = async (name: 'a' | 'b'): Promise<Issued> => {
    const [t, other] = name === 'a' ? [a, b] : [b, a];
    const askedAt = Date.now();
    const consent = await json(
      await other.fetch('/oauth/authorize', {
        method: 'POST',
        headers: { ...bearer(person.token), 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 's', action: 'allow' }),
      }),
    );
    const code = new URL(consent.redirect_to as string).searchParams.get('code')!;
    const response = await t.fetch('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: app.client_id,
        client_secret: app.client_secret,
      }).toString(),
    });
    expect(response.status).toBe(200);
    const idToken = (await json(response)).id_token as string;
    const arrivedAt = Date.now();
    const [fromA, fromB] = await Promise.all([jwks(a), jwks(b)]);
    return {
      process: name,
      kid: decodeProtectedHeader(idToken).kid!,
      askedAt,
      arrivedAt,
      verifiedByA: await verifies(idToken, fromA),
      verifiedByB: await verifies(idToken, fromB),
      publishedByA: fromA.keys.map((key) => key.kid!),
      publishedByB: fromB.keys.map((key) => key.kid!),
    };
  };

  /** The CLI command as an operator runs it: its own database and Redis connections, its announcement on Redis. */
  const rotateWithCli = async (): Promise<{ kid: string; activatesAt: number }> => {
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      DATABASE_URL: a.db.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: a.queuePrefix,
      ENCRYPTION_KEYS: KEYS,
    };
    const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
    const printed: string[] = [];
    const log = console.log;
    Object.assign(process.env, env);
    console.log = (line: string) => void printed.push(line);
    try {
      await COMMANDS['oauth:rotate-signing-key']!.run([]);
    } finally {
      console.log = log;
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    const row = (
      await a.db.query<{ kid: string; at: number }>(`select kid, (extract(epoch from activates_at) * 1000)::float8 as at from oauth_signing_keys where active`)
    ).rows[0]!;
    expect(printed.join('\n')).toContain(`New signing key ${row.kid}: every process publishes it in its JWKS now`);
    return { kid: row.kid, activatesAt: Number(row.at) };
  };

  beforeAll(async () => {
    const env = { ENCRYPTION_KEYS: KEYS, OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE: '100000' };
    a = await startTestApp({ role: 'web', env });
    b = await startTestApp({ role: 'web', db: a.db, env: { ...env, QUEUE_PREFIX: a.queuePrefix } });
    [admin] = await seedUsers(a.db, 1, 'admin');
    [person] = await seedUsers(a.db, 1);
    const created = await a.fetch('/oauth_clients', {
      method: 'POST',
      headers: { ...bearer(admin.token), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Llaves', redirect_uris: [REDIRECT], allowed_scopes: ['openid', 'profile'] }),
    });
    expect(created.status).toBe(201);
    app = await json(created);
  });

  afterAll(async () => {
    await b?.app.close();
    await a?.close();
  });

  it('every ID token issued around a rotation verifies against the JWKS of both instances; the new key signs from its activation, on both', async () => {
    const old = await a.app.get(SigningKeysService).signingKid();
    expect(await b.app.get(SigningKeysService).signingKid()).toBe(old);

    const issued: Issued[] = [];
    let rotation: { kid: string; activatesAt: number; announcedAt: number } | undefined;
    /** Each instance issues tokens one after another until it has issued a few well after the activation. */
    const keepIssuing = async (name: 'a' | 'b') => {
      for (;;) {
        const token = await issue(name);
        issued.push(token);
        const late = issued.filter((one) => one.process === name && rotation && one.askedAt > rotation.activatesAt + SIGNING_KEYS_MAX_AGE_MS);
        if (late.length >= 3) return;
        await sleep(20);
      }
    };
    const rotate = async () => {
      // A few tokens with the old key first, on both.
      while (issued.filter((one) => one.process === 'a').length < 2 || issued.filter((one) => one.process === 'b').length < 2) {
        await sleep(20);
      }
      rotation = { ...(await rotateWithCli()), announcedAt: Date.now() };
    };
    await Promise.all([keepIssuing('a'), keepIssuing('b'), rotate()]);

    // Publish first: every token, whichever key signed it, verified against both instances' JWKS fetched as it arrived.
    expect(issued.filter((one) => !one.verifiedByA || !one.verifiedByB)).toEqual([]);
    const { kid, activatesAt } = rotation!;
    expect(kid).not.toBe(old);
    expect(new Set(issued.map((one) => one.kid))).toEqual(new Set([old, kid]));
    // Sign later: between the command and the activation both kept signing with the old key (that
    // window exists: the activation is seconds ahead), while their JWKS already listed the new one.
    const meanwhile = issued.filter((one) => one.askedAt > rotation!.announcedAt && one.arrivedAt < activatesAt - 100);
    expect(new Set(meanwhile.map((one) => one.process))).toEqual(new Set(['a', 'b']));
    expect(issued.filter((one) => one.arrivedAt < activatesAt - 100 && one.kid !== old)).toEqual([]);
    // Seen everywhere soon: no instance answers from keys read longer ago than SIGNING_KEYS_MAX_AGE_MS.
    const listedLate = meanwhile.filter((one) => one.askedAt > rotation!.announcedAt + SIGNING_KEYS_MAX_AGE_MS);
    expect(listedLate.length).toBeGreaterThan(0);
    expect(listedLate.filter((one) => !one.publishedByA.includes(kid) || !one.publishedByB.includes(kid))).toEqual([]);
    // Within a bounded time after the activation both sign with the new key (each reads the keys again at least this often).
    const late = issued.filter((one) => one.askedAt > activatesAt + SIGNING_KEYS_MAX_AGE_MS);
    expect(new Set(late.map((one) => one.process))).toEqual(new Set(['a', 'b']));
    expect(late.filter((one) => one.kid !== kid)).toEqual([]);
    // Both publish both keys.
    for (const t of [a, b]) expect((await jwks(t)).keys.map((key) => key.kid).sort()).toEqual([old, kid].sort());
  });

  it('an instance that heard nothing (no message) still publishes a new key at its next read, before the key signs', async () => {
    // Rotated behind the instances' backs: a row written by hand, activating in an hour; no announcement.
    const keys = a.app.get(SigningKeysService);
    const signing = await keys.signingKid();
    await a.db.query(
      `insert into oauth_signing_keys (id, created_at, updated_at, kid, alg, public_jwk, private_jwk_sealed, active, activates_at)
         select gen_random_uuid(), now(), now(), 'hand-made', alg, public_jwk || '{"kid":"hand-made"}'::jsonb, private_jwk_sealed, false, now() + interval '1 hour'
           from oauth_signing_keys where kid = $1`,
      [signing],
    );
    for (const t of [a, b]) {
      await t.app.get(SigningKeysService).refresh();
      expect((await jwks(t)).keys.map((key) => key.kid)).toContain('hand-made');
      expect(await t.app.get(SigningKeysService).signingKid()).toBe(signing);
    }
    await a.db.query(`delete from oauth_signing_keys where kid = 'hand-made'`);
  });
});
