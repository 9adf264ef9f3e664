import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RootLayout } from '@/app/root-layout';
import { emptyResponse, jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { ADMIN_USER, renderWithProviders, signIn } from '@/test/render';
import { BetaInvitesSection } from './beta-invites-section';

const INVITES = [
  { email: 'nuevo+beta@example.com', invited_by: 'ana@example.com', created_at: '2026-11-20T10:30:00.000Z' },
  { email: 'viejo@example.com', invited_by: null, created_at: '2026-11-01T08:00:00.000Z' },
  { email: 'vacio@example.com', invited_by: '', created_at: '2026-10-01T08:00:00.000Z' },
];

beforeEach(() => signIn(ADMIN_USER));
afterEach(() => {
  vi.unstubAllGlobals();
});

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

function renderSection(handlers: { list?: Handler; add?: Handler; remove?: Handler } = {}) {
  const api = stubFetch((request) => {
    if (request.method === 'POST') return handlers.add?.(request) ?? jsonResponse(201, { email: 'x', invited_by: null, created_at: '' });
    if (request.method === 'DELETE') return handlers.remove?.(request) ?? emptyResponse();
    return handlers.list?.(request) ?? jsonResponse(200, INVITES);
  });
  renderWithProviders(<BetaInvitesSection />);
  const lists = () => api.requests.filter((request) => request.method === 'GET' && request.url === '/beta-invites');
  return { ...api, lists };
}

function rows() {
  return within(screen.getByTestId('invites-table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
}

describe('BetaInvitesSection', () => {
  it('is plugged into the admin panel under "Invitaciones Beta"', async () => {
    stubFetch(() => jsonResponse(200, INVITES));
    renderWithProviders(<RootLayout />);
    await userEvent.click(await screen.findByRole('button', { name: 'Abrir panel de administración' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Invitaciones Beta' }));
    expect(await screen.findByRole('heading', { name: 'Gestión de Invitaciones Beta' })).toBeInTheDocument();
    expect(await screen.findByTestId('invites-table')).toBeInTheDocument();
  });

  it('lists Email, Invitado por (a dash when empty), Fecha (local date-time) and a delete button', async () => {
    renderSection();
    await screen.findByText('viejo@example.com');
    const headers = within(screen.getByTestId('invites-table'))
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Email', 'Invitado por', 'Fecha', 'Acciones']);
    expect(rows()).toEqual([
      ['nuevo+beta@example.com', 'ana@example.com', new Date(INVITES[0]!.created_at).toLocaleString('es'), ''],
      ['viejo@example.com', '-', new Date(INVITES[1]!.created_at).toLocaleString('es'), ''],
      ['vacio@example.com', '-', new Date(INVITES[2]!.created_at).toLocaleString('es'), ''],
    ]);
    expect(screen.getAllByRole('button', { name: 'Eliminar invitación' })).toHaveLength(3);
    expect(screen.getByLabelText('Email del invitado')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Email del invitado')).toHaveAttribute('data-testid', 'invite-email');
  });

  it('does nothing when Añadir is pressed with an empty field', async () => {
    const { requests } = renderSection();
    await screen.findByText('viejo@example.com');
    await userEvent.type(screen.getByTestId('invite-email'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Añadir' }));
    expect(requests.filter((request) => request.method !== 'GET')).toEqual([]);
    expect(screen.queryByTestId('invites-error')).not.toBeInTheDocument();
  });

  it('adds an invitation with POST {email}, clears the field and refreshes the list', async () => {
    const { requests, lists } = renderSection();
    await screen.findByText('viejo@example.com');
    await userEvent.type(screen.getByTestId('invite-email'), 'nueva@example.com');
    await userEvent.click(screen.getByTestId('invite-add'));
    await waitFor(() => expect(lists()).toHaveLength(2));
    expect(requests.find((request) => request.method === 'POST')).toMatchObject({ url: '/beta-invites', body: { email: 'nueva@example.com' } });
    expect(screen.getByTestId('invite-email')).toHaveValue('');
  });

  it('shows "Error al añadir invitación" with the server message when the add fails', async () => {
    renderSection({ add: () => jsonResponse(409, { error: 'already_invited', message: 'viejo@example.com is already invited.' }) });
    await screen.findByText('viejo@example.com');
    await userEvent.type(screen.getByTestId('invite-email'), 'viejo@example.com');
    await userEvent.click(screen.getByTestId('invite-add'));
    const error = await screen.findByTestId('invites-error');
    expect(error).toHaveAttribute('role', 'alert');
    expect(error).toHaveTextContent('Error al añadir invitación. Ese e-mail ya tiene invitación.');
    expect(screen.getByTestId('invite-email')).toHaveValue('viejo@example.com');
  });

  it('appends the field problem of a 400 answer', async () => {
    renderSection({
      add: () =>
        jsonResponse(400, {
          error: 'validation_failed',
          message: 'The request is not valid.',
          details: [{ path: 'email', message: 'Introduce un e-mail válido.' }],
        }),
    });
    await screen.findByText('viejo@example.com');
    await userEvent.type(screen.getByTestId('invite-email'), 'a@b');
    await userEvent.click(screen.getByTestId('invite-add'));
    expect(await screen.findByTestId('invites-error')).toHaveTextContent('Error al añadir invitación. Introduce un e-mail válido.');
  });

  it('deletes with DELETE /beta-invites/{url-encoded email} and refreshes the list', async () => {
    const { requests, lists } = renderSection();
    await screen.findByText('nuevo+beta@example.com');
    await userEvent.click(screen.getAllByRole('button', { name: 'Eliminar invitación' })[0]!);
    await waitFor(() => expect(lists()).toHaveLength(2));
    expect(requests.find((request) => request.method === 'DELETE')?.url).toBe('/beta-invites/nuevo%2Bbeta%40example.com');
  });

  it('shows "Error al eliminar invitación" when the delete fails', async () => {
    renderSection({ remove: () => jsonResponse(404, { error: 'invite_not_found', message: 'There is no invitation.' }) });
    await screen.findByText('viejo@example.com');
    await userEvent.click(screen.getAllByRole('button', { name: 'Eliminar invitación' })[1]!);
    expect(await screen.findByTestId('invites-error')).toHaveTextContent(/^Error al eliminar invitación$/);
  });

  it('shows "Error al obtener invitaciones" when the list cannot be loaded', async () => {
    renderSection({ list: () => jsonResponse(403, { error: 'forbidden', message: 'Solo administradores.' }) });
    expect(await screen.findByTestId('invites-error')).toHaveTextContent('Error al obtener invitaciones');
  });
});
