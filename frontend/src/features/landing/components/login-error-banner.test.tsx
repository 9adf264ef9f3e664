import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { LandingPage } from './landing-page';

describe('login error banner on the landing page', () => {
  it.each([
    ['not_invited', 'Life está en beta privada y tu e-mail aún no tiene invitación.'],
    ['unverified_email', 'Tu cuenta no tiene un e-mail verificado, así que no podemos identificarte con ella.'],
    ['invalid_state', 'El enlace de inicio de sesión ya no es válido. Vuelve a intentarlo.'],
    ['provider_unavailable', 'Ese método de inicio de sesión no está disponible ahora mismo.'],
    ['unknown_provider', 'Ese método de inicio de sesión no está disponible ahora mismo.'],
    ['provider_error', 'No se pudo iniciar sesión. Vuelve a intentarlo.'],
    ['invalid_id_token', 'No se pudo iniciar sesión. Vuelve a intentarlo.'],
    ['toString', 'No se pudo iniciar sesión. Vuelve a intentarlo.'],
  ])('?login_error=%s shows "%s"', async (code, message) => {
    renderWithProviders(<LandingPage />, { initialPath: `/?login_error=${code}` });
    const banner = await screen.findByTestId('login-error');
    expect(banner).toHaveAttribute('role', 'alert');
    expect(banner).toHaveTextContent(message);
    expect(screen.getByRole('alert')).toBe(banner);
  });

  it('is not there without login_error', async () => {
    renderWithProviders(<LandingPage />);
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByTestId('login-error')).not.toBeInTheDocument();
  });

  it('the dismiss button removes the banner and the query parameter, keeping the others', async () => {
    const { router } = renderWithProviders(<LandingPage />, { initialPath: '/?login_error=not_invited&ref=mail' });
    await userEvent.click(await screen.findByRole('button', { name: 'Cerrar aviso' }));
    await waitFor(() => expect(screen.queryByTestId('login-error')).not.toBeInTheDocument());
    expect(router.state.location.search).toEqual({ ref: 'mail' });
  });
});
