import { Reflector } from '@nestjs/core';
import { OpenApiService, type RouteInfo } from '../src/core/openapi/openapi.service.js';
import { PUBLIC_KEY } from '../src/core/http/public.decorator.js';
import { bearer, seedUsers } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** Routes served outside the contract on purpose (static helpers of the docs page). */
const UNCONTRACTED = new Set(['GET /api/docs/init.js']);

const concrete = (path: string) =>
  path
    .replace(/:email/g, 'someone%40example.com')
    .replace(/:id/g, '00000000-0000-4000-8000-000000000000')
    .replace(/:[A-Za-z]+/g, 'github');

describe('access sweep: every route Nest registered is public on purpose or checks the session and role', () => {
  let t: TestApp;
  let routes: RouteInfo[];
  let userToken: string;

  beforeAll(async () => {
    t = await startTestApp({ role: 'all' });
    routes = t.app.get(OpenApiService).routes();
    const [user] = await seedUsers(t.db, 1);
    userToken = user!.token;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('finds the routes', () => {
    expect(routes.length).toBeGreaterThan(15);
  });

  it('declares access for every route, and @Public() agrees with it', () => {
    const reflector = t.app.get(Reflector);
    const problems: string[] = [];
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      if (UNCONTRACTED.has(name)) continue;
      if (!route.spec) {
        problems.push(`${name} (${route.controller}.${route.handler}) has no @Contract`);
        continue;
      }
      const isPublic = reflector.getAllAndOverride<boolean>(PUBLIC_KEY, route.targets as never) === true;
      if (isPublic !== (route.spec.access === 'public')) problems.push(`${name}: @Public() is ${isPublic} but the contract says ${route.spec.access}`);
    }
    expect(problems).toEqual([]);
  });

  it('answers 401 without a token on every non-public route, and 403 for a user on every admin route', async () => {
    const problems: string[] = [];
    for (const route of routes) {
      if (!route.spec || route.spec.access === 'public') continue;
      const url = concrete(route.path);
      const withBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
      const init = { method: route.method, headers: withBody ? { 'content-type': 'application/json' } : {}, body: withBody ? '{}' : undefined };
      const anonymous = await t.fetch(url, init);
      if (anonymous.status !== 401) problems.push(`${route.method} ${url} without a token: ${anonymous.status}`);
      if (route.spec.access === 'admin') {
        const asUser = await t.fetch(url, { ...init, headers: { ...init.headers, ...bearer(userToken) } });
        if (asUser.status !== 403) problems.push(`${route.method} ${url} as a user: ${asUser.status}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
