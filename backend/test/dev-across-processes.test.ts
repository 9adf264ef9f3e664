import { randomBytes } from 'node:crypto';
import { freePort, pollUntil } from '@life/test-support';
import { followAuthorize } from '@life/test-support/standins/services';
import { bearer } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * Follows redirects by hand and keeps cookies per host name, as a browser does (cookies do not
 * depend on the port): the two app processes below stand for one site behind a balancer.
 */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  async go(url: URL, init: RequestInit = {}): Promise<Response> {
    const jar = this.jars.get(url.hostname) ?? new Map<string, string>();
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [name, ...value] = line.split(';')[0]!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
    this.jars.set(url.hostname, jar);
    return response;
  }

  /** Follows 3xx until the app's public address (the balancer's) or a page that does not redirect. */
  async follow(start: URL, publicOrigin: string): Promise<URL> {
    let url = start;
    for (let hop = 0; hop < 10; hop++) {
      if (url.origin === publicOrigin) return url;
      const location = (await this.go(url)).headers.get('location');
      if (!location) return url;
      url = new URL(location, url);
    }
    throw new Error('too many redirects');
  }
}

/** Signs in through the development identity provider: starts on `start`, the callback is answered by `finish`. */
async function signIn(start: TestApp, finish: TestApp, publicOrigin: string, email: string): Promise<{ token: string; issuer: string }> {
  const browser = new Browser();
  const begun = await browser.go(new URL('/login/github', start.url));
  expect(begun.status).toBe(302);
  const provider = new URL(begun.headers.get('location')!);
  const loginPage = await browser.follow(provider, publicOrigin);
  const page = await (await browser.go(loginPage)).text();
  const action = /action="([^"]+)"/.exec(page)![1]!;
  const posted = await browser.go(new URL(action, loginPage), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email }).toString(),
  });
  const callback = await browser.follow(new URL(posted.headers.get('location')!, loginPage), publicOrigin);
  expect(callback.pathname).toBe('/login/github/callback');
  const answer = await browser.go(new URL(`${callback.pathname}${callback.search}`, finish.url), { headers: { accept: 'application/json' } });
  const body = (await answer.json()) as Json;
  expect([answer.status, body.user?.email]).toEqual([200, email]);
  return { token: body.authToken as string, issuer: provider.origin };
}

// Issue 21 point 5: behind a balancer every other step of a flow lands on the other web process.
// The development identity provider, the services' development providers and the development
// Stripe are one per installation (registered in Redis), so such flows finish.
describe('development providers across two web processes of one installation', () => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let publicOrigin: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    // B answers at the public address (the balancer's), where the providers send the browser back.
    const port = await freePort();
    publicOrigin = `http://127.0.0.1:${port}`;
    const env = {
      NODE_ENV: 'development',
      DEV_LOGIN: 'on',
      DEV_SERVICES: 'on',
      DEV_STRIPE: 'on',
      ADMIN_EMAILS: 'owner@example.com',
      APP_URL: publicOrigin,
      QUEUE_PREFIX: `lifetest${randomBytes(4).toString('hex')}`,
      BILLING_SWEEP_MS: '500',
    };
    b = await startTestApp({ role: 'all', db, env: { ...env, PORT: String(port) } });
    a = await startTestApp({ role: 'web', db, env });
  });

  afterAll(async () => {
    await a?.app.close();
    await b?.close();
  });

  it('a sign-in started on one process finishes on the other, through the one provider both use', async () => {
    const first = await signIn(a, b, publicOrigin, 'owner@example.com');
    const back = await signIn(b, a, publicOrigin, 'owner@example.com');
    expect(back.issuer).toBe(first.issuer);
  });

  it('a connection started on one process is finished by the other; the development Stripe’s webhook reaches either', async () => {
    const { token } = await signIn(a, b, publicOrigin, 'owner@example.com');
    const startOn = async (app: TestApp) => {
      const response = await app.fetch('/api/external-services/spotify/auth', { method: 'POST', headers: bearer(token) });
      expect(response.status).toBe(200);
      return new URL(((await response.json()) as Json).auth_url as string);
    };
    const fromA = await startOn(a);
    expect((await startOn(b)).origin).toBe(fromA.origin);
    const target = await followAuthorize(fromA.toString());
    expect(target.origin).toBe(publicOrigin);
    const done = await b.fetch(`/callback/spotify?${target.searchParams}`, { headers: { ...bearer(token), accept: 'application/json' } });
    expect([done.status, ((await done.json()) as Json).account_name]).toEqual([200, 'Sofía Spotify']);

    // Checkout on A; the stand-in's Pagar posts the signed webhook to the public address (B).
    const checkout = await a.fetch('/api/stripe/create-checkout-session', { method: 'POST', headers: bearer(token) });
    expect(checkout.status).toBe(200);
    const page = new URL(((await checkout.json()) as Json).url as string);
    const html = await (await fetch(page)).text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
    const paid = await fetch(new URL(action, page), { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    const membership = await pollUntil(
      async () => (((await (await a.fetch('/api/billing/membership', { headers: bearer(token) })).json()) as Json).membership as Json | null) ?? undefined,
      'the membership to appear',
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(membership).toMatchObject({ edition: 'elite', status: 'active' });
  });

  it('when the process that runs the provider stops, the other starts its own and sign-in still works', async () => {
    // A started the provider (the first sign-in began there) and B has been using it.
    const before = await signIn(b, b, publicOrigin, 'owner@example.com');
    await a.app.close();
    a = undefined as unknown as TestApp;
    const gone = await fetch(`${before.issuer}/.well-known/openid-configuration`).then(
      () => false,
      () => true,
    );
    expect(gone).toBe(true);
    const after = await signIn(b, b, publicOrigin, 'owner@example.com');
    expect(after.issuer).not.toBe(before.issuer);
    expect(after.token).toEqual(expect.any(String));
  });
});
