import { createHash } from 'node:crypto';
import { MikroORM, RequestContext } from '@mikro-orm/postgresql';
import { CommandBus } from '@nestjs/cqrs';
import { UpdateOAuthClientCommand } from '../src/modules/oauth-server/public/commands.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const REDIRECT = 'http://127.0.0.1:7777/callback';
const LIMIT = 3;
const form = (values: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(values).toString(),
});
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('apps people register on their profile (decision 0037; real PostgreSQL + Redis)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let people: SeededUser[];

  const json = async (response: Response) => (await response.json()) as Json;
  const send = (who: SeededUser, path: string, method: string, body?: unknown, headers: Record<string, string> = {}) =>
    t.fetch(path, {
      method,
      headers: { ...bearer(who.token), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const createApp = async (who: SeededUser, input: Json = {}): Promise<Json> => {
    const response = await send(who, '/api/users/me/developer-apps', 'POST', { name: 'Mi Agenda', redirect_uris: [REDIRECT], ...input });
    const body = await json(response);
    expect([response.status, body.error]).toEqual([201, undefined]);
    return body;
  };
  const list = async (who: SeededUser) => json(await send(who, '/api/users/me/developer-apps', 'GET'));
  const consentInfo = (app: Json, scope = 'openid profile') =>
    t.fetch(`/oauth/authorize?client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=${encodeURIComponent(scope)}`, {
      headers: { accept: 'application/json' },
    });
  const events = async (action: string): Promise<Json[]> =>
    (await json(await send(admin, `/api/admin/audit?limit=200&action=${action}`, 'GET'))).items as Json[];
  /** A person consents and the app exchanges the code: a live token pair. */
  const tokensFor = async (app: Json, who: SeededUser) => {
    const consent = await json(
      await send(who, '/oauth/authorize', 'POST', { client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid profile', action: 'allow' }),
    );
    const code = new URL(consent.redirect_to as string).searchParams.get('code')!;
    const response = await t.fetch(
      '/oauth/token',
      form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.client_id, client_secret: app.client_secret }),
    );
    expect(response.status).toBe(200);
    return json(response);
  };

  beforeAll(async () => {
    t = await startTestApp({ role: 'web', env: { DEVELOPER_APPS_PER_PERSON: String(LIMIT) } });
    [admin] = await seedUsers(t.db, 1, 'admin');
    people = await seedUsers(t.db, 6);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('creates an unverified app owned by the person: the secret shown once, only its SHA-256 stored, never listed', async () => {
    const [ana] = people;
    const app = await createApp(ana!, {
      name: 'Agenda de Añoranza 日本',
      description: 'Mi calendario',
      logo_uri: 'https://cdn.example.com/logo.png',
      policy_uri: 'https://example.com/privacidad',
      tos_uri: 'https://example.com/terminos',
      allowed_scopes: ['openid', 'email', 'service:github'],
    });
    expect(app).toMatchObject({
      name: 'Agenda de Añoranza 日本',
      verified: false,
      suspended: false,
      has_secret: true,
      logo_uri: 'https://cdn.example.com/logo.png',
      allowed_scopes: ['openid', 'email', 'service:github'],
    });
    expect(app.client_secret).toMatch(/^lcs_/);
    const row = (await t.db.query<Json>('select * from oauth_clients where id = $1', [app.id])).rows[0]!;
    expect(row.developer_id).toBe(ana!.id);
    expect(row.owner_user_id).toBeNull();
    expect(row.client_secret_hash).toBe(createHash('sha256').update(app.client_secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(app.client_secret);
    const listed = await list(ana!);
    expect(listed.limit).toBe(LIMIT);
    expect(listed.items.map((item: Json) => item.id)).toEqual([app.id]);
    expect(JSON.stringify(listed)).not.toContain(app.client_secret);
    expect(listed.items[0].client_secret).toBeUndefined();

    // A company app (the admin panel) is verified from the start; its creator is not its developer.
    const company = await json(await send(admin, '/oauth_clients', 'POST', { name: 'De la casa', redirect_uris: [REDIRECT] }));
    expect(company).toMatchObject({ verified: true, suspended: false, developer_id: null });
    // The admin's list names the person who made each app.
    const all = (await json(await send(admin, '/oauth_clients', 'GET'))) as unknown as Json[];
    expect(all.find((client) => client.id === app.id)).toMatchObject({ developer_id: ana!.id, developer_name: ana!.username, verified: false });
    expect(all.find((client) => client.id === company.id)).toMatchObject({ developer_id: null, developer_name: null, verified: true });
  });

  it.each([
    ['an empty name', { name: '   ' }, 'name'],
    ['a name of 121 characters', { name: 'ñ'.repeat(121) }, 'name'],
    ['a huge name', { name: 'x'.repeat(200_000) }, null],
    ['no redirect URI', { redirect_uris: [] }, 'redirect_uris'],
    ['a redirect URI with a fragment', { redirect_uris: ['https://app.example.com/cb#x'] }, 'redirect_uris.0'],
    ['a plain-http redirect URI', { redirect_uris: ['http://app.example.com/cb'] }, 'redirect_uris.0'],
    ['a javascript: redirect URI', { redirect_uris: ['javascript:alert(1)'] }, 'redirect_uris.0'],
    ['an http logo', { logo_uri: 'http://cdn.example.com/logo.png' }, 'logo_uri'],
    ['a data: logo', { logo_uri: 'data:image/png;base64,AAAA' }, 'logo_uri'],
    ['a policy link with credentials', { policy_uri: 'https://user:pw@example.com/p' }, 'policy_uri'],
    ['a terms link that is not a URL', { tos_uri: 'términos' }, 'tos_uri'],
    ['a logo URL of 2001 characters', { logo_uri: `https://example.com/${'a'.repeat(1981)}` }, 'logo_uri'],
    ['an unknown scope', { allowed_scopes: ['openid', 'admin'] }, 'allowed_scopes.1'],
    ['no scope at all', { allowed_scopes: [] }, 'allowed_scopes'],
    ['a field of the admin only', { verified: true }, null],
    ['a client type that does not exist', { client_type: 'root' }, 'client_type'],
  ])('refuses %s with a clear 400 naming the field', async (_what, input, path) => {
    const who = people[5]!;
    const response = await send(who, '/api/users/me/developer-apps', 'POST', { name: 'Válida', redirect_uris: [REDIRECT], ...input });
    const body = await json(response);
    expect([response.status, typeof body.error, typeof body.message]).toEqual([response.status === 413 ? 413 : 400, 'string', 'string']);
    if (path) expect(body.details.map((detail: Json) => detail.path)).toContain(`body.${path}`);
    expect((await list(who)).items).toEqual([]);
  });

  it('refuses malformed bodies and ids with a 4xx JSON error, never a 500', async () => {
    const who = people[5]!;
    const broken = await send(who, '/api/users/me/developer-apps', 'POST', '{"name": "a", ', {});
    expect(broken.status).toBe(400);
    expect(typeof (await json(broken)).message).toBe('string');
    const notObject = await send(who, '/api/users/me/developer-apps', 'POST', '[1,2]');
    expect(notObject.status).toBe(400);
    for (const id of ['nope', '%F0%9F%98%80', 'x'.repeat(5000)]) {
      const response = await send(who, `/api/users/me/developer-apps/${id}`, 'PUT', { name: 'x' });
      expect([400, 414]).toContain(response.status);
    }
    const signedOut = await t.fetch('/api/users/me/developer-apps');
    expect(signedOut.status).toBe(401);
  });

  it('keeps each person to the limit, even when they create many at once, with a clear 409', async () => {
    const bea = people[1]!;
    const answers = await Promise.all(
      Array.from({ length: LIMIT + 3 }, (_, i) =>
        send(bea, '/api/users/me/developer-apps', 'POST', { name: `App ${i}`, redirect_uris: [REDIRECT], client_type: 'public' }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(LIMIT).fill(201), ...Array(3).fill(409)]);
    const refused = await json(answers.find((answer) => answer.status === 409)!);
    expect(refused).toMatchObject({ error: 'developer_app_limit' });
    expect(refused.message).toContain(String(LIMIT));
    const english = await send(bea, '/api/users/me/developer-apps', 'POST', { name: 'Una más', redirect_uris: [REDIRECT] }, { 'accept-language': 'en' });
    expect((await json(english)).message).toMatch(/already have 3 apps/);
    const mine = await list(bea);
    expect(mine.items).toHaveLength(LIMIT);
    // Deleting one makes room for another; other people's apps never count.
    expect((await send(bea, `/api/users/me/developer-apps/${mine.items[0].id}`, 'DELETE')).status).toBe(204);
    await createApp(bea, { name: 'Otra' });
    await createApp(people[2]!, { name: 'De Carla' });
  });

  it("answers 404 for another person's app on every route, and leaves it untouched (no IDOR)", async () => {
    const [, , carla, dani] = people;
    const theirs = await createApp(carla!, { name: 'De Carla 2' });
    const base = `/api/users/me/developer-apps/${theirs.id}`;
    for (const [method, path, body] of [
      ['PUT', base, { name: 'Robada', redirect_uris: ['https://evil.example/cb'] }],
      ['POST', `${base}/secret`, undefined],
      ['DELETE', base, undefined],
    ] as const) {
      const response = await send(dani!, path, method, body);
      expect([method, response.status, (await json(response)).error]).toEqual([method, 404, 'not_found']);
    }
    // A company app's id is not "mine" either.
    const company = await json(await send(admin, '/oauth_clients', 'POST', { name: 'Empresa', redirect_uris: [REDIRECT] }));
    expect((await send(dani!, `/api/users/me/developer-apps/${company.id}`, 'DELETE')).status).toBe(404);
    expect((await list(dani!)).items).toEqual([]);
    const still = (await list(carla!)).items.find((item: Json) => item.id === theirs.id);
    expect(still).toMatchObject({ name: 'De Carla 2', redirect_uris: [REDIRECT] });
    const row = (await t.db.query<Json>('select client_secret_hash from oauth_clients where id = $1', [theirs.id])).rows[0]!;
    expect(row.client_secret_hash).toBe(createHash('sha256').update(theirs.client_secret).digest('hex'));
  });

  it('rotates the secret: the new one shown once works, the old one stops at once; public apps have none', async () => {
    const eva = people[3]!;
    const app = await createApp(eva, { name: 'Rotada' });
    const rotation = await send(eva, `/api/users/me/developer-apps/${app.id}/secret`, 'POST');
    const rotated = await json(rotation);
    expect(rotation.status).toBe(200);
    expect(rotated.client_secret).toMatch(/^lcs_/);
    expect(rotated.client_secret).not.toBe(app.client_secret);
    const introspect = (secret: string) => t.fetch('/oauth/introspect', form({ token: 'lat_nothing' }, { authorization: basic(app.client_id, secret) }));
    expect((await introspect(app.client_secret)).status).toBe(401);
    const fresh = await introspect(rotated.client_secret);
    expect([fresh.status, (await json(fresh)).active]).toEqual([200, false]);
    expect(JSON.stringify(await list(eva))).not.toContain(rotated.client_secret);

    const pub = await createApp(eva, { name: 'Pública', client_type: 'public' });
    expect(pub.client_secret).toBeNull();
    const none = await send(eva, `/api/users/me/developer-apps/${pub.id}/secret`, 'POST');
    expect([none.status, (await json(none)).error]).toEqual([409, 'public_client']);
  });

  it('never lets a person-made app speak for itself (no client_credentials)', async () => {
    const eva = people[3]!;
    const app = (await list(eva)).items.find((item: Json) => item.name === 'Rotada');
    const rotated = await json(await send(eva, `/api/users/me/developer-apps/${app.id}/secret`, 'POST'));
    const response = await t.fetch('/oauth/token', form({ grant_type: 'client_credentials' }, { authorization: basic(app.client_id, rotated.client_secret) }));
    const body = await json(response);
    expect(response.status).toBe(400);
    expect(body.error).toBe('unauthorized_client');
  });

  it('tells the consent screen who vouches for the app: unverified until an admin verifies; an edit needs a new check', async () => {
    const [ana] = people;
    const app = (await list(ana!)).items[0];
    const before = await json(await consentInfo(app, 'openid email'));
    expect(before).toMatchObject({
      client_name: 'Agenda de Añoranza 日本',
      verified: false,
      developer_app: true,
      logo_uri: 'https://cdn.example.com/logo.png',
      policy_uri: 'https://example.com/privacidad',
      tos_uri: 'https://example.com/terminos',
    });
    // Only the person's scopes the app registered.
    expect((await consentInfo(app, 'read')).status).toBe(400);

    const verified = await send(admin, `/oauth_clients/${app.id}/verify`, 'POST');
    expect([verified.status, (await json(verified)).verified]).toEqual([200, true]);
    expect(await json(await consentInfo(app, 'openid email'))).toMatchObject({ verified: true, developer_app: true });
    expect((await list(ana!)).items[0].verified).toBe(true);
    // A description change keeps the check; a new logo does not.
    await send(ana!, `/api/users/me/developer-apps/${app.id}`, 'PUT', { description: 'Otra descripción' });
    expect((await json(await consentInfo(app, 'openid email'))).verified).toBe(true);
    const edited = await json(await send(ana!, `/api/users/me/developer-apps/${app.id}`, 'PUT', { logo_uri: 'https://cdn.example.com/logo2.png' }));
    expect(edited).toMatchObject({ verified: false, logo_uri: 'https://cdn.example.com/logo2.png' });
    expect((await json(await consentInfo(app, 'openid email'))).verified).toBe(false);
    // Links can be cleared.
    const cleared = await json(await send(ana!, `/api/users/me/developer-apps/${app.id}`, 'PUT', { tos_uri: '' }));
    expect(cleared.tos_uri).toBeNull();
    // Asking for more after the check needs a new check too.
    expect((await json(await send(admin, `/oauth_clients/${app.id}/verify`, 'POST'))).verified).toBe(true);
    const wider = await json(
      await send(ana!, `/api/users/me/developer-apps/${app.id}`, 'PUT', { allowed_scopes: ['openid', 'email', 'profile', 'service:github'] }),
    );
    expect(wider).toMatchObject({ verified: false, allowed_scopes: expect.arrayContaining(['profile']) });

    // A company app is verified from the start; an admin may withdraw it.
    const company = await json(await send(admin, '/oauth_clients', 'POST', { name: 'Casa', redirect_uris: [REDIRECT] }));
    expect(await json(await consentInfo(company, 'openid'))).toMatchObject({ verified: true, developer_app: false, logo_uri: null });
    await send(admin, `/oauth_clients/${company.id}/unverify`, 'POST');
    expect((await json(await consentInfo(company, 'openid'))).verified).toBe(false);
    // People cannot verify: these routes are the admin's.
    expect((await send(ana!, `/oauth_clients/${app.id}/verify`, 'POST')).status).toBe(403);
  });

  it('a suspended app is refused at authorize and token, its live tokens stop working, and only an admin lifts it', async () => {
    const fran = people[4]!;
    const app = await createApp(fran, { name: 'Sospechosa' });
    const person = people[5]!;
    const tokens = await tokensFor(app, person);
    expect((await t.fetch('/api/v1/me', { headers: bearer(tokens.access_token) })).status).toBe(200);
    const before = (await (await send(person, '/api/users/me/apps', 'GET')).json()) as Json[];
    expect(before.map((grant) => grant.client_id)).toContain(app.client_id);
    // A code issued before the suspension is not exchanged after it.
    const pending = await json(
      await send(person, '/oauth/authorize', 'POST', { client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid', action: 'allow' }),
    );
    const code = new URL(pending.redirect_to as string).searchParams.get('code')!;

    const suspended = await send(admin, `/oauth_clients/${app.id}/suspend`, 'POST');
    expect([suspended.status, (await json(suspended)).suspended]).toEqual([200, true]);

    const info = await consentInfo(app);
    expect([info.status, (await json(info)).error]).toEqual([400, 'invalid_client']);
    const decide = await send(person, '/oauth/authorize', 'POST', { client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid', action: 'allow' });
    expect([decide.status, (await json(decide)).error]).toEqual([400, 'invalid_client']);
    const exchange = await t.fetch(
      '/oauth/token',
      form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.client_id, client_secret: app.client_secret }),
    );
    expect([exchange.status, (await json(exchange)).error]).toEqual([400, 'invalid_client']);
    const refresh = await t.fetch(
      '/oauth/token',
      form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.client_id, client_secret: app.client_secret }),
    );
    expect(refresh.status).toBeGreaterThanOrEqual(400);
    expect(refresh.status).toBeLessThan(500);
    expect((await t.fetch('/api/v1/me', { headers: bearer(tokens.access_token) })).status).toBe(401);
    expect((await t.fetch('/oauth/userinfo', { headers: bearer(tokens.access_token) })).status).toBe(401);

    // The owner sees it suspended, and cannot lift it: there is no such field or route for them.
    expect((await list(fran)).items.find((item: Json) => item.id === app.id)).toMatchObject({ suspended: true });
    expect((await send(fran, `/api/users/me/developer-apps/${app.id}`, 'PUT', { suspended: false })).status).toBe(400);
    expect((await send(fran, `/oauth_clients/${app.id}/unsuspend`, 'POST')).status).toBe(403);
    expect((await list(fran)).items.find((item: Json) => item.id === app.id).suspended).toBe(true);
    expect((await consentInfo(app)).status).toBe(400);

    // Decision 0050: the suspension revoked everything the app held, in the database, not only refused it.
    const rows = await t.db.query<Json>('select revoked_at, revoked_reason from oauth_tokens where client_id = $1', [app.id]);
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const row of rows.rows) expect([row.revoked_at === null, row.revoked_reason]).toEqual([false, 'client_revoked']);
    const grants = await t.db.query<Json>('select revoked_at from oauth_grants where client_id = $1', [app.id]);
    expect(grants.rows.map((row) => row.revoked_at === null)).toEqual([false]);
    const audited = (await events('oauth.app_access_revoked')).find((event) => event.target_id === app.client_id);
    expect(audited).toMatchObject({ actor_id: admin.id, target_type: 'oauth_client', details: { reason: 'suspended', grants: 1, pairs: 1 } });

    const lifted = await send(admin, `/oauth_clients/${app.id}/unsuspend`, 'POST');
    expect([lifted.status, (await json(lifted)).suspended]).toEqual([200, false]);
    expect((await consentInfo(app)).status).toBe(200);
    // Lifting it brings nothing back: the tokens stay revoked, the refresh token too, and the code.
    expect((await t.fetch('/api/v1/me', { headers: bearer(tokens.access_token) })).status).toBe(401);
    expect((await t.fetch('/oauth/userinfo', { headers: bearer(tokens.access_token) })).status).toBe(401);
    const afterRefresh = await t.fetch(
      '/oauth/token',
      form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.client_id, client_secret: app.client_secret }),
    );
    expect([afterRefresh.status, (await json(afterRefresh)).error]).toEqual([400, 'invalid_grant']);
    const afterCode = await t.fetch(
      '/oauth/token',
      form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.client_id, client_secret: app.client_secret }),
    );
    expect([afterCode.status, (await json(afterCode)).error]).toEqual([400, 'invalid_grant']);
    const introspected = await t.fetch('/oauth/introspect', form({ token: tokens.access_token }, { authorization: basic(app.client_id, app.client_secret) }));
    expect([introspected.status, await json(introspected)]).toEqual([200, { active: false }]);
    // The person has to consent again: no grant of theirs is left for the app.
    const held = (await (await send(person, '/api/users/me/apps', 'GET')).json()) as Json[];
    expect(held.map((grant) => grant.client_id)).not.toContain(app.client_id);
    const again = await tokensFor(app, person);
    expect((await t.fetch('/api/v1/me', { headers: bearer(again.access_token) })).status).toBe(200);
  });

  it("an admin's edit keeps a person-made app to the scopes about the person (decision 0050)", async () => {
    const [bea] = await seedUsers(t.db, 1);
    const app = await createApp(bea!, { name: 'Alcance', allowed_scopes: ['openid'] });
    // Over HTTP: a scope outside the person scopes is refused, the app is untouched.
    const refused = await send(admin, `/oauth_clients/${app.id}`, 'PUT', { allowed_scopes: ['openid', 'admin'] });
    expect(refused.status).toBe(400);
    expect((await json(refused)).error).toBeDefined();
    // And by the oauth-server itself, whatever the caller: the rule does not rest on the HTTP schema.
    const bus = t.app.get(CommandBus);
    const update = (id: string, input: Json) => RequestContext.create(t.app.get(MikroORM).em, () => bus.execute(new UpdateOAuthClientCommand(id, input)));
    const error = (await update(app.id, { name: 'Cambiada', allowed_scopes: ['openid', 'company:reports'] }).catch((caught: unknown) => caught)) as Json;
    expect([error.status, error.code]).toEqual([400, 'developer_app_scope']);
    const row = (await t.db.query<Json>('select name, allowed_scopes from oauth_clients where id = $1', [app.id])).rows[0]!;
    expect(row).toEqual({ name: 'Alcance', allowed_scopes: ['openid'] });
    // A person scope is fine, and the admin may still edit the app.
    const widened = await send(admin, `/oauth_clients/${app.id}`, 'PUT', { allowed_scopes: ['openid', 'email', 'service:github'] });
    expect([widened.status, (await json(widened)).allowed_scopes]).toEqual([200, ['openid', 'email', 'service:github']]);
    // The company's own apps are not held to it.
    const company = await json(await send(admin, '/oauth_clients', 'POST', { name: 'Informes', redirect_uris: [REDIRECT] }));
    await expect(update(company.id, { allowed_scopes: ['openid', 'company:reports'] })).resolves.toMatchObject({
      allowed_scopes: ['openid', 'company:reports'],
    });
  });

  it('audits create, update, secret rotation, delete, verify and suspend, naming the app and never a secret', async () => {
    const gil = people[2]!;
    const app = await createApp(gil, { name: 'Auditada por Gil' });
    await send(gil, `/api/users/me/developer-apps/${app.id}`, 'PUT', { name: 'Auditada por Gil 2' });
    const rotated = await json(await send(gil, `/api/users/me/developer-apps/${app.id}/secret`, 'POST'));
    await send(admin, `/oauth_clients/${app.id}/verify`, 'POST');
    await send(admin, `/oauth_clients/${app.id}/suspend`, 'POST');
    await send(admin, `/oauth_clients/${app.id}/unsuspend`, 'POST');
    await send(admin, `/oauth_clients/${app.id}/unverify`, 'POST');

    const find = async (action: string, id = app.client_id) => (await events(action)).find((event) => event.target_id === id);
    for (const action of ['developer.app_created', 'developer.app_updated', 'developer.app_secret_rotated']) {
      expect(await find(action)).toMatchObject({ actor_id: gil.id, actor_label: gil.email, target_type: 'oauth_client', target_label: 'Auditada por Gil 2' });
    }
    expect((await find('developer.app_created'))!.details.fields).toEqual(['client_type', 'name', 'redirect_uris']);
    expect((await find('developer.app_updated'))!.details.fields).toEqual(['name']);
    for (const action of ['admin.oauth_client_verified', 'admin.oauth_client_suspended', 'admin.oauth_client_unsuspended', 'admin.oauth_client_unverified']) {
      expect(await find(action)).toMatchObject({ actor_id: admin.id, target_type: 'oauth_client', target_label: 'Auditada por Gil 2' });
    }
    expect((await send(gil, `/api/users/me/developer-apps/${app.id}`, 'DELETE')).status).toBe(204);
    expect(await find('developer.app_deleted', app.id)).toMatchObject({ actor_id: gil.id, target_type: 'oauth_client' });
    // Refused attempts leave no record of a change.
    const other = people[3]!;
    await send(other, `/api/users/me/developer-apps/${app.id}`, 'DELETE');
    expect((await events('developer.app_deleted')).filter((event) => event.target_id === app.id)).toHaveLength(1);
    const rows = await t.db.query<Json>(`select * from audit_events where action like 'developer.%'`);
    expect(JSON.stringify(rows.rows)).not.toContain(rotated.client_secret);
    expect(JSON.stringify(rows.rows)).not.toContain(app.client_secret);
  });

  it("stops the moment its person asks to erase their account: suspended, other people's tokens revoked, theirs too (decision 0050)", async () => {
    const [ines, client, bystander] = await seedUsers(t.db, 3);
    const app = await createApp(ines!, { name: 'De Inés' });
    const other = await createApp(bystander!, { name: 'De otra persona' });
    // Someone else uses Inés's app; Inés uses someone else's app.
    const theirs = await tokensFor(app, client!);
    const hers = await tokensFor(other, ines!);
    const untouched = await tokensFor(other, client!);
    // Each app introspects its own tokens.
    const introspect = (by: Json, token: string) => t.fetch('/oauth/introspect', form({ token }, { authorization: basic(by.client_id, by.client_secret) }));
    expect((await json(await introspect(app, theirs.access_token))).active).toBe(true);
    expect((await json(await introspect(other, hers.access_token))).active).toBe(true);
    for (const token of [theirs.access_token, hers.access_token]) expect((await t.fetch('/api/v1/me', { headers: bearer(token) })).status).toBe(200);

    const erase = await send(ines!, '/api/users/me/erase', 'POST', { confirm: ines!.username });
    expect(erase.status).toBe(202);

    // At once, before any erasure job: her app is suspended and everything it held revoked.
    const row = (await t.db.query<Json>('select suspended from oauth_clients where id = $1', [app.id])).rows[0]!;
    expect(row.suspended).toBe(true);
    for (const token of [theirs.access_token, hers.access_token]) expect((await t.fetch('/api/v1/me', { headers: bearer(token) })).status).toBe(401);
    expect(await json(await introspect(other, hers.access_token))).toEqual({ active: false });
    // Her app can no longer even authenticate to ask.
    expect((await introspect(app, theirs.access_token)).status).toBe(401);
    const refresh = await t.fetch(
      '/oauth/token',
      form({ grant_type: 'refresh_token', refresh_token: theirs.refresh_token, client_id: app.client_id, client_secret: app.client_secret }),
    );
    expect([refresh.status, (await json(refresh)).error]).toEqual([400, 'invalid_client']);
    const revoked = await t.db.query<Json>('select revoked_reason from oauth_tokens where client_id = $1', [app.id]);
    expect(revoked.rows.map((token) => token.revoked_reason)).toEqual(['client_revoked']);
    // Other people's use of other apps goes on.
    expect((await t.fetch('/api/v1/me', { headers: bearer(untouched.access_token) })).status).toBe(200);
    expect((await json(await introspect(other, untouched.access_token))).active).toBe(true);
    const audited = (await events('oauth.app_access_revoked')).find((event) => event.target_id === app.client_id);
    expect(audited).toMatchObject({ target_type: 'oauth_client', details: { reason: 'developer_erasure', grants: 1, pairs: 1 } });
    // Lifting the suspension brings nothing it held back.
    expect((await send(admin, `/oauth_clients/${app.id}/unsuspend`, 'POST')).status).toBe(200);
    expect((await t.fetch('/api/v1/me', { headers: bearer(theirs.access_token) })).status).toBe(401);
    expect(await json(await introspect(app, theirs.access_token))).toEqual({ active: false });
  });

  it("goes with its person's account", async () => {
    const hugo = (await seedUsers(t.db, 1))[0]!;
    const app = await createApp(hugo, { name: 'De Hugo' });
    const parts = await t.db.query<Json>('select count(*)::int as n from oauth_clients where developer_id = $1', [hugo.id]);
    expect(parts.rows[0]!.n).toBe(1);
    await t.db.query('delete from sessions where user_id = $1', [hugo.id]);
    await t.db.query('delete from users where id = $1', [hugo.id]);
    expect((await t.db.query('select 1 from oauth_clients where id = $1', [app.id])).rowCount).toBe(0);
  });
});
