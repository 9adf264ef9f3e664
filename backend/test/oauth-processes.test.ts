import { setTimeout as sleep } from 'node:timers/promises';
import { Batcher } from '../src/modules/oauth-server/batcher.js';
import { ClientCache } from '../src/modules/oauth-server/client-cache.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const FORM = 'application/x-www-form-urlencoded';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/**
 * Two instances of the app on one database and one Redis, as two processes of a deployment are:
 * each has its own client cache, token batches and rate-limit state (decision 0017).
 */
describe('authorization server across two app instances (real PostgreSQL + Redis)', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: SeededUser;

  const token = (app: TestApp, authorization: string) =>
    app.fetch('/oauth/token', { method: 'POST', headers: { authorization, 'content-type': FORM }, body: 'grant_type=client_credentials' });
  const introspect = async (app: TestApp, authorization: string, value: string) =>
    (await (
      await app.fetch('/oauth/introspect', {
        method: 'POST',
        headers: { authorization, 'content-type': FORM },
        body: new URLSearchParams({ token: value }).toString(),
      })
    ).json()) as Json;
  const createClient = async (): Promise<Json> => {
    const response = await a.fetch('/oauth_clients', {
      method: 'POST',
      headers: { ...bearer(admin.token), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Dos procesos', redirect_uris: ['http://127.0.0.1:7777/callback'] }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Json;
  };
  /** Asks until `app` refuses the credentials (a change reaches the other instance by pub/sub, or its fingerprint check). */
  const refusedSoon = async (app: TestApp, authorization: string) => {
    for (let i = 0; i < 100; i++) {
      const response = await token(app, authorization);
      if (response.status === 401) return (await response.json()) as Json;
      await sleep(50);
    }
    throw new Error('the other instance still accepts the old credentials');
  };

  beforeAll(async () => {
    a = await startTestApp({ role: 'web' });
    b = await startTestApp({ role: 'web', db: a.db, env: { QUEUE_PREFIX: a.queuePrefix } });
    [admin] = await seedUsers(a.db, 1, 'admin');
  });

  afterAll(async () => {
    await b?.app.close();
    await a?.close();
  });

  it('a rotated secret stops working at once where it was rotated, and soon in the other instance', async () => {
    const app = await createClient();
    const old = basic(app.client_id, app.client_secret);
    // Both instances have the client in their cache.
    expect((await token(a, old)).status).toBe(200);
    expect((await token(b, old)).status).toBe(200);
    const rotated = (await (await a.fetch(`/oauth_clients/${app.id}/secret`, { method: 'POST', headers: bearer(admin.token) })).json()) as Json;
    expect((await token(a, old)).status).toBe(401);
    expect((await refusedSoon(b, old)).error).toBe('invalid_client');
    const fresh = basic(app.client_id, rotated.client_secret);
    expect((await token(a, fresh)).status).toBe(200);
    expect((await token(b, fresh)).status).toBe(200);
  });

  it('a deactivated client is refused by both instances', async () => {
    const app = await createClient();
    const credentials = basic(app.client_id, app.client_secret);
    expect((await token(b, credentials)).status).toBe(200);
    const put = await a.fetch(`/oauth_clients/${app.id}`, {
      method: 'PUT',
      headers: { ...bearer(admin.token), 'content-type': 'application/json' },
      body: JSON.stringify({ ...app, active: false }),
    });
    expect(put.status).toBe(200);
    expect((await token(a, credentials)).status).toBe(401);
    await refusedSoon(b, credentials);
  });

  it('a change made behind its back (SQL, no message) is caught by the fingerprint check', async () => {
    const app = await createClient();
    const credentials = basic(app.client_id, app.client_secret);
    expect((await token(b, credentials)).status).toBe(200);
    await a.db.query(`update oauth_clients set client_secret_hash = repeat('0', 64) where id = $1`, [app.id]);
    // No message was published: only the fingerprint check can tell instance b.
    await b.app.get(ClientCache).poll();
    expect((await token(b, credentials)).status).toBe(401);
  });

  it('issues concurrent tokens in groups: each one stored, distinct, introspected active by the other instance; a revoked one is inactive everywhere', async () => {
    const app = await createClient();
    const credentials = basic(app.client_id, app.client_secret);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => token(i % 2 ? a : b, credentials)));
    expect(answers.map((response) => response.status)).toEqual(answers.map(() => 200));
    const tokens = await Promise.all(answers.map(async (response) => ((await response.json()) as Json).access_token as string));
    expect(new Set(tokens).size).toBe(40);
    const stored = await a.db.query('select 1 from oauth_tokens t join oauth_clients c on c.id = t.client_id where c.client_id = $1', [app.client_id]);
    expect(stored.rowCount).toBe(40);
    // Introspected concurrently (batched lookups), each by the instance that did not issue it.
    const revoke = await a.fetch('/oauth/revoke', {
      method: 'POST',
      headers: { authorization: credentials, 'content-type': FORM },
      body: new URLSearchParams({ token: tokens[0]! }).toString(),
    });
    expect(revoke.status).toBe(200);
    const seen = await Promise.all(tokens.map((value, i) => introspect(i % 2 ? b : a, credentials, value)));
    expect(seen.map((answer) => answer.active)).toEqual(tokens.map((_, i) => i !== 0));
    expect(seen[1]).toMatchObject({ active: true, client_id: app.client_id, token_type: 'Bearer' });
    // Another client's token is not this client's business.
    const other = await createClient();
    expect(await introspect(b, basic(other.client_id, other.client_secret), tokens[1]!)).toEqual({ active: false });
  });

  it('tokens outlive the instance that issued them', async () => {
    const app = await createClient();
    const credentials = basic(app.client_id, app.client_secret);
    const issued = (await (await token(b, credentials)).json()) as Json;
    await b.app.close();
    b = await startTestApp({ role: 'web', db: a.db, env: { QUEUE_PREFIX: a.queuePrefix } });
    expect((await introspect(b, credentials, issued.access_token as string)).active).toBe(true);
  });
});

describe('refresh rotation as one statement, strict (OAUTH_REFRESH_GRACE_SECONDS=0; real PostgreSQL)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let person: SeededUser;

  beforeAll(async () => {
    // No grace window: decision 0012 as written (with the default window, see oauth-server.test.ts).
    t = await startTestApp({ role: 'web', env: { OAUTH_REFRESH_GRACE_SECONDS: '0' } });
    [admin] = await seedUsers(t.db, 1, 'admin');
    [person] = await seedUsers(t.db, 1);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('of 20 concurrent refreshes with one token exactly one succeeds, and the race revokes the winner with its family', async () => {
    const app = (await (
      await t.fetch('/oauth_clients', {
        method: 'POST',
        headers: { ...bearer(admin.token), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Carrera', redirect_uris: ['http://127.0.0.1:7777/callback'] }),
      })
    ).json()) as Json;
    const consent = (await (
      await t.fetch('/oauth/authorize', {
        method: 'POST',
        headers: { ...bearer(person.token), 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: app.client_id, redirect_uri: 'http://127.0.0.1:7777/callback', scope: 'read', state: 's', action: 'allow' }),
      })
    ).json()) as Json;
    const code = new URL(consent.redirect_to as string).searchParams.get('code')!;
    const credentials = basic(app.client_id, app.client_secret);
    const post = (body: Record<string, string>) =>
      t.fetch('/oauth/token', { method: 'POST', headers: { authorization: credentials, 'content-type': FORM }, body: new URLSearchParams(body).toString() });
    const first = (await (await post({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:7777/callback' })).json()) as Json;
    const answers = await Promise.all(Array.from({ length: 20 }, () => post({ grant_type: 'refresh_token', refresh_token: first.refresh_token })));
    const bodies = await Promise.all(answers.map(async (answer) => ({ status: answer.status, body: (await answer.json()) as Json })));
    const winners = bodies.filter((answer) => answer.status === 200);
    expect(winners).toHaveLength(1);
    expect(bodies.filter((answer) => answer.status === 400 && answer.body.error === 'invalid_grant')).toHaveLength(19);
    // Decision 0012: the losers were reuses, so the winner's new pair went with the family.
    const winner = winners[0]!.body;
    expect((await t.fetch('/api/v1/me', { headers: bearer(winner.access_token as string) })).status).toBe(401);
    expect((await post({ grant_type: 'refresh_token', refresh_token: winner.refresh_token as string })).status).toBe(400);
    const family = await t.db.query<{ live: string; spent: string }>(
      `select count(*) filter (where revoked_at is null) as live, count(*) filter (where refresh_used_at is not null) as spent
         from oauth_tokens where family_id = (select family_id from oauth_tokens where access_token_hash = encode(sha256($1::bytea), 'hex'))`,
      [first.access_token],
    );
    expect(family.rows[0]).toEqual({ live: '0', spent: '1' });
    // Nothing was sealed for a grace window that is not there.
    const sealed = await t.db.query(`select 1 from oauth_tokens where successor_sealed is not null`);
    expect(sealed.rowCount).toBe(0);
  });
});

describe('token endpoint rate limits across two app instances', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: SeededUser;
  const env = { OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE: '200', OAUTH_CLIENT_AUTH_FAILURES_PER_15MIN: '3' };
  const token = (app: TestApp, authorization: string) =>
    app.fetch('/oauth/token', { method: 'POST', headers: { authorization, 'content-type': FORM }, body: 'grant_type=client_credentials' });
  const createClient = async (): Promise<Json> =>
    (await (
      await a.fetch('/oauth_clients', {
        method: 'POST',
        headers: { ...bearer(admin.token), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Limitada', redirect_uris: ['http://127.0.0.1:7777/callback'] }),
      })
    ).json()) as Json;

  beforeAll(async () => {
    a = await startTestApp({ role: 'web', env });
    b = await startTestApp({ role: 'web', db: a.db, env: { ...env, QUEUE_PREFIX: a.queuePrefix } });
    [admin] = await seedUsers(a.db, 1, 'admin');
  });

  afterAll(async () => {
    await b?.app.close();
    await a?.close();
  });

  it('the per-client limit holds for both instances together: exactly the limit, then 429 with Retry-After on both', async () => {
    const app = await createClient();
    const credentials = basic(app.client_id, app.client_secret);
    const statuses: number[] = [];
    for (let i = 0; i < 220; i++) statuses.push((await token(i % 2 ? a : b, credentials)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(200);
    expect(statuses.slice(-10)).toEqual(Array(10).fill(429));
    const refused = await token(a, credentials);
    expect([refused.status, Number(refused.headers.get('retry-after')) > 0]).toEqual([429, true]);
    // Another client (another key) is not affected.
    const other = await createClient();
    expect((await token(b, basic(other.client_id, other.client_secret))).status).toBe(200);
  });

  it('an IP blocked for failed client authentications in one instance is refused by the other, even with the right secret', async () => {
    const app = await createClient();
    for (let i = 0; i < 3; i++) expect((await token(a, basic(app.client_id, `wrong-${i}`))).status).toBe(401);
    expect((await token(a, basic(app.client_id, app.client_secret))).status).toBe(429);
    let answer = 0;
    for (let i = 0; i < 100 && answer !== 429; i++) {
      answer = (await token(b, basic(app.client_id, app.client_secret))).status;
      if (answer !== 429) await sleep(50);
    }
    expect(answer).toBe(429);
  });
});

describe('Batcher', () => {
  it('answers each call with its own result, and a failed batch fails only the call at fault', async () => {
    const sizes: number[] = [];
    const batcher = new Batcher<number, number>(async (items) => {
      sizes.push(items.length);
      if (items.includes(13)) throw new Error('thirteen');
      return items.map((item) => item * 2);
    }, 1);
    const results = await Promise.allSettled([1, 2, 13, 4, 5].map((item) => batcher.add(item)));
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message))).toEqual([2, 4, 'thirteen', 8, 10]);
    // The first call went alone; the four that waited went together, then one by one after the failure.
    expect(sizes).toEqual([1, 4, 1, 1, 1, 1]);
  });
});
