import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DayView } from '@life/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { renderWithProviders } from '@/test/render';
import { useDayViews } from '../api/day-views';
import { dayItem, daySection, dayView } from '../test/fixtures';
import { DayViewPanel } from './day-view-panel';

/** The panel as the dashboard shows it: open on one service, fed by the views query. */
function Harness({ service }: { service: string }) {
  const views = useDayViews();
  const view = views.data?.views.find((candidate) => candidate.service === service) ?? null;
  if (!views.data) return null;
  return <DayViewPanel open onOpenChange={() => {}} service={service} view={view} onReconnect={onReconnect} />;
}

const onReconnect = vi.fn();

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

function renderPanel(views: DayView[] | (() => DayView[]), service: string, handler: Handler = () => jsonResponse(404, { error: 'not_found', message: 'No' })) {
  const api = stubFetch((request) => {
    if (request.method === 'GET' && request.url.startsWith('/api/your-day/views?'))
      return jsonResponse(200, { views: typeof views === 'function' ? views() : views });
    return handler(request);
  });
  renderWithProviders(<Harness service={service} />);
  return api;
}

const at = (hours: number, minutes = 0) => {
  const date = new Date();
  date.setHours(hours, minutes, 0, 0);
  return date.toISOString();
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  onReconnect.mockReset();
});

describe('DayViewPanel', () => {
  it('shows the sections under their titles, with icons per kind, second lines, times in the person’s zone and links to the provider', async () => {
    const { requests } = renderPanel(
      [
        dayView({
          service: 'spotify',
          headline: dayItem({ live: true, title: 'Bohemian Rhapsody' }),
          sections: [
            daySection('now_playing', [dayItem({ id: 't1', live: true, url: 'https://open.spotify.com/track/1' })]),
            daySection('recently_played', [
              dayItem({ id: 't2', title: 'Heroes', subtitle: 'David Bowie', at: at(9, 30) }),
              dayItem({ id: 't3', title: 'Killer Queen', url: 'javascript:alert(1)', at: at(8, 5) }),
            ]),
          ],
        }),
      ],
      'spotify',
    );
    const panel = await screen.findByTestId('day-panel-spotify');
    expect(within(panel).getByRole('heading', { level: 2, name: 'Spotify' })).toBeInTheDocument();
    expect(
      within(panel)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual(['Sonando ahora', 'Escuchado hace poco']);
    expect(within(panel).getByTestId('day-freshness')).toHaveTextContent('Actualizado hace 3 min');

    const items = within(panel).getAllByTestId('day-item');
    expect(items.map((item) => item.dataset.kind)).toEqual(['track', 'track', 'track']);
    expect(items[0]).toHaveTextContent('Sonando');
    const link = within(items[0]!).getByRole('link', { name: /Bohemian Rhapsody/ });
    expect(link).toHaveAttribute('href', 'https://open.spotify.com/track/1');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveAccessibleName('Bohemian Rhapsody (se abre en una pestaña nueva)');
    expect(items[1]).toHaveTextContent('Heroes');
    expect(items[1]).toHaveTextContent('David Bowie');
    expect(items[1]).toHaveTextContent('9:30');
    // Only web links are followed.
    expect(within(items[2]!).queryByRole('link')).not.toBeInTheDocument();
    expect(items[2]).toHaveTextContent('8:05');
    expect(requests[0]!.url).toBe(`/api/your-day/views?tz=${encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone)}`);
  });

  it('draws the 7-day steps as bars with their numbers in words, and last night’s sleep', async () => {
    const week = [3200, 12345, 8000, 0, 15000, 9100, 4412].map((value, index) =>
      dayItem({ id: `s${index}`, service: 'fitbit', kind: 'steps', title: 'Pasos', subtitle: null, date: `2026-11-${String(22 + index)}`, value }),
    );
    renderPanel(
      [
        dayView({
          service: 'fitbit',
          sections: [
            daySection('steps_week', week),
            daySection('last_sleep', [
              dayItem({ id: 'z', service: 'fitbit', kind: 'sleep', title: 'Sueño', subtitle: null, at: at(0, 10), end_at: at(7, 42), value: 452 }),
            ]),
          ],
        }),
      ],
      'fitbit',
    );
    const chart = await screen.findByTestId('day-steps-chart');
    const bars = within(chart).getAllByRole('listitem');
    expect(bars).toHaveLength(7);
    expect(bars[0]).toHaveTextContent('dom 22');
    expect(bars[0]).toHaveTextContent('3200 pasos');
    expect(bars[1]).toHaveTextContent('12.345 pasos');
    // The longest day fills the bar; the others in proportion.
    expect(bars[4]!.querySelector('[aria-hidden] > span')).toHaveStyle({ width: '100%' });
    expect(bars[3]!.querySelector('[aria-hidden] > span')).toHaveStyle({ width: '0%' });
    const sleep = screen.getByTestId('day-section-last_sleep');
    expect(sleep).toHaveTextContent('0:10–7:42');
    expect(sleep).toHaveTextContent('7 h 32 min');
  });

  it('names WoW characters with their realm, level and class in the language on screen', async () => {
    renderPanel(
      [
        dayView({
          service: 'wow',
          sections: [
            daySection('characters', [
              dayItem({ id: 'c1', service: 'wow', kind: 'character', title: 'Thralla', subtitle: 'Sanguino', value: 70, code: 'death_knight' }),
              dayItem({ id: 'c2', service: 'wow', kind: 'character', title: 'Brisa', subtitle: 'Tyrande', value: 12, code: 'demon-hunter' }),
            ]),
          ],
        }),
      ],
      'wow',
    );
    const characters = await screen.findByTestId('day-section-characters');
    const [first, second] = within(characters).getAllByTestId('day-item');
    expect(first).toHaveTextContent('Thralla');
    expect(first).toHaveTextContent('Sanguino');
    expect(first).toHaveTextContent('Nivel 70 · Caballero de la Muerte');
    expect(second).toHaveTextContent('Nivel 12 · Cazador de demonios');
  });

  it('shows Destiny guardians by class and light level', async () => {
    renderPanel(
      [
        dayView({
          service: 'destiny2',
          sections: [
            daySection('guardians', [
              dayItem({ id: 'g1', service: 'destiny2', kind: 'guardian', title: 'Aurora', subtitle: null, value: 1810, code: 'titan' }),
              dayItem({ id: 'g2', service: 'destiny2', kind: 'guardian', title: 'Sombra', subtitle: null, value: 1795, code: 'warlock' }),
            ]),
          ],
        }),
      ],
      'destiny2',
    );
    const guardians = await screen.findByTestId('day-section-guardians');
    const rows = within(guardians).getAllByTestId('day-item');
    expect(rows[0]).toHaveTextContent('Titán · Luz 1810');
    expect(rows[1]).toHaveTextContent('Hechicero · Luz 1795');
  });

  it.each([
    ['provider_down', 'Spotify no responde ahora; te mostramos lo último que trajimos.', false],
    ['rate_limited', 'Spotify nos ha pedido que esperemos un poco; lo volveremos a intentar solos.', false],
    ['needs_reconnect', 'Spotify ya no nos deja leer tus datos: pulsa Reconectar para volver a darnos acceso.', true],
    ['missing_scope', 'Esta vista necesita un permiso de Spotify que tu conexión aún no tiene: vuelve a conectarlo con Reconectar para concederlo.', true],
  ] as const)('%s: says so calmly and keeps the last data on screen', async (problem, message, offersReconnect) => {
    renderPanel([dayView({ problem, sections: [daySection('recently_played', [dayItem({ title: 'Heroes', at: at(9) })])] })], 'spotify');
    const note = await screen.findByTestId('day-problem');
    expect(note).toHaveTextContent(message);
    expect(note).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByTestId('day-section-recently_played')).toHaveTextContent('Heroes');
    const reconnect = within(note).queryByRole('button', { name: 'Reconectar' });
    if (offersReconnect) {
      await userEvent.click(reconnect!);
      expect(onReconnect).toHaveBeenCalledWith('spotify');
    } else {
      expect(reconnect).not.toBeInTheDocument();
    }
  });

  it('pending: says the data is on its way', async () => {
    renderPanel([dayView({ state: 'pending', fetched_at: null })], 'spotify');
    expect(await screen.findByTestId('day-pending')).toHaveTextContent('Trayendo tus datos…');
    expect(screen.getByTestId('day-freshness')).toHaveTextContent('Aún no hemos traído nada');
    expect(screen.getByRole('switch', { name: 'Mostrar esta vista' })).toBeChecked();
  });

  it('off: the switch is off, it says nothing is fetched or kept, and shows no data', async () => {
    renderPanel([dayView({ state: 'off', fetched_at: null, sections: [daySection('recently_played', [dayItem()])] })], 'spotify');
    const toggle = await screen.findByTestId('day-view-switch');
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleName('Mostrar esta vista');
    expect(toggle).toHaveAccessibleDescription('Vista desactivada: no traemos ni guardamos nada de Spotify.');
    expect(screen.queryByTestId('day-item')).not.toBeInTheDocument();
    expect(screen.getByTestId('day-refresh')).toBeDisabled();
  });

  it('the view switch turns the view off with PUT {enabled:false} and shows what the server answered; and back on', async () => {
    const user = userEvent.setup();
    const { requests } = renderPanel([dayView({ sections: [daySection('recently_played', [dayItem()])] })], 'spotify', (request) => {
      const body = request.body as { enabled: boolean };
      return jsonResponse(200, body.enabled ? dayView({ state: 'pending', fetched_at: null }) : dayView({ state: 'off', fetched_at: null }));
    });
    const toggle = await screen.findByRole('switch', { name: 'Mostrar esta vista' });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(screen.getByTestId('day-view-switch-note')).toHaveTextContent('no traemos ni guardamos nada de Spotify');
    expect(screen.queryByTestId('day-item')).not.toBeInTheDocument();
    const put = requests.find((request) => request.method === 'PUT')!;
    expect(put.url).toBe('/api/your-day/views/spotify');
    expect(put.body).toEqual({ enabled: false });

    await user.click(toggle);
    expect(await screen.findByTestId('day-pending')).toHaveTextContent('Trayendo tus datos…');
    expect(toggle).toBeChecked();
    expect(requests.filter((request) => request.method === 'PUT').map((request) => request.body)).toEqual([{ enabled: false }, { enabled: true }]);
  });

  it('a failed view switch says why and leaves the switch where the view is', async () => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    renderPanel([dayView()], 'spotify', () => jsonResponse(503, { error: 'unavailable', message: 'El servicio no está disponible.' }));
    const toggle = await screen.findByRole('switch', { name: 'Mostrar esta vista' });
    await userEvent.click(toggle);
    expect(await screen.findByTestId('day-panel-error')).toHaveTextContent('No hemos podido cambiar la vista. El servicio no está disponible.');
    expect(toggle).toBeChecked();
  });

  it('Actualizar queues a fetch, then asks for the views until the new snapshot is there', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const checked = new Date(Date.now() - 3 * 60_000).toISOString();
    const old = dayView({ checked_at: checked, sections: [daySection('recently_played', [dayItem({ title: 'Heroes' })])] });
    let current = old;
    const { requests } = renderPanel(
      () => [current],
      'spotify',
      () => jsonResponse(202, { queued: true }),
    );
    const refresh = await screen.findByTestId('day-refresh');
    expect(refresh).toHaveAccessibleName('Actualizar');
    await user.click(refresh);
    const post = requests.find((request) => request.method === 'POST')!;
    expect(post.url).toBe('/api/your-day/views/spotify/refresh');
    await waitFor(() => expect(refresh).toHaveTextContent('Actualizando…'));
    expect(refresh).toBeDisabled();

    const reads = () => requests.filter((request) => request.method === 'GET').length;
    const before = reads();
    await act(() => vi.advanceTimersByTimeAsync(3_100));
    await waitFor(() => expect(reads()).toBe(before + 1));
    // Still the old snapshot: it keeps waiting.
    expect(refresh).toHaveTextContent('Actualizando…');

    current = dayView({
      fetched_at: new Date().toISOString(),
      checked_at: new Date().toISOString(),
      sections: [daySection('recently_played', [dayItem({ title: 'Under Pressure' })])],
    });
    await act(() => vi.advanceTimersByTimeAsync(3_100));
    expect(await screen.findByText('Under Pressure')).toBeInTheDocument();
    expect(refresh).toHaveTextContent('Actualizar');
    expect(refresh).toBeEnabled();
    expect(screen.getByTestId('day-freshness')).toHaveTextContent('Actualizado ahora');
    const settled = reads();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(reads()).toBe(settled);
  });

  it('stops waiting when the fetch Actualizar asked for fails, and says why while keeping the last snapshot', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const fetchedAt = new Date(Date.now() - 10 * 60_000).toISOString();
    let current = dayView({ fetched_at: fetchedAt, checked_at: fetchedAt, sections: [daySection('recently_played', [dayItem({ title: 'Heroes' })])] });
    renderPanel(
      () => [current],
      'spotify',
      () => jsonResponse(202, { queued: true }),
    );
    const refresh = await screen.findByTestId('day-refresh');
    await user.click(refresh);
    await waitFor(() => expect(refresh).toHaveTextContent('Actualizando…'));
    // The worker tried and the provider was down: same snapshot, a new check, a problem.
    current = { ...current, checked_at: new Date().toISOString(), problem: 'provider_down' };
    await act(() => vi.advanceTimersByTimeAsync(3_100));
    await waitFor(() => expect(refresh).toHaveTextContent('Actualizar'));
    expect(screen.getByTestId('day-problem')).toHaveAttribute('data-problem', 'provider_down');
    expect(screen.getByText('Heroes')).toBeInTheDocument();
  });

  it('an Actualizar right after a fetch says it is up to date and does not wait', async () => {
    const { requests } = renderPanel([dayView()], 'spotify', () => jsonResponse(202, { queued: false }));
    await userEvent.click(await screen.findByTestId('day-refresh'));
    expect(await screen.findByTestId('day-panel-notice')).toHaveTextContent('Ya está al día');
    expect(screen.getByTestId('day-refresh')).toHaveTextContent('Actualizar');
    expect(screen.getByTestId('day-refresh')).toBeEnabled();
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('a refused Actualizar says why', async () => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    renderPanel([dayView()], 'spotify', () => jsonResponse(429, { error: 'too_many_requests', message: 'Espera un minuto antes de volver a actualizar.' }));
    await userEvent.click(await screen.findByTestId('day-refresh'));
    expect(await screen.findByTestId('day-panel-error')).toHaveTextContent(
      'No hemos podido pedir la actualización. Espera un minuto antes de volver a actualizar.',
    );
    expect(screen.getByTestId('day-refresh')).toHaveTextContent('Actualizar');
  });
});

describe('Philips Hue lights', () => {
  const hue = (lamp: boolean, reading = true) =>
    dayView({
      service: 'philipshue',
      headline: null,
      sections: [
        daySection('lights', [
          dayItem({ id: 'l1', service: 'philipshue', kind: 'light', title: 'Lámpara', subtitle: 'Salón', on: lamp, value: 80 }),
          dayItem({ id: 'l2', service: 'philipshue', kind: 'light', title: 'Lectura', subtitle: 'Salón', on: reading, value: 40 }),
          dayItem({ id: 'l3', service: 'philipshue', kind: 'light', title: 'Techo', subtitle: 'Cocina', on: false, value: 0 }),
        ]),
      ],
    });

  it('lists the lights by room, each with a named switch in its real state', async () => {
    renderPanel([hue(false)], 'philipshue');
    const lights = await screen.findByTestId('day-section-lights');
    expect(
      within(lights)
        .getAllByRole('heading', { level: 4 })
        .map((heading) => heading.textContent),
    ).toEqual(['Salón', 'Cocina']);
    const lamp = screen.getByTestId('day-light-l1');
    expect(lamp).toHaveAccessibleName('Lámpara (Salón)');
    expect(lamp).not.toBeChecked();
    expect(screen.getByTestId('day-light-l2')).toBeChecked();
    expect(within(lights).getAllByTestId('day-light')[1]).toHaveTextContent(/Encendida · Brillo 40\s%/);
  });

  it('switching a light asks the server, waits for its answer, then shows the confirmed state', async () => {
    const answer = deferred<Response>();
    const { requests } = renderPanel([hue(false)], 'philipshue', () => answer.promise);
    const lamp = await screen.findByTestId('day-light-l1');
    await userEvent.click(lamp);
    const post = requests.find((request) => request.method === 'POST')!;
    expect(post.url).toBe('/api/your-day/views/philipshue/lights/l1');
    expect(post.body).toEqual({ on: true });
    // Not switched until the bridge confirms it.
    expect(lamp).not.toBeChecked();
    expect(lamp).toBeDisabled();

    answer.resolve(jsonResponse(200, hue(true)));
    await waitFor(() => expect(lamp).toBeChecked());
    expect(lamp).toBeEnabled();
    expect(screen.getAllByTestId('day-light')[0]).toHaveTextContent('Encendida');
    expect(screen.getByTestId('day-light-confirmed')).toHaveTextContent('Lámpara está encendida.');
  });

  it('the switch shows what the bridge read back, even when it is not what was asked', async () => {
    renderPanel([hue(false)], 'philipshue', () => jsonResponse(200, hue(false)));
    const lamp = await screen.findByTestId('day-light-l1');
    await userEvent.click(lamp);
    await waitFor(() => expect(screen.getByTestId('day-light-confirmed')).toHaveTextContent('Lámpara está apagada.'));
    expect(lamp).not.toBeChecked();
  });

  it('a failure says why and the switch stays where the light really is', async () => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    renderPanel([hue(false)], 'philipshue', () => jsonResponse(502, { error: 'provider_error', message: 'El puente Hue no responde.' }));
    const reading = await screen.findByTestId('day-light-l2');
    await userEvent.click(reading);
    expect(await screen.findByTestId('day-light-error')).toHaveTextContent('No hemos podido apagar Lectura. El puente Hue no responde.');
    expect(screen.getByRole('alert')).toBe(screen.getByTestId('day-light-error'));
    expect(reading).toBeChecked();
    expect(reading).toBeEnabled();
  });
});
