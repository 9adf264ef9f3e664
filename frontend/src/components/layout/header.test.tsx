import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLogin } from '@/lib/auth';
import { ADMIN_USER, REGULAR_USER, renderWithProviders, signIn } from '@/test/render';
import { Header } from './header';
import { preloadHeaderOverlays } from './header-overlays-loader';

// The dialogs are a lazily loaded module (issue 15): load it once up front, so the first test
// does not spend its wait on the module's first transform.
beforeAll(async () => {
  await preloadHeaderOverlays();
});

// Login leaves the SPA (window.location.assign), which jsdom cannot do: record the call instead.
vi.mock('@/lib/auth', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/auth')>()),
  startLogin: vi.fn(),
}));

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderHeader(props: Partial<Parameters<typeof Header>[0]> = {}) {
  return renderWithProviders(<Header adminPanelOpen={false} onOpenAdminPanel={() => {}} {...props} />);
}

describe('Header', () => {
  it('signed out: shows Life, the language button and Login, but no hamburger, gear or Logout', async () => {
    renderHeader();
    expect(await screen.findByRole('link', { name: 'Life' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('button', { name: 'Cambiar idioma' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Abrir menú' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Abrir panel de administración' })).not.toBeInTheDocument();
  });

  it('signed in: shows the username, Logout and the hamburger instead of Login', async () => {
    signIn(REGULAR_USER);
    renderHeader();
    expect(await screen.findByText('bruno')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Abrir menú' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Login' })).not.toBeInTheDocument();
  });

  it('shows the gear only to admins', async () => {
    signIn(REGULAR_USER);
    const { unmount } = renderHeader();
    await screen.findByText('bruno');
    expect(screen.queryByRole('button', { name: 'Abrir panel de administración' })).not.toBeInTheDocument();
    unmount();

    signIn(ADMIN_USER);
    const onOpenAdminPanel = vi.fn();
    renderHeader({ onOpenAdminPanel });
    await userEvent.click(await screen.findByRole('button', { name: 'Abrir panel de administración' }));
    expect(onOpenAdminPanel).toHaveBeenCalledOnce();
  });

  it('hides the hamburger while the admin panel is open', async () => {
    signIn(ADMIN_USER);
    renderHeader({ adminPanelOpen: true });
    await screen.findByText('ana');
    expect(screen.queryByRole('button', { name: 'Abrir menú' })).not.toBeInTheDocument();
  });

  it('opens the side menu with Inicio, Escritorio, Tu día and Perfil', async () => {
    signIn(REGULAR_USER);
    renderHeader();
    await userEvent.click(await screen.findByRole('button', { name: 'Abrir menú' }));
    const menu = await screen.findByTestId('side-menu');
    expect(menu).toHaveClass('w-[220px]');
    const links = within(menu).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Inicio', '/'],
      ['Escritorio', '/dashboard'],
      ['Tu día', '/today'],
      ['Perfil', '/profile'],
    ]);
  });

  it('Login opens the provider dialog and each provider starts its login', async () => {
    renderHeader();
    await userEvent.click(await screen.findByRole('button', { name: 'Login' }));
    const dialog = await screen.findByRole('dialog', { name: 'Elige cómo loguearte' });
    for (const name of ['GitHub', 'Google', 'Microsoft', 'Apple']) {
      expect(within(dialog).getByRole('button', { name })).toBeInTheDocument();
    }
    expect(
      within(dialog)
        .getAllByTestId(/^login-provider-/)
        .map((button) => button.dataset.testid),
    ).toEqual(['login-provider-github', 'login-provider-google', 'login-provider-microsoft', 'login-provider-apple']);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Microsoft' }));
    expect(startLogin).toHaveBeenCalledWith('microsoft', undefined);
  });

  it('Logout calls the server, forgets the session and shows Login again', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    signIn(REGULAR_USER);
    renderHeader();

    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));

    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/logout', expect.objectContaining({ method: 'POST' }));
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    await waitFor(() => expect(screen.queryByText('bruno')).not.toBeInTheDocument());
  });
});
