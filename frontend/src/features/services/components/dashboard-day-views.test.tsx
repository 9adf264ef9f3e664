import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DayView } from '@life/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serviceFixture } from '@/shared/services/test/fixtures';
import { dayItem, daySection, dayView } from '@/shared/your-day/test/fixtures';
import { jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { REGULAR_USER, renderWithProviders, signIn } from '@/test/render';
import { DashboardPage } from './dashboard-page';

/** Issue 19: the connected services' views on the dashboard's cards, and their detail panel. */

vi.mock('@/shared/services/utils/leave-page', () => ({ leavePageFor: vi.fn() }));

const SPOTIFY = serviceFixture({ service_name: 'spotify', service_type: 'música', description: 'Tu música.', connected: true });
const FITBIT = serviceFixture({ service_name: 'fitbit', service_type: 'salud', description: 'Tu actividad.', connected: true });
const HUE = serviceFixture({ service_name: 'philipshue', service_type: 'hogar', description: 'Tus luces.', connected: true });
const GITHUB = serviceFixture({ service_name: 'github', service_type: 'código', description: 'Tu código.', connected: false });

const SPOTIFY_VIEW = dayView({
  service: 'spotify',
  headline: dayItem({ live: true, title: 'Bohemian Rhapsody' }),
  sections: [daySection('now_playing', [dayItem({ live: true, title: 'Bohemian Rhapsody' })])],
});
const FITBIT_VIEW = dayView({ service: 'fitbit', headline: dayItem({ service: 'fitbit', kind: 'steps', title: 'Pasos', subtitle: null, value: 12345 }) });

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

function renderDashboard({
  services = [SPOTIFY, FITBIT, HUE, GITHUB],
  views = [SPOTIFY_VIEW, FITBIT_VIEW, dayView({ service: 'github', headline: dayItem({ title: 'Nunca' }) })],
  handler = () => jsonResponse(404, { error: 'not_found', message: 'No' }),
}: { services?: ReturnType<typeof serviceFixture>[]; views?: DayView[] | (() => Response); handler?: Handler } = {}) {
  const api = stubFetch((request) => {
    if (request.method === 'GET' && request.url === '/api/external-services/all') return jsonResponse(200, services);
    if (request.method === 'GET' && request.url.startsWith('/api/your-day/views?')) return typeof views === 'function' ? views() : jsonResponse(200, { views });
    return handler(request);
  });
  renderWithProviders(<DashboardPage />);
  return api;
}

function tile(name: string) {
  return screen.getAllByTestId('service-tile').find((element) => element.dataset.service === name)!;
}

beforeEach(() => signIn(REGULAR_USER));
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('dashboard: "Tu día" views', () => {
  it('a connected service with a view shows its headline and Ver detalles on its card', async () => {
    renderDashboard();
    const spotifyHeadline = await screen.findByTestId('day-headline-spotify');
    expect(spotifyHeadline).toHaveTextContent('Sonando ahora: Bohemian Rhapsody');
    expect(spotifyHeadline).toHaveAttribute('title', 'Sonando ahora: Bohemian Rhapsody');
    expect(within(tile('fitbit')).getByTestId('day-headline-fitbit')).toHaveTextContent('12.345 pasos hoy');
    const open = within(tile('spotify')).getByTestId('day-open-spotify');
    expect(open).toHaveAccessibleName('Ver detalles de Spotify');
    expect(open).toHaveTextContent('Ver detalles');
    // Hue is connected but has no view in the answer; GitHub has one but is not connected.
    expect(within(tile('philipshue')).queryByTestId('day-open-philipshue')).not.toBeInTheDocument();
    expect(within(tile('github')).queryByTestId('day-headline-github')).not.toBeInTheDocument();
    expect(screen.queryByTestId('day-open-github')).not.toBeInTheDocument();
  });

  it('Ver detalles opens the view’s panel; closing it gives the focus back', async () => {
    const user = userEvent.setup();
    renderDashboard();
    const open = await screen.findByTestId('day-open-spotify');
    await user.click(open);
    const panel = await screen.findByTestId('day-panel-spotify');
    expect(panel).toHaveAttribute('role', 'dialog');
    expect(panel).toHaveAccessibleName('Spotify');
    expect(within(panel).getByRole('heading', { level: 3, name: 'Sonando ahora' })).toBeInTheDocument();
    expect(within(panel).getByTestId('day-freshness')).toHaveTextContent('Actualizado hace 3 min');
    expect(within(panel).getByTestId('day-refresh')).toBeInTheDocument();
    expect(within(panel).getByTestId('day-view-switch')).toBeChecked();

    await user.click(within(panel).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByTestId('day-panel-spotify')).not.toBeInTheDocument());
    expect(open).toHaveFocus();
  });

  it('a pending view says its data is on its way, and the dashboard asks again until it is ready', async () => {
    let answers = 0;
    renderDashboard({
      views: () => {
        answers += 1;
        return jsonResponse(200, { views: [answers < 2 ? dayView({ service: 'spotify', state: 'pending', fetched_at: null }) : SPOTIFY_VIEW] });
      },
    });
    expect(await screen.findByTestId('day-headline-spotify')).toHaveTextContent('Trayendo tus datos…');
    await waitFor(() => expect(screen.getByTestId('day-headline-spotify')).toHaveTextContent('Sonando ahora: Bohemian Rhapsody'), { timeout: 4_500 });
    expect(answers).toBe(2);
  });

  it('a view switched off says so on the card', async () => {
    renderDashboard({ views: [dayView({ service: 'spotify', state: 'off', fetched_at: null })] });
    expect(await screen.findByTestId('day-headline-spotify')).toHaveTextContent('Vista desactivada');
  });

  it('a failed views request says so calmly; the cards and the rest of the dashboard still work', async () => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    let fail = true;
    renderDashboard({
      views: () => (fail ? jsonResponse(503, { error: 'unavailable', message: 'No disponible' }) : jsonResponse(200, { views: [SPOTIFY_VIEW] })),
    });
    const message = await screen.findByTestId('day-views-error');
    expect(message).toHaveTextContent('No hemos podido cargar lo que traen tus servicios.');
    expect(message).toHaveAttribute('role', 'status');
    expect(screen.getAllByTestId('service-tile')).toHaveLength(4);
    expect(within(tile('spotify')).getByTestId('service-disconnect')).toBeEnabled();
    expect(screen.queryByTestId('day-open-spotify')).not.toBeInTheDocument();

    fail = false;
    await userEvent.click(within(message).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByTestId('day-open-spotify')).toBeInTheDocument();
    expect(screen.queryByTestId('day-views-error')).not.toBeInTheDocument();
  });

  it('asks for no views when no service with a view is connected', async () => {
    const { requests } = renderDashboard({ services: [GITHUB] });
    await screen.findAllByTestId('service-tile');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests.some((request) => request.url.startsWith('/api/your-day/'))).toBe(false);
  });

  it('reads the views again after a disconnection, and the card no longer shows the view', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    let spotifyConnected = true;
    const api = stubFetch((request) => {
      if (request.method === 'GET' && request.url === '/api/external-services/all')
        return jsonResponse(200, [{ ...SPOTIFY, connected: spotifyConnected }, FITBIT]);
      if (request.method === 'GET' && request.url.startsWith('/api/your-day/views?'))
        return jsonResponse(200, { views: spotifyConnected ? [SPOTIFY_VIEW, FITBIT_VIEW] : [FITBIT_VIEW] });
      if (request.method === 'DELETE') {
        spotifyConnected = false;
        return jsonResponse(200, { service: 'spotify', revoked_at_provider: true, finish_at: null });
      }
      return jsonResponse(404, { error: 'not_found', message: 'No' });
    });
    renderWithProviders(<DashboardPage />);
    await screen.findByTestId('day-open-spotify');
    const reads = () => api.requests.filter((request) => request.url.startsWith('/api/your-day/views?')).length;
    expect(reads()).toBe(1);
    await userEvent.click(within(tile('spotify')).getByTestId('service-disconnect'));
    await waitFor(() => expect(reads()).toBe(2));
    expect(screen.queryByTestId('day-open-spotify')).not.toBeInTheDocument();
    expect(screen.getByTestId('day-open-fitbit')).toBeInTheDocument();
  });

  it('switching a Hue light from the panel updates the panel with the confirmed state', async () => {
    const user = userEvent.setup();
    const hueView = (on: boolean) =>
      dayView({
        service: 'philipshue',
        headline: null,
        sections: [daySection('lights', [dayItem({ id: '7', service: 'philipshue', kind: 'light', title: 'Lámpara', subtitle: 'Salón', on, value: 60 })])],
      });
    const { requests } = renderDashboard({ views: [hueView(false)], handler: () => jsonResponse(200, hueView(true)) });
    await user.click(await screen.findByTestId('day-open-philipshue'));
    const light = await screen.findByTestId('day-light-7');
    expect(light).not.toBeChecked();
    await user.click(light);
    await waitFor(() => expect(light).toBeChecked());
    expect(requests.find((request) => request.method === 'POST')).toMatchObject({ url: '/api/your-day/views/philipshue/lights/7', body: { on: true } });
  });
});
