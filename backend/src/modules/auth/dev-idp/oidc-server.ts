import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';
import { memoryAdapterFactory } from './memory-adapter.js';

export interface OidcClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface OidcServer {
  issuer: string;
  close(): Promise<void>;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (
  title: string,
  body: string,
) => `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1f2937}
.warn{background:#fef3c7;border:1px solid #f59e0b;border-radius:.5rem;padding:.75rem 1rem;margin-bottom:1.5rem}
label{display:block;margin-bottom:.25rem;font-weight:600}input{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #9ca3af;border-radius:.4rem;font-size:1rem}
button{margin-top:1rem;padding:.6rem 1.2rem;border:0;border-radius:.4rem;background:#111827;color:#fff;font-size:1rem;cursor:pointer}</style></head><body>${body}</body></html>`;

const readForm = (req: http.IncomingMessage) =>
  new Promise<URLSearchParams>((resolve, reject) => {
    let data = '';
    req.on('data', (chunk: Buffer) => {
      data += chunk.toString();
      if (data.length > 10_000) reject(new Error('form too large'));
    });
    req.on('end', () => resolve(new URLSearchParams(data)));
    req.on('error', reject);
  });

/** A stable subject per e-mail, so signing in again finds the same identity. */
export const subjectFor = (email: string) => `dev-${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 24)}`;

/**
 * A real OpenID Connect provider (the `oidc-provider` library) on loopback whose
 * sign-in page lets the person type any e-mail. It is Life's development identity
 * provider (`DEV_LOGIN`, refused in production) and the tests' Google/Microsoft
 * stand-in.
 */
export async function startOidcServer(options: { clients: OidcClient[]; port?: number; title?: string }): Promise<OidcServer> {
  const emails = new Map<string, string>();
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: randomBytes(6).toString('hex') };

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    // In memory on purpose, and said so in memory-adapter.ts rather than by oidc-provider's warning.
    adapter: memoryAdapterFactory(),
    clients: options.clients.map((client) => ({
      ...client,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    jwks: { keys: [jwk as never] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    // Like Google: the scope's claims (email...) also travel in the id_token.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const email = emails.get(sub);
      if (!email) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, email, email_verified: true, name: email.split('@')[0], preferred_username: email.split('@')[0] }),
      };
    },
    ttl: { Session: 3600, Interaction: 600, Grant: 3600, AccessToken: 600, AuthorizationCode: 60, IdToken: 600 },
  };
  const provider = new Provider(issuer, configuration);
  const title = options.title ?? 'Proveedor de identidad de desarrollo';

  server.on('request', (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer);
      const match = /^\/interaction\/([^/]+)(\/login)?$/.exec(url.pathname);
      if (!match) return provider.callback()(req, res);
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'consent') {
        const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope ?? 'openid'));
        const grantId = await grant.save();
        return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      }
      if (req.method === 'POST' && match[2]) {
        const email = (await readForm(req)).get('email')?.trim().toLowerCase() ?? '';
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
          res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
          return res.end(page(title, '<p>Introduce un e-mail válido.</p><p><a href="javascript:history.back()">Volver</a></p>'));
        }
        const sub = subjectFor(email);
        emails.set(sub, email);
        return provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(
        page(
          title,
          `<div class="warn" role="alert"><strong>${escapeHtml(title)}.</strong> Esto no es GitHub, Google, Microsoft ni Apple: es un proveedor local de pruebas que solo existe en desarrollo y acepta cualquier e-mail.</div>
<h1>Elige con qué e-mail entrar</h1>
<form method="post" action="/interaction/${escapeHtml(details.uid)}/login">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="email" required autofocus>
<button type="submit">Entrar</button></form>`,
        ),
      );
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`Stand-in error: ${error instanceof Error ? error.message : String(error)}`);
    });
  });

  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
