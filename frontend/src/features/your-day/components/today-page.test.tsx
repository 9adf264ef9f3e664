import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Today } from '@life/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n/i18n';
import { dayItem } from '@/shared/your-day/test/fixtures';
import { jsonResponse, stubFetch } from '@/test/fetch-mock';
import { renderWithProviders } from '@/test/render';
import { TodayPage } from './today-page';

/** Today at a local time of the browser's zone (the person's), as the API writes instants. */
const at = (hours: number, minutes = 0) => {
  const date = new Date();
  date.setHours(hours, minutes, 0, 0);
  return date.toISOString();
};
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function today(overrides: Partial<Today> = {}): Today {
  return { date: '2026-11-28', time_zone: 'Europe/Madrid', items: [], services: [], ...overrides };
}

function renderToday(answer: Today | (() => Response)) {
  const api = stubFetch((request) => {
    if (request.method === 'GET' && request.url.startsWith('/api/your-day/today?')) return typeof answer === 'function' ? answer() : jsonResponse(200, answer);
    return jsonResponse(404, { error: 'not_found', message: 'No' });
  });
  const rendered = renderWithProviders(<TodayPage />);
  return { ...api, ...rendered };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TodayPage', () => {
  it('merges every service’s items in one timeline: all-day first, then by time, in the person’s zone', async () => {
    const { requests } = renderToday(
      today({
        items: [
          dayItem({ id: 'm', service: 'googlecalendar', kind: 'event', title: 'Reunión de equipo', subtitle: 'Sala 2', at: at(10), end_at: at(11) }),
          dayItem({ id: 't', service: 'spotify', kind: 'track', title: 'Heroes', subtitle: 'David Bowie', at: at(8, 5) }),
          dayItem({ id: 'b', service: 'googlecalendar', kind: 'event', title: 'Cumpleaños de Ana', subtitle: null, date: '2026-11-28' }),
          dayItem({
            id: 'p',
            service: 'github',
            kind: 'push',
            title: 'Arregla el menú',
            subtitle: 'ana/life',
            at: at(9, 30),
            url: 'https://github.com/ana/life',
          }),
          dayItem({ id: 's', service: 'fitbit', kind: 'steps', title: 'Pasos', subtitle: null, date: '2026-11-28', value: 12345 }),
        ],
        services: [
          { service: 'googlecalendar', state: 'ready', fetched_at: minutesAgo(3), problem: null },
          { service: 'spotify', state: 'ready', fetched_at: minutesAgo(1), problem: null },
          { service: 'github', state: 'ready', fetched_at: minutesAgo(120), problem: null },
          { service: 'fitbit', state: 'ready', fetched_at: minutesAgo(5), problem: null },
        ],
      }),
    );
    const page = await screen.findByTestId('today-page');
    expect(within(page).getByRole('heading', { level: 1, name: 'Tu día' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'sábado, 28 de noviembre' })).toBeInTheDocument();

    const items = screen.getAllByTestId('today-item');
    expect(items.map((item) => item.querySelector('p')!.textContent)).toEqual([
      'Evento: Cumpleaños de Ana',
      'Pasos: Pasos',
      'Canción: Heroes',
      'Contribución: Arregla el menú (se abre en una pestaña nueva)',
      'Evento: Reunión de equipo',
    ]);
    expect(items.map((item) => item.dataset.kind)).toEqual(['event', 'steps', 'track', 'push', 'event']);
    expect(items.map((item) => within(item).getByTestId('today-item-service').textContent)).toEqual([
      'Google Calendar',
      'Fitbit',
      'Spotify',
      'GitHub',
      'Google Calendar',
    ]);
    expect(items[0]).toHaveTextContent('Todo el día');
    expect(items[1]).toHaveTextContent('12.345 pasos');
    expect(items[2]).toHaveTextContent('8:05');
    expect(items[4]).toHaveTextContent('10:00–11:00');
    expect(items[4]).toHaveTextContent('Sala 2');
    expect(within(items[3]!).getByRole('link')).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.queryByTestId('today-empty')).not.toBeInTheDocument();

    // How fresh each service's data is.
    const sources = screen.getAllByTestId('today-source');
    expect(sources.map((source) => source.textContent)).toEqual([
      'Google CalendarActualizado hace 3 min',
      'SpotifyActualizado hace 1 min',
      'GitHubActualizado hace 2 h',
      'FitbitActualizado hace 5 min',
    ]);
    expect(requests[0]!.url).toBe(`/api/your-day/today?tz=${encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone)}`);
  });

  it('follows the language on screen', async () => {
    await i18n.changeLanguage('en');
    renderToday(
      today({
        items: [dayItem({ id: 'm', service: 'googlecalendar', kind: 'event', title: 'Standup', at: at(15, 30), end_at: at(16) })],
        services: [{ service: 'googlecalendar', state: 'ready', fetched_at: minutesAgo(3), problem: null }],
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Your day' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Saturday, November 28' })).toBeInTheDocument();
    expect(screen.getByTestId('today-item')).toHaveTextContent(/3:30\sPM–4:00\sPM/);
    expect(screen.getByTestId('today-source')).toHaveTextContent('Updated 3 min. ago');
  });

  it('a span begun yesterday (last night’s sleep) says its day, so it does not read as tonight', async () => {
    const lastNight = new Date();
    lastNight.setDate(lastNight.getDate() - 1);
    lastNight.setHours(23, 34, 0, 0);
    renderToday(
      today({
        items: [dayItem({ id: 'z', service: 'fitbit', kind: 'sleep', title: 'Sueño', at: lastNight.toISOString(), end_at: at(6, 59), value: 445 })],
        services: [{ service: 'fitbit', state: 'ready', fetched_at: minutesAgo(3), problem: null }],
      }),
    );
    const item = await screen.findByTestId('today-item');
    const day = new Intl.DateTimeFormat('es-ES', { day: 'numeric', month: 'short' }).format(lastNight);
    expect(within(item).getByText(`${day}, 23:34–6:59`)).toBeInTheDocument();
  });

  it('says calmly which service could not be read, and still shows the rest', async () => {
    renderToday(
      today({
        items: [dayItem({ id: 't', service: 'spotify', title: 'Heroes', at: at(8) })],
        services: [
          { service: 'spotify', state: 'ready', fetched_at: minutesAgo(30), problem: 'provider_down' },
          { service: 'github', state: 'ready', fetched_at: minutesAgo(2), problem: null },
        ],
      }),
    );
    const note = await screen.findByTestId('day-problem');
    expect(note).toHaveTextContent('Spotify no responde ahora; te mostramos lo último que trajimos.');
    expect(note).toHaveAttribute('role', 'status');
    expect(screen.getAllByTestId('today-item')).toHaveLength(1);
  });

  it('with no service connected: an empty state that invites them to connect one on the dashboard', async () => {
    const { router } = renderToday(today());
    const empty = await screen.findByTestId('today-empty');
    expect(within(empty).getByRole('heading', { level: 2, name: 'Tu día aún está vacío' })).toBeInTheDocument();
    expect(empty).toHaveTextContent('Conecta un servicio (tu calendario, tu música, tu reloj) y aquí verás tu día en orden, en un solo sitio.');
    const link = within(empty).getByRole('link', { name: 'Conectar un servicio' });
    expect(link).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByTestId('today-item')).not.toBeInTheDocument();
    expect(screen.queryByTestId('today-sources')).not.toBeInTheDocument();
    await userEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('with services that bring nothing today: says so, with their freshness, and offers to connect more', async () => {
    renderToday(today({ services: [{ service: 'github', state: 'ready', fetched_at: minutesAgo(3), problem: null }] }));
    const empty = await screen.findByTestId('today-empty');
    expect(empty).toHaveTextContent('Nada para hoy todavía');
    expect(within(empty).getByRole('link', { name: 'Conectar más servicios' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByTestId('today-source')).toHaveTextContent('GitHubActualizado hace 3 min');
  });

  it('a failed request says so calmly and offers to try again', async () => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    let fail = true;
    renderToday(() => (fail ? jsonResponse(503, { error: 'unavailable', message: 'No disponible' }) : jsonResponse(200, today())));
    const error = await screen.findByTestId('today-error');
    expect(error).toHaveTextContent('No hemos podido cargar tu día. Puede ser un corte momentáneo: vuelve a intentarlo.');
    expect(error).toHaveAttribute('role', 'status');
    fail = false;
    await userEvent.click(within(error).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByTestId('today-empty')).toBeInTheDocument();
  });
});
