import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { freePort, pollUntil } from '@life/test-support';
import { startStripeStandIn, type StripeStandIn } from '@life/test-support/standins/stripe';
import { bearer, seedUsers } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const SECRET_KEY = 'sk_test_outage';
const WEBHOOK_SECRET = 'whsec_outage';

/** A Redis of this test's own, so stopping it disturbs nobody else. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await pollUntil(
    () =>
      new Promise((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      }),
    'redis-server listening',
  );
  return child;
}

async function stopRedis(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('a Stripe webhook delivered while Redis is down', () => {
  let stripe: StripeStandIn;
  let t: TestApp;
  let redis: ChildProcess;
  let redisPort: number;

  beforeAll(async () => {
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    stripe = await startStripeStandIn({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
    t = await startTestApp({
      role: 'all',
      env: {
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stripe.url,
        BILLING_SWEEP_MS: '300',
      },
    });
  });

  afterAll(async () => {
    await t?.close().catch(() => undefined);
    if (redis.exitCode === null) await stopRedis(redis);
    await stripe?.close();
  });

  it('is stored at once and applied after Redis returns: nothing is lost', async () => {
    const [buyer] = await seedUsers(t.db, 1);
    const started = (await (await t.fetch('/api/stripe/create-checkout-session', { method: 'POST', headers: bearer(buyer!.token) })).json()) as {
      sessionId: string;
    };
    const completed = stripe.signedEvent('checkout.session.completed', stripe.completeSession(started.sessionId));

    await stopRedis(redis);
    const response = await t.fetch('/api/stripe/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': completed.signature },
      body: completed.payload,
    });
    expect(response.status).toBe(200);
    const stored = await t.db.query(`select processed_at from stripe_events where id = $1`, [completed.event.id]);
    expect(stored.rows).toEqual([{ processed_at: null }]);

    redis = await startRedis(redisPort);
    await pollUntil(
      async () => (await t.db.query(`select 1 from memberships where user_id = $1`, [buyer!.id])).rowCount === 1,
      'membership after Redis is back',
      { timeoutMs: 45_000 },
    );
    expect((await t.db.query(`select processed_at from stripe_events where id = $1`, [completed.event.id])).rows[0].processed_at).not.toBeNull();
  }, 90_000);
});
