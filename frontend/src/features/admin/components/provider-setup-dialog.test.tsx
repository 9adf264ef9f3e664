import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConfigurationCheck, LoginProviderDto } from '@life/contracts';
import i18n from '@/i18n/i18n';
import { serviceFixture } from '@/shared/services/test/fixtures';
import { jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { ADMIN_USER, renderWithProviders, signIn } from '@/test/render';
import { LoginProvidersSection } from './login-providers-section';
import { ServicesAdminSection } from './services-admin-section';

const GOOGLE: LoginProviderDto = {
  id: '44444444-4444-4444-8444-444444444444',
  service_name: 'google',
  service_type: 'login',
  description: null,
  app_id: '1234.apps.googleusercontent.com',
  app_secret: '',
  base_url: 'https://accounts.google.com',
  auth_url: 'https://accounts.google.com/o/oauth2/v2/auth',
  token_url: 'https://oauth2.googleapis.com/token',
  redirect_url: null,
  scopes: 'openid email profile',
  user_url: null,
  callback_url: 'https://life.example/login/google/callback',
};

const WITH_PROBLEM: ConfigurationCheck = {
  ok: false,
  checks: [
    { id: 'client_id', ok: true, message: 'El client id está puesto.' },
    { id: 'client_secret', ok: false, message: 'Falta el secreto (app_secret): pégalo desde la consola del proveedor.' },
    { id: 'discovery', ok: true, message: 'El documento de descubrimiento responde.' },
  ],
};

const ALL_GOOD: ConfigurationCheck = {
  ok: true,
  checks: [
    { id: 'client_id', ok: true, message: 'The client id is set.' },
    { id: 'token_endpoint', ok: true, message: 'The token endpoint accepts the client id and secret.' },
  ],
};

beforeEach(() => signIn(ADMIN_USER));
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderProviders(onCheck: (request: RecordedRequest) => Response) {
  const api = stubFetch((request) => (request.method === 'GET' ? jsonResponse(200, [GOOGLE]) : onCheck(request)));
  renderWithProviders(<LoginProvidersSection />);
  return { ...api, checks: () => api.requests.filter((request) => request.method === 'POST') };
}

describe('ProviderSetupDialog (issue 16): the redirect URI to register and the configuration check', () => {
  it('a login provider: the redirect URI read-only with a copy button that says "Copiado", then the check’s results as a list', async () => {
    const user = userEvent.setup();
    const { checks } = renderProviders(() => jsonResponse(200, WITH_PROBLEM));
    await screen.findByText('google');
    await user.click(screen.getByRole('button', { name: 'Redirect URI y comprobación de google' }));

    const dialog = await screen.findByTestId('setup-dialog');
    expect(within(dialog).getByRole('heading', { name: 'Configurar google' })).toBeInTheDocument();
    const uri = within(dialog).getByLabelText('Redirect URI');
    expect(uri).toHaveValue('https://life.example/login/google/callback');
    expect(uri).toHaveAttribute('readonly');

    await user.click(within(dialog).getByRole('button', { name: 'Copiar Redirect URI' }));
    expect(await navigator.clipboard.readText()).toBe('https://life.example/login/google/callback');
    expect(within(dialog).getByRole('button', { name: 'Copiado' })).toBeInTheDocument();

    // Nothing is checked until asked.
    expect(checks()).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Comprobar configuración' }));
    const results = await within(dialog).findByTestId('setup-results');
    expect(checks()).toMatchObject([{ method: 'POST', url: `/api/login-providers/${GOOGLE.id}/check` }]);
    expect(results).toHaveAttribute('data-ok', 'false');
    expect(within(results).getByTestId('setup-summary')).toHaveTextContent('Comprobaciones con problemas: 1.');
    const items = within(results).getAllByRole('listitem');
    expect(items.map((item) => [item.dataset.check, item.dataset.ok])).toEqual([
      ['client_id', 'true'],
      ['client_secret', 'false'],
      ['discovery', 'true'],
    ]);
    // Each line names the check (and whether it passed, for screen readers) and says what to do.
    expect(items[1]).toHaveTextContent('Con problemas: Secreto');
    expect(items[1]).toHaveTextContent('Falta el secreto (app_secret): pégalo desde la consola del proveedor.');
    expect(items[2]).toHaveTextContent('Correcto: Descubrimiento OpenID');
  });

  it('a service: checked at /api/external-services/{id}/check; all good in English', async () => {
    const user = userEvent.setup();
    const notion = serviceFixture({ service_name: 'notion', service_type: 'notas', callback_url: 'https://life.example/callback/notion' });
    const api = stubFetch((request) => (request.method === 'GET' ? jsonResponse(200, [notion]) : jsonResponse(200, ALL_GOOD)));
    await i18n.changeLanguage('en');
    try {
      renderWithProviders(<ServicesAdminSection />);
      await screen.findAllByTestId('service-row');
      await user.click(screen.getByRole('button', { name: 'Redirect URI and check for Notion' }));
      const dialog = await screen.findByTestId('setup-dialog');
      expect(within(dialog).getByLabelText('Redirect URI')).toHaveValue('https://life.example/callback/notion');
      await user.click(within(dialog).getByRole('button', { name: 'Check configuration' }));
      expect(await within(dialog).findByTestId('setup-summary')).toHaveTextContent('All good: the saved configuration works.');
      expect(api.requests.filter((request) => request.method === 'POST')).toMatchObject([
        { url: `/api/external-services/${notion.id}/check`, headers: { 'Accept-Language': 'en' } },
      ]);
      expect(within(dialog).getAllByRole('listitem')[1]).toHaveTextContent('Token endpoint and credentials');
    } finally {
      await i18n.changeLanguage('es');
    }
  });

  it('a refused check (too many) says why, and the button works again', async () => {
    const user = userEvent.setup();
    let calls = 0;
    renderProviders(() => {
      calls += 1;
      return calls === 1
        ? jsonResponse(429, { error: 'rate_limited', message: 'Demasiadas solicitudes. Inténtalo de nuevo en 60 s.' })
        : jsonResponse(200, WITH_PROBLEM);
    });
    await screen.findByText('google');
    await user.click(screen.getByRole('button', { name: 'Redirect URI y comprobación de google' }));
    const dialog = await screen.findByTestId('setup-dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Comprobar configuración' }));
    expect(await within(dialog).findByTestId('setup-error')).toHaveTextContent(
      'No se pudo comprobar la configuración. Demasiadas solicitudes. Inténtalo de nuevo en 60 s.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Comprobar configuración' }));
    await within(dialog).findByTestId('setup-results');
    await waitFor(() => expect(within(dialog).queryByTestId('setup-error')).not.toBeInTheDocument());
  });
});
