import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedUsers } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// Answers are read as loose JSON: the assertions are the schema here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('HTTP foundation (real PostgreSQL + Redis)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ role: 'all' });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('reports database, Redis and this process as a worker in /api/health', async () => {
    const response = await t.fetch('/api/health');
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body.status).toBe('ok');
    expect(body.info.database.status).toBe('up');
    expect(body.info.redis.status).toBe('up');
    expect(typeof body.info.database.latencyMs).toBe('number');
    expect(body.info.workers.count).toBeGreaterThanOrEqual(1);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('answers unknown API paths with 404 JSON, even to a browser', async () => {
    for (const accept of ['application/json', 'text/html']) {
      const response = await t.fetch('/api/does-not-exist', { headers: { accept } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/json');
      const body = (await response.json()) as Json;
      expect(body).toMatchObject({ error: 'not_found' });
      expect(typeof body.message).toBe('string');
    }
  });

  it('serves the SPA for page routes and the negotiated pages', async () => {
    for (const page of ['/', '/dashboard', '/privacy-policy', '/oauth/authorize?client_id=x', '/login/github/callback?code=1', '/callback/spotify?code=1']) {
      const response = await t.fetch(page, { headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain('life-spa');
    }
  });

  it('serves built assets with long-lived caching', async () => {
    const response = await t.fetch('/assets/app-abc123.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('javascript');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await response.text()).toContain('life');
  });

  it('sends the precompressed copy of an asset the browser can decode (Brotli, else gzip, else as is)', async () => {
    const plain = await t.fetch('/assets/big-def456.js', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const original = await plain.text();
    expect(original).toContain('palabra-399');
    for (const [accepted, sent] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const response = await t.fetch('/assets/big-def456.js', { headers: { 'accept-encoding': accepted } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBe(sent);
      expect(response.headers.get('vary')).toContain('accept-encoding');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      // fetch decodes it: the same file arrives.
      expect(await response.text()).toBe(original);
    }
  });

  it('checks who is asking before what they sent: 401 first, then the contract (session and app routes)', async () => {
    const badProfile = { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'a' }) };
    const anonymous = await t.fetch('/api/users/me', badProfile);
    expect(anonymous.status).toBe(401);
    // An app route with an invalid service name and no app token: the token is checked first.
    const noToken = await t.fetch(`/api/v1/services/${'x'.repeat(300)}/proxy/user`);
    expect(noToken.status).toBe(401);
    expect(((await noToken.json()) as { error: string }).error).toBe('invalid_token');
    // With a session, the same body gets the contract's answer.
    const [person] = await seedUsers(t.db, 1);
    const invalid = await t.fetch('/api/users/me', { ...badProfile, headers: { ...badProfile.headers, authorization: `Bearer ${person!.token}` } });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: string }).error).toBe('validation_failed');
  });

  it('answers a non-browser request for an unknown page with 404 JSON', async () => {
    const response = await t.fetch('/no-such-page', { headers: { accept: 'application/json' } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as Json).error).toBe('not_found');
  });

  it('turns malformed JSON into 400 {error, message}', async () => {
    const response = await t.fetch('/api/site', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"broken":' });
    expect(response.status).toBe(400);
    expect((await response.json()) as Json).toMatchObject({ error: 'invalid_json', message: 'El cuerpo de la petición no es JSON válido.' });
  });

  it('gives every answer a request id, reusing a well-formed incoming one', async () => {
    const mine = await t.fetch('/api/site', { headers: { 'x-request-id': 'lb-request-12345' } });
    expect(mine.headers.get('x-request-id')).toBe('lb-request-12345');
    const bad = await t.fetch('/api/nothing', { headers: { 'x-request-id': 'bad id with spaces' } });
    const body = (await bad.json()) as Json;
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.requestId).toBe(bad.headers.get('x-request-id'));
  });

  it('sends security headers', async () => {
    const response = await t.fetch('/', { headers: { accept: 'text/html' } });
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    for (const path of ['/dashboard', '/oauth/authorize?client_id=x&state=y']) {
      const page = await t.fetch(path, { headers: { accept: 'text/html' } });
      const pageCsp = page.headers.get('content-security-policy') ?? '';
      const framed = path.startsWith('/oauth/authorize');
      expect([path, pageCsp.includes(framed ? "frame-ancestors 'self'" : "frame-ancestors 'none'")]).toEqual([path, true]);
      expect([path, page.headers.get('x-frame-options')]).toEqual([path, framed ? 'SAMEORIGIN' : 'DENY']);
    }
  });

  it('answers CORS only for configured origins', async () => {
    const preflight = await t.fetch('/oauth/token', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const simple = await t.fetch('/api/site', { headers: { origin: 'https://evil.example' } });
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('serves the company details for the legal pages', async () => {
    const response = await t.fetch('/api/site');
    const body = (await response.json()) as Json;
    expect(body.company).toEqual(
      expect.objectContaining({ name: expect.any(String), taxId: expect.any(String), address: expect.any(String), email: expect.any(String) }),
    );
  });

  it('serves API docs and an OpenAPI document equal to the committed one', async () => {
    const page = await t.fetch('/api/docs');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui');
    const asset = await t.fetch('/api/docs/assets/swagger-ui-bundle.js');
    expect(asset.status).toBe(200);

    const document = (await (await t.fetch('/api/docs/openapi.json')).json()) as Json;
    expect(document.openapi).toBe('3.1.0');
    expect(document.paths['/api/health'].get).toBeDefined();
    expect(document.components.schemas.ApiError).toBeDefined();

    const committedFile = path.join(repoRoot, 'docs', 'openapi.json');
    const generated = `${JSON.stringify(document, null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI === '1') writeFileSync(committedFile, generated);
    const committed = readFileSync(committedFile, 'utf8');
    // When this fails, the API changed: run `npm run openapi -w backend` and commit docs/openapi.json.
    expect(generated).toBe(committed);
  });
});
