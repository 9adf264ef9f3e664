import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Editions } from '@life/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Header } from '@/components/layout/header';
import i18n from '@/i18n/i18n';
import { jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { REGULAR_USER, renderWithProviders, signIn } from '@/test/render';
import { checkoutNavigation } from '../api/start-checkout';
import { EditionsSection } from './editions-section';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Élite sold out, Prestige on sale, Legacy waiting its turn. */
const LIVE: Editions = {
  payments_enabled: true,
  sold_out: false,
  editions: [
    { id: 'elite', name: 'Élite', price_cents: 200, currency: 'eur', limit: 1000, seats_left: 0, on_sale: false },
    { id: 'prestige', name: 'Prestige', price_cents: 300, currency: 'eur', limit: 9000, seats_left: 8999, on_sale: true },
    { id: 'legacy', name: 'Legacy', price_cents: 400, currency: 'eur', limit: 20000, seats_left: 20000, on_sale: false },
  ],
};

function renderEditions(
  editions: Editions = LIVE,
  onCheckout: (request: RecordedRequest) => Response = () => jsonResponse(200, { url: 'https://stripe.test/c/cs_1', edition: 'prestige' }),
) {
  const api = stubFetch((request) => (request.url === '/api/billing/editions' ? jsonResponse(200, editions) : onCheckout(request)));
  renderWithProviders(
    <>
      <Header adminPanelOpen={false} onOpenAdminPanel={() => {}} />
      <EditionsSection />
    </>,
  );
  return api;
}

async function card(id: string) {
  await waitFor(() => expect(screen.getAllByTestId('edition-seats')).toHaveLength(3));
  return screen.getAllByTestId('edition-card').find((element) => element.dataset.edition === id)!;
}

const checkoutCalls = (requests: RecordedRequest[]) => requests.filter((request) => request.url === '/api/stripe/create-checkout-session');

describe('EditionsSection before the live editions answer', () => {
  it('shows the three exclusive editions, each 300 px wide', async () => {
    renderWithProviders(<EditionsSection />);
    expect(await screen.findByRole('heading', { name: 'Ediciones Exclusivas' })).toBeInTheDocument();
    const editions = screen.getAllByTestId('edition-card');
    expect(editions).toHaveLength(3);
    const texts = editions.map((card) => ({
      name: within(card).getByRole('heading').textContent,
      price: within(card).getByTestId('edition-price').textContent,
      limit: within(card).getByTestId('edition-limit').textContent,
    }));
    expect(texts).toEqual([
      // Prices come formatted for the locale: a no-break space keeps "2 €" together.
      { name: 'Élite', price: '2\u00a0€ / mes', limit: 'limitada a 1.000 miembros' },
      { name: 'Prestige', price: '3\u00a0€ / mes', limit: 'para los siguientes 9.000 miembros' },
      { name: 'Legacy', price: '4\u00a0€ / mes', limit: 'reservada para los últimos 20.000 miembros' },
    ]);
    expect(screen.getByText('Asegura tu acceso de por vida al precio más bajo jamás ofrecido.')).toBeInTheDocument();
    expect(screen.getByText('Aún estás a tiempo de fijar tu precio de por vida.')).toBeInTheDocument();
    expect(screen.getByText('La última oportunidad de tener un precio de por vida.')).toBeInTheDocument();
    // Each cart has its own accessible name, with its edition's (until the live data says otherwise, the server decides).
    expect(editions.map((card) => within(card).getByTestId('edition-buy').getAttribute('aria-label'))).toEqual([
      'Comprar Élite',
      'Comprar Prestige',
      'Comprar Legacy',
    ]);
    for (const card of editions) {
      expect(card).toHaveClass('w-[300px]');
      expect(within(card).getByTestId('edition-buy')).toBeEnabled();
    }
  });
});

describe('EditionsSection with live editions', () => {
  it('shows seats left (grouped for the locale), marks the card on sale and the sold-out one', async () => {
    const { requests } = renderEditions();
    const elite = await card('elite');
    const prestige = await card('prestige');
    const legacy = await card('legacy');

    expect(requests[0]).toMatchObject({ method: 'GET', url: '/api/billing/editions' });
    expect(within(elite).getByTestId('edition-seats')).toHaveTextContent('Plazas libres: 0');
    expect(within(prestige).getByTestId('edition-seats')).toHaveTextContent('Plazas libres: 8.999');
    expect(within(legacy).getByTestId('edition-seats')).toHaveTextContent('Plazas libres: 20.000');

    expect(prestige).toHaveAttribute('data-on-sale', 'true');
    expect(elite).toHaveAttribute('data-on-sale', 'false');
    expect(legacy).toHaveAttribute('data-on-sale', 'false');
    expect(within(elite).getByTestId('edition-sold-out')).toHaveTextContent('Agotado');
    expect(within(prestige).queryByTestId('edition-sold-out')).not.toBeInTheDocument();
    expect(within(legacy).queryByTestId('edition-sold-out')).not.toBeInTheDocument();

    // The static texts stay, and the width.
    expect(within(prestige).getByTestId('edition-price')).toHaveTextContent('3 € / mes');
    expect(within(prestige).getByTestId('edition-limit')).toHaveTextContent('para los siguientes 9.000 miembros');
    for (const element of screen.getAllByTestId('edition-card')) expect(element).toHaveClass('w-[300px]');
  });

  it('formats the seats for the active language', async () => {
    await i18n.changeLanguage('en');
    renderEditions();
    expect(within(await card('legacy')).getByTestId('edition-seats')).toHaveTextContent('Places left: 20,000');
  });

  it('signed out, the cart of the edition on sale opens the login dialog and starts no checkout', async () => {
    const { requests } = renderEditions();
    await userEvent.click(within(await card('prestige')).getByRole('button', { name: 'Comprar Prestige' }));
    expect(await screen.findByRole('dialog', { name: 'Elige cómo loguearte' })).toBeInTheDocument();
    expect(checkoutCalls(requests)).toHaveLength(0);
  });

  it('signed in, the cart of the edition on sale starts the checkout and goes to its url', async () => {
    signIn(REGULAR_USER);
    const assign = vi.spyOn(checkoutNavigation, 'assign').mockImplementation(() => {});
    const { requests } = renderEditions();
    const prestige = await card('prestige');
    await userEvent.click(within(prestige).getByRole('button', { name: 'Comprar Prestige' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://stripe.test/c/cs_1'));
    expect(checkoutCalls(requests)).toEqual([
      expect.objectContaining({ method: 'POST', body: undefined, headers: expect.objectContaining({ Authorization: 'Bearer test-token' }) }),
    ]);
    expect(within(prestige).getByTestId('edition-message')).toHaveTextContent('Abriendo el pago…');
    expect(within(prestige).getByTestId('edition-buy')).toBeDisabled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a card not on sale is disabled and says why before any click', async () => {
    signIn(REGULAR_USER);
    const { requests } = renderEditions();
    const legacy = await card('legacy');
    const cart = within(legacy).getByRole('button', { name: 'Comprar Legacy' });
    expect(cart).toBeDisabled();
    const why = within(legacy).getByTestId('edition-unavailable');
    expect(why).toHaveTextContent('Esta edición no está a la venta ahora: se vende primero Élite, luego Prestige y luego Legacy.');
    expect(why).toBeVisible();
    expect(cart).toHaveAccessibleDescription(why.textContent!);
    await userEvent.click(cart);
    expect(checkoutCalls(requests)).toHaveLength(0);
  });

  it('a sold-out card is disabled and says so, also when signed out', async () => {
    const { requests } = renderEditions();
    const elite = await card('elite');
    const cart = within(elite).getByRole('button', { name: 'Comprar Élite' });
    expect(cart).toBeDisabled();
    expect(within(elite).getByTestId('edition-unavailable')).toHaveTextContent('Agotado: ya no quedan plazas de esta edición.');
    await userEvent.click(cart);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(checkoutCalls(requests)).toHaveLength(0);
  });

  it('the edition on sale is the only cart enabled, with nothing said under it', async () => {
    renderEditions();
    const prestige = await card('prestige');
    expect(screen.getAllByTestId('edition-buy').map((button) => [button.getAttribute('aria-label'), (button as HTMLButtonElement).disabled])).toEqual([
      ['Comprar Élite', true],
      ['Comprar Prestige', false],
      ['Comprar Legacy', true],
    ]);
    expect(within(prestige).queryByTestId('edition-unavailable')).not.toBeInTheDocument();
  });

  it('names each cart in English too', async () => {
    await i18n.changeLanguage('en');
    renderEditions();
    await card('elite');
    expect(screen.getAllByTestId('edition-buy').map((button) => button.getAttribute('aria-label'))).toEqual(['Buy Élite', 'Buy Prestige', 'Buy Legacy']);
  });

  it('shows the checkout error on the card: 409 already a member', async () => {
    signIn(REGULAR_USER);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderEditions(LIVE, () => jsonResponse(409, { error: 'already_member', message: 'Ya tienes una edición de por vida.' }));
    const prestige = await card('prestige');
    await userEvent.click(within(prestige).getByRole('button', { name: 'Comprar Prestige' }));
    const message = await within(prestige).findByRole('alert');
    expect(message).toHaveTextContent('Ya tienes una edición de por vida.');
    expect(within(prestige).getByTestId('edition-buy')).toBeEnabled();
  });

  it('with payments off, every cart is disabled and says "Pagos no disponibles por ahora"', async () => {
    signIn(REGULAR_USER);
    renderEditions({ ...LIVE, payments_enabled: false });
    await card('elite');
    const buttons = screen.getAllByTestId('edition-buy');
    expect(buttons).toHaveLength(3);
    for (const button of buttons) {
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription('Pagos no disponibles por ahora');
    }
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual(['Comprar Élite', 'Comprar Prestige', 'Comprar Legacy']);
    expect(screen.getAllByTestId('edition-unavailable').map((note) => [note.dataset.reason, note.textContent])).toEqual(
      Array(3).fill(['paymentsOff', 'Pagos no disponibles por ahora']),
    );
  });

  it('when everything is sold out, every card says "Agotado"', async () => {
    renderEditions({ payments_enabled: true, sold_out: true, editions: LIVE.editions.map((edition) => ({ ...edition, seats_left: 0, on_sale: false })) });
    await card('elite');
    expect(screen.getAllByTestId('edition-sold-out')).toHaveLength(3);
  });
});
