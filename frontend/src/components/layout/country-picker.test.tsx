import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import i18n from '@/i18n/i18n';
import { renderWithProviders } from '@/test/render';
import { CountryPicker } from './country-picker';
import { loadTooltip } from '@/components/ui/lazy-tooltip';
import { preloadHeaderOverlays } from './header-overlays-loader';

// The dialogs are a lazily loaded module (issue 15): load it once up front, so the first test
// does not spend its wait on the module's first transform.
beforeAll(async () => {
  await preloadHeaderOverlays();
});

async function openPicker() {
  renderWithProviders(<CountryPicker />);
  await userEvent.click(await screen.findByRole('button', { name: 'Cambiar idioma' }));
  return screen.findByRole('dialog', { name: 'Elige tu país' });
}

function optionNames(dialog: HTMLElement) {
  return within(dialog)
    .queryAllByTestId(/^country-option-/)
    .map((option) => option.getAttribute('data-testid')?.replace('country-option-', ''));
}

describe('CountryPicker', () => {
  it('shows the current country (ES by default) on the button', async () => {
    renderWithProviders(<CountryPicker />);
    const button = await screen.findByRole('button', { name: 'Cambiar idioma' });
    expect(button).toHaveAttribute('data-country', 'ES');
    expect(button.querySelector('[data-flag]')).toHaveAttribute('data-flag', 'ES');
  });

  it('a first press opens the picker, and once the hints are loaded the flag names the current country on hover', async () => {
    const dialog = await openPicker();
    expect(dialog).toHaveAttribute('id', screen.getByRole('button', { name: 'Cambiar idioma', hidden: true }).getAttribute('aria-controls'));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const button = screen.getByRole('button', { name: 'Cambiar idioma' });
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await loadTooltip();
    await userEvent.unhover(button);
    await userEvent.tab();
    await userEvent.hover(await screen.findByRole('button', { name: 'Cambiar idioma' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('España');
  });

  it("after a choice the flag's hint stays hidden until the pointer or the focus leaves the flag", async () => {
    await loadTooltip();
    renderWithProviders(<CountryPicker />);
    const user = userEvent.setup();
    await user.hover(await screen.findByRole('button', { name: 'Cambiar idioma' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('España');
    await user.click(screen.getByRole('button', { name: 'Cambiar idioma' }));
    const dialog = await screen.findByRole('dialog', { name: 'Elige tu país' });
    await user.click(within(dialog).getByTestId('country-option-ES'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const button = screen.getByRole('button', { name: 'Cambiar idioma' });
    // Focus is back on the flag and the pointer is still over it: neither brings the hint back.
    expect(button).toHaveFocus();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();

    // Once the focus has left, coming back to the flag shows the hint again.
    await user.tab();
    expect(button).not.toHaveFocus();
    await user.tab();
    expect(button).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('España');
  });

  it('lists the ten countries and filters them as you type', async () => {
    const dialog = await openPicker();
    expect(optionNames(dialog)).toHaveLength(10);
    const search = within(dialog).getByPlaceholderText('Buscar un país');

    await userEvent.type(search, 'port');
    expect(optionNames(dialog)).toEqual(['BR']);
    expect(within(dialog).getByText('Brasil')).toBeInTheDocument();

    await userEvent.clear(search);
    await userEvent.type(search, 'inglés');
    expect(optionNames(dialog)).toEqual(['US', 'GB']);

    await userEvent.clear(search);
    await userEvent.type(search, 'zzz');
    expect(optionNames(dialog)).toEqual([]);
    expect(within(dialog).getByText('Ningún país coincide con tu búsqueda.')).toBeInTheDocument();
  });

  it('choosing a country stores its code, closes the picker and shows its flag', async () => {
    const dialog = await openPicker();
    await userEvent.type(within(dialog).getByPlaceholderText('Buscar un país'), 'japón');
    await userEvent.click(within(dialog).getByTestId('country-option-JP'));

    expect(localStorage.getItem('appLanguage')).toBe('JP');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The Japanese messages arrive and the whole UI switches, its button label included.
    const button = await screen.findByRole('button', { name: '言語を変更' });
    expect(i18n.language).toBe('ja');
    expect(button).toHaveAttribute('data-country', 'JP');
    expect(button.querySelector('[data-flag]')).toHaveAttribute('data-flag', 'JP');
  });

  it('names the countries in the UI language, and each language in its own too', async () => {
    await i18n.changeLanguage('de');
    renderWithProviders(<CountryPicker />);
    await userEvent.click(await screen.findByRole('button', { name: 'Sprache ändern' }));
    const dialog = await screen.findByRole('dialog', { name: 'Wähle dein Land' });
    const japan = within(dialog).getByTestId('country-option-JP');
    expect(japan).toHaveTextContent('Japan');
    expect(japan).toHaveTextContent('Japanisch · 日本語');
    expect(within(japan).getByText('日本語')).toHaveAttribute('lang', 'ja');
    await userEvent.type(within(dialog).getByPlaceholderText('Land suchen'), 'brasil');
    expect(optionNames(dialog)).toEqual(['BR']);
  });

  it('choosing the United Kingdom switches the interface to English', async () => {
    const dialog = await openPicker();
    await userEvent.click(within(dialog).getByTestId('country-option-GB'));
    expect(localStorage.getItem('appLanguage')).toBe('GB');
    expect(await screen.findByRole('button', { name: 'Change language' })).toHaveAttribute('data-country', 'GB');
  });
});
