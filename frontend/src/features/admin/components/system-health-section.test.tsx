import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AUDIT_ACTIONS, type AuditEvent, type AuditPage, type SystemHealth } from '@life/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n/i18n';
import en from '@/i18n/locales/en.json';
import es from '@/i18n/locales/es.json';
import { emptyResponse, jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { ADMIN_USER, renderWithProviders, signIn } from '@/test/render';
import { SystemHealthSection } from './system-health-section';

const HEALTH: SystemHealth = {
  status: 'ok',
  checkedAt: '2026-11-22T10:00:00.000Z',
  version: '0.1.0+abc1234',
  uptimeSeconds: 93_784, // 1 d 2 h 3 min 4 s
  queuePrefix: 'life_3f9a1c0b7e',
  database: { status: 'up', latencyMs: 1.25, message: null },
  redis: { status: 'up', latencyMs: 0.4, message: null },
  queues: [
    { name: 'contact-mail', counts: { waiting: 0, active: 0, delayed: 0, failed: 0 }, failed: [] },
    { name: 'token-refresh', counts: { waiting: 1200, active: 4, delayed: 2, failed: 0 }, failed: [] },
    {
      name: 'vault-keys',
      counts: { waiting: 0, active: 0, delayed: 0, failed: 25 },
      failed: [
        {
          id: '7',
          name: 'reencrypt',
          failedReason: 'This worker encrypts with key "k1" but the rotation asked for "k2"',
          attemptsMade: 5,
          timestamp: Date.parse('2026-11-22T09:00:00.000Z'),
          finishedOn: Date.parse('2026-11-22T09:05:00.000Z'),
        },
      ],
    },
  ],
  workers: [{ id: 'web-1:4242', host: 'web-1', pid: 4242, lastBeatAt: '2026-11-22T09:59:55.000Z', expiresInSeconds: 25 }],
  refreshFailures: [{ service: 'spotify', failing: 3, needsReconnect: 1, lastFailureAt: '2026-11-22T09:30:00.000Z', lastError: 'token endpoint answered 503' }],
  stripeEvents: [
    {
      id: 'evt_poison_1',
      type: 'customer.subscription.updated',
      receivedAt: '2026-11-22T09:00:00.000Z',
      failedAt: '2026-11-22T09:17:00.000Z',
      attempts: 10,
      lastError: 'No membership for subscription sub_x yet',
    },
  ],
};

const DOWN: SystemHealth = {
  ...HEALTH,
  status: 'error',
  redis: { status: 'down', latencyMs: null, message: 'Redis did not answer' },
  queues: HEALTH.queues.map((queue) => ({ ...queue, counts: null, failed: [] })),
  workers: null,
  refreshFailures: [],
};

const event = (overrides: Partial<AuditEvent>): AuditEvent => ({
  id: crypto.randomUUID(),
  at: '2026-11-22T10:00:00.000Z',
  action: 'auth.sign_in',
  actor_id: 'u1',
  actor_label: 'ana@example.com',
  target_type: null,
  target_id: null,
  target_label: null,
  ip: '203.0.113.7',
  user_agent: 'Firefox',
  details: {},
  ...overrides,
});

interface Api {
  health?: (request: RecordedRequest) => Response;
  audit?: (request: RecordedRequest) => Response;
  job?: (request: RecordedRequest) => Response;
  stripe?: (request: RecordedRequest) => Response;
}

function stubApi({
  health = () => jsonResponse(200, HEALTH),
  audit = () => jsonResponse(200, { items: [], next_before: null }),
  job = () => emptyResponse(),
  stripe = () => emptyResponse(),
}: Api = {}) {
  return stubFetch((request) => {
    if (request.url.startsWith('/api/admin/health')) return health(request);
    if (request.url.startsWith('/api/admin/audit')) return audit(request);
    if (request.url.startsWith('/api/admin/queues/')) return job(request);
    if (request.url.startsWith('/api/admin/stripe-events/')) return stripe(request);
    return jsonResponse(404, { error: 'not_found', message: 'no' });
  });
}

const healthCalls = (requests: RecordedRequest[]) => requests.filter((request) => request.url === '/api/admin/health');

beforeEach(() => signIn(ADMIN_USER));
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('Salud del Sistema: status', () => {
  it('shows the database and Redis with text, icon and latency, the version, the uptime, the queues, the workers and the refresh failures', async () => {
    const { requests } = stubApi();
    renderWithProviders(<SystemHealthSection />);
    await screen.findByTestId('system-status');
    expect(requests[0]).toMatchObject({ method: 'GET', url: '/api/admin/health', headers: { Authorization: 'Bearer test-token' } });

    const database = screen.getByTestId('health-database');
    expect(database).toHaveTextContent('Base de datos');
    expect(within(database).getByText('Operativo')).toHaveAttribute('data-status', 'up');
    expect(within(database).getByTestId('health-database-latency')).toHaveTextContent('Latencia: 1,3 ms');
    expect(screen.getByTestId('health-redis-latency')).toHaveTextContent('Latencia: 0,4 ms');
    expect(screen.getByTestId('health-version')).toHaveTextContent('0.1.0+abc1234');
    expect(screen.getByTestId('health-uptime')).toHaveTextContent('1 d 2 h');
    expect(screen.getByText('Todo en orden')).toBeInTheDocument();
    expect(screen.getByTestId('system-health-updated')).toHaveTextContent('se actualiza cada 5 s');

    const rows = within(screen.getByTestId('health-queues')).getAllByTestId('health-queue-row');
    expect(rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent))).toEqual([
      ['contact-mail', '0', '0', '0', '0'],
      ['token-refresh', '1200', '4', '2', '0'],
      ['vault-keys', '0', '0', '0', '25'],
    ]);
    expect(
      within(screen.getByTestId('health-queues'))
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Cola', 'En espera', 'En curso', 'Programados', 'Fallidos']);
    // The Redis prefix in use (issue 20: two installations on one Redis never share queues).
    expect(screen.getByTestId('health-queue-prefix')).toHaveTextContent('Prefijo en Redis: life_3f9a1c0b7e');
    expect(within(screen.getByTestId('health-queue-prefix')).getByText('life_3f9a1c0b7e').tagName).toBe('CODE');

    const worker = screen.getByTestId('health-worker-row');
    expect(worker).toHaveTextContent('web-1');
    expect(worker).toHaveTextContent('4242');

    const failure = screen.getByTestId('health-refresh-row');
    expect([...failure.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual([
      'spotify',
      '3',
      '1',
      new Date('2026-11-22T09:30:00.000Z').toLocaleString('es'),
      'token endpoint answered 503',
    ]);
  });

  it('lists the failed jobs of each queue with their reason, attempts and date, and says when only the newest are shown', async () => {
    stubApi();
    renderWithProviders(<SystemHealthSection />);
    const queue = await screen.findByTestId('health-failed-queue');
    expect(queue).toHaveAttribute('data-queue', 'vault-keys');
    expect(queue).toHaveTextContent('Mostrando 1 de 25, los más recientes.');
    const row = within(queue).getByTestId('health-failed-job');
    expect(within(row).getByTestId('health-failed-job-name')).toHaveTextContent('reencrypt');
    expect(within(row).getByTestId('health-failed-job-id')).toHaveTextContent('7');
    expect([...row.querySelectorAll('td')].slice(0, 4).map((cell) => cell.textContent)).toEqual([
      'reencrypt7',
      'This worker encrypts with key "k1" but the rotation asked for "k2"',
      '5',
      new Date('2026-11-22T09:05:00.000Z').toLocaleString('es'),
    ]);
    expect(within(row).getByRole('button', { name: 'Reintentar' })).toBeEnabled();
    expect(within(row).getByRole('button', { name: 'Descartar' })).toBeEnabled();
  });

  it('says what is down in words, not only in colour, and what could not be read', async () => {
    stubApi({ health: () => jsonResponse(200, DOWN) });
    renderWithProviders(<SystemHealthSection />);
    await screen.findByTestId('system-status');
    expect(within(screen.getByTestId('health-redis')).getByText('Caído')).toHaveAttribute('data-status', 'down');
    expect(screen.getByTestId('health-redis-latency')).toHaveTextContent('No responde');
    expect(within(screen.getByTestId('health-database')).getByText('Operativo')).toBeInTheDocument();
    expect(screen.getByText('Hay servicios caídos')).toBeInTheDocument();
    for (const row of screen.getAllByTestId('health-queue-row')) expect(row).toHaveTextContent('No disponible');
    expect(screen.getByText('No disponible: Redis no responde.')).toBeInTheDocument();
    expect(screen.getByText('Ninguna conexión tiene problemas al renovar sus tokens.')).toBeInTheDocument();
    expect(screen.getByTestId('health-jobs-empty')).toHaveTextContent('No hay trabajos fallidos.');
  });

  it('warns when no worker is alive', async () => {
    stubApi({ health: () => jsonResponse(200, { ...HEALTH, workers: [] }) });
    renderWithProviders(<SystemHealthSection />);
    expect(await screen.findByTestId('health-workers-none')).toHaveTextContent('Ningún trabajador ha dado señal de vida');
  });

  it('asks again every 5 seconds and keeps the last answer on screen when a poll fails', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let fail = false;
    const { requests } = stubApi({
      health: () => (fail ? jsonResponse(503, { error: 'service_unavailable', message: 'Vuelve a intentarlo.' }) : jsonResponse(200, HEALTH)),
    });
    renderWithProviders(<SystemHealthSection />);
    await screen.findByTestId('system-status');
    expect(healthCalls(requests)).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(healthCalls(requests)).toHaveLength(2));

    fail = true;
    // The failed poll is retried by the query client before it counts as an error.
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(await screen.findByTestId('system-health-error')).toHaveTextContent('No se pudo actualizar el estado: se muestra la última comprobación.');
    expect(screen.getByTestId('health-version')).toHaveTextContent('0.1.0+abc1234');
  });

  it('says so when the status cannot be loaded at all', async () => {
    stubApi({ health: () => jsonResponse(403, { error: 'forbidden', message: 'Solo para administradores.' }) });
    renderWithProviders(<SystemHealthSection />);
    const alert = await screen.findByTestId('system-health-error');
    expect(alert).toHaveTextContent('No se pudo obtener el estado del sistema.');
    expect(alert).toHaveTextContent('Solo para administradores.');
  });
});

describe('Salud del Sistema: failed jobs', () => {
  it('Reintentar posts the retry, says so and asks for the report again', async () => {
    let retried = false;
    const { requests } = stubApi({
      health: () => jsonResponse(200, retried ? { ...HEALTH, queues: HEALTH.queues.map((q) => ({ ...q, failed: [] })) } : HEALTH),
      job: () => {
        retried = true;
        return emptyResponse();
      },
    });
    renderWithProviders(<SystemHealthSection />);
    await userEvent.click(await screen.findByTestId('health-job-retry'));
    expect(await screen.findByTestId('health-job-action-done')).toHaveTextContent('El trabajo 7 vuelve a la cola vault-keys.');
    expect(requests.find((request) => request.method === 'POST')).toMatchObject({
      url: '/api/admin/queues/vault-keys/jobs/7/retry',
      headers: { Authorization: 'Bearer test-token' },
    });
    await waitFor(() => expect(screen.queryByTestId('health-failed-job')).not.toBeInTheDocument());
    expect(healthCalls(requests).length).toBeGreaterThanOrEqual(2);
  });

  it('Descartar asks first, then deletes the job; cancelling sends nothing', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { requests } = stubApi();
    renderWithProviders(<SystemHealthSection />);
    const discard = await screen.findByTestId('health-job-discard');

    await userEvent.click(discard);
    expect(confirm).toHaveBeenLastCalledWith('¿Descartar el trabajo 7 de la cola vault-keys? No se podrá recuperar.');
    expect(requests.some((request) => request.method === 'DELETE')).toBe(false);

    await userEvent.click(discard);
    expect(await screen.findByTestId('health-job-action-done')).toHaveTextContent('Trabajo 7 de la cola vault-keys descartado.');
    expect(requests.filter((request) => request.method === 'DELETE').map((request) => request.url)).toEqual(['/api/admin/queues/vault-keys/jobs/7']);
  });

  it("shows the server's reason when an action is refused (e.g. the job is no longer failed)", async () => {
    stubApi({ job: () => jsonResponse(409, { error: 'job_not_failed', message: 'El trabajo 7 no ha fallado (estado: waiting).' }) });
    renderWithProviders(<SystemHealthSection />);
    await userEvent.click(await screen.findByTestId('health-job-retry'));
    expect(await screen.findByTestId('health-job-action-error')).toHaveTextContent('El trabajo 7 no ha fallado (estado: waiting).');
    expect(screen.queryByTestId('health-job-action-done')).not.toBeInTheDocument();
  });
});

describe('Salud del Sistema: Stripe events needing attention', () => {
  it('lists each event that gave up with its type, id, last error, attempts and when; Reintentar posts the retry and the list is asked again', async () => {
    let retried = false;
    const { requests } = stubApi({
      health: () => jsonResponse(200, retried ? { ...HEALTH, stripeEvents: [] } : HEALTH),
      stripe: () => {
        retried = true;
        return emptyResponse();
      },
    });
    renderWithProviders(<SystemHealthSection />);
    const row = await screen.findByTestId('health-stripe-event');
    expect(row).toHaveTextContent('customer.subscription.updated');
    expect(row).toHaveTextContent('evt_poison_1');
    expect(within(row).getByTestId('health-stripe-event-error')).toHaveTextContent('No membership for subscription sub_x yet');
    expect(within(screen.getByTestId('health-stripe-events')).getByRole('heading')).toHaveTextContent('Eventos de Stripe que necesitan atención');

    await userEvent.click(within(row).getByTestId('health-stripe-retry'));
    expect(await screen.findByTestId('health-stripe-action-done')).toHaveTextContent('El evento evt_poison_1 se vuelve a aplicar.');
    expect(requests.find((request) => request.method === 'POST')).toMatchObject({
      url: '/api/admin/stripe-events/evt_poison_1/retry',
      headers: { Authorization: 'Bearer test-token' },
    });
    expect(await screen.findByTestId('health-stripe-empty')).toHaveTextContent('Ningún evento de Stripe necesita atención.');
  });

  it('Descartar asks first, then dismisses; cancelling sends nothing; a refusal shows the server message', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true).mockReturnValueOnce(true);
    let refuse = false;
    const { requests } = stubApi({
      stripe: () => (refuse ? jsonResponse(409, { error: 'event_not_failed', message: 'El evento de Stripe evt_poison_1 no está fallido.' }) : emptyResponse()),
    });
    renderWithProviders(<SystemHealthSection />);
    const dismiss = await screen.findByTestId('health-stripe-dismiss');

    await userEvent.click(dismiss);
    expect(confirm).toHaveBeenLastCalledWith('¿Descartar el evento evt_poison_1? Se guarda, pero no se aplicará.');
    expect(requests.some((request) => request.method === 'POST')).toBe(false);

    await userEvent.click(dismiss);
    expect(await screen.findByTestId('health-stripe-action-done')).toHaveTextContent('Evento evt_poison_1 descartado.');
    expect(requests.filter((request) => request.method === 'POST').map((request) => request.url)).toEqual(['/api/admin/stripe-events/evt_poison_1/dismiss']);

    refuse = true;
    await userEvent.click(await screen.findByTestId('health-stripe-dismiss'));
    expect(await screen.findByTestId('health-stripe-action-error')).toHaveTextContent('El evento de Stripe evt_poison_1 no está fallido.');
  });

  it('says when the list cannot be read', async () => {
    stubApi({ health: () => jsonResponse(200, { ...HEALTH, stripeEvents: null }) });
    renderWithProviders(<SystemHealthSection />);
    expect(await screen.findByTestId('health-stripe-events')).toHaveTextContent('No disponible: la base de datos no responde.');
  });
});

describe('Salud del Sistema: audit log', () => {
  const openAudit = async () => {
    renderWithProviders(<SystemHealthSection />);
    await userEvent.click(await screen.findByRole('tab', { name: 'Registro de auditoría' }));
  };

  it('lists Fecha, Acción (in words), Quién, Objeto and Desde, and loads older pages with the cursor', async () => {
    const first: AuditPage = {
      items: [
        event({ id: 'e1', action: 'admin.queue_job_retried', target_type: 'queue_job', target_id: 'vault-keys/7' }),
        event({ id: 'e2', action: 'auth.sign_in_refused', actor_id: null, actor_label: null, ip: null }),
        event({ id: 'e3', action: 'billing.something_new', at: '2026-11-21T08:00:00.000Z' }),
      ],
      next_before: '2026-11-21T08:00:00.000Z|e3',
    };
    const second: AuditPage = {
      items: [event({ id: 'e4', action: 'admin.beta_invite_added', target_type: 'beta_invite', target_id: 'x@example.com' })],
      next_before: null,
    };
    const { requests } = stubApi({
      audit: (request) => jsonResponse(200, new URL(request.url, 'http://localhost').searchParams.get('before') ? second : first),
    });
    await openAudit();
    await screen.findAllByTestId('audit-row');
    const auditRequests = () => requests.filter((request) => request.url.startsWith('/api/admin/audit'));
    expect(auditRequests().map((request) => request.url)).toEqual(['/api/admin/audit?limit=50']);
    // The status tab stops polling while the audit log is open.
    expect(screen.queryByTestId('system-status')).not.toBeInTheDocument();

    const table = screen.getByTestId('audit-table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Fecha', 'Acción', 'Quién', 'Objeto', 'Desde']);
    const cells = () => screen.getAllByTestId('audit-row').map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));
    expect(cells()).toEqual([
      [
        new Date('2026-11-22T10:00:00.000Z').toLocaleString('es'),
        'Trabajo fallido reintentado',
        'ana@example.com',
        'Trabajo en colavault-keys/7',
        '203.0.113.7',
      ],
      [new Date('2026-11-22T10:00:00.000Z').toLocaleString('es'), 'Inicio de sesión rechazado', '—', '—', '—'],
      [new Date('2026-11-21T08:00:00.000Z').toLocaleString('es'), 'billing.something_new', 'ana@example.com', '—', '203.0.113.7'],
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Cargar más' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(4));
    expect(auditRequests()[1]!.url).toBe(`/api/admin/audit?limit=50&before=${encodeURIComponent('2026-11-21T08:00:00.000Z|e3')}`);
    expect(cells()[3]![1]).toBe('Invitación beta añadida');
    expect(screen.queryByRole('button', { name: 'Cargar más' })).not.toBeInTheDocument();
  });

  it('Objeto shows what the record is about by name, never a bare id (the id stays as a tooltip)', async () => {
    const grantId = '7d1f2c3a-1111-4222-8333-444455556666';
    const serviceId = '0b6c1e2d-aaaa-4bbb-8ccc-ddddeeeeffff';
    const goneId = '9e9e9e9e-1111-4222-8333-444455556666';
    stubApi({
      audit: () =>
        jsonResponse(200, {
          items: [
            event({ id: 'n1', action: 'oauth.grant_revoked', target_type: 'oauth_grant', target_id: grantId, target_label: 'Agenda Familiar' }),
            event({ id: 'n2', action: 'admin.service_updated', target_type: 'external_service', target_id: serviceId, target_label: 'youtube' }),
            event({ id: 'n3', action: 'admin.oauth_client_deleted', target_type: 'oauth_client', target_id: goneId }),
            event({ id: 'n4', action: 'admin.beta_invite_added', target_type: 'beta_invite', target_id: 'x@example.com' }),
          ],
          next_before: null,
        }),
    });
    await openAudit();
    const targets = await screen.findAllByTestId('audit-target');
    expect(targets.map((cell) => cell.textContent)).toEqual([
      'Permiso de una aplicaciónAgenda Familiar',
      'Servicioyoutube',
      'Aplicación',
      'Invitación betax@example.com',
    ]);
    expect(targets[0]).toHaveAttribute('title', grantId);
    for (const cell of targets) expect(cell.textContent).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('says when the log is empty', async () => {
    stubApi();
    await openAudit();
    expect(await screen.findByText('Todavía no hay eventos en el registro.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cargar más' })).not.toBeInTheDocument();
  });

  it('says when the log cannot be loaded, and Actualizar tries again', async () => {
    let fail = true;
    stubApi({
      audit: () =>
        fail ? jsonResponse(404, { error: 'not_found', message: 'Aquí no hay nada.' }) : jsonResponse(200, { items: [event({})], next_before: null }),
    });
    await openAudit();
    expect(await screen.findByTestId('audit-error')).toHaveTextContent('No se pudo obtener el registro de auditoría.');
    expect(screen.getByText('No se pudo cargar el registro.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByTestId('audit-refresh'));
    expect(await screen.findByTestId('audit-row')).toHaveTextContent('Inicio de sesión');
    expect(screen.queryByTestId('audit-error')).not.toBeInTheDocument();
  });

  it('has a Spanish and an English label for every audit action', () => {
    const label = (language: 'es' | 'en', action: string) =>
      action.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], { es, en }[language].admin.audit.actions);
    for (const action of AUDIT_ACTIONS) {
      expect([action, typeof label('es', action)]).toEqual([action, 'string']);
      expect([action, typeof label('en', action)]).toEqual([action, 'string']);
    }
  });

  it('speaks English too', async () => {
    await i18n.changeLanguage('en');
    stubApi({ audit: () => jsonResponse(200, { items: [event({ action: 'admin.queue_job_discarded' })], next_before: null }) });
    renderWithProviders(<SystemHealthSection />);
    expect(await screen.findByTestId('health-database')).toHaveTextContent('Up');
    await userEvent.click(screen.getByRole('tab', { name: 'Audit log' }));
    expect(await screen.findByTestId('audit-action')).toHaveTextContent('Failed job discarded');
  });
});
