import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n/i18n';
import { renderWithProviders } from '@/test/render';
import { CookiesPolicyPage } from './cookies-policy-page';
import { TermsOfUsePage } from './terms-of-use-page';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('legal pages in another UI language', () => {
  it('in Spanish, there is no notice', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => new Promise(() => {})),
    );
    renderWithProviders(<CookiesPolicyPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Política de cookies' })).toBeInTheDocument();
    expect(screen.queryByTestId('legal-spanish-only')).not.toBeInTheDocument();
  });

  it.each([
    ['en', 'This page is only available in Spanish.'],
    ['ja', 'このページはスペイン語でのみご覧いただけます。'],
  ])('in %s, says in that language that the page is Spanish only, and keeps the Spanish text', async (language, notice) => {
    await i18n.changeLanguage(language);
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => new Promise(() => {})),
    );
    renderWithProviders(<TermsOfUsePage />);
    expect(await screen.findByTestId('legal-spanish-only')).toHaveTextContent(notice);
    expect(screen.getByTestId('legal-spanish-only')).toHaveAttribute('lang', language);
    expect(screen.getByRole('heading', { level: 1, name: 'Términos de uso' })).toBeInTheDocument();
    expect(screen.getByTestId('legal-page')).toHaveAttribute('lang', 'es');
  });
});
