import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

// Issue 20, point 8: the audit log's "Objeto" names what a record is about (an app, a service, a
// login provider, a person, an app's access) by asking the module that owns it, not by its UUID.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const REDIRECT = 'http://127.0.0.1:7777/callback';

describe('audit log: target names from their owners (real PostgreSQL + Redis)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let person: SeededUser;

  const json = async (response: Response) => (await response.json()) as Json;
  const send = (who: SeededUser, path: string, method: string, body?: unknown) =>
    t.fetch(path, {
      method,
      headers: { ...bearer(who.token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const latest = async (action: string): Promise<Json> => {
    const page = await json(await send(admin, `/api/admin/audit?limit=50&action=${action}`, 'GET'));
    return (page.items as Json[])[0]!;
  };

  beforeAll(async () => {
    t = await startTestApp({ role: 'web' });
    [admin, person] = await seedUsers(t.db, 2, 'admin');
  });

  afterAll(async () => {
    await t?.close();
  });

  it('names apps (by row id or client_id), their grants, catalog services, login providers and people; a deleted app has no name', async () => {
    // A catalog service, edited by its row id.
    const services = (await json(await send(admin, '/api/external-services/all', 'GET'))) as unknown as Json[];
    const notion = services.find((service) => service.service_name === 'notion')!;
    expect((await send(admin, `/api/external-services/${notion.id}`, 'PUT', { ...notion, description: 'Tus notas.' })).status).toBe(200);
    expect(await latest('admin.service_updated')).toMatchObject({ target_type: 'external_service', target_id: notion.id, target_label: 'notion' });

    // A login provider, edited by its row id.
    const providers = (await json(await send(admin, '/api/login-providers', 'GET'))) as unknown as Json[];
    const google = providers.find((provider) => provider.service_name === 'google')!;
    expect((await send(admin, `/api/login-providers/${google.id}`, 'PUT', { service_name: 'google', description: 'Google.' })).status).toBe(200);
    expect(await latest('admin.login_provider_updated')).toMatchObject({ target_id: google.id, target_label: 'google' });

    // An app: created (recorded by client_id), then a person's grant for it, revoked (recorded by grant id).
    const app = await json(await send(admin, '/oauth_clients', 'POST', { name: 'Agenda Nombrada', redirect_uris: [REDIRECT] }));
    expect(await latest('admin.oauth_client_created')).toMatchObject({ target_id: app.client_id, target_label: 'Agenda Nombrada' });
    expect(
      (await send(person!, '/oauth/authorize', 'POST', { client_id: app.client_id, redirect_uri: REDIRECT, scope: 'openid', action: 'allow' })).status,
    ).toBe(200);
    const [grant] = (await json(await send(person!, '/api/users/me/apps', 'GET'))) as unknown as Json[];
    expect((await send(person!, `/api/users/me/apps/${grant!.id}`, 'DELETE')).status).toBe(204);
    const revoked = await latest('oauth.grant_revoked');
    // The grant row is gone once revoked; the record still names its app.
    expect(revoked).toMatchObject({ target_type: 'oauth_grant', target_id: grant!.id, target_label: 'Agenda Nombrada' });

    // A person: asking for erasure is recorded against the account.
    expect((await send(person!, '/api/users/me/erase', 'POST', { confirm: person!.username })).status).toBe(202);
    expect(await latest('account.erasure_requested')).toMatchObject({ target_type: 'user', target_id: person!.id, target_label: person!.username });

    // A deleted app: the record keeps its id, and no name is made up.
    const gone = await json(await send(admin, '/oauth_clients', 'POST', { name: 'Agenda Borrada', redirect_uris: [REDIRECT] }));
    expect((await send(admin, `/oauth_clients/${gone.id}`, 'DELETE')).status).toBe(204);
    expect(await latest('admin.oauth_client_deleted')).toMatchObject({ target_type: 'oauth_client', target_id: gone.id, target_label: null });

    // Records whose id is a name already keep it, with no label of their own.
    expect((await send(admin, '/beta-invites', 'POST', { email: 'nombre@example.com' })).status).toBe(201);
    expect(await latest('admin.beta_invite_added')).toMatchObject({ target_id: 'nombre@example.com', target_label: null });
  });
});
