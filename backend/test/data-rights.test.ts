import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataExportDocumentSchema, type DataExport } from '@life/contracts';
import { pollUntil } from '@life/test-support';
import { followAuthorize, startServiceStandIns, type ServiceStandIn, type ServiceStandIns } from '@life/test-support/standins/services';
import { startStripeStandIn, type StripeStandIn } from '@life/test-support/standins/stripe';
import { createWorkerContext, prepareRuntime } from '../src/bootstrap.js';
import { OUTBOX_QUEUE } from '../src/core/outbox/outbox.service.js';
import { AccountErasureService } from '../src/modules/data-rights/account-erasure.service.js';
import { ACCOUNT_ERASURE_QUEUE, erasureJobId } from '../src/modules/data-rights/jobs/data-rights.jobs.js';
import { DataRightsSweeper } from '../src/modules/data-rights/jobs/data-rights.sweeper.js';
import { EXPIRED_ROW_DAYS } from '../src/modules/data-rights/personal-data.repository.js';
import { bearer, seedUsers, type SeededUser } from './helpers/seed.js';
import { startTestApp, testEnv, type TestApp } from './helpers/test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const KEYS = `k1:${randomBytes(32).toString('base64')}`;
const STRIPE_KEYS = { secretKey: `sk_test_${randomBytes(8).toString('hex')}`, webhookSecret: `whsec_${randomBytes(16).toString('hex')}` };
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const JSON_HEADERS = { 'content-type': 'application/json' };

let stand: ServiceStandIns;
let stripe: StripeStandIn;

const standIn = (family: 'github' | 'rotating') => stand[family] as ServiceStandIn;

function settings(): Record<string, string> {
  return {
    ENCRYPTION_KEYS: KEYS,
    STRIPE_SECRET_KEY: STRIPE_KEYS.secretKey,
    STRIPE_WEBHOOK_SECRET: STRIPE_KEYS.webhookSecret,
    STRIPE_API_URL: stripe.url,
    DATA_RIGHTS_SWEEP_MS: '300',
  };
}

/** Helpers bound to one running app. */
function helpers(t: TestApp) {
  const json = async (response: Response) => (await response.json()) as Json;
  const call = (token: string, path: string, init: RequestInit = {}) =>
    t.fetch(path, { ...init, headers: { ...bearer(token), ...(init.body ? JSON_HEADERS : {}), ...(init.headers as Record<string, string>) } });

  /** Points the github and fitbit catalog rows at the stand-ins, through the admin API. */
  async function configureCatalog(): Promise<void> {
    const [admin] = await seedUsers(t.db, 1, 'admin');
    const list = (await json(await call(admin!.token, '/api/external-services/all'))) as unknown as Json[];
    const ids = new Map(list.map((service) => [service.service_name as string, service.id as string]));
    for (const [name, row] of Object.entries(stand.rows)) {
      const response = await call(admin!.token, `/api/external-services/${ids.get(name)}`, { method: 'PUT', body: JSON.stringify(row) });
      expect([name, response.status]).toEqual([name, 200]);
    }
  }

  /** A real connection: POST …/auth → the stand-in's page → GET /callback/:service. */
  async function connect(user: SeededUser, service: string): Promise<void> {
    const auth = await call(user.token, `/api/external-services/${service}/auth`, { method: 'POST' });
    const target = await followAuthorize((await json(auth)).auth_url as string);
    const response = await call(user.token, `/callback/${service}?${target.searchParams}`, { headers: { accept: 'application/json' } });
    expect([service, response.status]).toEqual([service, 200]);
  }

  /** A third-party app the person let in, and the tokens it got (what `oauth-server.test.ts` does step by step). */
  async function appTokens(
    user: SeededUser,
  ): Promise<{ clientId: string; clientSecret: string; accessToken: string; refreshToken: string; clientName: string }> {
    const [admin] = await seedUsers(t.db, 1, 'admin');
    const redirect = 'http://127.0.0.1:7777/cb';
    const clientName = `Agenda ${randomBytes(3).toString('hex')}`;
    const app = await json(
      await call(admin!.token, '/oauth_clients', {
        method: 'POST',
        body: JSON.stringify({ name: clientName, redirect_uris: [redirect], allowed_scopes: ['openid', 'profile', 'email', 'read'] }),
      }),
    );
    const consent = await json(
      await call(user.token, '/oauth/authorize', {
        method: 'POST',
        body: JSON.stringify({ client_id: app.client_id, redirect_uri: redirect, scope: 'openid profile email', action: 'allow' }),
      }),
    );
    const code = new URL(consent.redirect_to as string).searchParams.get('code')!;
    const tokens = await json(
      await t.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirect,
          client_id: app.client_id as string,
          client_secret: app.client_secret as string,
        }),
      }),
    );
    expect(tokens.access_token).toMatch(/^lat_/);
    return {
      clientId: app.client_id as string,
      clientSecret: app.client_secret as string,
      accessToken: tokens.access_token as string,
      refreshToken: tokens.refresh_token as string,
      clientName,
    };
  }

  /** A lifetime member, as the webhook worker would have stored it, with the Stripe event that said so. */
  async function seedMembership(user: SeededUser): Promise<{ subscriptionId: string; customerId: string; eventId: string }> {
    const ids = { subscriptionId: `sub_test_${randomBytes(6).toString('hex')}`, customerId: `cus_test_${randomBytes(6).toString('hex')}` };
    const sessionId = `cs_test_${randomBytes(6).toString('hex')}`;
    const eventId = `evt_test_${randomBytes(6).toString('hex')}`;
    const number = Number((await t.db.query<{ n: number }>('select coalesce(max(member_number), 0) + 1 as n from memberships')).rows[0]!.n);
    await t.db.query(
      `insert into memberships (id, created_at, updated_at, user_id, edition, price_cents, member_number, status, status_at, stripe_customer_id, stripe_subscription_id, checkout_session_id)
       values (gen_random_uuid(), now(), now(), $1, 'elite', 200, $2, 'active', now() - interval '1 day', $3, $4, $5)`,
      [user.id, number, ids.customerId, ids.subscriptionId, sessionId],
    );
    const payload = {
      id: eventId,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000) - 86_400,
      livemode: false,
      data: {
        object: {
          id: sessionId,
          object: 'checkout.session',
          status: 'complete',
          customer: ids.customerId,
          subscription: ids.subscriptionId,
          amount_total: 200,
          currency: 'eur',
          customer_email: user.email,
          customer_details: { email: user.email, name: 'Persona De Prueba', address: { city: 'Madrid', line1: 'Calle Secreta 7' } },
          metadata: { reservation_id: randomUUID(), edition: 'elite', user_id: user.id },
        },
      },
    };
    await t.db.query(
      `insert into stripe_events (id, type, payload, created_at, received_at, processed_at, attempts) values ($1, $2, $3::jsonb, now(), now(), now(), 1)`,
      [eventId, payload.type, JSON.stringify(payload)],
    );
    return { ...ids, eventId };
  }

  async function waitForExport(user: SeededUser, id: string): Promise<DataExport> {
    let last: DataExport | undefined;
    await pollUntil(async () => {
      last = (await json(await call(user.token, `/api/users/me/export/${id}`))) as DataExport;
      return last.status === 'ready';
    }, 'the export to be ready');
    return last!;
  }

  const count = async (sql: string, params: unknown[]) => Number((await t.db.query<{ n: string }>(sql, params)).rows[0]!.n);

  return { json, call, configureCatalog, connect, appTokens, seedMembership, waitForExport, count };
}

beforeAll(async () => {
  stand = await startServiceStandIns({ families: ['github', 'rotating'] });
  stripe = await startStripeStandIn(STRIPE_KEYS);
});

afterAll(async () => {
  await stand?.close();
  await stripe?.close();
});

describe('data rights (real PostgreSQL + Redis, workers in the same process)', () => {
  let t: TestApp;
  let h: ReturnType<typeof helpers>;

  beforeAll(async () => {
    t = await startTestApp({ role: 'all', env: settings() });
    h = helpers(t);
    await h.configureCatalog();
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('Descargar mis datos', () => {
    it('exports the person’s data as a JSON attachment, built by the worker, with no secret in it', async () => {
      const [user] = await seedUsers(t.db, 1);
      const u = user!;
      await t.db.query(`update sessions set ip = '203.0.113.9', user_agent = 'Firefox/140 (test)' where user_id = $1`, [u.id]);
      await h.connect(u, 'github');
      await h.connect(u, 'fitbit');
      const ownSecret = `own-secret-${randomBytes(12).toString('hex')}`;
      const saved = await h.call(u.token, '/api/external-services-user', {
        method: 'POST',
        body: JSON.stringify({ service_name: 'spotify', client_id: 'my-spotify-client', client_secret: ownSecret }),
      });
      expect(saved.status).toBe(200);
      const app = await h.appTokens(u);
      const member = await h.seedMembership(u);
      const contact = await t.fetch('/api/contact', {
        method: 'POST',
        headers: { ...bearer(u.token), ...JSON_HEADERS },
        body: JSON.stringify({ name: 'Persona', email: u.email, subject: 'privacy', message: 'Quiero saber qué datos tenéis.', consent: true }),
      });
      expect(contact.status).toBe(202);

      const started = await h.call(u.token, '/api/users/me/export', { method: 'POST' });
      expect(started.status).toBe(202);
      const request = (await h.json(started)) as DataExport;
      expect(request).toMatchObject({ status: 'pending', expires_at: null, size_bytes: null });

      const ready = await h.waitForExport(u, request.id);
      expect(ready.size_bytes).toBeGreaterThan(500);
      expect(new Date(ready.expires_at!).getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);

      const download = await h.call(u.token, `/api/users/me/export/${request.id}/download`);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toMatch(/^application\/json/);
      expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="life-datos-\d{4}-\d\d-\d\d\.json"$/);
      expect(download.headers.get('cache-control')).toBe('no-store');
      const text = await download.text();
      const file = DataExportDocumentSchema.parse(JSON.parse(text));

      expect(file.profile).toMatchObject({ id: u.id, username: u.username, email: u.email });
      expect(file.sessions).toEqual(expect.arrayContaining([expect.objectContaining({ ip: '203.0.113.9', user_agent: 'Firefox/140 (test)' })]));
      expect(file.connections.map((c) => [c.service, c.account_name])).toEqual([
        ['fitbit', standIn('rotating').account.name],
        ['github', standIn('github').account.name],
      ]);
      expect(file.service_credentials).toEqual([expect.objectContaining({ service_name: 'spotify', client_id: 'my-spotify-client' })]);
      expect(file.app_grants).toEqual([expect.objectContaining({ client_name: app.clientName, scopes: ['openid', 'profile', 'email'], revoked_at: null })]);
      expect(file.app_tokens.length).toBeGreaterThan(0);
      expect(file.membership).toMatchObject({ edition: 'elite', price_cents: 200, stripe_subscription_id: member.subscriptionId });
      expect(file.contact_messages).toEqual([expect.objectContaining({ subject: 'privacy', message: 'Quiero saber qué datos tenéis.' })]);
      expect(file.activity.map((entry) => entry.action)).toEqual(expect.arrayContaining(['oauth.consent_given', 'account.data_export_requested']));

      // Not one secret we hold for or about the person, in any form.
      const connections = (await t.db.query<Json>('select * from service_connections where user_id = $1', [u.id])).rows;
      const secrets = [
        u.token,
        sha256(u.token),
        ownSecret,
        app.accessToken,
        app.refreshToken,
        sha256(app.accessToken),
        sha256(app.refreshToken),
        app.clientSecret,
        ...standIn('github').issued.accessTokens,
        ...standIn('rotating').issued.accessTokens,
        ...standIn('rotating').issued.refreshTokens,
        ...connections.flatMap((row) => [row.access_token_encrypted as string, row.refresh_token_encrypted as string | null]),
        ...(await t.db.query<Json>('select client_secret_encrypted from user_service_credentials where user_id = $1', [u.id])).rows.map(
          (row) => row.client_secret_encrypted as string,
        ),
      ].filter((value): value is string => typeof value === 'string' && value.length > 0);
      expect(secrets.length).toBeGreaterThan(10);
      for (const secret of secrets) expect(text.includes(secret)).toBe(false);
      expect(text).not.toMatch(/token_hash|_encrypted|client_secret|ip_hash/);
    });

    it('is only for its owner: anyone else, an unknown id or a bad id get a 4xx JSON error', async () => {
      const [owner, other] = await seedUsers(t.db, 2);
      const request = (await h.json(await h.call(owner!.token, '/api/users/me/export', { method: 'POST' }))) as DataExport;
      await h.waitForExport(owner!, request.id);

      for (const path of [`/api/users/me/export/${request.id}`, `/api/users/me/export/${request.id}/download`]) {
        const foreign = await h.call(other!.token, path);
        expect([path, foreign.status]).toEqual([path, 404]);
        expect(await h.json(foreign)).toMatchObject({ error: 'export_not_found', message: expect.any(String) });
        expect((await t.fetch(path)).status).toBe(401);
      }
      const unknown = await h.call(owner!.token, `/api/users/me/export/${randomUUID()}/download`);
      expect(unknown.status).toBe(404);
      expect(await h.json(unknown)).toMatchObject({ error: 'export_not_found' });
      const bad = await h.call(owner!.token, '/api/users/me/export/not-an-id');
      expect(bad.status).toBe(400);
      expect(await h.json(bad)).toMatchObject({ error: 'validation_failed' });
    });

    it('answers 409 before the file is ready and 410 once it expired; the sweeper deletes expired files, then their rows', async () => {
      const [user] = await seedUsers(t.db, 1);
      const pending = (
        await t.db.query<{ id: string }>(
          `insert into data_exports (id, user_id, status, created_at, attempts) values (gen_random_uuid(), $1, 'failed', now(), 3) returning id`,
          [user!.id],
        )
      ).rows[0]!.id;
      const notReady = await h.call(user!.token, `/api/users/me/export/${pending}/download`);
      expect(notReady.status).toBe(409);
      expect(await h.json(notReady)).toMatchObject({ error: 'export_not_ready' });

      const request = (await h.json(await h.call(user!.token, '/api/users/me/export', { method: 'POST' }))) as DataExport;
      await h.waitForExport(user!, request.id);
      await t.db.query(`update data_exports set expires_at = now() - interval '1 minute' where id = $1`, [request.id]);
      const expired = await h.call(user!.token, `/api/users/me/export/${request.id}/download`);
      expect(expired.status).toBe(410);
      expect(await h.json(expired)).toMatchObject({ error: 'export_expired' });

      // The file goes at once; the row stays a while so the old link keeps saying "expired".
      await t.app.get(DataRightsSweeper).sweep();
      expect(await h.count('select count(*) as n from data_exports where id = $1 and content is null and size_bytes is null', [request.id])).toBe(1);
      expect((await h.call(user!.token, `/api/users/me/export/${request.id}/download`)).status).toBe(410);

      await t.db.query(`update data_exports set expires_at = now() - make_interval(days => $2) where id = $1`, [request.id, EXPIRED_ROW_DAYS + 1]);
      await t.app.get(DataRightsSweeper).sweep();
      await pollUntil(async () => (await h.count('select count(*) as n from data_exports where id = $1', [request.id])) === 0, 'the sweeper to delete it');
      expect((await h.call(user!.token, `/api/users/me/export/${request.id}`)).status).toBe(404);
    });
  });

  describe('Eliminar mi cuenta', () => {
    it('refuses a wrong or missing confirmation with a 400 JSON error and changes nothing', async () => {
      const [user] = await seedUsers(t.db, 1);
      for (const body of [{ confirm: 'borrar' }, { confirm: `${user!.username}x` }, {}, { confirm: '' }, { confirm: 'ELIMINAR', extra: 1 }]) {
        const response = await h.call(user!.token, '/api/users/me/erase', { method: 'POST', body: JSON.stringify(body) });
        expect([body, response.status]).toEqual([body, 400]);
        expect(await h.json(response)).toMatchObject({
          error: expect.stringMatching(/^(confirmation_mismatch|validation_failed)$/),
          message: expect.any(String),
        });
      }
      expect((await h.call(user!.token, '/api/users/me')).status).toBe(200);
      expect((await t.db.query('select erasure_requested_at from users where id = $1', [user!.id])).rows[0]).toEqual({ erasure_requested_at: null });
      expect(await h.count(`select count(*) as n from audit_events where action like 'account.%' and actor_id = $1`, [user!.id])).toBe(0);
    });

    it('signs out at once, then revokes every grant, deletes the account and keeps only an anonymised billing record', async () => {
      const [user] = await seedUsers(t.db, 1);
      const u = user!;
      const [otherSession] = await seedUsers(t.db, 1);
      // A second browser of the same person.
      const secondToken = randomBytes(32).toString('base64url');
      await t.db.query(
        `insert into sessions (id, token_hash, user_id, created_at, last_used_at, expires_at) values (gen_random_uuid(), $1, $2, now(), now(), now() + interval '1 day')`,
        [sha256(secondToken), u.id],
      );
      await h.connect(u, 'github');
      await h.connect(u, 'fitbit');
      const githubToken = standIn('github').issued.accessTokens.at(-1)!;
      const fitbitRefresh = standIn('rotating').issued.refreshTokens.at(-1)!;
      await h.call(u.token, '/api/external-services-user', {
        method: 'POST',
        body: JSON.stringify({ service_name: 'spotify', client_id: 'mine', client_secret: 'my-secret' }),
      });
      const app = await h.appTokens(u);
      expect((await t.fetch('/api/v1/me', { headers: bearer(app.accessToken) })).status).toBe(200);
      // An open checkout at Stripe, then (as if an older purchase) a membership with its subscription.
      const checkout = await h.json(await h.call(u.token, '/api/stripe/create-checkout-session', { method: 'POST' }));
      const reservedBefore = Number((await t.db.query<{ n: number }>(`select sum(reserved) as n from edition_stock`)).rows[0]!.n);
      const member = await h.seedMembership(u);
      await t.fetch('/api/contact', {
        method: 'POST',
        headers: { ...bearer(u.token), ...JSON_HEADERS },
        body: JSON.stringify({ name: 'Persona', email: u.email, subject: 'general', message: 'Un mensaje que también se irá.', consent: true }),
      });
      await t.db.query(
        `insert into contact_messages (id, name, email, subject, message, created_at) values (gen_random_uuid(), 'Sin sesión', $1, 'other', 'Enviado sin iniciar sesión.', now())`,
        [u.email.toUpperCase()],
      );
      await t.db.query(`insert into beta_invites (email, invited_by, created_at) values ($1, 'admin@example.com', now())`, [u.email]);
      await t.db.query(
        `insert into audit_events (id, at, action, actor_id, actor_label, target_type, target_id, ip, details) values (gen_random_uuid(), now(), 'admin.beta_invite_added', null, 'admin@example.com', 'beta_invite', $1, '198.51.100.1', '{}')`,
        [u.email],
      );
      const revocationsBefore = { github: standIn('github').revocations.length, fitbit: standIn('rotating').revocations.length };

      const erase = await h.call(u.token, '/api/users/me/erase', { method: 'POST', body: JSON.stringify({ confirm: u.username.toUpperCase() }) });
      expect(erase.status).toBe(202);
      expect(await h.json(erase)).toMatchObject({ status: 'accepted', requested_at: expect.any(String) });
      // Signed out everywhere at once, whatever the worker is doing.
      expect((await h.call(u.token, '/api/users/me')).status).toBe(401);
      expect((await t.fetch('/api/users/me', { headers: bearer(secondToken) })).status).toBe(401);
      // No app represents them from then on either: their grants and tokens are revoked with the request.
      expect((await t.fetch('/api/v1/me', { headers: bearer(app.accessToken) })).status).toBe(401);
      expect(await h.count('select count(*) as n from oauth_grants where user_id = $1 and revoked_at is null', [u.id])).toBe(0);
      // The other person is untouched.
      expect((await h.call(otherSession!.token, '/api/users/me')).status).toBe(200);

      await pollUntil(async () => (await h.count('select count(*) as n from users where id = $1', [u.id])) === 0, 'the account to be erased');

      // The providers were asked to revoke what they granted us.
      expect(standIn('github').revocations.slice(revocationsBefore.github)).toEqual([expect.objectContaining({ style: 'github', token: githubToken })]);
      expect(standIn('rotating').revocations.slice(revocationsBefore.fitbit)).toEqual([expect.objectContaining({ style: 'rfc7009', token: fitbitRefresh })]);
      // The app's tokens stopped working.
      expect((await t.fetch('/api/v1/me', { headers: bearer(app.accessToken) })).status).toBe(401);
      const refreshed = await t.fetch('/oauth/token', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: app.refreshToken }),
      });
      expect(refreshed.status).toBe(400);
      expect(await h.json(refreshed)).toMatchObject({ error: 'invalid_grant' });

      // Nothing of the person is left in the tables that held them.
      for (const [table, column] of [
        ['sessions', 'user_id'],
        ['user_identities', 'user_id'],
        ['user_service_credentials', 'user_id'],
        ['service_connections', 'user_id'],
        ['oauth_grants', 'user_id'],
        ['oauth_tokens', 'user_id'],
        ['oauth_codes', 'user_id'],
        ['data_exports', 'user_id'],
        ['seat_reservations', 'user_id'],
        ['memberships', 'user_id'],
        ['contact_messages', 'user_id'],
      ] as const) {
        expect([table, await h.count(`select count(*) as n from ${table} where ${column} = $1`, [u.id])]).toEqual([table, 0]);
      }
      expect(await h.count('select count(*) as n from contact_messages where lower(email) = $1', [u.email])).toBe(0);
      expect(await h.count('select count(*) as n from beta_invites where email = $1', [u.email])).toBe(0);

      // Billing: the open checkout ended and its seat came back; the subscription was cancelled at
      // Stripe; the membership stays as a record without the person; the Stripe event lost their details.
      expect(stripe.sessions.get(checkout.sessionId as string)?.status).toBe('expired');
      expect(Number((await t.db.query<{ n: number }>(`select sum(reserved) as n from edition_stock`)).rows[0]!.n)).toBe(reservedBefore - 1);
      expect(stripe.cancelled).toContain(member.subscriptionId);
      const kept = (await t.db.query<Json>('select * from memberships where stripe_subscription_id = $1', [member.subscriptionId])).rows;
      expect(kept).toEqual([
        expect.objectContaining({ user_id: null, edition: 'elite', price_cents: 200, status: 'cancelled', stripe_customer_id: member.customerId }),
      ]);
      expect(kept[0]!.user_erased_at).toBeInstanceOf(Date);
      const event = (await t.db.query<Json>('select payload from stripe_events where id = $1', [member.eventId])).rows[0]!.payload as Json;
      expect(event).toMatchObject({
        id: member.eventId,
        scrubbed: true,
        data: { object: { customer: member.customerId, subscription: member.subscriptionId, amount_total: 200 } },
      });
      expect(JSON.stringify(event)).not.toMatch(new RegExp(`${u.email}|Persona De Prueba|Calle Secreta|${u.id}`));

      // The audit log keeps what happened, not who, from where or with what.
      const audit = (await t.db.query<Json>('select action, actor_label, ip, user_agent from audit_events where actor_id = $1', [u.id])).rows;
      expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(['oauth.consent_given', 'account.erasure_requested', 'account.erased']));
      for (const row of audit) expect(row).toMatchObject({ actor_label: null, ip: null, user_agent: null });
      expect(await h.count('select count(*) as n from audit_events where lower(target_id) = $1', [u.email])).toBe(0);
      const erased = (await t.db.query<Json>(`select details from audit_events where action = 'account.erased' and actor_id = $1`, [u.id])).rows;
      expect(erased).toEqual([{ details: expect.objectContaining({ connections: 2, revoked_at_provider: 2, app_grants: 1, membership_kept: true }) }]);

      // Idempotent: running it again (a retry, a duplicate job) changes nothing and calls nobody.
      const revocationsAfter = standIn('github').revocations.length + standIn('rotating').revocations.length;
      await expect(t.app.get(AccountErasureService).erase(u.id)).resolves.toEqual({ outcome: 'already_erased' });
      const queue = t.app.get<Queue>(getQueueToken(ACCOUNT_ERASURE_QUEUE));
      await queue.add('erase', { userId: u.id }, { jobId: `${erasureJobId(u.id)}-again` });
      await pollUntil(async () => {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed');
        return counts.waiting === 0 && counts.active === 0;
      }, 'the duplicate job to run');
      expect(standIn('github').revocations.length + standIn('rotating').revocations.length).toBe(revocationsAfter);
      expect(await h.count(`select count(*) as n from audit_events where action = 'account.erased' and actor_id = $1`, [u.id])).toBe(1);
    });

    it('erases nothing nobody asked for (a stray or replayed job)', async () => {
      const [user] = await seedUsers(t.db, 1);
      await expect(t.app.get(AccountErasureService).erase(user!.id)).resolves.toEqual({ outcome: 'not_requested' });
      expect(await h.count('select count(*) as n from users where id = $1', [user!.id])).toBe(1);
    });
  });
});

describe('account erasure survives a worker restart and a lost job (separate web and worker processes)', () => {
  let web: TestApp;
  let h: ReturnType<typeof helpers>;
  const workers: INestApplicationContext[] = [];
  const startWorker = async () => {
    const worker = await createWorkerContext(await prepareRuntime('worker', testEnv(web.db, web.queuePrefix, settings())));
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    web = await startTestApp({ role: 'web', env: settings() });
    h = helpers(web);
    await h.configureCatalog();
  });

  afterAll(async () => {
    for (const worker of workers) await worker.close().catch(() => undefined);
    await web?.close();
  });

  it('an export asked for twice while no worker runs is one export, built when a worker starts', async () => {
    const [user] = await seedUsers(web.db, 1);
    const first = (await h.json(await h.call(user!.token, '/api/users/me/export', { method: 'POST' }))) as DataExport;
    const second = (await h.json(await h.call(user!.token, '/api/users/me/export', { method: 'POST' }))) as DataExport;
    expect(second).toEqual(first);
    expect(first.status).toBe('pending');
    await startWorker();
    const ready = await h.waitForExport(user!, first.id);
    expect(ready.status).toBe('ready');
    for (const worker of workers) await worker.close();
    workers.length = 0;
  });

  /** The outbox job that queues this person's erasure job (data-rights' durable event). */
  const outboxJobOf = async (userId: string) => {
    const { rows } = await web.db.query<{ id: string }>(`select id from outbox_messages where type = $1 and payload->>'userId' = $2`, [
      'data-rights.account-erasure-requested',
      userId,
    ]);
    return rows[0] ? web.app.get<Queue>(getQueueToken(OUTBOX_QUEUE)).getJob(rows[0].id) : undefined;
  };

  it('a request made while no worker runs is done by the next worker that starts', async () => {
    // A worker that stops before the request comes.
    const first = await startWorker();
    await first.close();

    const [user] = await seedUsers(web.db, 1);
    await h.connect(user!, 'fitbit');
    const refreshToken = standIn('rotating').issued.refreshTokens.at(-1)!;
    const erase = await h.call(user!.token, '/api/users/me/erase', { method: 'POST', body: JSON.stringify({ confirm: 'ELIMINAR' }) });
    expect(erase.status).toBe(202);
    expect((await h.call(user!.token, '/api/users/me')).status).toBe(401);

    // Persisted in Redis, waiting: the outbox message that queues the erasure (written with the
    // erasure mark, in one transaction). Nobody erased anything yet.
    expect(await (await outboxJobOf(user!.id))?.getState()).toBe('waiting');
    expect(await h.count('select count(*) as n from users where id = $1', [user!.id])).toBe(1);

    await startWorker();
    await pollUntil(async () => (await h.count('select count(*) as n from users where id = $1', [user!.id])) === 0, 'the new worker to erase the account');
    expect(standIn('rotating').revocations.map((r) => r.token)).toContain(refreshToken);
  });

  it('a half-done erasure whose job Redis lost is queued again by the sweeper and finishes', async () => {
    for (const worker of workers) await worker.close().catch(() => undefined);
    workers.length = 0;
    const [user] = await seedUsers(web.db, 1);
    await h.connect(user!, 'github');
    await h.connect(user!, 'fitbit');
    const app = await h.appTokens(user!);
    const fitbitRefresh = standIn('rotating').issued.refreshTokens.at(-1)!;
    expect((await h.call(user!.token, '/api/users/me/erase', { method: 'POST', body: JSON.stringify({ confirm: user!.username }) })).status).toBe(202);
    // Already refused to the app, before any worker ran.
    expect((await web.fetch('/api/v1/me', { headers: bearer(app.accessToken) })).status).toBe(401);
    // Half-done: a run got as far as the GitHub connection (revoked and deleted), then the
    // process died, and Redis lost the job.
    const queue = web.app.get<Queue>(getQueueToken(ACCOUNT_ERASURE_QUEUE));
    await (await outboxJobOf(user!.id))?.remove();
    await (await queue.getJob(erasureJobId(user!.id)))?.remove();
    await web.db.query(`delete from service_connections where user_id = $1 and service_id = (select id from external_services where service_name = 'github')`, [
      user!.id,
    ]);
    expect(await queue.getJob(erasureJobId(user!.id))).toBeUndefined();
    expect(await h.count('select count(*) as n from users where id = $1', [user!.id])).toBe(1);

    await startWorker();
    await pollUntil(
      async () => (await h.count('select count(*) as n from users where id = $1', [user!.id])) === 0,
      'the sweeper to queue it again and the worker to finish',
    );
    expect(standIn('rotating').revocations.map((r) => r.token)).toContain(fitbitRefresh);
    expect((await web.fetch('/api/v1/me', { headers: bearer(app.accessToken) })).status).toBe(401);
    expect(await h.count('select count(*) as n from oauth_grants where user_id = $1', [user!.id])).toBe(0);
  });
});
