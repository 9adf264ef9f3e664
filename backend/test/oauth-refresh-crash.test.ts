import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { freePort, pollUntil } from '@life/test-support';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { fakeStaticDir, TEST_REDIS_URL } from './helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * Issue 21, point 1: a web process killed during refresh-token rotations must never cost an app
 * its refresh tokens. The processes are the built app (`backend/dist/main.js --web-only`) as
 * separate OS processes on one PostgreSQL and one Redis, killed with SIGKILL: at the worst moment
 * (the rotation committed, nothing answered: TEST_KILL_AFTER_REFRESH_ROTATION), while the rotation
 * statement is inside PostgreSQL, and during a burst. The client then does what a client does: it
 * tries once more with the refresh token it holds, on the process that is left.
 */

const backendDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mainJs = path.join(backendDir, 'dist', 'main.js');
const FORM = 'application/x-www-form-urlencoded';
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
/** The rotation statement (TokenStore.rotateRows) as pg_stat_activity shows it. */
const ROTATION_SQL = 'with input as (select * from unnest(%';

interface Web {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<unknown>;
}

describe('refresh rotation survives a killed web process (real processes, PostgreSQL, Redis)', () => {
  let db: TestDatabase;
  let pgClient: pg.Client;
  const prefix = `lifecrash${randomBytes(3).toString('hex')}`;
  const env: Record<string, string> = {};
  const started: Web[] = [];
  let survivor: Web;
  let basic: string;
  let family: { clientRowId: string; personId: string; grantId: string; scopes: string };

  async function startWeb(extra: Record<string, string> = {}): Promise<Web> {
    const port = await freePort();
    let output = '';
    const child = spawn(process.execPath, [mainJs, '--web-only'], {
      env: { ...env, PORT: String(port), APP_URL: `http://127.0.0.1:${port}`, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
    const web: Web = { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
    started.push(web);
    await pollUntil(async () => (await fetch(`${web.url}/api/health`)).status === 200, 'the web process to answer', {
      timeoutMs: 60_000,
      intervalMs: 200,
      failIf: () => (child.exitCode !== null ? `it exited (${child.exitCode})` : false),
      detail: () => `Output:\n${output}`,
    });
    return web;
  }

  const refresh = (web: Web, token: string) =>
    fetch(`${web.url}/oauth/token`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': FORM },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString(),
    });

  /** New families of one refresh token each, stored the way TokenStore stores them (hashes only). */
  async function seedFamilies(count: number): Promise<string[]> {
    const tokens = Array.from({ length: count }, () => `lrt_${randomBytes(32).toString('base64url')}`);
    for (const token of tokens) {
      await db.query(
        `insert into oauth_tokens (id, created_at, updated_at, access_token_hash, refresh_token_hash, access_expires_at, refresh_expires_at,
           client_id, user_id, grant_id, code_id, family_id, scopes)
         values (gen_random_uuid(), now(), now(), $1, $2, now() + interval '1 hour', now() + interval '30 days', $3, $4, $5, null, gen_random_uuid(), $6::jsonb)`,
        [sha256(`lat_${randomBytes(32).toString('base64url')}`), sha256(token), family.clientRowId, family.personId, family.grantId, family.scopes],
      );
    }
    return tokens;
  }

  const rowOf = async (token: string) =>
    (
      await db.query<{ id: string; family_id: string; refresh_used_at: Date | null; successor_id: string | null; revoked_at: Date | null }>(
        'select id, family_id, refresh_used_at, successor_id, revoked_at from oauth_tokens where refresh_token_hash = $1',
        [sha256(token)],
      )
    ).rows[0]!;

  /** What a killed process left inside PostgreSQL (a statement it had sent) has finished, committed or not. */
  const orphansDone = () =>
    pollUntil(
      async () =>
        (
          await pgClient.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity where datname = $1 and state = 'active' and query like $2 and pid <> pg_backend_pid()`,
            [db.name, ROTATION_SQL],
          )
        ).rows[0]!.n === 0,
      'the killed process statements to finish',
    );

  /** The invariants of issue 21: no token spent without its successor, no family revoked, no reuse reported. */
  async function expectNothingLost() {
    const orphaned = await db.query(
      `select t.id from oauth_tokens t where t.refresh_used_at is not null
          and not exists (select 1 from oauth_tokens s where s.id = t.successor_id and s.family_id = t.family_id)`,
    );
    expect(orphaned.rowCount).toBe(0);
    expect((await db.query('select id, revoked_reason from oauth_tokens where revoked_at is not null')).rows).toEqual([]);
    expect((await db.query(`select id from audit_events where action = 'oauth.refresh_reuse_detected'`)).rows).toEqual([]);
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    pgClient = new pg.Client({ connectionString: db.url });
    Object.assign(env, {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: db.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: prefix,
      // Every process of an installation has the same keys (the sealed successor pairs are opened by any of them).
      ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      STATIC_DIR: fakeStaticDir(),
      OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE: '100000',
    });
    // The process that stays up (it also migrates the database, before the others start).
    survivor = await startWeb();
    await pgClient.connect();
    const [admin] = (await seedUsers(db, 1, 'admin')) as [SeededUser];
    const [person] = (await seedUsers(db, 1)) as [SeededUser];
    const app = (await (
      await fetch(`${survivor.url}/oauth_clients`, {
        method: 'POST',
        headers: { ...bearer(admin.token), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Muchos procesos', redirect_uris: ['http://127.0.0.1:7777/callback'] }),
      })
    ).json()) as Json;
    basic = `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}`;
    const consent = await fetch(`${survivor.url}/oauth/authorize`, {
      method: 'POST',
      headers: { ...bearer(person.token), 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: app.client_id, redirect_uri: 'http://127.0.0.1:7777/callback', scope: 'read', state: 's', action: 'allow' }),
    });
    expect(consent.status).toBe(200);
    const grant = (
      await db.query<{ client_id: string; user_id: string; id: string; scopes: string[] }>(
        'select g.client_id, g.user_id, g.id, g.scopes from oauth_grants g join oauth_clients c on c.id = g.client_id where c.client_id = $1',
        [app.client_id],
      )
    ).rows[0]!;
    family = { clientRowId: grant.client_id, personId: grant.user_id, grantId: grant.id, scopes: JSON.stringify(grant.scopes) };
  }, 120_000);

  afterAll(async () => {
    for (const web of started) {
      // Throw-away processes: a graceful stop could wait for idle keep-alive connections (issue 21, point 4).
      if (web.child.exitCode === null && web.child.signalCode === null) web.child.kill('SIGKILL');
      await web.exited;
    }
    await pgClient?.end();
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await db?.drop();
  }, 60_000);

  it('killed right after a rotation committed, before answering: the retry on another process gets the stored pair; nothing is revoked', async () => {
    const [token] = (await seedFamilies(1)) as [string];
    const doomed = await startWeb({ TEST_KILL_AFTER_REFRESH_ROTATION: 'on' });
    expect(
      await refresh(doomed, token).then(
        () => 'answered',
        () => 'connection lost',
      ),
    ).toBe('connection lost');
    expect(await doomed.exited).toBe('SIGKILL');

    // Spent and stored, in one commit; the client never saw the pair.
    const spent = await rowOf(token);
    expect(spent.refresh_used_at).not.toBeNull();
    const successor = (await db.query('select refresh_token_hash, revoked_at, family_id from oauth_tokens where id = $1', [spent.successor_id])).rows[0];
    expect(successor).toMatchObject({ revoked_at: null, family_id: spent.family_id });

    // The client's single retry, through the balancer to the other process: the same pair (decision 0028).
    const retry = await refresh(survivor, token);
    const pair = (await retry.json()) as Json;
    expect(retry.status).toBe(200);
    expect(sha256(pair.refresh_token as string)).toBe(successor!.refresh_token_hash);
    expect((await refresh(survivor, pair.refresh_token as string)).status).toBe(200);
    await expectNothingLost();
  }, 90_000);

  it('killed while its rotation statement is inside PostgreSQL: the token is either untouched or spent with its successor, and the retry works', async () => {
    const [token] = (await seedFamilies(1)) as [string];
    const doomed = await startWeb();
    // Hold the token's row, so the rotation statement is sent and waits inside PostgreSQL.
    const holder = new pg.Client({ connectionString: db.url });
    holder.on('error', () => undefined);
    await holder.connect();
    await holder.query('begin');
    await holder.query('select id from oauth_tokens where refresh_token_hash = $1 for update', [sha256(token)]);
    const answer = refresh(doomed, token).then(
      () => 'answered',
      () => 'connection lost',
    );
    try {
      await pollUntil(
        async () =>
          (
            await pgClient.query<{ n: number }>(
              `select count(*)::int as n from pg_stat_activity where datname = $1 and wait_event_type = 'Lock' and query like $2`,
              [db.name, ROTATION_SQL],
            )
          ).rows[0]!.n === 1,
        'the rotation to wait for the row',
      );
      doomed.child.kill('SIGKILL');
      expect(await doomed.exited).toBe('SIGKILL');
      expect(await answer).toBe('connection lost');
    } finally {
      await holder.query('commit');
      await holder.end();
    }
    await orphansDone();

    const row = await rowOf(token);
    const familyRows = (await db.query('select id from oauth_tokens where family_id = $1', [row.family_id])).rowCount;
    if (row.refresh_used_at) {
      // PostgreSQL finished the statement for the dead client: everything done.
      expect(row.successor_id).not.toBeNull();
      expect(familyRows).toBe(2);
    } else {
      // It noticed the client was gone first: nothing done.
      expect(row.successor_id).toBeNull();
      expect(familyRows).toBe(1);
    }
    const retry = await refresh(survivor, token);
    expect(retry.status).toBe(200);
    expect((await refresh(survivor, ((await retry.json()) as Json).refresh_token as string)).status).toBe(200);
    await expectNothingLost();
  }, 90_000);

  it('killed during a burst of rotations of 30 families: every interrupted refresh is retried once on the other process, and no family is lost', async () => {
    const tokens = await seedFamilies(30);
    const doomed = await startWeb();
    const ROUNDS = 6;
    let servedByDoomed = 0;
    let interrupted = 0;
    const held = await Promise.all(
      tokens.map(async (first) => {
        let token = first;
        const ask = async (web: Web) => {
          const answer = await refresh(web, token);
          return { status: answer.status, body: (await answer.json()) as Json };
        };
        for (let round = 0; round < ROUNDS; round++) {
          const alive = !doomed.child.killed && doomed.child.exitCode === null;
          let result = alive ? await ask(doomed).catch(() => null) : await ask(survivor);
          if (alive && result?.status === 200 && ++servedByDoomed === 40) doomed.child.kill('SIGKILL');
          if (!result) {
            // The connection died with the process: one retry with the same token, on the other one.
            interrupted++;
            result = await ask(survivor);
          }
          expect([result.status, result.body.error]).toEqual([200, undefined]);
          token = result.body.refresh_token as string;
        }
        return token;
      }),
    );
    expect(await doomed.exited).toBe('SIGKILL');
    expect(interrupted).toBeGreaterThan(0);
    await orphansDone();
    await expectNothingLost();
    // Each family has exactly one unspent refresh token, the one its client holds.
    for (const token of held) {
      const row = await rowOf(token);
      expect(row).toMatchObject({ refresh_used_at: null, revoked_at: null });
      const unspent = await db.query('select id from oauth_tokens where family_id = $1 and refresh_used_at is null', [row.family_id]);
      expect(unspent.rows).toEqual([{ id: row.id }]);
    }
  }, 120_000);
});
