import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TooltipProvider } from '@/components/ui/tooltip';
import { createQueryClient } from '@/lib/query-client';
import { REGULAR_USER, signIn } from '@/test/render';
import { createAppRouter } from './router';

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
  // Legal routes prefetch /api/site; nothing answers in these tests.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise(() => {})),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('routes', () => {
  it('sends signed-out visitors from /dashboard to /', async () => {
    const router = renderApp('/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Conecta tu vida y aprovéchala cada día.' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('lets signed-in users open /dashboard and /profile', async () => {
    signIn(REGULAR_USER);
    const router = renderApp('/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    await router.navigate({ to: '/profile' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Perfil' })).toBeInTheDocument();
  });

  it('lets signed-in users open /today ("Tu día")', async () => {
    signIn(REGULAR_USER);
    const router = renderApp('/today');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tu día' })).toBeInTheDocument();
    expect(screen.getByTestId('today-page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/today');
  });

  it('sends signed-out visitors from /today to /', async () => {
    const router = renderApp('/today');
    expect(await screen.findByRole('heading', { level: 1, name: 'Conecta tu vida y aprovéchala cada día.' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it.each([
    // With a code, so the page waits on the (never answering) backend instead of going home.
    ['/login/github/callback?code=c&state=s', 'Iniciando sesión, por favor espera...'],
    ['/callback/spotify?code=c&state=s', 'Procesando conexión con el servicio...'],
  ])('%s shows its waiting message', async (path, message) => {
    renderApp(path);
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('status')).toBeInTheDocument();
  });

  it('/oauth/authorize shows a spinner', async () => {
    renderApp('/oauth/authorize');
    expect(await screen.findByTestId('spinner')).toBeInTheDocument();
  });

  it('unknown paths show "Página no encontrada" with a link home', async () => {
    renderApp('/no-existe');
    expect(await screen.findByRole('heading', { name: 'Página no encontrada' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Volver al inicio' })).toHaveAttribute('href', '/');
  });

  it('legal routes render inside the layout', async () => {
    renderApp('/cookies-policy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Política de cookies' })).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });
});
