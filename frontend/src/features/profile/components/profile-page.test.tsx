import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Header } from '@/components/layout/header';
import { createQueryClient } from '@/lib/query-client';
import { deferred, jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { REGULAR_USER, renderWithProviders, signIn } from '@/test/render';
import { ProfilePage } from './profile-page';

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderProfile(onPatch: (request: RecordedRequest) => Response | Promise<Response>) {
  signIn(REGULAR_USER);
  const api = stubFetch((request) =>
    request.method === 'PATCH' ? onPatch(request) : request.url === '/api/users/me/apps' ? jsonResponse(200, []) : jsonResponse(200, REGULAR_USER),
  );
  renderWithProviders(
    <>
      <Header adminPanelOpen={false} onOpenAdminPanel={() => {}} />
      <ProfilePage />
    </>,
  );
  return api;
}

async function changeUsername(value: string) {
  const field = await screen.findByTestId('profile-username');
  await waitFor(() => expect(field).toHaveValue('bruno'));
  await userEvent.clear(field);
  await userEvent.type(field, value);
}

describe('ProfilePage', () => {
  it('shows Perfil, the editable Usuario and the read-only Email from GET /api/users/me', async () => {
    const { requests } = renderProfile(() => jsonResponse(200, REGULAR_USER));
    expect(await screen.findByRole('heading', { level: 1, name: 'Perfil' })).toBeInTheDocument();
    const username = await screen.findByLabelText('Usuario');
    expect(username).toHaveValue('bruno');
    expect(username).toHaveAttribute('data-testid', 'profile-username');
    expect(username).not.toHaveAttribute('readonly');
    const email = screen.getByLabelText('Email');
    expect(email).toHaveValue('bruno@example.com');
    expect(email).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Guardar cambios' })).toHaveAttribute('data-testid', 'profile-save');
    expect(requests.find((request) => request.url === '/api/users/me')).toMatchObject({ method: 'GET', headers: { Authorization: 'Bearer test-token' } });
  });

  it('shows the username rules beside the field before any failure, tied to it for screen readers', async () => {
    renderProfile(() => jsonResponse(200, REGULAR_USER));
    const username = await screen.findByLabelText('Usuario');
    const hint = screen.getByTestId('profile-username-hint');
    expect(hint).toHaveTextContent('Entre 3 y 32 caracteres: letras de un solo alfabeto, números, punto (.), guion (-) y guion bajo (_).');
    expect(username).toHaveAccessibleDescription('Entre 3 y 32 caracteres: letras de un solo alfabeto, números, punto (.), guion (-) y guion bajo (_).');
    expect(screen.queryByTestId('profile-error')).not.toBeInTheDocument();
  });

  it('shows the membership slot above the form and the form actions next to "Guardar cambios"', async () => {
    signIn(REGULAR_USER);
    stubFetch((request) => (request.url === '/api/users/me/apps' ? jsonResponse(200, []) : jsonResponse(200, REGULAR_USER)));
    // The /profile route plugs billing's membership panel and 'Pagar con Stripe' in (src/app/page-composition.test.tsx).
    renderWithProviders(<ProfilePage membership={<p data-testid="membership-slot" />} formActions={<button type="button" data-testid="form-action" />} />);
    const save = await screen.findByTestId('profile-save');
    expect(screen.getByTestId('form-action').parentElement).toContainElement(save);
    expect(screen.getByTestId('membership-slot').compareDocumentPosition(save) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('saves only {username}: "Guardando..." while saving, then the success banner and the new name in the header', async () => {
    const answer = deferred<Response>();
    const { requests } = renderProfile(() => answer.promise);
    await changeUsername('bruno_nuevo');
    await userEvent.click(screen.getByTestId('profile-save'));

    const save = screen.getByTestId('profile-save');
    expect(save).toHaveTextContent('Guardando...');
    expect(save).toBeDisabled();
    const patch = requests.find((request) => request.method === 'PATCH');
    expect(patch).toMatchObject({ url: '/api/users/me', body: { username: 'bruno_nuevo' } });
    expect(Object.keys(patch!.body as object)).toEqual(['username']);

    answer.resolve(jsonResponse(200, { ...REGULAR_USER, username: 'bruno_nuevo' }));
    expect(await screen.findByTestId('profile-success')).toHaveTextContent('Perfil actualizado correctamente');
    expect(screen.getByTestId('profile-save')).toHaveTextContent('Guardar cambios');
    expect(JSON.parse(localStorage.getItem('user')!)).toEqual({ ...REGULAR_USER, username: 'bruno_nuevo' });
    expect(within(screen.getByRole('banner')).getByTestId('header-username')).toHaveTextContent('bruno_nuevo');
    expect(screen.queryByTestId('profile-error')).not.toBeInTheDocument();
  });

  it('on 409 logs "Error al guardar cambios" and shows "No se pudo actualizar el perfil" with the server message', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    renderProfile(() => jsonResponse(409, { error: 'username_taken', message: 'Ese nombre de usuario ya está en uso.' }));
    await changeUsername('ana');
    await userEvent.click(screen.getByTestId('profile-save'));

    const error = await screen.findByTestId('profile-error');
    expect(error).toHaveAttribute('role', 'alert');
    expect(error).toHaveTextContent('No se pudo actualizar el perfil. Ese nombre de usuario ya está en uso.');
    // A handled answer: one debug line, nothing in the error console (decision 0022).
    expect(consoleError).not.toHaveBeenCalled();
    expect(debug).toHaveBeenCalledWith('Error al guardar cambios (409 username_taken)');
    expect(screen.queryByTestId('profile-success')).not.toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('user')!).username).toBe('bruno');
  });

  it('on 400 shows the field problem, not the generic summary', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderProfile(() =>
      jsonResponse(400, {
        error: 'validation_failed',
        message: 'The request is not valid.',
        details: [{ path: 'username', message: 'El usuario debe tener al menos 3 caracteres.' }],
      }),
    );
    await changeUsername('ab');
    await userEvent.click(screen.getByTestId('profile-save'));
    expect(await screen.findByTestId('profile-error')).toHaveTextContent('No se pudo actualizar el perfil. El usuario debe tener al menos 3 caracteres.');
  });

  it('a look-alike name mixing alphabets (Cyrillic "а" + "dmin"): the server’s reason is shown under the form', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const mixed =
      'El usuario no puede mezclar alfabetos (por ejemplo, letras latinas y cirílicas): usa uno solo. En japonés, chino y coreano se admite además el alfabeto latino.';
    const { requests } = renderProfile(() =>
      jsonResponse(400, { error: 'validation_failed', message: 'La solicitud no es válida.', details: [{ path: 'body.username', message: mixed }] }),
    );
    await changeUsername('\u0430dmin');
    await userEvent.click(screen.getByTestId('profile-save'));
    expect(await screen.findByTestId('profile-error')).toHaveTextContent(`No se pudo actualizar el perfil. ${mixed}`);
    expect(requests.find((request) => request.method === 'PATCH')?.body).toEqual({ username: '\u0430dmin' });
  });

  it('shows only "No se pudo actualizar el perfil" when the failure has no server message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderProfile(() => {
      throw new TypeError('Failed to fetch');
    });
    await changeUsername('bruno2');
    await userEvent.click(screen.getByTestId('profile-save'));
    expect(await screen.findByTestId('profile-error')).toHaveTextContent(/^No se pudo actualizar el perfil$/);
  });

  it('shows "No se pudo cargar el perfil" when the profile cannot be loaded', async () => {
    signIn(REGULAR_USER);
    stubFetch(() => jsonResponse(500, { error: 'internal', message: 'Boom' }));
    const queryClient = createQueryClient();
    queryClient.setDefaultOptions({ queries: { retry: false } });
    renderWithProviders(<ProfilePage />, { queryClient });
    expect(await screen.findByTestId('profile-error')).toHaveTextContent('No se pudo cargar el perfil');
    expect(screen.queryByTestId('profile-username')).not.toBeInTheDocument();
  });
});
