import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES } from '@life/contracts';
import { CATALOGS, templatePattern, translate } from '../src/core/i18n/catalog.js';
import { negotiateLanguage } from '../src/core/i18n/language.js';
import { CATALOG_DEFAULTS } from '../src/modules/external-services/catalog.defaults.js';
import { apiSpanishTexts, UNTRANSLATED } from './helpers/api-texts.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const placeholders = (text: string) => [...text.matchAll(/\{(\d+)\}/g)].map((match) => match[1]).sort();

describe('API texts in every language: the catalogs', () => {
  const source = apiSpanishTexts();
  const wanted = [...source.keys()].filter((text) => !(text in UNTRANSLATED)).sort();

  it('finds the Spanish texts of the API (the scan itself works)', () => {
    expect(wanted).toEqual(expect.arrayContaining(['Esta aplicación no existe o está desactivada.', 'Usar tu cuenta conectada de {0} en tu nombre']));
    expect(wanted.length).toBeGreaterThan(100);
  });

  it.each(Object.keys(CATALOGS))('%s has every Spanish text of the API, and nothing stale', (language) => {
    const catalog = CATALOGS[language as keyof typeof CATALOGS];
    const missing = wanted.filter((text) => !(text in catalog)).map((text) => `${text}  (${source.get(text)?.join(', ')})`);
    expect(missing).toEqual([]);
    expect(Object.keys(catalog).filter((text) => !wanted.includes(text))).toEqual([]);
  });

  it.each(Object.keys(CATALOGS))('%s keeps every placeholder of each text, and translates it', (language) => {
    const catalog = CATALOGS[language as keyof typeof CATALOGS];
    for (const [text, translation] of Object.entries(catalog)) {
      expect({ text, placeholders: placeholders(translation) }).toEqual({ text, placeholders: placeholders(text) });
      expect(translation.trim()).not.toBe('');
    }
    // Not a copy of the Spanish: most texts differ (names and codes may stay the same).
    const unchanged = Object.entries(catalog).filter(([text, translation]) => text === translation);
    expect(unchanged.length).toBeLessThan(5);
  });

  it('numbers the placeholders of each Spanish text in reading order', () => {
    for (const text of wanted) {
      const order = [...text.matchAll(/\{(\d+)\}/g)].map((match) => Number(match[1]));
      expect({ text, order }).toEqual({ text, order: order.map((_, index) => index) });
    }
  });

  it('rebuilds texts made from a template with their values, in the translation’s order', () => {
    expect(translate('El parámetro nonce es demasiado largo.', 'en')).toBe(CATALOGS.en['El parámetro nonce es demasiado largo.']);
    const template = 'El acceso a {0} ha caducado y {1} no ha podido renovarlo ahora; se reintentará.';
    const spanish = 'El acceso a Spotify ha caducado y Spotify no ha podido renovarlo ahora; se reintentará.';
    for (const language of Object.keys(CATALOGS) as (keyof typeof CATALOGS)[]) {
      const expected = CATALOGS[language][template]!.replace('{0}', 'Spotify').replace('{1}', 'Spotify');
      expect(translate(spanish, language)).toBe(expected);
    }
    expect(translate('Ya existe un servicio llamado música (2).', 'de')).toBe(CATALOGS.de['Ya existe un servicio llamado {0}.']!.replace('{0}', 'música (2)'));
    expect(templatePattern('Falta {0}.').test('Falta x.y')).toBe(false);
  });

  it('leaves Spanish as it is, and texts it does not know (an admin’s, a provider’s) untouched', () => {
    expect(translate('Esta aplicación no existe o está desactivada.', 'es')).toBe('Esta aplicación no existe o está desactivada.');
    expect(translate('Texto que escribió un administrador.', 'ja')).toBe('Texto que escribió un administrador.');
  });

  it('ships the catalog descriptions the dashboard translates (es.json matches the seeds)', () => {
    const es = JSON.parse(readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../frontend/src/i18n/locales/es.json'), 'utf8')) as Json;
    for (const seed of CATALOG_DEFAULTS) {
      expect({ service: seed.serviceName, text: es.services.catalogDescriptions[seed.serviceName] }).toEqual({
        service: seed.serviceName,
        text: seed.description,
      });
    }
  });
});

describe('the language of a request', () => {
  it.each([
    [undefined, 'es'],
    ['', 'es'],
    ['en-US,en;q=0.9', 'en'],
    ['pt-BR', 'pt'],
    ['zh-CN,zh;q=0.9,en;q=0.5', 'zh'],
    ['fr;q=0.2, ja;q=0.8', 'ja'],
    ['de-AT', 'de'],
    ['it', 'it'],
    ['ko-KR', 'es'],
    ['*', 'es'],
    ['en;q=garbage,,;;', 'es'],
    ['x'.repeat(100_000), 'es'],
    [['en', 'fr'], 'en'],
  ])('Accept-Language %j → %s', (header, language) => {
    expect(negotiateLanguage(header as string | string[] | undefined)).toBe(language);
  });

  it('covers the same eight languages as the UI', () => {
    expect(['es', ...Object.keys(CATALOGS)].sort()).toEqual([...LANGUAGES].sort());
  });
});

describe('answers in the asked language (real app, PostgreSQL and Redis)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let person: SeededUser;

  beforeAll(async () => {
    t = await startTestApp();
    [admin] = await seedUsers(t.db, 1, 'admin');
    [person] = await seedUsers(t.db, 1);
  });
  afterAll(async () => t?.close());

  const call = async (path: string, language: string | undefined, init: RequestInit = {}) => {
    const headers = { ...(init.headers as Record<string, string>), ...(language === undefined ? {} : { 'accept-language': language }) };
    const response = await t.fetch(path, { ...init, headers });
    return { status: response.status, body: (await response.json()) as Json };
  };

  it('keeps Spanish, word for word, when no language is asked for', async () => {
    const { status, body } = await call('/api/nothing-here', undefined, { headers: { accept: 'application/json' } });
    expect(status).toBe(404);
    expect(body.message).toBe('Aquí no hay nada: revisa la ruta y el método.');
  });

  it.each(['en', 'ja', 'zh-CN'])('answers a missing route in %s', async (language) => {
    const { status, body } = await call('/api/nothing-here', language, { headers: { accept: 'application/json' } });
    expect(status).toBe(404);
    expect(body.error).toBe('not_found');
    expect(body.message).toBe(translate('Aquí no hay nada: revisa la ruta y el método.', negotiateLanguage(language)));
    expect(body.message).not.toBe('Aquí no hay nada: revisa la ruta y el método.');
  });

  it('translates a validation answer: its summary, our own field messages and zod’s', async () => {
    const profile = { ...bearer(person.token), 'content-type': 'application/json' };
    const es = await call('/api/users/me', 'es', { method: 'PATCH', headers: profile, body: JSON.stringify({ username: 'a' }) });
    const fr = await call('/api/users/me', 'fr', { method: 'PATCH', headers: profile, body: JSON.stringify({ username: 'a' }) });
    expect(es.status).toBe(400);
    expect(fr.status).toBe(400);
    expect(fr.body.error).toBe('validation_failed');
    expect(fr.body.message).toBe(CATALOGS.fr['La petición no es válida.']);
    expect(fr.body.details.map((d: Json) => d.path)).toEqual(es.body.details.map((d: Json) => d.path));
    expect(es.body.details[0].message).toBe('El usuario debe tener al menos 3 caracteres.');
    expect(fr.body.details[0].message).toBe(CATALOGS.fr['El usuario debe tener al menos {0} caracteres.']!.replace('{0}', '3'));

    // A message zod writes itself (a wrong type) comes from zod's own locale.
    const typeEs = await call('/api/users/me', 'es', { method: 'PATCH', headers: profile, body: JSON.stringify({ username: 42 }) });
    const typeDe = await call('/api/users/me', 'de', { method: 'PATCH', headers: profile, body: JSON.stringify({ username: 42 }) });
    expect(typeEs.body.details[0].message).toMatch(/se esperaba/i);
    expect(typeDe.body.details[0].message).toMatch(/erwartet/i);
  });

  it('translates session and role refusals', async () => {
    const noSession = await call('/api/users/me', 'it');
    expect(noSession.status).toBe(401);
    expect(noSession.body.message).toBe(CATALOGS.it['Inicia sesión primero: esto necesita una sesión válida.']);
    const notAdmin = await call('/api/admin/health', 'pt', { headers: bearer(person.token) });
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body.message).toBe(CATALOGS.pt['Esto solo pueden hacerlo los administradores.']);
  });

  it('shows the consent screen’s errors and permissions in the asked language; OAuth clients get it as error_description', async () => {
    const unknown = await call('/oauth/authorize?client_id=nobody&response_type=code&code_challenge=x&code_challenge_method=S256', 'en', {
      headers: { accept: 'application/json' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(CATALOGS.en['Esta aplicación no existe o está desactivada.']);
    expect(unknown.body.error_description).toBe(unknown.body.message);

    const created = await t.fetch('/oauth_clients', {
      method: 'POST',
      headers: { ...bearer(admin.token), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Agenda', redirect_uris: ['http://127.0.0.1:7777/cb'], allowed_scopes: ['openid', 'profile', 'service:spotify'] }),
    });
    expect(created.status).toBe(201);
    const app = (await created.json()) as Json;
    const query = new URLSearchParams({
      client_id: app.client_id,
      redirect_uri: 'http://127.0.0.1:7777/cb',
      response_type: 'code',
      scope: 'profile service:spotify',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const de = await call(`/oauth/authorize?${query}`, 'de', { headers: { accept: 'application/json' } });
    expect(de.status).toBe(200);
    expect(de.body.scopes).toEqual([
      { scope: 'profile', description: CATALOGS.de['Ver tu nombre de usuario'] },
      { scope: 'service:spotify', description: CATALOGS.de['Usar tu cuenta conectada de {0} en tu nombre']!.replace('{0}', 'spotify') },
    ]);
    const es = await call(`/oauth/authorize?${query}`, undefined, { headers: { accept: 'application/json' } });
    expect(es.body.scopes[0].description).toBe('Ver tu nombre de usuario');
  });

  it('never turns a strange Accept-Language into a 500', async () => {
    for (const header of ['*;q=0', 'ja;q=NaN', ';;;', 'en-'.repeat(2000)]) {
      const { status, body } = await call('/api/nothing-here', header, { headers: { accept: 'application/json' } });
      expect(status).toBe(404);
      expect(typeof body.message).toBe('string');
    }
  });
});
