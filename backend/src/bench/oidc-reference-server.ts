import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/**
 * The reference authorization server of `npm run bench -- oauth`: the `oidc-provider` library
 * (a certified OpenID Provider, already a dependency: it is the development identity provider,
 * see modules/auth/dev-idp) configured like our token side for the workloads compared:
 *
 *   - one confidential client, `client_secret_basic`, allowed the client_credentials grant;
 *   - features clientCredentials and introspection on; a client may introspect only its own
 *     tokens (our rule; the library's default lets any confidential client introspect any token);
 *   - opaque access tokens (no resource indicator: what the library issues by default), one hour,
 *     like ours;
 *   - its default in-memory adapter (an LRU of 1,000 entries: nothing is written anywhere).
 *
 * Runs in its own child process (like the baseline and the app) with an IPC channel: it reports
 * `{ port, clientId, clientSecret }` once listening and exits on SIGTERM or when the parent goes away.
 */
const clientId = `bench-${randomBytes(6).toString('hex')}`;
const clientSecret = randomBytes(32).toString('base64url');
const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;

const server = http.createServer();
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const issuer = `http://127.0.0.1:${port}`;

// Never used by these workloads (no ID tokens), but the library wants a signing key.
const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: randomBytes(6).toString('hex') };

const configuration: Configuration = {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  jwks: { keys: [jwk as never] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: {
      enabled: true,
      allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
    },
  },
  ttl: { ClientCredentials: ACCESS_TOKEN_LIFETIME_SECONDS, AccessToken: ACCESS_TOKEN_LIFETIME_SECONDS },
};
const provider = new Provider(issuer, configuration);
const callback = provider.callback();
server.on('request', (req, res) => void callback(req, res));

const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);

if (process.send) process.send({ port, clientId, clientSecret });
else console.log(`oidc-provider reference at ${issuer} (client ${clientId} / ${clientSecret})`);
