import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_TYPES } from '@life/contracts';
import { LOGIN_PROVIDER_DEFAULTS } from '../src/modules/auth/login-providers.defaults.js';
import { CATALOG_DEFAULTS } from '../src/modules/external-services/catalog.defaults.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// Issue 20, point 5: the admin's service editor changes the catalog for everyone, so the server
// refuses what would break it (decision 0026): a key that is not a unique slug, an unknown type,
// a URL that is not https (plain http only on loopback, and not at all in production), huge input.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

describe('catalog editor: PUT /api/external-services/:id validation (real PostgreSQL + Redis)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let youtube: Json;

  const list = async () => (await (await t.fetch('/api/external-services/all', { headers: bearer(admin.token) })).json()) as Json[];
  const put = (app: TestApp, id: string, body: unknown, headers: Record<string, string> = {}) =>
    app.fetch(`/api/external-services/${id}`, {
      method: 'PUT',
      headers: { ...bearer(admin.token), 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const expectError = async (response: Response, status: number, error: string) => {
    const body = (await response.json()) as Json;
    expect([response.status, body.error]).toEqual([status, error]);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(typeof body.message).toBe('string');
    expect(body.message.length).toBeGreaterThan(0);
    return body;
  };

  beforeAll(async () => {
    t = await startTestApp();
    [admin] = await seedUsers(t.db, 1, 'admin');
    youtube = (await list()).find((service) => service.service_name === 'youtube')!;
  });

  afterAll(async () => {
    await t?.close();
  });

  it("every type Life's catalog ships with is one of the known types", () => {
    for (const entry of CATALOG_DEFAULTS) expect([entry.serviceName, SERVICE_TYPES]).toEqual([entry.serviceName, expect.arrayContaining([entry.serviceType])]);
  });

  it('refuses a key that is not a slug (spaces, capitals, non-ASCII, too long), naming the rule', async () => {
    for (const key of ['my client id', 'YouTube', 'yóutube', '../etc', 'y', 'a'.repeat(41), '9lives', '']) {
      const body = await expectError(await put(t, youtube.id, { ...youtube, service_name: key }), 400, 'validation_failed');
      expect([key, body.details]).toEqual([key, [expect.objectContaining({ path: 'body.service_name' })]]);
    }
    const spanish = await expectError(await put(t, youtube.id, { ...youtube, service_name: 'YouTube' }), 400, 'validation_failed');
    expect(spanish.details[0].message).toBe('La clave: de 2 a 40 letras minúsculas sin acentos, números, guiones o guiones bajos, empezando por una letra.');
  });

  it('refuses a key another service already has → 409 service_exists, and changes nothing', async () => {
    const body = await expectError(await put(t, youtube.id, { ...youtube, service_name: 'spotify' }), 409, 'service_exists');
    expect(body.message).toBe('Ya existe un servicio llamado spotify.');
    expect((await list()).filter((service) => service.service_name === 'spotify')).toHaveLength(1);
    expect((await list()).find((service) => service.id === youtube.id)!.service_name).toBe('youtube');
  });

  it('refuses a type that is not one of the known types', async () => {
    for (const type of ['my-client-id', 'Música', 'video', '']) {
      const body = await expectError(await put(t, youtube.id, { ...youtube, service_type: type }), 400, 'validation_failed');
      expect(body.details).toEqual([{ path: 'body.service_type', message: 'Elige un tipo de la lista.' }]);
    }
  });

  it('refuses URLs that are not https; plain http only on a loopback host', async () => {
    for (const url of [
      'http://accounts.example.com/o/oauth2/auth',
      'ftp://example.com/token',
      'javascript:alert(1)',
      'not a url',
      'https://user:pw@example.com/x',
      // The URL parser would drop these control characters and read plain http (security review, session 6).
      '\u0001http://127.0.0.1:6379/x',
      '\u0000http://localhost/',
      'https://exa mple.com/x',
    ]) {
      const body = await expectError(await put(t, youtube.id, { ...youtube, token_url: url }), 400, 'validation_failed');
      expect([url, body.details[0].path]).toEqual([url, 'body.token_url']);
    }
    const english = await expectError(
      await put(t, youtube.id, { ...youtube, auth_url: 'http://example.com/auth' }, { 'accept-language': 'en' }),
      400,
      'validation_failed',
    );
    expect(english.details).toEqual([{ path: 'body.auth_url', message: 'Must be an https URL (http only on 127.0.0.1, [::1] or localhost).' }]);
    for (const url of ['http://127.0.0.1:9999/token', 'http://localhost:9999/token', 'https://oauth2.googleapis.com/token']) {
      expect([url, (await put(t, youtube.id, { ...youtube, token_url: url })).status]).toEqual([url, 200]);
    }
  });

  it('refuses huge input with a 4xx JSON answer: a long field → 400, a body over the limit → 413', async () => {
    await expectError(await put(t, youtube.id, { ...youtube, description: 'd'.repeat(2001) }), 400, 'validation_failed');
    await expectError(await put(t, youtube.id, { ...youtube, token_url: `https://example.com/${'p'.repeat(2100)}` }), 400, 'validation_failed');
    const huge = await put(t, youtube.id, { ...youtube, description: 'd'.repeat(2 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.headers.get('content-type')).toContain('application/json');
    expect(((await huge.json()) as Json).error).toEqual(expect.any(String));
  });

  it('a valid rename to a free slug works, and the audit log names the change', async () => {
    const renamed = await put(t, youtube.id, { ...youtube, service_name: 'youtube-music', service_type: 'música' });
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as Json).service_name).toBe('youtube-music');
    expect((await put(t, youtube.id, { ...youtube, service_name: 'youtube' })).status).toBe(200);
  });

  it('githublogin holds no OAuth app: signing in reads the login provider row, so the catalog refuses a copy (decision 0040)', async () => {
    const row = (await list()).find((service) => service.service_name === 'githublogin')!;
    // As seeded: a card without client id, secret, URLs or scopes.
    expect(row).toMatchObject({
      service_type: 'login',
      app_id: null,
      app_secret: '',
      auth_url: null,
      token_url: null,
      user_url: null,
      base_url: null,
      scopes: null,
    });
    for (const [field, value] of [
      ['app_id', 'Iv1.copy'],
      ['app_secret', 'a-secret-nothing-reads'],
      ['auth_url', 'https://github.com/login/oauth/authorize'],
      ['scopes', 'read:user'],
    ] as const) {
      const body = await expectError(await put(t, row.id, { ...row, [field]: value }), 400, 'login_type_service');
      expect(body.message).toContain(field);
    }
    const english = await expectError(await put(t, row.id, { ...row, app_id: 'Iv1.copy' }, { 'accept-language': 'en' }), 400, 'login_type_service');
    expect(english.message).toBe("A sign-in row holds no OAuth app (app_id): GitHub's client id, secret and URLs are set under Login Providers.");
    // Its card fields still change, and nothing else is stored.
    const saved = await put(t, row.id, { ...row, description: 'Entra con GitHub.', app_secret: '********' });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ description: 'Entra con GitHub.', app_id: null, app_secret: '', auth_url: null });
    // A row turned into a login row loses the app it had.
    const turned = await put(t, youtube.id, {
      ...youtube,
      service_type: 'login',
      app_id: '',
      app_secret: '',
      scopes: '',
      base_url: '',
      auth_url: '',
      token_url: '',
      user_url: '',
      revoke_url: '',
      account_url: '',
    });
    expect(turned.status).toBe(200);
    expect(await turned.json()).toMatchObject({ service_type: 'login', app_id: null, auth_url: null, token_url: null, scopes: null });
    expect((await put(t, youtube.id, youtube)).status).toBe(200);
  });

  it('production: no plain http at all, not even on loopback → 400 insecure_service_url', async () => {
    const production = await startTestApp({ env: { NODE_ENV: 'production', APP_URL: 'https://life.example' } });
    try {
      [admin] = await seedUsers(production.db, 1, 'admin');
      const row = ((await (await production.fetch('/api/external-services/all', { headers: bearer(admin.token) })).json()) as Json[]).find(
        (service) => service.service_name === 'youtube',
      )!;
      const body = await expectError(await put(production, row.id, { ...row, token_url: 'http://127.0.0.1:9999/token' }), 400, 'insecure_service_url');
      expect(body.message).toBe('En producción, token_url debe ser una URL https.');
      expect((await put(production, row.id, { ...row, token_url: 'https://oauth2.googleapis.com/token' })).status).toBe(200);
    } finally {
      await production.close();
    }
  });
});

describe('what the admin tables translate (issue 20, point 8): es.json holds the same words as the seeds', () => {
  const catalog = (language: string) =>
    JSON.parse(readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), `../../frontend/src/i18n/locales/${language}.json`), 'utf8')) as Json;

  it('every known service type has a translation in each catalog', () => {
    for (const language of ['es', 'en', 'fr', 'de', 'it', 'pt', 'ja', 'zh']) {
      const types = catalog(language).services.catalogTypes as Record<string, string>;
      for (const type of SERVICE_TYPES) expect([language, type, typeof types[type]]).toEqual([language, type, 'string']);
    }
  });

  it("the login providers' shipped descriptions match the seeds", () => {
    const es = catalog('es');
    for (const seed of LOGIN_PROVIDER_DEFAULTS) {
      expect([seed.serviceName, es.admin.providers.shippedDescriptions[seed.serviceName]]).toEqual([seed.serviceName, seed.description]);
    }
  });
});
