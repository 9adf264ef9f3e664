import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Editions, LateRefund, Membership } from '@life/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n/i18n';
import { jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { REGULAR_USER, renderWithProviders, signIn } from '@/test/render';
import { checkoutNavigation } from '../api/start-checkout';
import { MembershipSection } from './membership-section';
import { PayWithStripe } from './pay-with-stripe';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const ELITE: Membership = {
  edition: 'elite',
  edition_name: 'Élite',
  price_cents: 200,
  currency: 'eur',
  member_number: 1,
  status: 'active',
  since: '2026-11-22T18:00:00.000Z',
};

/** What GET /api/billing/editions says: payments on, Élite on sale. */
const EDITIONS_ON: Editions = {
  payments_enabled: true,
  sold_out: false,
  editions: [
    { id: 'elite', name: 'Élite', price_cents: 200, currency: 'eur', limit: 1000, seats_left: 1000, on_sale: true },
    { id: 'prestige', name: 'Prestige', price_cents: 300, currency: 'eur', limit: 9000, seats_left: 9000, on_sale: false },
    { id: 'legacy', name: 'Legacy', price_cents: 400, currency: 'eur', limit: 20000, seats_left: 20000, on_sale: false },
  ],
};

interface Answers {
  membership?: () => Membership | null;
  lateRefund?: () => LateRefund | null;
  editions?: () => Editions;
  checkout?: (request: RecordedRequest) => Response;
}

/**
 * The profile's billing pieces as the /profile route plugs them in: the membership panel and 'Pagar con Stripe'
 * (their place in the profile page: src/app/page-composition.test.tsx).
 */
function renderProfile(
  {
    membership = () => null,
    lateRefund = () => null,
    editions = () => EDITIONS_ON,
    checkout = () => jsonResponse(200, { url: 'https://stripe.test/c/cs_9', edition: 'elite' }),
  }: Answers = {},
  { checkoutReturned = false } = {},
) {
  signIn(REGULAR_USER);
  const api = stubFetch((request) => {
    if (request.url === '/api/billing/membership') return jsonResponse(200, { membership: membership(), late_refund: lateRefund() });
    if (request.url === '/api/billing/editions') return jsonResponse(200, editions());
    if (request.url === '/api/stripe/create-checkout-session') return checkout(request);
    return jsonResponse(200, REGULAR_USER);
  });
  renderWithProviders(
    <>
      <MembershipSection checkoutReturned={checkoutReturned} />
      <PayWithStripe />
    </>,
  );
  return api;
}

const membershipCalls = (requests: RecordedRequest[]) => requests.filter((request) => request.url === '/api/billing/membership');

describe('Profile: Pagar con Stripe', () => {
  it('starts the shared checkout', async () => {
    const assign = vi.spyOn(checkoutNavigation, 'assign').mockImplementation(() => {});
    const { requests } = renderProfile();
    const pay = await screen.findByTestId('pay-with-stripe');
    expect(pay).toHaveAccessibleName('Pagar con Stripe');

    await userEvent.click(pay);

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://stripe.test/c/cs_9'));
    expect(requests.filter((request) => request.url === '/api/stripe/create-checkout-session')).toEqual([
      expect.objectContaining({ method: 'POST', body: undefined, headers: expect.objectContaining({ Authorization: 'Bearer test-token' }) }),
    ]);
    expect(screen.getByTestId('pay-with-stripe')).toHaveTextContent('Abriendo el pago…');
  });

  it.each([
    [409, 'already_member', 'Ya tienes una edición de por vida.', 'Ya tienes una edición de por vida.'],
    [503, 'payments_not_configured', 'Los pagos no están configurados en este servidor.', 'Los pagos no están configurados.'],
    [
      502,
      'payment_provider_error',
      'El proveedor de pagos no respondió. No se ha cobrado nada; inténtalo de nuevo.',
      'El proveedor de pagos no respondió. No se ha cobrado nada; inténtalo de nuevo.',
    ],
  ])('on %i %s shows "%s"', async (status, error, message, shown) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderProfile({ checkout: () => jsonResponse(status, { error, message }) });
    await userEvent.click(await screen.findByTestId('pay-with-stripe'));
    expect(await screen.findByTestId('checkout-error')).toHaveTextContent(shown);
    expect(screen.getByTestId('pay-with-stripe')).toBeEnabled();
  });

  it('with payments off (as the API says), is disabled and says why before any click, like the landing’s carts', async () => {
    const { requests } = renderProfile({ editions: () => ({ ...EDITIONS_ON, payments_enabled: false }) });
    const why = await screen.findByTestId('pay-with-stripe-unavailable');
    expect(why).toHaveTextContent('Pagos no disponibles por ahora');
    const pay = screen.getByTestId('pay-with-stripe');
    expect(pay).toBeDisabled();
    expect(pay).toHaveAccessibleName('Pagar con Stripe');
    expect(pay).toHaveAccessibleDescription('Pagos no disponibles por ahora');
    await userEvent.click(pay);
    expect(requests.filter((request) => request.url === '/api/stripe/create-checkout-session')).toHaveLength(0);
  });

  it('with every edition sold out, is disabled and says so', async () => {
    renderProfile({
      editions: () => ({ ...EDITIONS_ON, sold_out: true, editions: EDITIONS_ON.editions.map((edition) => ({ ...edition, seats_left: 0, on_sale: false })) }),
    });
    expect(await screen.findByTestId('pay-with-stripe-unavailable')).toHaveTextContent('Todas las ediciones están agotadas.');
    expect(screen.getByTestId('pay-with-stripe')).toBeDisabled();
  });

  it('with payments on, is enabled and says nothing more', async () => {
    const { requests } = renderProfile();
    await waitFor(() => expect(requests.some((request) => request.url === '/api/billing/editions')).toBe(true));
    expect(await screen.findByTestId('pay-with-stripe')).toBeEnabled();
    expect(screen.queryByTestId('pay-with-stripe-unavailable')).not.toBeInTheDocument();
  });

  it('is not offered to a member', async () => {
    renderProfile({ membership: () => ELITE });
    expect(await screen.findByTestId('membership')).toBeInTheDocument();
    expect(screen.queryByTestId('pay-with-stripe')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pagar con Stripe' })).not.toBeInTheDocument();
  });
});

describe('Profile: membership panel', () => {
  it('shows the edition, the price per month, the member number, the status and the date', async () => {
    renderProfile({ membership: () => ELITE });
    const panel = await screen.findByTestId('membership');
    expect(within(panel).getByTestId('membership-edition')).toHaveTextContent('Élite');
    expect(within(panel).getByTestId('membership-price')).toHaveTextContent('2,00 € / mes');
    expect(within(panel).getByTestId('membership-number')).toHaveTextContent('Miembro nº 1');
    expect(within(panel).getByTestId('membership-status')).toHaveTextContent('Activa');
    expect(within(panel).getByTestId('membership-since')).toHaveTextContent('Miembro desde el 22 de noviembre de 2026');
  });

  it.each([
    ['past_due', 'Pago pendiente'],
    ['cancelled', 'Cancelada'],
  ] as const)('status %s reads "%s"', async (status, text) => {
    renderProfile({ membership: () => ({ ...ELITE, status }) });
    expect(await screen.findByTestId('membership-status')).toHaveTextContent(text);
  });

  it.each([
    ['pending_payment', 'Pago en curso', 'Tu pago (por ejemplo, un adeudo SEPA) aún se está procesando'],
    ['refunded', 'Reembolsada', 'Se te ha devuelto el pago de esta edición: ya no está activa y su plaza ha vuelto a la venta.'],
    ['disputed', 'En disputa', 'Se ha abierto una disputa (contracargo) sobre tu pago'],
  ] as const)('status %s reads "%s" and says what it means', async (status, badge, sentence) => {
    renderProfile({ membership: () => ({ ...ELITE, status }) });
    expect(await screen.findByTestId('membership-status')).toHaveTextContent(badge);
    expect(screen.getByTestId('membership-status-explanation')).toHaveTextContent(sentence);
  });

  it('explains the new states in English too', async () => {
    await i18n.changeLanguage('en');
    renderProfile({ membership: () => ({ ...ELITE, status: 'disputed' }) });
    expect(await screen.findByTestId('membership-status-explanation')).toHaveTextContent(
      'A dispute (chargeback) was opened on your payment: the edition is on hold until the bank settles it.',
    );
    await i18n.changeLanguage('es');
  });

  it('has no explanation for an active membership', async () => {
    renderProfile({ membership: () => ELITE });
    await screen.findByTestId('membership');
    expect(screen.queryByTestId('membership-status-explanation')).not.toBeInTheDocument();
  });

  it('formats the price for the active language', async () => {
    await i18n.changeLanguage('en');
    renderProfile({ membership: () => ({ ...ELITE, edition: 'legacy', edition_name: 'Legacy', price_cents: 400, member_number: 1234 }) });
    const panel = await screen.findByTestId('membership');
    expect(within(panel).getByTestId('membership-price')).toHaveTextContent('€4.00 / month');
    expect(within(panel).getByTestId('membership-number')).toHaveTextContent('Member no. 1234');
  });

  it('is not shown without a membership', async () => {
    renderProfile();
    await screen.findByTestId('pay-with-stripe');
    expect(screen.queryByTestId('membership')).not.toBeInTheDocument();
    expect(screen.queryByTestId('checkout-success')).not.toBeInTheDocument();
  });
});

describe('Profile: a payment that arrived after the last seat went', () => {
  const LATE: LateRefund = { status: 'refunded', reason: 'sold_out', edition: 'elite', amount_cents: 200, refunded_at: '2026-11-23T10:00:00.000Z' };

  it('says the payment was returned, how much and when, instead of a membership', async () => {
    renderProfile({ lateRefund: () => LATE });
    const notice = await screen.findByTestId('late-refund');
    expect(notice).toHaveAttribute('data-status', 'refunded');
    expect(notice).toHaveTextContent('Pago devuelto: no quedaba plaza');
    expect(within(notice).getByTestId('late-refund-message')).toHaveTextContent(
      'Tu pago de Élite llegó cuando ya no quedaban plazas, así que te hemos devuelto 2,00 € el 23 de noviembre de 2026. No se te cobrará nada más.',
    );
    expect(screen.queryByTestId('membership')).not.toBeInTheDocument();
  });

  it("a member's repeated payment: the panel stays and the returned payment is said under it", async () => {
    renderProfile({ membership: () => ELITE, lateRefund: () => ({ ...LATE, reason: 'already_member' }) });
    await screen.findByTestId('membership');
    const notice = await screen.findByTestId('late-refund');
    expect(notice).toHaveTextContent('Pago repetido devuelto');
    expect(within(notice).getByTestId('late-refund-message')).toHaveTextContent(
      'Ya eras miembro cuando llegó otro pago tuyo de Élite, así que te hemos devuelto 2,00 € el 23 de noviembre de 2026.',
    );
  });

  it('a member whose earlier, too-late checkout was refunded sees only the membership', async () => {
    renderProfile({ membership: () => ELITE, lateRefund: () => LATE });
    await screen.findByTestId('membership');
    expect(screen.queryByTestId('late-refund')).not.toBeInTheDocument();
  });

  it('says a refund is on its way, and in English', async () => {
    await i18n.changeLanguage('en');
    renderProfile({ lateRefund: () => ({ ...LATE, status: 'pending', refunded_at: null }) });
    expect(await screen.findByTestId('late-refund-message')).toHaveTextContent(
      'Your payment for Élite arrived after the last seat was taken: we are refunding €2.00 automatically.',
    );
    await i18n.changeLanguage('es');
  });

  it('back from Stripe, stops asking once the answer says the checkout came too late', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let late: LateRefund | null = null;
    const { requests } = renderProfile({ lateRefund: () => late }, { checkoutReturned: true });
    await screen.findByTestId('checkout-success');
    late = { ...LATE, status: 'pending', refunded_at: null };
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(await screen.findByTestId('late-refund')).toHaveAttribute('data-status', 'pending');
    expect(screen.queryByTestId('checkout-success')).not.toBeInTheDocument();
    const calls = membershipCalls(requests).length;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(membershipCalls(requests)).toHaveLength(calls);
  });
});

describe('Profile: back from Stripe (?checkout=success)', () => {
  it('says the payment arrived and asks every 2 s until the membership appears', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: Membership | null = null;
    const { requests } = renderProfile({ membership: () => answer }, { checkoutReturned: true });

    expect(await screen.findByTestId('checkout-success')).toHaveTextContent('Pago recibido: tu edición aparecerá en cuanto Stripe lo confirme.');
    await waitFor(() => expect(membershipCalls(requests)).toHaveLength(1));

    await act(() => vi.advanceTimersByTimeAsync(2_000));
    await waitFor(() => expect(membershipCalls(requests)).toHaveLength(2));
    expect(screen.queryByTestId('membership')).not.toBeInTheDocument();

    answer = ELITE;
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(await screen.findByTestId('membership')).toHaveTextContent('Miembro nº 1');
    expect(screen.queryByTestId('checkout-success')).not.toBeInTheDocument();

    // Found: no more polling.
    const calls = membershipCalls(requests).length;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(membershipCalls(requests)).toHaveLength(calls);
  });

  it('stops asking after a minute and says Stripe has not confirmed yet', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { requests } = renderProfile({}, { checkoutReturned: true });
    await screen.findByTestId('checkout-success');

    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(await screen.findByTestId('checkout-slow')).toBeInTheDocument();
    const calls = membershipCalls(requests).length;
    expect(calls).toBeGreaterThanOrEqual(25);
    expect(calls).toBeLessThanOrEqual(32);

    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(membershipCalls(requests)).toHaveLength(calls);
  });
});
