import { jest } from '@jest/globals';
import { freePort } from '@life/test-support';
import { seedUsers } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** Follows redirects by hand, carrying cookies per host, like a browser would. */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  private cookieHeader(url: URL): string {
    return [...(this.jars.get(url.host) ?? new Map<string, string>()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(url: URL, response: Response): void {
    const jar = this.jars.get(url.host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
    this.jars.set(url.host, jar);
  }

  async go(url: URL, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.cookieHeader(url) },
    });
    this.keep(url, response);
    return response;
  }

  /** Follows 3xx until a page on `stopHost` or a 200. */
  async follow(start: URL, stopHost: string): Promise<URL> {
    let url = start;
    for (let hop = 0; hop < 10; hop++) {
      if (url.host === stopHost) return url;
      const response = await this.go(url);
      const location = response.headers.get('location');
      if (!location) return url;
      url = new URL(location, url);
    }
    throw new Error('too many redirects');
  }
}

describe('the development identity provider (DEV_LOGIN)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // The redirect URIs registered at the provider name the app's public URL, so fix the port first.
    const port = await freePort();
    t = await startTestApp({ env: { DEV_LOGIN: 'on', ADMIN_EMAILS: 'newcomer@example.com', PORT: String(port), APP_URL: `http://127.0.0.1:${port}` } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('lets a newcomer sign in with any provider that has no credentials, as the admin named in ADMIN_EMAILS', async () => {
    // Quietly: oidc-provider's "development-only in-memory adapter" warning is not printed (memory-adapter.ts).
    const warn = jest.spyOn(console, 'warn');
    const browser = new Browser();
    const app = new URL(t.url);
    const start = await browser.go(new URL('/login/github', app));
    expect(start.status).toBe(302);
    const devIdp = new URL(start.headers.get('location')!);
    expect(devIdp.host).not.toBe(app.host);
    expect(devIdp.searchParams.get('code_challenge_method')).toBe('S256');
    expect(devIdp.searchParams.get('nonce')).toBeTruthy();

    const loginPage = await browser.follow(devIdp, app.host);
    const page = await (await browser.go(loginPage)).text();
    expect(page).toContain('Esto no es GitHub, Google, Microsoft ni Apple');
    const action = /action="([^"]+)"/.exec(page)![1]!;
    const posted = await browser.go(new URL(action, loginPage), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=newcomer%40example.com',
    });
    const callback = await browser.follow(new URL(posted.headers.get('location')!, loginPage), app.host);
    expect(callback.pathname).toBe('/login/github/callback');

    const answer = await browser.go(new URL(`${callback.pathname}${callback.search}`, app), { headers: { accept: 'application/json' } });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { authToken: string; user: { email: string; role: string } };
    expect(body.user).toMatchObject({ email: 'newcomer@example.com', role: 'admin' });
    const invites = await t.fetch('/beta-invites', { headers: { authorization: `Bearer ${body.authToken}` } });
    expect(invites.status).toBe(200);
    expect(warn.mock.calls.flat().join(' ')).not.toMatch(/in-memory adapter/);
    warn.mockRestore();

    // Signing in with GitHub is what the login-type githublogin card stands for: it says Conectado now,
    // and still cannot be "connected" from the dashboard. Someone who never signed in with GitHub sees it disconnected.
    type Card = { service_name: string; connected: boolean; needs_reconnect: boolean };
    const cards = async (token: string) =>
      (await (await t.fetch('/api/external-services/all', { headers: { authorization: `Bearer ${token}` } })).json()) as Card[];
    const mine = await cards(body.authToken);
    expect(mine.find((card) => card.service_name === 'githublogin')).toMatchObject({ connected: true, needs_reconnect: false });
    expect(mine.filter((card) => card.connected).map((card) => card.service_name)).toEqual(['githublogin']);
    const start2 = await t.fetch('/api/external-services/githublogin/auth', { method: 'POST', headers: { authorization: `Bearer ${body.authToken}` } });
    expect(start2.status).toBeGreaterThanOrEqual(400);
    expect(start2.status).toBeLessThan(500);
    const [other] = await seedUsers(t.db, 1);
    expect((await cards(other!.token)).find((card) => card.service_name === 'githublogin')).toMatchObject({ connected: false });
  });
});
