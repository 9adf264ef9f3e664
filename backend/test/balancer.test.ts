import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, pollUntil } from '@life/test-support';
import { Redis } from 'ioredis';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { startBalancer, type Balancer } from './helpers/balancer.js';
import { TEST_REDIS_URL } from './helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

// Issue 21, "Done when": two web processes behind a small round-robin balancer and a separate
// worker, the built app (`backend/dist`) as operations.md runs it. A sign-in through the
// development identity provider whose steps land on both processes; refresh rotations while one
// web process is killed (SIGKILL); a signing-key rotation under load, every ID token checked
// against both processes' JWKS; each web process stopped (SIGTERM) and restarted under load with
// no failed request, its exit time measured against the configured grace.

const backendDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAIN_JS = path.join(backendDir, 'dist', 'main.js');
const WORKER_JS = path.join(backendDir, 'dist', 'worker.js');
const CLI_JS = path.join(backendDir, 'dist', 'cli.js');
const GRACE_MS = 10_000;
const FORM = 'application/x-www-form-urlencoded';
const REDIRECT = 'http://127.0.0.1:7777/callback';

interface Proc {
  child: ChildProcess;
  origin: string;
  output: () => string;
  exited: Promise<number | null>;
}

describe('two web processes behind a balancer, and a worker', () => {
  let db: TestDatabase;
  let balancer: Balancer;
  let env: Record<string, string>;
  const webs: Proc[] = [];
  let worker: Proc;

  const spawnNode = (script: string, extra: Record<string, string>, args: string[] = [], origin = ''): Proc => {
    let output = '';
    const child = spawn(process.execPath, [script, ...args], { env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, origin, output: () => output, exited };
  };
  const startWeb = async (): Promise<Proc> => {
    const port = await freePort();
    const web = spawnNode(MAIN_JS, { PORT: String(port) }, ['--web-only'], `http://127.0.0.1:${port}`);
    await pollUntil(async () => (await fetch(`${web.origin}/api/health/ready`).catch(() => undefined))?.status === 200, 'a web process to be ready', {
      timeoutMs: 45_000,
      intervalMs: 200,
      detail: () => web.output(),
    });
    return web;
  };
  const via = (pathname: string, init?: RequestInit) => fetch(`${balancer.url}${pathname}`, init);

  beforeAll(async () => {
    db = await createTestDatabase();
    const port = await freePort();
    env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: db.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: `lifelb${randomBytes(4).toString('hex')}`,
      ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      APP_URL: `http://127.0.0.1:${port}`,
      DEV_LOGIN: 'on',
      ADMIN_EMAILS: 'owner@example.com',
      // Longer than the balancer's 100 ms readiness check, so it stops sending before the close.
      SHUTDOWN_DRAIN_MS: '1000',
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
      // Every request comes from the balancer's address: the per-client limit is not what is tested here.
      OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE: '1000000',
    };
    // The first one migrates the database; then the second and the worker.
    webs.push(await startWeb());
    webs.push(await startWeb());
    worker = spawnNode(WORKER_JS, {});
    balancer = await startBalancer(
      port,
      webs.map((web) => web.origin),
    );
    await pollUntil(async () => (await via('/api/health').catch(() => undefined))?.status === 200, 'the balancer to reach a ready process', {
      timeoutMs: 10_000,
      intervalMs: 100,
    });
  }, 120_000);

  afterAll(async () => {
    await balancer?.close();
    for (const proc of [...webs, worker]) proc?.child.kill('SIGKILL');
    await Promise.all([...webs, worker].map((proc) => proc?.exited));
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`${env.QUEUE_PREFIX}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await db?.drop();
  });

  /** Signs in through the development identity provider; every step to the app goes through the balancer. */
  const signIn = async (email: string): Promise<string> => {
    const cookies = new Map<string, string>();
    const go = async (url: URL, init: RequestInit = {}) => {
      const response = await fetch(url, {
        ...init,
        redirect: 'manual',
        headers: { ...(init.headers as Record<string, string>), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const line of response.headers.getSetCookie()) {
        const [name, ...value] = line.split(';')[0]!.split('=');
        cookies.set(name!.trim(), value.join('='));
      }
      return response;
    };
    const follow = async (start: URL) => {
      let url = start;
      for (let hop = 0; hop < 10 && url.origin !== balancer.url; hop++) {
        const location = (await go(url)).headers.get('location');
        if (!location) break;
        url = new URL(location, url);
      }
      return url;
    };
    const begun = await go(new URL('/login/github', balancer.url));
    expect(begun.status).toBe(302);
    const loginPage = await follow(new URL(begun.headers.get('location')!));
    const action = /action="([^"]+)"/.exec(await (await go(loginPage)).text())![1]!;
    const posted = await go(new URL(action, loginPage), { method: 'POST', headers: { 'content-type': FORM }, body: new URLSearchParams({ email }).toString() });
    const callback = await follow(new URL(posted.headers.get('location')!, loginPage));
    const answer = await go(callback, { headers: { accept: 'application/json' } });
    const body = (await answer.json()) as Json;
    expect([answer.status, body.user?.email]).toEqual([200, email]);
    return body.authToken as string;
  };

  let owner: string;
  let app: Json;

  it('signs in through the development identity provider, the start on one process and the callback on the other', async () => {
    // Round robin: a sign-in's two requests to the app (start, callback) go to different processes.
    for (let i = 0; i < 3; i++) owner = await signIn('owner@example.com');
    const created = await via('/oauth_clients', {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Detrás del balanceador', redirect_uris: [REDIRECT], allowed_scopes: ['openid', 'profile'] }),
    });
    expect(created.status).toBe(201);
    app = (await created.json()) as Json;
  }, 60_000);

  /** A new token family for the owner: consent, then the code exchanged (both through the balancer). */
  const family = async (): Promise<string> => {
    const consent = await via('/oauth/authorize', {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid profile', state: 's', action: 'allow' }),
    });
    const code = new URL(((await consent.json()) as Json).redirect_to as string).searchParams.get('code')!;
    const tokens = await via('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.client_id, client_secret: app.client_secret }),
    });
    expect(tokens.status).toBe(200);
    return ((await tokens.json()) as Json).refresh_token as string;
  };
  /** One refresh as a careful client does it: a failed attempt (gateway error, reset) is retried once with the same token. */
  const refresh = async (token: string): Promise<Json> => {
    for (let attempt = 0; ; attempt++) {
      const response = await via('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': FORM },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: app.client_id, client_secret: app.client_secret }),
      }).catch(() => undefined);
      if (response && response.status < 500) {
        const body = (await response.json()) as Json;
        expect([response.status, body.error]).toEqual([200, undefined]);
        return body;
      }
      if (attempt >= 2) throw new Error(`refresh failed ${attempt + 1} times (last: ${response?.status ?? 'network error'})`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  };
  const reuseDetected = async () =>
    Number((await db.query<{ n: string }>(`select count(*) as n from audit_events where action = 'oauth.refresh_reuse_detected'`)).rows[0]!.n);

  it('refresh rotations survive a web process killed in the middle: no family revoked, every chain goes on', async () => {
    const families = await Promise.all(Array.from({ length: 20 }, () => family()));
    let killed = false;
    const chains = families.map(async (first) => {
      let token = first;
      for (let step = 0; step < 6; step++) {
        token = (await refresh(token)).refresh_token as string;
        if (step === 1 && !killed) {
          killed = true;
          webs[1]!.child.kill('SIGKILL');
        }
      }
      return token;
    });
    const last = await Promise.all(chains);
    expect(killed).toBe(true);
    expect(await webs[1]!.exited).toBeNull();
    expect(await reuseDetected()).toBe(0);
    // Every chain's newest token is live: nothing was spent without its successor.
    for (const token of last) expect((await refresh(token)).refresh_token).toEqual(expect.any(String));
    // Bring the killed process back.
    const restarted = await startWeb();
    webs[1] = restarted;
    balancer.backends = webs.map((web) => web.origin);
  }, 120_000);

  it('a signing key rotated under load: every ID token issued meanwhile verifies against both processes’ JWKS', async () => {
    const tokens = await Promise.all(Array.from({ length: 4 }, () => family()));
    const jwks = async (web: Proc) => createLocalJWKSet((await (await fetch(`${web.origin}/oauth/jwks`)).json()) as JSONWebKeySet);
    const kids = new Set<string>();
    let checked = 0;
    let rotating = true;
    const load = tokens.map(async (first) => {
      let token = first;
      while (rotating) {
        const answer = await refresh(token);
        token = answer.refresh_token as string;
        const idToken = answer.id_token as string;
        kids.add(decodeProtectedHeader(idToken).kid!);
        for (const web of webs) await jwtVerify(idToken, await jwks(web), { issuer: env.APP_URL, audience: app.client_id });
        checked++;
      }
    });
    const cli = spawn(process.execPath, [CLI_JS, 'oauth:rotate-signing-key'], { env, stdio: 'ignore' });
    expect(await new Promise((resolve) => cli.on('exit', resolve))).toBe(0);
    // The new key signs 5 s after the command (published first): keep the load past that.
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    rotating = false;
    await Promise.all(load);
    expect(checked).toBeGreaterThan(10);
    expect(kids.size).toBe(2);
  }, 120_000);

  it('each web process stopped (SIGTERM) and restarted under load: no failed request, each out within the grace', async () => {
    let running = true;
    let served = 0;
    const failed: string[] = [];
    const basic = `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}`;
    const loops = Array.from({ length: 8 }, async () => {
      while (running) {
        const response = await via('/oauth/token', {
          method: 'POST',
          headers: { authorization: basic, 'content-type': FORM },
          body: 'grant_type=client_credentials',
        }).catch((error: Error) => error);
        if (response instanceof Error) failed.push(response.message);
        else {
          await response.body?.cancel();
          if (response.status === 200) served++;
          else failed.push(`${response.status} ${response.headers.get('x-balancer') ?? 'from the app'}`);
        }
      }
    });
    const failuresBefore = balancer.failures();
    for (const index of [0, 1]) {
      const stopping = webs[index]!;
      const started = Date.now();
      stopping.child.kill('SIGTERM');
      expect(await stopping.exited).toBe(0);
      const took = Date.now() - started;
      expect(took).toBeLessThan(GRACE_MS);
      const replacement = await startWeb();
      webs[index] = replacement;
      balancer.backends = webs.map((web) => web.origin);
      await pollUntil(async () => (await via('/api/health').catch(() => undefined))?.status === 200, 'the balancer to see the new process', {
        timeoutMs: 10_000,
        intervalMs: 100,
      });
    }
    running = false;
    await Promise.all(loops);
    expect(served).toBeGreaterThan(50);
    expect(failed).toEqual([]);
    expect(balancer.failures() - failuresBefore).toBe(0);
  }, 180_000);
});
