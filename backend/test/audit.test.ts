import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const REDIRECT = 'http://127.0.0.1:7777/callback';

describe('audit log (real PostgreSQL + Redis)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let person: SeededUser;

  const json = async (response: Response) => (await response.json()) as Json;
  const send = (who: SeededUser, path: string, method: string, body?: unknown) =>
    t.fetch(path, {
      method,
      headers: { ...bearer(who.token), 'user-agent': 'audit-test/1.0', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const events = async (action?: string): Promise<Json[]> =>
    (await json(await send(admin, `/api/admin/audit?limit=200${action ? `&action=${action}` : ''}`, 'GET'))).items as Json[];

  beforeAll(async () => {
    t = await startTestApp({ role: 'web' });
    [admin] = await seedUsers(t.db, 1, 'admin');
    [person] = await seedUsers(t.db, 1);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('records admin changes with who, what, when and from where, and field names but no values', async () => {
    expect((await send(admin, '/beta-invites', 'POST', { email: 'nueva@example.com' })).status).toBe(201);
    const created = await json(await send(admin, '/oauth_clients', 'POST', { name: 'Auditada', redirect_uris: [REDIRECT] }));
    expect((await send(admin, `/oauth_clients/${created.id}`, 'PUT', { ...created, name: 'Auditada 2' })).status).toBe(200);
    const rotated = await json(await send(admin, `/oauth_clients/${created.id}/secret`, 'POST'));

    const [invite] = await events('admin.beta_invite_added');
    expect(invite).toMatchObject({
      actor_id: admin.id,
      actor_label: admin.email,
      target_type: 'beta_invite',
      target_id: 'nueva@example.com',
      user_agent: 'audit-test/1.0',
    });
    expect(invite!.ip).toBe('127.0.0.1');
    expect(Date.now() - new Date(invite!.at as string).getTime()).toBeLessThan(60_000);

    const [update] = await events('admin.oauth_client_updated');
    expect(update).toMatchObject({ target_type: 'oauth_client', target_id: created.client_id });
    expect(update!.details.fields).toContain('name');
    expect((await events('admin.oauth_client_secret_rotated'))[0]).toMatchObject({ target_id: created.client_id });

    const everything = JSON.stringify((await t.db.query('select * from audit_events')).rows);
    expect(everything).not.toContain(created.client_secret);
    expect(everything).not.toContain(rotated.client_secret);
    expect(everything).not.toContain(admin.token);
  });

  it('records nothing for a refused admin change', async () => {
    const before = (await events('admin.beta_invite_added')).length;
    expect((await send(admin, '/beta-invites', 'POST', { email: 'not-an-email' })).status).toBe(400);
    expect((await send(person, '/beta-invites', 'POST', { email: 'x@example.com' })).status).toBe(403);
    expect(await events('admin.beta_invite_added')).toHaveLength(before);
  });

  it('records security events: sign-in refused, consent given and denied, grant revoked, refresh reuse, logout', async () => {
    const refused = await t.fetch('/login/github/callback?code=abc&state=forged-state-value', { headers: { accept: 'application/json' } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const [signIn] = await events('auth.sign_in_refused');
    expect(signIn).toMatchObject({ target_type: 'login_provider', target_id: 'github', actor_id: null });
    expect(signIn!.details.reason).toBe('invalid_state');
    expect(JSON.stringify(signIn)).not.toContain('abc');

    const app = await json(await send(admin, '/oauth_clients', 'POST', { name: 'Consentida', redirect_uris: [REDIRECT] }));
    const decide = async (action: 'allow' | 'deny') =>
      new URL(
        (await json(await send(person, '/oauth/authorize', 'POST', { client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid', action })))
          .redirect_to as string,
      );
    await decide('deny');
    const code = (await decide('allow')).searchParams.get('code')!;
    const tokens = await json(
      await t.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          client_id: app.client_id,
          client_secret: app.client_secret,
        }),
      }),
    );
    const refresh = () =>
      t.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: app.client_id,
          client_secret: app.client_secret,
        }),
      });
    expect((await refresh()).status).toBe(200);
    // Past the grace window (decision 0028), presenting the spent token again is a reuse.
    await t.db.query(`update oauth_tokens set refresh_used_at = refresh_used_at - interval '1 minute' where refresh_used_at is not null`);
    expect((await refresh()).status).toBe(400);

    expect((await events('oauth.consent_denied'))[0]).toMatchObject({ actor_id: person.id, target_id: app.client_id });
    expect((await events('oauth.consent_given'))[0]).toMatchObject({
      actor_id: person.id,
      target_id: app.client_id,
      details: expect.objectContaining({ scope: 'openid' }),
    });
    expect((await events('oauth.refresh_reuse_detected'))[0]!.details.revoked_count).toBeGreaterThan(0);

    const [grant] = (await json(await send(person, '/api/users/me/apps', 'GET'))) as unknown as Json[];
    expect((await send(person, `/api/users/me/apps/${grant!.id}`, 'DELETE')).status).toBe(204);
    expect((await events('oauth.grant_revoked'))[0]).toMatchObject({ actor_id: person.id, target_id: grant!.id });

    const [leaving] = await seedUsers(t.db, 1);
    expect((await send(leaving!, '/api/auth/logout', 'POST')).status).toBe(204);
    expect((await events('auth.logout'))[0]).toMatchObject({ actor_id: leaving!.id, actor_label: leaving!.email });

    const everything = JSON.stringify((await t.db.query('select * from audit_events')).rows);
    for (const secret of [tokens.access_token, tokens.refresh_token, code, app.client_secret]) expect(everything).not.toContain(secret);
  });

  it('pages newest first with a cursor, and refuses a forged cursor', async () => {
    for (let i = 0; i < 5; i++) await send(admin, '/beta-invites', 'POST', { email: `page${i}@example.com` });
    const first = await json(await send(admin, '/api/admin/audit?limit=2', 'GET'));
    expect(first.items).toHaveLength(2);
    expect(first.next_before).toEqual(expect.any(String));
    const second = await json(await send(admin, `/api/admin/audit?limit=2&before=${encodeURIComponent(first.next_before)}`, 'GET'));
    expect(second.items).toHaveLength(2);
    const ids = [...first.items, ...second.items].map((item: Json) => item.id);
    expect(new Set(ids).size).toBe(4);
    const times = [...first.items, ...second.items].map((item: Json) => new Date(item.at).getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const forged = await send(admin, `/api/admin/audit?before=${encodeURIComponent("x' or 1=1 --")}`, 'GET');
    expect([forged.status, (await json(forged)).error]).toEqual([400, 'invalid_cursor']);
    expect((await send(admin, '/api/admin/audit?limit=5000', 'GET')).status).toBe(400);
  });
});
