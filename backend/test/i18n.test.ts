import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERASE_CONFIRMATION_WORD, LANGUAGES, type Language } from '@life/contracts';
import { CATALOGS, isMessageId, msg, render, type MessageId } from '../src/core/i18n/messages.js';
import { issueText } from '../src/core/i18n/zod-locale.js';
import { negotiateLanguage } from '../src/core/i18n/language.js';
import { CATALOG_DEFAULTS } from '../src/modules/external-services/catalog.defaults.js';
import { apiSpanishTexts, UNTRANSLATED, usedMessageIds } from './helpers/api-texts.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { z } from 'zod';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** A catalog as `id → text` pairs (`auth.inviteNotFound` → `No hay ninguna invitación para {{email}}.`). */
function flatten(catalog: object, prefix = ''): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(catalog).flatMap(([key, value]) =>
      typeof value === 'object' && value !== null ? Object.entries(flatten(value, `${prefix}${key}.`)) : [[`${prefix}${key}`, value]],
    ),
  );
}
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();
const OTHER_LANGUAGES = LANGUAGES.filter((language) => language !== 'es');
const spanish = flatten(CATALOGS.es) as Record<MessageId, string>;
const text = (language: Language, id: MessageId) => (flatten(CATALOGS[language]) as Record<MessageId, string>)[id];

describe('API texts in every language: message ids and catalogs', () => {
  it('the sources write no sentence for people in place: every one is a message id (the scan itself works)', () => {
    const written = [...apiSpanishTexts().entries()].filter(([sentence]) => !(sentence in UNTRANSLATED));
    expect(written.map(([sentence, where]) => `${sentence}  (${where.join(', ')})`)).toEqual([]);
    // The scan finds Spanish where it is: the exceptions it must see are still seen.
    expect([...apiSpanishTexts().keys()]).toEqual(expect.arrayContaining(['Privacidad y protección de datos']));
  });

  it('uses only ids the Spanish catalog has, and the catalog has no id nobody uses', () => {
    const used = usedMessageIds();
    expect(used.size).toBeGreaterThan(100);
    const unknown = [...used.entries()].filter(([id]) => !isMessageId(id)).map(([id, where]) => `${id}  (${where.join(', ')})`);
    expect(unknown).toEqual([]);
    expect(Object.keys(spanish).filter((id) => !used.has(id))).toEqual([]);
  });

  it.each(OTHER_LANGUAGES)('%s has exactly the ids of Spanish, each with the same placeholders, and is translated', (language) => {
    const catalog = flatten(CATALOGS[language]);
    expect(Object.keys(catalog).sort()).toEqual(Object.keys(spanish).sort());
    for (const [id, translation] of Object.entries(catalog)) {
      expect(typeof translation).toBe('string');
      expect({ id, placeholders: placeholders(translation as string) }).toEqual({ id, placeholders: placeholders(spanish[id as MessageId]) });
      expect((translation as string).trim()).not.toBe('');
    }
    // Not a copy of the Spanish: most texts differ (names and codes may stay the same).
    expect(Object.entries(catalog).filter(([id, translation]) => spanish[id as MessageId] === translation).length).toBeLessThan(5);
  });

  it('renders a message with its values in each language’s order, and leaves other people’s words alone', () => {
    const refresh = msg('services.refreshPending', { service: 'Spotify', provider: 'Accounts' });
    expect(render(refresh)).toBe('El acceso a Spotify ha caducado y Accounts no ha podido renovarlo ahora; se reintentará.');
    for (const language of OTHER_LANGUAGES) {
      const expected = text(language, 'services.refreshPending').replace('{{service}}', 'Spotify').replace('{{provider}}', 'Accounts');
      expect(render(refresh, language)).toBe(expected);
    }
    // Values are not escaped (JSON answers) and not read as markup.
    expect(render(msg('services.serviceExists', { name: 'música <b>&</b> {{x}}' }), 'de')).toBe(
      text('de', 'services.serviceExists').replace('{{name}}', 'música <b>&</b> {{x}}'),
    );
    expect(render('Texto que escribió un proveedor.', 'ja')).toBe('Texto que escribió un proveedor.');
  });

  it('gives a contract’s zod message its id and the issue’s values', () => {
    const short = z.string().min(3, 'validation.usernameTooShort').safeParse('a');
    expect(short.success).toBe(false);
    expect(render(issueText(short.error!.issues[0]!), 'en')).toBe(text('en', 'validation.usernameTooShort').replace('{{minimum}}', '3'));
    const many = z
      .record(z.string(), z.string())
      .refine((r) => Object.keys(r).length <= 10, { message: 'validation.tooManyEntries', params: { maximum: 10 } })
      .safeParse(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v'])));
    expect(render(issueText(many.error!.issues[0]!))).toBe('Como mucho 10 entradas.');
    // zod's own message (no id) stays as zod wrote it.
    const wrongType = z.string().safeParse(42);
    expect(issueText(wrongType.error!.issues[0]!)).toBe(wrongType.error!.issues[0]!.message);
  });

  it('asks every language for the same confirmation word the server checks', () => {
    for (const language of LANGUAGES) expect(text(language, 'validation.erasureConfirmation')).toContain(ERASE_CONFIRMATION_WORD);
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
    expect(Object.keys(CATALOGS).sort()).toEqual([...LANGUAGES].sort());
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
    expect(body.message).toBe(text(negotiateLanguage(language), 'http.notFound'));
    expect(body.message).not.toBe('Aquí no hay nada: revisa la ruta y el método.');
  });

  it('translates a validation answer: its summary, our own field messages and zod’s', async () => {
    const profile = { ...bearer(person.token), 'content-type': 'application/json' };
    const es = await call('/api/users/me', 'es', { method: 'PATCH', headers: profile, body: JSON.stringify({ username: 'a' }) });
    const fr = await call('/api/users/me', 'fr', { method: 'PATCH', headers: profile, body: JSON.stringify({ username: 'a' }) });
    expect(es.status).toBe(400);
    expect(fr.status).toBe(400);
    expect(fr.body.error).toBe('validation_failed');
    expect(fr.body.message).toBe(text('fr', 'http.invalidRequest'));
    expect(fr.body.details.map((d: Json) => d.path)).toEqual(es.body.details.map((d: Json) => d.path));
    expect(es.body.details[0].message).toBe('El usuario debe tener al menos 3 caracteres.');
    expect(fr.body.details[0].message).toBe(text('fr', 'validation.usernameTooShort').replace('{{minimum}}', '3'));

    // A message zod writes itself (a wrong type) comes from zod's own locale.
    const typeEs = await call('/api/users/me', 'es', { method: 'PATCH', headers: profile, body: JSON.stringify({ username: 42 }) });
    const typeDe = await call('/api/users/me', 'de', { method: 'PATCH', headers: profile, body: JSON.stringify({ username: 42 }) });
    expect(typeEs.body.details[0].message).toMatch(/se esperaba/i);
    expect(typeDe.body.details[0].message).toMatch(/erwartet/i);
  });

  it('translates session and role refusals', async () => {
    const noSession = await call('/api/users/me', 'it');
    expect(noSession.status).toBe(401);
    expect(noSession.body.message).toBe(text('it', 'auth.signInRequired'));
    const notAdmin = await call('/api/admin/health', 'pt', { headers: bearer(person.token) });
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body.message).toBe(text('pt', 'auth.adminOnly'));
  });

  it('shows the consent screen’s errors and permissions in the asked language; OAuth clients get it as error_description', async () => {
    const unknown = await call('/oauth/authorize?client_id=nobody&response_type=code&code_challenge=x&code_challenge_method=S256', 'en', {
      headers: { accept: 'application/json' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(text('en', 'oauth.unknownClient'));
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
      { scope: 'profile', description: text('de', 'oauth.scope.profile') },
      {
        scope: 'service:spotify',
        description: text('de', 'oauth.scope.serviceDay').replace('{{service}}', 'Spotify').replace('{{what}}', text('de', 'yourDay.brings.spotify')),
      },
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
