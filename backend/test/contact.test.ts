import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { AddressObject } from 'mailparser';
import { pollUntil } from '@life/test-support';
import { ContactDeliveryService } from '../src/modules/contact/contact-delivery.service.js';
import { ContactMailQueue } from '../src/modules/contact/contact-mail.queue.js';
import { CONTACT_MAIL_QUEUE } from '../src/modules/contact/jobs/contact-mail.job.js';
import { REJECT_MARKER, SmtpStandIn, type ReceivedMail } from './helpers/smtp-standin.js';
import { startTestApp, TEST_REDIS_URL, type TestApp } from './helpers/test-app.js';

/**
 * The contact page's API against the real app (real PostgreSQL + Redis, web and worker in one
 * process) and a real SMTP server library standing in for the company's mail server.
 */

// Answers are read as loose JSON: the assertions are the schema here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

interface Row {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  user_id: string | null;
  ip_hash: string | null;
  status: 'received' | 'sent' | 'failed';
  attempts: number;
  sent_at: Date | null;
  last_error: string | null;
  handled_at: Date | null;
  handled_by: string | null;
}

const LIMIT_PER_HOUR = 3;
const CONTACT_TO = 'equipo@life.test';
const CONTACT_FROM = 'Life Test <contact@life.test>';

let sequence = 0;
const unique = () => `${Date.now().toString(36)}${(sequence++).toString(36)}${randomBytes(2).toString('hex')}`;
/** Every request comes from its own client IP (X-Forwarded-For, TRUST_PROXY=true) unless a test says otherwise. */
let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.77.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};

const validMessage = (overrides: Json = {}): Json => ({
  name: 'Ana García',
  email: `ana.${unique()}@example.com`,
  subject: 'general',
  message: 'Hola: quería saber cuándo abrís las ediciones nuevas.',
  consent: true,
  ...overrides,
});

const addressOf = (field: AddressObject | AddressObject[] | undefined) => (Array.isArray(field) ? field[0] : field)?.value[0];

function contactSuite(t: () => TestApp) {
  const send = (body: unknown, options: { ip?: string; token?: string } = {}) =>
    t().fetch('/api/contact', {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'x-forwarded-for': options.ip ?? nextIp(),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      body: JSON.stringify(body),
    });

  const rowsFor = async (email: string) => (await t().db.query<Row>(`select * from contact_messages where email = $1 order by created_at`, [email])).rows;
  const rowCount = async () => Number((await t().db.query<{ n: string }>(`select count(*) as n from contact_messages`)).rows[0].n);

  async function sendStored(body: Json, options: { token?: string } = {}): Promise<Row> {
    const response = await send(body, options);
    expect(response.status).toBe(202);
    const rows = await rowsFor(String(body.email).toLowerCase());
    expect(rows).toHaveLength(1);
    return rows[0];
  }

  const rowById = async (id: string) => (await t().db.query<Row>(`select * from contact_messages where id = $1`, [id])).rows[0];
  const waitForStatus = (id: string, status: Row['status']) =>
    pollUntil(async () => ((await rowById(id))?.status === status ? rowById(id) : undefined), `message ${id} to be ${status}`);

  return { send, rowsFor, rowCount, sendStored, rowById, waitForStatus };
}

async function seedSession(t: TestApp, role: 'user' | 'admin'): Promise<{ token: string; userId: string; email: string }> {
  const token = randomBytes(32).toString('base64url');
  const userId = randomUUID();
  const name = `${role}${randomBytes(3).toString('hex')}`;
  const email = `${name}@example.com`;
  await t.db.query(`insert into users (id, created_at, updated_at, username, email, email_verified, role) values ($1, now(), now(), $2, $3, true, $4)`, [
    userId,
    name,
    email,
    role,
  ]);
  await t.db.query(
    `insert into sessions (id, token_hash, user_id, created_at, last_used_at, expires_at) values ($1, $2, $3, now(), now(), now() + interval '1 day')`,
    [randomUUID(), createHash('sha256').update(token).digest('hex'), userId],
  );
  return { token, userId, email };
}

function queueOf(t: TestApp): Queue {
  return new Queue(CONTACT_MAIL_QUEUE, { connection: { url: TEST_REDIS_URL }, prefix: t.queuePrefix });
}

/** Waits until nothing is waiting, running or scheduled for a retry on `contact-mail`. */
async function queueIdle(queue: Queue): Promise<void> {
  await pollUntil(async () => {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
    return Object.values(counts).every((n) => n === 0);
  }, 'the contact-mail queue to be idle');
}

describe('Contact messages with SMTP configured (real PostgreSQL + Redis + worker + SMTP stand-in)', () => {
  const smtp = new SmtpStandIn();
  let t: TestApp;
  let queue: Queue;
  let admin: { token: string; email: string };
  let user: { token: string; userId: string };
  const api = contactSuite(() => t);

  beforeAll(async () => {
    await smtp.start(0);
    t = await startTestApp({
      role: 'all',
      env: {
        SMTP_URL: smtp.url,
        CONTACT_TO,
        CONTACT_FROM,
        CONTACT_RATE_LIMIT_PER_HOUR: String(LIMIT_PER_HOUR),
        CONTACT_RETRY_DELAY_MS: '300',
        TRUST_PROXY: 'true',
      },
    });
    queue = queueOf(t);
    admin = await seedSession(t, 'admin');
    user = await seedSession(t, 'user');
  });

  afterAll(async () => {
    await queue?.close();
    await t?.close();
    await smtp.stop();
  });

  const mailsFor = (id: string): ReceivedMail[] => smtp.mailsFor(id);

  it('stores the message, answers 202 without an id, and mails it through SMTP with Reply-To the sender', async () => {
    const body = validMessage({
      name: '  María Núñez ',
      email: `  Maria.${unique()}@Example.com `,
      subject: 'privacy',
      message: 'Quiero ejercer mi derecho de acceso a mis datos.',
    });
    const ip = nextIp();
    const response = await api.send(body, { ip });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ status: 'received' });

    const email = String(body.email).trim().toLowerCase();
    const [stored] = await api.rowsFor(email);
    expect(stored).toMatchObject({ name: 'María Núñez', subject: 'privacy', message: 'Quiero ejercer mi derecho de acceso a mis datos.', user_id: null });
    // The IP is kept only as a keyed hash.
    expect(stored.ip_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(ip);

    const sent = await api.waitForStatus(stored.id, 'sent');
    expect(sent).toMatchObject({ attempts: 1, last_error: null });
    expect(sent.sent_at).toBeInstanceOf(Date);

    const [received] = mailsFor(stored.id);
    expect(mailsFor(stored.id)).toHaveLength(1);
    expect(received.user).toBe(smtp.user);
    expect(received.envelope).toEqual({ from: 'contact@life.test', to: [CONTACT_TO] });
    expect(addressOf(received.mail.from)).toEqual({ name: 'Life Test', address: 'contact@life.test' });
    expect(addressOf(received.mail.to)).toMatchObject({ address: CONTACT_TO });
    expect(addressOf(received.mail.replyTo)).toEqual({ name: 'María Núñez', address: email });
    expect(received.mail.subject).toBe('[Contacto] Privacidad y protección de datos - María Núñez');
    expect(received.mail.text).toContain('Quiero ejercer mi derecho de acceso a mis datos.');
    expect(received.mail.text).toContain(`E-mail: ${email}`);
    expect(received.mail.text).toContain(`Referencia: ${stored.id}`);
    expect(received.mail.html).toBe(false);
    expect(received.mail.messageId).toBe(`<contact-${stored.id}@127.0.0.1>`);
  });

  it('links the message to the signed-in account that sent it', async () => {
    const stored = await api.sendStored(validMessage(), { token: user.token });
    expect(stored.user_id).toBe(user.userId);
    await api.waitForStatus(stored.id, 'sent');
  });

  it('SMTP down then up: the job retries and the message is delivered exactly once', async () => {
    const port = smtp.port;
    await smtp.stop();
    const stored = await api.sendStored(validMessage({ subject: 'billing' }));

    const failedOnce = await pollUntil(async () => {
      const row = await api.rowById(stored.id);
      return row.attempts >= 1 && row.last_error ? row : undefined;
    }, 'a failed delivery attempt');
    expect(failedOnce.status).toBe('received');
    expect(failedOnce.last_error).toMatch(/ECONNREFUSED|ECONNECTION|ESOCKET/);
    expect(failedOnce.last_error).not.toContain(smtp.pass);

    await smtp.start(port);
    const sent = await api.waitForStatus(stored.id, 'sent');
    expect(sent.attempts).toBeGreaterThanOrEqual(2);
    expect(sent.last_error).toBeNull();
    expect(mailsFor(stored.id)).toHaveLength(1);

    // Queued again (the sweeper, a duplicate job) or delivered again by hand: still one mail.
    await t.app.get(ContactMailQueue).enqueue(stored.id);
    await queueIdle(queue);
    expect(await t.app.get(ContactDeliveryService).deliver(stored.id, { finalAttempt: false })).toBe('already_sent');
    expect(mailsFor(stored.id)).toHaveLength(1);
    expect((await api.rowById(stored.id)).attempts).toBe(sent.attempts);
  });

  it('a permanent refusal (550) marks the message failed at once, with the reason for admins', async () => {
    const stored = await api.sendStored(validMessage({ message: `Esto no debería pasar: ${REJECT_MARKER}` }));
    const failed = await api.waitForStatus(stored.id, 'failed');
    expect(failed.attempts).toBe(1);
    expect(failed.last_error).toContain('550');
    expect(failed.last_error).not.toContain(smtp.pass);
    expect(mailsFor(stored.id)).toHaveLength(0);

    const response = await t.fetch('/api/contact-messages?status=failed', { headers: { authorization: `Bearer ${admin.token}` } });
    expect(response.status).toBe(200);
    const listed = ((await response.json()) as Json[]).find((m) => m.id === stored.id);
    expect(listed).toMatchObject({ status: 'failed', attempts: 1, last_error: expect.stringContaining('550') });
  });

  it('the sweeper queues a message that was stored while the queue was unreachable', async () => {
    const id = randomUUID();
    await t.db.query(
      `insert into contact_messages (id, name, email, subject, message, created_at, status, attempts) values ($1, 'Luis', $2, 'other', 'Guardado cuando Redis no estaba.', now() - interval '5 minutes', 'received', 0)`,
      [id, `luis.${unique()}@example.com`],
    );
    expect(await t.app.get(ContactDeliveryService).sweep()).toBeGreaterThanOrEqual(1);
    await api.waitForStatus(id, 'sent');
    expect(mailsFor(id)).toHaveLength(1);
  });

  it('does not mail a message an admin already handled in the panel', async () => {
    const id = randomUUID();
    await t.db.query(
      `insert into contact_messages (id, name, email, subject, message, created_at, status, attempts, handled_at, handled_by) values ($1, 'Eva', $2, 'general', 'Ya contestado.', now() - interval '5 minutes', 'received', 0, now(), $3)`,
      [id, `eva.${unique()}@example.com`, admin.email],
    );
    expect(await t.app.get(ContactDeliveryService).deliver(id, { finalAttempt: false })).toBe('handled');
    expect(mailsFor(id)).toHaveLength(0);
  });

  it('limits messages per e-mail: 429 with Retry-After past the limit', async () => {
    const email = `flood.${unique()}@example.com`;
    for (let i = 0; i < LIMIT_PER_HOUR; i += 1) expect((await api.send(validMessage({ email }))).status).toBe(202);
    const refused = await api.send(validMessage({ email }));
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await refused.json()).toMatchObject({ error: 'too_many_requests' });
    expect(await api.rowsFor(email)).toHaveLength(LIMIT_PER_HOUR);
  });

  it('limits messages per IP: 429 with Retry-After past the limit, whatever the e-mail', async () => {
    const ip = nextIp();
    const emails = Array.from({ length: LIMIT_PER_HOUR + 1 }, () => `same-ip.${unique()}@example.com`);
    for (const email of emails.slice(0, LIMIT_PER_HOUR)) expect((await api.send(validMessage({ email }), { ip })).status).toBe(202);
    const refused = await api.send(validMessage({ email: emails[LIMIT_PER_HOUR] }), { ip });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await api.rowsFor(emails[LIMIT_PER_HOUR])).toHaveLength(0);
    // Another IP is not affected.
    expect((await api.send(validMessage({ email: emails[LIMIT_PER_HOUR] }))).status).toBe(202);
  });

  it('honeypot filled: the same 202 answer, but nothing is stored or sent', async () => {
    const before = await api.rowCount();
    const botEmail = `bot.${unique()}@example.com`;
    const response = await api.send(validMessage({ email: botEmail, website: 'http://spam.example' }));
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ status: 'received' });

    // A real message sent after it gets through; by then the bot's would have been too.
    const real = await api.sendStored(validMessage());
    await api.waitForStatus(real.id, 'sent');
    await queueIdle(queue);
    expect(await api.rowsFor(botEmail)).toHaveLength(0);
    expect(await api.rowCount()).toBe(before + 1);
    expect(smtp.received.some((r) => addressOf(r.mail.replyTo)?.address === botEmail)).toBe(false);
  });

  it('bad input: 400 with field details, and nothing stored', async () => {
    const before = await api.rowCount();
    const cases: { body: unknown; paths: string[] }[] = [
      { body: {}, paths: ['body.name', 'body.email', 'body.subject', 'body.message', 'body.consent'] },
      { body: validMessage({ email: 'not-an-email' }), paths: ['body.email'] },
      { body: validMessage({ subject: 'sales' }), paths: ['body.subject'] },
      { body: validMessage({ message: 'x'.repeat(10_000) }), paths: ['body.message'] },
      { body: validMessage({ message: 'corto' }), paths: ['body.message'] },
      { body: validMessage({ name: 42, consent: 'yes' }), paths: ['body.name', 'body.consent'] },
      { body: validMessage({ consent: false }), paths: ['body.consent'] },
      { body: validMessage({ name: 'Ana\r\nBcc: victim@example.com' }), paths: ['body.name'] },
      { body: validMessage({ role: 'admin' }), paths: ['body'] },
      { body: ['not', 'an', 'object'], paths: ['body'] },
    ];
    for (const { body, paths } of cases) {
      const response = await api.send(body);
      const answer = (await response.json()) as Json;
      expect({ status: response.status, error: answer.error }).toEqual({ status: 400, error: 'validation_failed' });
      const reported = (answer.details as { path: string; message: string }[]).map((d) => d.path);
      for (const path of paths) expect(reported).toContain(path);
      for (const detail of answer.details as { message: string }[]) expect(detail.message.length).toBeGreaterThan(0);
    }
    expect(await api.rowCount()).toBe(before);
  });

  it('admin endpoints: 401 without a session, 403 for a user', async () => {
    const someId = randomUUID();
    for (const [token, status] of [
      [undefined, 401],
      [user.token, 403],
    ] as const) {
      const headers = { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
      expect((await t.fetch('/api/contact-messages', { headers })).status).toBe(status);
      expect((await t.fetch(`/api/contact-messages/${someId}/handled`, { method: 'POST', headers })).status).toBe(status);
    }
  });

  it('admins list messages newest first, filter by subject and status, and mark them handled', async () => {
    const tag = unique();
    const sent: Row[] = [];
    for (const subject of ['general', 'billing', 'billing'])
      sent.push(await api.sendStored(validMessage({ subject, email: `list.${tag}.${sent.length}@example.com` })));
    const auth = { authorization: `Bearer ${admin.token}` };

    const all = (await (await t.fetch('/api/contact-messages', { headers: auth })).json()) as Json[];
    const times = all.map((m) => Date.parse(m.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const mine = all.filter((m) => String(m.email).includes(`.${tag}.`));
    expect(mine.map((m) => m.id)).toEqual([sent[2].id, sent[1].id, sent[0].id]);
    expect(Object.keys(mine[0]).sort()).toEqual([
      'attempts',
      'created_at',
      'email',
      'handled_at',
      'handled_by',
      'id',
      'last_error',
      'message',
      'name',
      'sent_at',
      'status',
      'subject',
      'user_id',
    ]);

    const billing = (await (await t.fetch('/api/contact-messages?subject=billing', { headers: auth })).json()) as Json[];
    expect(billing.every((m) => m.subject === 'billing')).toBe(true);
    expect(billing.filter((m) => String(m.email).includes(`.${tag}.`)).map((m) => m.id)).toEqual([sent[2].id, sent[1].id]);

    await api.waitForStatus(sent[0].id, 'sent');
    const delivered = (await (await t.fetch('/api/contact-messages?status=sent&limit=200', { headers: auth })).json()) as Json[];
    expect(delivered.every((m) => m.status === 'sent')).toBe(true);
    expect(delivered.some((m) => m.id === sent[0].id)).toBe(true);

    expect((await t.fetch('/api/contact-messages?subject=sales', { headers: auth })).status).toBe(400);
    expect((await t.fetch('/api/contact-messages?limit=100000', { headers: auth })).status).toBe(400);

    const handled = await t.fetch(`/api/contact-messages/${sent[1].id}/handled`, { method: 'POST', headers: auth });
    expect(handled.status).toBe(200);
    const first = (await handled.json()) as Json;
    expect(first).toMatchObject({ id: sent[1].id, handled_by: admin.email });
    expect(typeof first.handled_at).toBe('string');
    const again = (await (await t.fetch(`/api/contact-messages/${sent[1].id}/handled`, { method: 'POST', headers: auth })).json()) as Json;
    expect(again.handled_at).toBe(first.handled_at);
    expect((await api.rowById(sent[1].id)).handled_by).toBe(admin.email);

    const missing = await t.fetch(`/api/contact-messages/${randomUUID()}/handled`, { method: 'POST', headers: auth });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: 'contact_message_not_found' });
    expect((await t.fetch('/api/contact-messages/not-a-uuid/handled', { method: 'POST', headers: auth })).status).toBe(400);
  });
});

describe('Contact messages without SMTP (stored for admins, nothing queued)', () => {
  let t: TestApp;
  let queue: Queue;
  const api = contactSuite(() => t);

  beforeAll(async () => {
    t = await startTestApp({ role: 'all', env: { TRUST_PROXY: 'true' } });
    queue = queueOf(t);
  });

  afterAll(async () => {
    await queue?.close();
    await t?.close();
  });

  it('keeps the message as received, queues nothing, and shows it to admins', async () => {
    const stored = await api.sendStored(validMessage({ subject: 'other' }));
    expect(stored).toMatchObject({ status: 'received', attempts: 0, sent_at: null, last_error: null });
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
    expect(await t.app.get(ContactDeliveryService).sweep(0)).toBe(0);
    expect(await t.app.get(ContactDeliveryService).deliver(stored.id, { finalAttempt: true })).toBe('not_configured');
    expect((await api.rowById(stored.id)).status).toBe('received');

    const admin = await seedSession(t, 'admin');
    const listed = (await (await t.fetch('/api/contact-messages', { headers: { authorization: `Bearer ${admin.token}` } })).json()) as Json[];
    expect(listed.find((m) => m.id === stored.id)).toMatchObject({ status: 'received', subject: 'other', email: stored.email });
  });
});
