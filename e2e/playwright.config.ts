import { defineConfig } from '@playwright/test';

// scripts/run.mjs (the `npm test -w e2e` entry) picks the port and the fresh database.
const baseURL = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3100';
const port = process.env.E2E_PORT ?? '3100';

/** The app talks to the Stripe stand-in started by scripts/run.mjs. */
function stripeEnv(): Record<string, string> {
  const stripe = (JSON.parse(process.env.E2E_STANDINS ?? '{}') as { stripe?: { url: string; secretKey: string; webhookSecret: string } }).stripe;
  return stripe
    ? {
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        STRIPE_API_URL: stripe.url,
        BILLING_SWEEP_MS: '1000',
        // An event that cannot apply gives up within a second (tests/billing-events.spec.ts), not 17 minutes.
        STRIPE_EVENT_ATTEMPTS: '2',
        STRIPE_EVENT_BACKOFF_MS: '100',
      }
    : {};
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: './tests',
  outputDir: './.artifacts/test-results',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: './.artifacts/report' }]],
  use: {
    baseURL,
    locale: 'es-ES',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: 'node ../backend/dist/main.js',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'test',
      PORT: port,
      HOST: '127.0.0.1',
      APP_URL: baseURL,
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
      QUEUE_PREFIX: process.env.E2E_QUEUE_PREFIX ?? 'lifee2e',
      ENCRYPTION_KEYS: process.env.E2E_ENCRYPTION_KEYS ?? '',
      LOG_LEVEL: 'warn',
      // Rows no spec configures are served by their development providers (tests/dev-providers.spec.ts, decision 0020).
      DEV_SERVICES: 'on',
      ...stripeEnv(),
    },
  },
});
