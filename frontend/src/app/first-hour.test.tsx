import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TooltipProvider } from '@/components/ui/tooltip';
import i18n from '@/i18n/i18n';
import { startLogin } from '@/lib/auth';
import { createQueryClient } from '@/lib/query-client';
import { REGULAR_USER, signIn } from '@/test/render';
import { createAppRouter } from './router';

/** Issue 20, points 7 and 10: what the app says on arrival, and each page's own <title>. */

// Login leaves the SPA (window.location.assign), which jsdom cannot do: record the call instead.
vi.mock('@/lib/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/auth')>()),
  startLogin: vi.fn(),
}));

function renderApp(path: string) {
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }));
  render(
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <RouterProvider router={router} />
      </TooltipProvider>
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  // Nothing answers the pages' calls in these tests.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise(() => {})),
  );
});
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  await i18n.changeLanguage('es');
});

describe('a signed-out visit to a signed-in page', () => {
  it('lands home saying why, offers to sign in, and the sign-in comes back to /dashboard', async () => {
    const router = renderApp('/dashboard');
    const notice = await screen.findByTestId('sign-in-required');
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.location.search).toEqual({ next: '/dashboard' });
    expect(notice).toHaveTextContent('Esa página necesita que inicies sesión. Cuando entres, te llevaremos de vuelta a ella.');

    await userEvent.click(within(notice).getByRole('button', { name: 'Iniciar sesión' }));
    const dialog = await screen.findByRole('dialog', { name: 'Elige cómo loguearte' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Google' }));
    expect(startLogin).toHaveBeenCalledWith('google', '/dashboard');
  });

  it('keeps the query of the page asked for', async () => {
    const router = renderApp('/profile?checkout=success');
    await screen.findByTestId('sign-in-required');
    expect(router.state.location.search).toEqual({ next: '/profile?checkout=success' });
  });

  it.each(['//evil.example/x', '/\\evil.example', 'https://evil.example/'])('ignores next=%s (not a path on this site)', async (next) => {
    renderApp(`/?next=${encodeURIComponent(next)}`);
    await screen.findByRole('heading', { level: 1, name: 'Conecta tu vida y aprovéchala cada día.' });
    expect(screen.queryByTestId('sign-in-required')).not.toBeInTheDocument();
  });

  it('a session that ends on a signed-in page (401) lands home the same way, coming back there after signing in', async () => {
    signIn(REGULAR_USER);
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: 'unauthorized', message: 'Tu sesión ha caducado.' }), {
            status: 401,
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    const router = renderApp('/profile');
    expect(await screen.findByTestId('sign-in-required')).toBeInTheDocument();
    expect(router.state.location.search).toEqual({ next: '/profile' });
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('says nothing of the kind to someone signed in meanwhile', async () => {
    signIn(REGULAR_USER);
    renderApp('/?next=%2Fdashboard');
    await screen.findByRole('heading', { level: 1, name: 'Conecta tu vida y aprovéchala cada día.' });
    expect(screen.queryByTestId('sign-in-required')).not.toBeInTheDocument();
  });

  it('the notice can be dismissed', async () => {
    const router = renderApp('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Cerrar aviso' }));
    await waitFor(() => expect(screen.queryByTestId('sign-in-required')).not.toBeInTheDocument());
    expect(router.state.location.search).toEqual({});
  });
});

describe('after erasing the account', () => {
  it('home says the person is signed out and the account is being erased', async () => {
    renderApp('/?notice=account_erased');
    expect(await screen.findByTestId('account-erased-notice')).toHaveTextContent(
      'Has cerrado sesión y tu cuenta se está eliminando. En unos minutos habremos borrado tus datos y retirado los accesos que diste.',
    );
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
  });
});

describe('each page has its own <title>', () => {
  it.each([
    ['/', 'Life · Conecta tu vida y aprovéchala cada día', false],
    ['/dashboard', 'Dashboard · Life', true],
    ['/profile', 'Perfil · Life', true],
    ['/today', 'Tu día · Life', true],
    ['/contact', 'Contacto · Life', false],
    ['/legal', 'Aviso legal · Life', false],
    ['/privacy-policy', 'Política de privacidad · Life', false],
    ['/terms-of-use', 'Términos de uso · Life', false],
    ['/cookies-policy', 'Política de cookies · Life', false],
    ['/oauth/authorize', 'Solicitud de acceso · Life', false],
    ['/login/github/callback?code=c&state=s', 'Iniciando sesión · Life', false],
    ['/callback/spotify?code=c&state=s', 'Conectando un servicio · Life', false],
    ['/no-existe', 'Página no encontrada · Life', false],
  ])('%s → "%s"', async (path, title, signedIn) => {
    if (signedIn) signIn(REGULAR_USER);
    renderApp(path);
    await waitFor(() => expect(document.title).toBe(title));
  });

  it('follows the language on screen and the page after a navigation', async () => {
    signIn(REGULAR_USER);
    const router = renderApp('/dashboard');
    await waitFor(() => expect(document.title).toBe('Dashboard · Life'));
    await router.navigate({ to: '/profile' });
    await waitFor(() => expect(document.title).toBe('Perfil · Life'));
    await i18n.changeLanguage('en');
    await waitFor(() => expect(document.title).toBe('Profile · Life'));
    await router.navigate({ to: '/' });
    await waitFor(() => expect(document.title).toBe('Life · Connect your life and make the most of every day'));
  });
});
