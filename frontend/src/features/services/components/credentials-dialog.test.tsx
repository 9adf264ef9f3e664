import { useState } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { REGULAR_USER, renderWithProviders, signIn } from '@/test/render';
import { CredentialsDialog } from './credentials-dialog';

type Handler = (request: RecordedRequest) => Response | Promise<Response>;

/** A page with a button that opens the dialog for `service`, like the dashboard's edit button. */
function Host({ service, onSaved }: { service: { service_name: string } | null; onSaved: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        abrir
      </button>
      <CredentialsDialog open={open} onOpenChange={setOpen} service={service} onSaved={onSaved} />
    </>
  );
}

function renderDialog(handler: Handler, service: { service_name: string } | null = { service_name: 'spotify' }) {
  const api = stubFetch(handler);
  const onSaved = vi.fn();
  renderWithProviders(<Host service={service} onSaved={onSaved} />);
  return { ...api, onSaved };
}

async function open() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'abrir' }));
  return { user, dialog: await screen.findByTestId('credentials-dialog') };
}

beforeEach(() => signIn(REGULAR_USER));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('CredentialsDialog', () => {
  it('shows the title, Client ID (text), Client Secret (password), Cancelar and Guardar, and loads the stored pair with the fields disabled', async () => {
    const stored = deferred<Response>();
    const { requests } = renderDialog(() => stored.promise);
    const { dialog } = await open();

    expect(within(dialog).getByRole('heading', { name: 'Editar credenciales - Spotify' })).toBeInTheDocument();
    const clientId = within(dialog).getByLabelText('Client ID');
    const clientSecret = within(dialog).getByLabelText('Client Secret');
    expect(clientId).toHaveAttribute('type', 'text');
    expect(clientSecret).toHaveAttribute('type', 'password');
    expect(within(dialog).getByRole('button', { name: 'Cancelar' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Guardar' })).toBeInTheDocument();

    // Loading: fields disabled.
    expect(clientId).toBeDisabled();
    expect(clientSecret).toBeDisabled();
    expect(requests[0]).toMatchObject({ method: 'GET', url: '/api/external-services-user/spotify', headers: { Authorization: 'Bearer test-token' } });

    stored.resolve(jsonResponse(200, { service_name: 'spotify', client_id: 'my-client', client_secret: '********' }));
    await waitFor(() => expect(screen.getByTestId('credentials-client-id')).toBeEnabled());
    expect(screen.getByTestId('credentials-client-id')).toHaveValue('my-client');
    expect(screen.getByTestId('credentials-client-secret')).toHaveValue('********');
  });

  it('a 404 means no stored credentials: empty fields', async () => {
    renderDialog(() => jsonResponse(404, { error: 'no_credentials', message: 'No has guardado credenciales para este servicio.' }));
    await open();
    await waitFor(() => expect(screen.getByTestId('credentials-client-id')).toBeEnabled());
    expect(screen.getByTestId('credentials-client-id')).toHaveValue('');
    expect(screen.getByTestId('credentials-client-secret')).toHaveValue('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a network failure just stops loading, with no message', async () => {
    renderDialog(() => {
      throw new TypeError('Failed to fetch');
    });
    await open();
    await waitFor(() => expect(screen.getByTestId('credentials-client-id')).toBeEnabled());
    expect(screen.getByTestId('credentials-client-id')).toHaveValue('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('Guardar sends service_name, client_id and client_secret, then calls the saved callback and closes', async () => {
    const saved = deferred<Response>();
    const { requests, onSaved } = renderDialog((request) =>
      request.method === 'POST' ? saved.promise : jsonResponse(404, { error: 'no_credentials', message: 'No' }),
    );
    const { user } = await open();
    await waitFor(() => expect(screen.getByTestId('credentials-client-id')).toBeEnabled());
    await user.type(screen.getByTestId('credentials-client-id'), 'abc');
    await user.type(screen.getByTestId('credentials-client-secret'), 's3cret');
    await user.click(screen.getByTestId('credentials-save'));

    // Saving: loading again.
    await waitFor(() => expect(screen.getByTestId('credentials-client-id')).toBeDisabled());
    const post = requests.find((request) => request.method === 'POST')!;
    expect(post).toMatchObject({ url: '/api/external-services-user', body: { service_name: 'spotify', client_id: 'abc', client_secret: 's3cret' } });
    expect(onSaved).not.toHaveBeenCalled();

    saved.resolve(jsonResponse(200, { service_name: 'spotify', client_id: 'abc', client_secret: '********' }));
    await waitFor(() => expect(screen.queryByTestId('credentials-dialog')).not.toBeInTheDocument());
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it('does not block empty values and does not check the answer of the save', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { requests, onSaved } = renderDialog((request) =>
      request.method === 'POST'
        ? jsonResponse(500, { error: 'internal_error', message: 'Boom' })
        : jsonResponse(404, { error: 'no_credentials', message: 'No' }),
    );
    const { user } = await open();
    await waitFor(() => expect(screen.getByTestId('credentials-client-id')).toBeEnabled());
    await user.click(screen.getByTestId('credentials-save'));
    await waitFor(() => expect(screen.queryByTestId('credentials-dialog')).not.toBeInTheDocument());
    expect(requests.find((request) => request.method === 'POST')!.body).toEqual({ service_name: 'spotify', client_id: '', client_secret: '' });
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it('clears the fields when closed, and reads the stored pair again when reopened', async () => {
    const { requests } = renderDialog(() => jsonResponse(404, { error: 'no_credentials', message: 'No' }));
    const { user } = await open();
    await waitFor(() => expect(screen.getByTestId('credentials-client-id')).toBeEnabled());
    await user.type(screen.getByTestId('credentials-client-id'), 'typed');
    await user.click(screen.getByTestId('credentials-cancel'));
    await waitFor(() => expect(screen.queryByTestId('credentials-dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'abrir' }));
    await waitFor(() => expect(screen.getByTestId('credentials-client-id')).toBeEnabled());
    expect(screen.getByTestId('credentials-client-id')).toHaveValue('');
    expect(requests.filter((request) => request.method === 'GET')).toHaveLength(2);
  });

  it('without a service loads nothing and keeps the fields empty', async () => {
    const { requests } = renderDialog(() => jsonResponse(200, {}), null);
    await open();
    expect(screen.getByTestId('credentials-client-id')).toHaveValue('');
    expect(screen.getByTestId('credentials-client-secret')).toHaveValue('');
    expect(requests).toHaveLength(0);
  });
});
