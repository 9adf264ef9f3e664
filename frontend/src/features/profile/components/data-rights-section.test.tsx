import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DataExport } from '@life/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { REGULAR_USER, renderWithProviders, signIn } from '@/test/render';
import { DataRightsSection } from './data-rights-section';

const EXPORT_ID = '33333333-3333-4333-8333-333333333333';
const PENDING: DataExport = { id: EXPORT_ID, status: 'pending', created_at: '2026-11-20T10:00:00.000Z', finished_at: null, expires_at: null, size_bytes: null };
const READY: DataExport = { ...PENDING, status: 'ready', finished_at: '2026-11-20T10:00:02.000Z', expires_at: '2026-11-21T10:00:02.000Z', size_bytes: 1234 };
const FILE = '{"format":"life-data-export"}';

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

function renderSection(handlers: { status?: Handler; erase?: Handler; download?: Handler; start?: Handler } = {}) {
  signIn(REGULAR_USER);
  const api = stubFetch((request) => {
    if (request.url === '/api/users/me') return jsonResponse(200, REGULAR_USER);
    if (request.url === '/api/users/me/export') return (handlers.start ?? (() => jsonResponse(202, PENDING)))(request);
    if (request.url === `/api/users/me/export/${EXPORT_ID}`) return (handlers.status ?? (() => jsonResponse(200, READY)))(request);
    if (request.url === `/api/users/me/export/${EXPORT_ID}/download`)
      return (
        handlers.download ??
        (() =>
          new Response(FILE, {
            status: 200,
            headers: { 'Content-Type': 'application/json', 'Content-Disposition': 'attachment; filename="life-datos-2026-11-20.json"' },
          }))
      )(request);
    if (request.url === '/api/users/me/erase')
      return (handlers.erase ?? (() => jsonResponse(202, { status: 'accepted', requested_at: '2026-11-20T10:00:00.000Z' })))(request);
    return jsonResponse(404, { error: 'not_found', message: 'No.' });
  });
  const rendered = renderWithProviders(<DataRightsSection />);
  return { ...api, ...rendered };
}

let clicked: { href: string; download: string }[];

beforeEach(() => {
  clicked = [];
  // jsdom has no object URLs and cannot "download": record what would be saved.
  URL.createObjectURL = vi.fn(() => 'blob:life-export');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.href, download: this.download });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('DataRightsSection: Descargar mis datos', () => {
  it('starts the export, polls until the worker is done, then saves the file under the server’s name', async () => {
    let polls = 0;
    const { requests } = renderSection({ status: () => jsonResponse(200, ++polls < 2 ? { ...PENDING, status: 'running' } : READY) });
    expect(await screen.findByRole('heading', { level: 2, name: 'Tus datos' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Qué guardamos y por qué' })).toHaveAttribute('href', '/privacy-policy#que-guardamos');

    await userEvent.click(screen.getByRole('button', { name: 'Descargar mis datos' }));
    expect(requests.find((request) => request.method === 'POST')).toMatchObject({
      url: '/api/users/me/export',
      headers: { Authorization: 'Bearer test-token' },
    });
    expect(await screen.findByTestId('data-export-status')).toHaveTextContent('Preparando tu archivo…');
    expect(screen.getByTestId('data-export-start')).toBeDisabled();

    expect(await screen.findByTestId('data-export-ready', {}, { timeout: 5000 })).toHaveTextContent('Tu archivo está listo y se ha descargado.');
    await waitFor(() => expect(clicked).toEqual([{ href: 'blob:life-export', download: 'life-datos-2026-11-20.json' }]));
    const download = requests.find((request) => request.url.endsWith('/download'));
    expect(download).toMatchObject({ method: 'GET', headers: { Authorization: 'Bearer test-token' } });
    expect(polls).toBeGreaterThanOrEqual(2);

    // Saved once by itself; again only on request.
    await userEvent.click(screen.getByTestId('data-export-download'));
    await waitFor(() => expect(clicked).toHaveLength(2));
  });

  it('says so when the export cannot be started (e.g. 429) and lets the person try again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderSection({ start: () => jsonResponse(429, { error: 'too_many_requests', message: 'Demasiadas peticiones. Espera un poco.' }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Descargar mis datos' }));
    expect(await screen.findByTestId('data-export-error')).toHaveTextContent('No se pudieron descargar tus datos. Demasiadas peticiones. Espera un poco.');
    expect(screen.getByTestId('data-export-start')).toBeEnabled();
    expect(clicked).toEqual([]);
  });

  it('says so when the worker gave up', async () => {
    renderSection({ status: () => jsonResponse(200, { ...PENDING, status: 'failed' }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Descargar mis datos' }));
    expect(await screen.findByTestId('data-export-error')).toHaveTextContent('No pudimos preparar tu archivo.');
    expect(clicked).toEqual([]);
  });
});

describe('DataRightsSection: Eliminar mi cuenta', () => {
  async function openDialog() {
    await userEvent.click(await screen.findByRole('button', { name: 'Eliminar mi cuenta' }));
    return screen.findByTestId('erase-dialog');
  }

  it('only erases after the username (or ELIMINAR) is typed; then forgets the session and goes home', async () => {
    const { requests, router } = renderSection();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Eliminar mi cuenta' })).toBeEnabled());
    const dialog = await openDialog();
    expect(within(dialog).getByRole('heading', { name: '¿Eliminar tu cuenta para siempre?' })).toBeInTheDocument();
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(4);
    const input = within(dialog).getByLabelText('Para confirmar, escribe tu nombre de usuario (bruno) o ELIMINAR.');
    const confirm = within(dialog).getByRole('button', { name: 'Eliminar definitivamente' });
    expect(confirm).toBeDisabled();
    await userEvent.type(input, 'brun');
    expect(confirm).toBeDisabled();
    await userEvent.type(input, 'o');
    expect(confirm).toBeEnabled();

    await userEvent.click(confirm);
    await waitFor(() => expect(localStorage.getItem('authToken')).toBeNull());
    expect(requests.find((request) => request.url === '/api/users/me/erase')).toMatchObject({ method: 'POST', body: { confirm: 'bruno' } });
    expect(localStorage.getItem('user')).toBeNull();
    expect(router.state.location.pathname).toBe('/');
    // Home says what happened (src/app/first-hour.test.tsx shows the notice).
    expect(router.state.location.search).toEqual({ notice: 'account_erased' });
  });

  it('accepts ELIMINAR too; a refusal is shown in the dialog and the session stays', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderSection({ erase: () => jsonResponse(400, { error: 'confirmation_mismatch', message: 'La confirmación no coincide.' }) });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Eliminar mi cuenta' })).toBeEnabled());
    const dialog = await openDialog();
    await userEvent.type(within(dialog).getByTestId('erase-confirm-input'), 'ELIMINAR');
    await userEvent.click(within(dialog).getByTestId('erase-confirm'));
    expect(await within(dialog).findByTestId('erase-error')).toHaveTextContent('No se pudo eliminar tu cuenta. La confirmación no coincide.');
    expect(localStorage.getItem('authToken')).toBe('test-token');

    // Cancelar closes it and forgets what was typed.
    await userEvent.click(within(dialog).getByTestId('erase-cancel'));
    await waitFor(() => expect(screen.queryByTestId('erase-dialog')).not.toBeInTheDocument());
    const again = await openDialog();
    expect(within(again).getByTestId('erase-confirm-input')).toHaveValue('');
    expect(within(again).queryByTestId('erase-error')).not.toBeInTheDocument();
  });
});
