import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoad } from './load.js';
import { firstMessage, startNodeChild, stopChild, type ManagedChild } from './processes.js';
import type { Scenario } from './scenarios.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const STANDIN_JS = path.resolve(here, 'standin-server.js');
const PROXY_JS = path.resolve(here, 'proxy-reference-server.js');

interface State {
  standIn: ManagedChild;
  proxy: ManagedChild;
  proxyUrl: string;
}

interface GithubRow {
  app_id: string;
  app_secret: string;
  auth_url: string;
  token_url: string;
  base_url: string;
}

/** A GitHub access token from the stand-in, by the authorization-code flow a person's click goes through. */
async function standInToken(row: GithubRow): Promise<string> {
  const { followAuthorize } = await import('@life/test-support/standins/services');
  const redirectUri = 'http://127.0.0.1:9/callback';
  const authorize = new URL(row.auth_url);
  for (const [name, value] of Object.entries({ response_type: 'code', client_id: row.app_id, redirect_uri: redirectUri, state: 'bench', scope: 'read:user' })) {
    authorize.searchParams.set(name, value);
  }
  const back = await followAuthorize(authorize.toString());
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`the stand-in gave no code: ${back.toString()}`);
  const response = await fetch(row.token_url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: row.app_id, client_secret: row.app_secret }),
  });
  const answer = (await response.json()) as { access_token?: string };
  if (!answer.access_token) throw new Error(`the stand-in gave no token (${response.status}): ${JSON.stringify(answer)}`);
  return answer.access_token;
}

/**
 * The reference of `oauth-proxy`: the same GET /user to a GitHub stand-in (its own, same code,
 * same kind of process), through a bare node:http pass-through proxy instead of the app. The
 * `oauth-proxy` row's "vs" column is measured against this one (run.ts, `referenceFor`).
 */
export const proxyReferenceScenario: Scenario<State> & { referenceFor: string } = {
  name: 'proxy-node',
  description: 'GET /user through a bare node:http pass-through proxy (keep-alive, streamed) to a GitHub stand-in: the reference of oauth-proxy',
  referenceFor: 'oauth-proxy',
  async setup(ctx) {
    const standIn = startNodeChild('standin-ref', STANDIN_JS, [], { ...process.env }, { ipc: true });
    let proxy: ManagedChild | undefined;
    try {
      const { row } = await firstMessage<{ row: GithubRow }>(standIn, 10_000);
      const token = await standInToken(row);
      proxy = startNodeChild('proxy-node', PROXY_JS, [], { ...process.env, UPSTREAM_URL: row.base_url, UPSTREAM_TOKEN: token }, { ipc: true });
      const { port } = await firstMessage<{ port: number }>(proxy, 10_000);
      const proxyUrl = `http://127.0.0.1:${port}`;
      const probe = await fetch(`${proxyUrl}/user`, { headers: { accept: 'application/json' } });
      const body = (await probe.json()) as { login?: unknown };
      if (probe.status !== 200 || typeof body.login !== 'string')
        throw new Error(`unexpected answer through the reference proxy: ${probe.status} ${JSON.stringify(body)}`);
      ctx.log("proxy-node: the bare proxy answers with the stand-in's /user");
      return { standIn, proxy, proxyUrl };
    } catch (error) {
      if (proxy) await stopChild(proxy);
      await stopChild(standIn);
      throw error;
    }
  },
  async run(ctx, state) {
    const spec = { path: '/user', headers: { accept: 'application/json' }, expectStatus: [200] };
    const load = { connections: ctx.options.connections };
    if (ctx.options.warmup > 0) await runLoad(state.proxyUrl, spec, { ...load, durationSec: ctx.options.warmup });
    const result = await runLoad(state.proxyUrl, spec, { ...load, durationSec: ctx.options.duration });
    if (result.total - result.badStatus <= 0)
      throw new Error(`no successful response through the reference proxy (${result.errors} errors)\n${state.proxy.tail()}`);
    return {
      opsPerSec: result.requestsPerSec,
      unit: 'req/s',
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      errors: result.errors + result.badStatus,
      total: result.total,
    };
  },
  async teardown(_ctx, state) {
    await stopChild(state.proxy);
    await stopChild(state.standIn);
  },
};
