import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ADMIN_USER, REGULAR_USER, renderWithProviders, signIn } from '@/test/render';
import { RootLayout } from './root-layout';

async function openAdminPanel() {
  signIn(ADMIN_USER);
  renderWithProviders(<RootLayout />);
  await userEvent.click(await screen.findByRole('button', { name: 'Abrir panel de administración' }));
  return screen.findByTestId('admin-panel');
}

describe('RootLayout', () => {
  it('has a header and a footer with the copyright and the legal links', async () => {
    renderWithProviders(<RootLayout />);
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByText(`© ${new Date().getFullYear()} Life`)).toBeInTheDocument();
    const hrefs = Object.fromEntries(
      within(footer)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    );
    expect(hrefs).toEqual({
      'Política de privacidad': '/privacy-policy',
      'Términos de uso': '/terms-of-use',
      'Aviso legal': '/legal',
      'Política de cookies': '/cookies-policy',
      Contacto: '/contact',
    });
    expect(screen.getByRole('banner')).toBeInTheDocument();
  });

  it('the gear opens the admin panel on "Servicios Conectados" and hides the hamburger', async () => {
    const panel = await openAdminPanel();
    expect(screen.getByRole('dialog', { name: 'Panel Admin' })).toBe(panel);
    expect(within(panel).getByRole('heading', { name: 'Servicios Conectados' })).toBeInTheDocument();
    expect(within(panel).getByTestId('admin-nav-servicios')).toHaveAttribute('aria-current', 'page');
    // 240 px beside the section from the lg breakpoint up; a bar across the top on smaller screens.
    expect(within(panel).getByTestId('admin-menu')).toHaveClass('lg:w-[240px]', 'w-full');
    expect(screen.queryByRole('button', { name: 'Abrir menú' })).not.toBeInTheDocument();
  });

  it('lists the five sections in order and shows the chosen one', async () => {
    const panel = await openAdminPanel();
    const nav = within(panel).getByRole('navigation');
    expect(
      within(nav)
        .getAllByRole('button')
        .map((item) => item.textContent),
    ).toEqual(['Invitaciones Beta', 'Login Providers', 'Servicios Conectados', 'Aplicaciones Conectadas', 'Salud']);
    await userEvent.click(within(nav).getByRole('button', { name: 'Salud' }));
    expect(within(panel).getByRole('heading', { name: 'Salud del Sistema' })).toBeInTheDocument();
    expect(within(panel).queryByRole('heading', { name: 'Servicios Conectados' })).not.toBeInTheDocument();
  });

  it('the X closes the panel and brings the hamburger back', async () => {
    const panel = await openAdminPanel();
    await userEvent.click(within(panel).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByTestId('admin-panel')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Abrir menú' })).toBeInTheDocument();
  });

  it('Escape closes the panel and the gear gets the focus back', async () => {
    await openAdminPanel();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('admin-panel')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Abrir panel de administración' })).toHaveFocus());
  });

  it('regular users get the hamburger but no gear', async () => {
    signIn(REGULAR_USER);
    renderWithProviders(<RootLayout />);
    expect(await screen.findByRole('button', { name: 'Abrir menú' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Abrir panel de administración' })).not.toBeInTheDocument();
  });
});
