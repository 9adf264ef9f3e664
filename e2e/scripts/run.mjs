// Runs the Playwright suite against the built app on a free port, with a fresh
// PostgreSQL database and its own Redis prefix, then cleans up. Extra arguments
// go to `playwright test`.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@life/test-support';
import pg from 'pg';

const here = path.dirname(fileURLToPath(import.meta.url));
const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

const dbName = `life_e2e_${randomBytes(5).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database "${dbName}"`);
await admin.end();
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${dbName}`;

const port = await freePort();
// Outside identity providers, replaced by local stand-ins speaking their protocols.
// Google: the app's own OpenID Connect server, as built. Microsoft: its identity platform's quirks,
// with the work accounts identity.spec.ts signs in (any other e-mail is a personal account).
const { startAllStandIns } = await import('@life/test-support/standins');
const { startOidcServer } = await import('../../backend/dist/modules/auth/dev-idp/oidc-server.js');
const standIns = await startAllStandIns({
  appUrl: `http://127.0.0.1:${port}`,
  startOidcServer,
  microsoftAccounts: [
    { email: 'wanda@contoso.example', kind: 'work', name: 'Wanda Work', edov: true },
    { email: 'mallory@unverified.example', kind: 'work', edov: false },
  ],
});
const { startStripeStandIn } = await import('@life/test-support/standins/stripe');
const stripeKeys = { secretKey: `sk_test_${randomBytes(8).toString('hex')}`, webhookSecret: `whsec_${randomBytes(16).toString('hex')}` };
// Its checkout page's "Pagar" and its customer portal deliver the signed events to the app's webhook, as Stripe does.
const stripe = await startStripeStandIn({ ...stripeKeys, webhookUrl: `http://127.0.0.1:${port}/api/stripe/webhook` });
// The connectable services (one stand-in per family of provider quirks) and the catalog rows pointing at them.
// GitHub as a GitHub App with expiring user tokens (8 h, single-use refresh tokens), so its
// refresh is exercised end to end like every other service's (tests/services-connect.spec.ts).
const { GITHUB_APP_TOKENS, startServiceStandIns } = await import('@life/test-support/standins/services');
const services = await startServiceStandIns({ overrides: { github: GITHUB_APP_TOKENS } });
const env = {
  ...process.env,
  E2E_PORT: String(port),
  E2E_BASE_URL: `http://127.0.0.1:${port}`,
  E2E_DATABASE_URL: dbUrl.toString(),
  E2E_QUEUE_PREFIX: `lifee2e${randomBytes(3).toString('hex')}`,
  E2E_ENCRYPTION_KEYS: `e2e:${randomBytes(32).toString('base64')}`,
  E2E_STANDINS: JSON.stringify({ providers: standIns.providers, stripe: { url: stripe.url, ...stripeKeys }, services: services.rows }),
};

const child = spawn(path.join(here, '..', '..', 'node_modules', '.bin', 'playwright'), ['test', ...process.argv.slice(2)], {
  cwd: path.join(here, '..'),
  env,
  stdio: 'inherit',
});
const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
await standIns.close();
await stripe.close();
await services.close();

const cleanup = new pg.Client({ connectionString: adminUrl });
await cleanup.connect();
await cleanup.query(`drop database if exists "${dbName}" with (force)`);
await cleanup.end();
process.exit(code);
