import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { CookiesPolicyPage } from './cookies-policy-page';
import { LegalNoticePage } from './legal-notice-page';
import { PrivacyPolicyPage } from './privacy-policy-page';
import { TermsOfUsePage } from './terms-of-use-page';

const SITE = {
  company: {
    name: 'Life Apps S.L.',
    taxId: 'B12345678',
    address: 'Calle Mayor 1, 28013 Madrid',
    email: 'privacidad@life.example',
  },
  version: '0.1.0',
};

function stubSiteApi(response: () => Promise<Response>) {
  const fetchMock = vi.fn<typeof fetch>(response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('legal pages', () => {
  it.each([
    ['Política de privacidad', PrivacyPolicyPage],
    ['Términos de uso', TermsOfUsePage],
    ['Aviso legal', LegalNoticePage],
    ['Política de cookies', CookiesPolicyPage],
  ])('%s has its heading and the last-updated date', async (title, Page) => {
    stubSiteApi(() => new Promise(() => {}));
    renderWithProviders(<Page />);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByText('Última actualización: 11 de agosto de 2025')).toBeInTheDocument();
    expect(screen.getByTestId('legal-page')).toHaveClass('max-w-3xl', 'mx-auto');
  });

  it('privacy policy shows placeholders while the company details load', async () => {
    const fetchMock = stubSiteApi(() => new Promise(() => {}));
    renderWithProviders(<PrivacyPolicyPage />);
    expect(await screen.findAllByTestId('company-email-placeholder')).toHaveLength(1);
    expect(screen.getByTestId('company-name-placeholder')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/site', expect.anything());
  });

  it('privacy policy names the company, the rights e-mail and links to profile and contact', async () => {
    stubSiteApi(async () => Response.json(SITE));
    renderWithProviders(<PrivacyPolicyPage />);
    expect(await screen.findByText('Life Apps S.L.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'privacidad@life.example' })).toHaveAttribute('href', 'mailto:privacidad@life.example');
    expect(screen.getByText(/acceso, rectificación, supresión, limitación del tratamiento, oposición y portabilidad/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'perfil' })).toHaveAttribute('href', '/profile');
    expect(screen.getByRole('link', { name: 'página de contacto' })).toHaveAttribute('href', '/contact?subject=privacy');
  });

  it('privacy policy says what is stored, why and for how long, and links to the profile to download or erase it', async () => {
    stubSiteApi(async () => Response.json(SITE));
    renderWithProviders(<PrivacyPolicyPage />);
    expect(await screen.findByRole('heading', { level: 2, name: 'Qué datos guardamos y por qué' })).toHaveAttribute('id', 'que-guardamos');
    const stored = within(screen.getByTestId('privacy-stored')).getAllByRole('listitem');
    expect(stored).toHaveLength(7);
    expect(stored.map((item) => item.textContent).join(' ')).toMatch(/siempre cifrados.*No guardamos los datos de tu tarjeta.*la IP y el navegador/s);
    expect(screen.getByText(/durante seis años porque la ley nos obliga/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'descargar todos tus datos' })).toHaveAttribute('href', '/profile#tus-datos');
    expect(screen.getByRole('link', { name: 'eliminar tu cuenta' })).toHaveAttribute('href', '/profile#tus-datos');
  });

  it('legal notice cites the LSSI-CE and gives name, tax ID, address and e-mail', async () => {
    stubSiteApi(async () => Response.json(SITE));
    renderWithProviders(<LegalNoticePage />);
    const facts = await screen.findByTestId('company-facts');
    expect(await within(facts).findByText('B12345678')).toBeInTheDocument();
    expect(within(facts).getByText('Life Apps S.L.')).toBeInTheDocument();
    expect(within(facts).getByText('Calle Mayor 1, 28013 Madrid')).toBeInTheDocument();
    expect(within(facts).getByRole('link', { name: 'privacidad@life.example' })).toBeInTheDocument();
    expect(screen.getByText(/Ley 34\/2002, de 11 de julio, .*\(LSSI-CE\)/)).toBeInTheDocument();
    expect(screen.getByText(/se rigen por la legislación española/)).toBeInTheDocument();
  });

  it('keeps the page readable when the backend cannot be reached', async () => {
    stubSiteApi(async () => Response.json({ error: 'not_found', message: 'No existe' }, { status: 404 }));
    renderWithProviders(<TermsOfUsePage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Términos de uso' })).toBeInTheDocument();
    const placeholders = await screen.findAllByTestId('company-name-placeholder');
    expect(placeholders.length).toBeGreaterThan(0);
    expect(screen.getByText(/Podemos modificar estos términos/)).toBeInTheDocument();
  });
});
