import fc from 'fast-check';
import { OpenApiService, type RouteInfo } from '../src/core/openapi/openapi.service.js';
import { bearer, seedUsers } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** Cases per route: enough to hit every shape of bad input below several times. */
const RUNS_PER_ROUTE = 300;

/** Strings people and attackers send: huge, unicode, traversal, SQL and HTML metacharacters. */
const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '../../etc/passwd',
    '..%2F..%2Fetc%2Fpasswd',
    "' OR 1=1 --",
    '"; drop table users; --',
    '<script>alert(1)</script>',
    '\u0000',
    '%00',
    '${jndi:x}',
    '{{7*7}}',
    'null',
    'undefined',
    '-1',
    '1e309',
    'NaN',
    '👩‍💻'.repeat(50),
  ),
  fc.nat({ max: 20_000 }).map((n) => 'x'.repeat(n)),
);

const jsonValue = fc.oneof(nastyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(nastyString, { maxLength: 5 }));

/** Bodies: valid-looking objects with wrong types, missing and extra fields, and non-objects. */
const body = fc.oneof(
  fc
    .dictionary(
      fc.oneof(
        nastyString,
        fc.constantFrom(
          'email',
          'username',
          'service_name',
          'client_id',
          'client_secret',
          'name',
          'subject',
          'message',
          'app_secret',
          'status',
          '__proto__',
          'constructor',
        ),
      ),
      jsonValue,
      { maxKeys: 8 },
    )
    .map((value) => JSON.stringify(value)),
  jsonValue.map((value) => JSON.stringify(value)),
  nastyString,
  fc.constantFrom('{', '{"a":', '[1,2', '\u0000{}', 'null'),
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data; boundary=x',
  undefined,
);

const fillPath = (path: string, segment: string) => path.replace(/:[A-Za-z_]+/g, () => encodeURIComponent(segment));

describe('fuzzing every API route with generated bad input (real PostgreSQL + Redis)', () => {
  let t: TestApp;
  let routes: RouteInfo[];
  const tokens: Record<'user' | 'admin' | 'app', string> = { user: '', admin: '', app: '' };

  beforeAll(async () => {
    t = await startTestApp({ role: 'web' });
    routes = t.app
      .get(OpenApiService)
      .routes()
      .filter(
        (route) =>
          route.spec &&
          !route.path.startsWith('/api/docs') &&
          route.path !== '/api/stripe/webhook' &&
          !(route.method === 'POST' && route.path === '/api/auth/logout'),
      );
    tokens.user = (await seedUsers(t.db, 1))[0]!.token;
    tokens.admin = (await seedUsers(t.db, 1, 'admin'))[0]!.token;
    tokens.app = await appToken();
  });

  /** A third-party app's access token with every scope, so /api/v1 routes get past the guard. */
  async function appToken(): Promise<string> {
    const redirect = 'http://127.0.0.1:7777/cb';
    const json = { 'content-type': 'application/json' };
    const app = (await (
      await t.fetch('/oauth_clients', {
        method: 'POST',
        headers: { ...bearer(tokens.admin), ...json },
        body: JSON.stringify({
          name: 'Fuzz',
          redirect_uris: [redirect],
          allowed_scopes: ['openid', 'profile', 'email', 'read', 'services:read', 'service:github'],
        }),
      })
    ).json()) as { client_id: string; client_secret: string };
    const consent = (await (
      await t.fetch('/oauth/authorize', {
        method: 'POST',
        headers: { ...bearer(tokens.user), ...json },
        body: JSON.stringify({
          client_id: app.client_id,
          redirect_uri: redirect,
          scope: 'openid profile email read services:read service:github',
          action: 'allow',
        }),
      })
    ).json()) as { redirect_to: string };
    const code = new URL(consent.redirect_to).searchParams.get('code')!;
    const answer = (await (
      await t.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirect,
          client_id: app.client_id,
          client_secret: app.client_secret,
        }),
      })
    ).json()) as { access_token: string };
    return answer.access_token;
  }

  afterAll(async () => {
    await t?.close();
  });

  /** One statement counting every table's rows (the table list read once: the schema does not change here). */
  let countAll: string | undefined;
  async function rowCounts(): Promise<string> {
    if (!countAll) {
      const tables = await t.db.query<{ table_name: string }>(
        `select table_name from information_schema.tables where table_schema = 'public' and table_name not in ('mikro_orm_migrations', 'sessions') order by 1`,
      );
      countAll = `select ${tables.rows.map(({ table_name }, i) => `(select count(*) from "${table_name}") as c${i}`).join(', ')}`;
    }
    const row = (await t.db.query<Record<string, string>>(countAll)).rows[0]!;
    return Object.values(row).join(',');
  }

  it('never answers 500, never hangs, never leaks a stack, and stores nothing when it refuses', async () => {
    const problems: string[] = [];
    for (const route of routes) {
      const spec = route.spec!;
      const token = spec.access === 'admin' ? tokens.admin : spec.access === 'session' ? tokens.user : spec.access === 'app' ? tokens.app : undefined;
      const allowed5xx = new Set((spec.errors ?? []).filter((status) => status >= 500));
      await fc.assert(
        fc.asyncProperty(
          nastyString,
          fc.dictionary(nastyString, fc.oneof(nastyString, fc.array(nastyString, { maxLength: 3 })), { maxKeys: 4 }),
          body,
          contentType,
          async (segment, query, payload, type) => {
            const search = new URLSearchParams();
            for (const [key, value] of Object.entries(query)) for (const item of Array.isArray(value) ? value : [value]) search.append(key, item);
            const url = `${fillPath(route.path, segment)}${search.size ? `?${search.toString()}` : ''}`;
            const withBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
            const before = withBody ? await rowCounts() : '';
            const response = await t.fetch(url, {
              method: route.method,
              headers: { accept: 'application/json', ...(token ? bearer(token) : {}), ...(withBody && type ? { 'content-type': type } : {}) },
              body: withBody ? payload : undefined,
              redirect: 'manual',
              signal: AbortSignal.timeout(10_000),
            });
            const text = await response.text();
            const where = `${route.method} ${url.slice(0, 120)} [${type ?? 'no type'}] → ${response.status}`;
            if (response.status >= 500 && !allowed5xx.has(response.status)) problems.push(`${where}: ${text.slice(0, 200)}`);
            if (/\bat .+\.(ts|js):\d+/.test(text)) problems.push(`${where}: stack trace in the answer`);
            if (response.status >= 400 && response.headers.get('content-type')?.includes('application/json')) {
              const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
              if (typeof parsed.error !== 'string' || typeof parsed.message !== 'string') problems.push(`${where}: error answer without {error, message}`);
            }
            if (withBody && response.status >= 400 && (await rowCounts()) !== before) problems.push(`${where}: refused but the database changed`);
          },
        ),
        { numRuns: RUNS_PER_ROUTE, seed: 20261122 },
      );
    }
    expect(problems.slice(0, 30)).toEqual([]);
  }, 600_000);
});
