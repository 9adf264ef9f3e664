import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Editions, Invoices, Membership } from '@life/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n/i18n';
import { jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { REGULAR_USER, renderWithProviders, signIn } from '@/test/render';
import { checkoutNavigation } from '../api/start-checkout';
import { MembershipSection } from './membership-section';
import { PayWithStripe } from './pay-with-stripe';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const MEMBER: Membership = {
  edition: 'elite',
  edition_name: 'Élite',
  price_cents: 200,
  currency: 'eur',
  member_number: 7,
  status: 'active',
  since: '2026-11-22T18:00:00.000Z',
  cancel_at: null,
};

const INVOICES: Invoices = {
  has_more: false,
  invoices: [
    {
      id: 'in_2',
      number: 'LIFE-0002',
      date: '2026-12-22T18:00:00.000Z',
      amount_cents: 200,
      tax_cents: 35,
      currency: 'eur',
      status: 'paid',
      pdf_url: 'https://pay.stripe.test/invoice/in_2/pdf',
      hosted_url: 'https://pay.stripe.test/invoice/in_2',
    },
    {
      id: 'in_1',
      number: 'LIFE-0001',
      date: '2026-11-22T18:00:00.000Z',
      amount_cents: 200,
      tax_cents: null,
      currency: 'eur',
      status: 'open',
      pdf_url: 'https://pay.stripe.test/invoice/in_1/pdf',
      hosted_url: null,
    },
  ],
};

const EDITIONS: Editions = {
  payments_enabled: true,
  sold_out: false,
  editions: [{ id: 'prestige', name: 'Prestige', price_cents: 300, currency: 'eur', limit: 9000, seats_left: 9000, on_sale: true }],
};

function renderProfile({
  membership = MEMBER,
  invoices = () => jsonResponse(200, INVOICES),
  portal = () => jsonResponse(200, { url: 'https://billing.stripe.test/p/session/bps_1' }),
  portalReturned = false,
}: {
  membership?: Membership | (() => Membership);
  invoices?: () => Response;
  portal?: (request: RecordedRequest) => Response;
  portalReturned?: boolean;
} = {}) {
  signIn(REGULAR_USER);
  const api = stubFetch((request) => {
    if (request.url === '/api/billing/membership') return jsonResponse(200, { membership: typeof membership === 'function' ? membership() : membership });
    if (request.url === '/api/billing/invoices') return invoices();
    if (request.url === '/api/billing/portal') return portal(request);
    if (request.url === '/api/billing/editions') return jsonResponse(200, EDITIONS);
    return jsonResponse(200, REGULAR_USER);
  });
  renderWithProviders(
    <>
      <MembershipSection portalReturned={portalReturned} />
      <PayWithStripe />
    </>,
  );
  return api;
}

describe('Profile: the subscription (portal, cancellation, invoices)', () => {
  it('"Gestionar suscripción" opens Stripe\'s portal for the member', async () => {
    const assign = vi.spyOn(checkoutNavigation, 'assign').mockImplementation(() => {});
    const { requests } = renderProfile();
    const manage = await screen.findByTestId('manage-subscription');
    expect(manage).toHaveAccessibleName('Gestionar suscripción');
    await userEvent.click(manage);
    expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/p/session/bps_1');
    expect(requests.filter((request) => request.url === '/api/billing/portal').map((request) => request.method)).toEqual(['POST']);
    expect(screen.getByTestId('manage-subscription')).toBeDisabled();
  });

  it("shows the server's reason when the portal cannot open", async () => {
    vi.spyOn(checkoutNavigation, 'assign').mockImplementation(() => {});
    renderProfile({
      portal: () =>
        jsonResponse(409, { error: 'no_stripe_customer', message: 'Tu membresía no tiene cliente de Stripe: no hay portal ni facturas que mostrar.' }),
    });
    await userEvent.click(await screen.findByTestId('manage-subscription'));
    expect(await screen.findByTestId('portal-error')).toHaveTextContent('Tu membresía no tiene cliente de Stripe');
    expect(screen.getByTestId('manage-subscription')).toBeEnabled();
  });

  it('says when a cancellation takes effect and what it means', async () => {
    renderProfile({ membership: { ...MEMBER, cancel_at: '2026-12-22T18:00:00.000Z' } });
    const note = await screen.findByTestId('membership-cancel-at');
    expect(note).toHaveTextContent('Se cancelará el 22 de diciembre de 2026');
    expect(note).toHaveTextContent('pierdes el precio de por vida');
    // Still a member until then: no second purchase offered.
    expect(screen.getByTestId('membership-status')).toHaveTextContent('Activa');
    expect(screen.queryByTestId('pay-with-stripe')).not.toBeInTheDocument();
  });

  it('back from the portal, asks again until the cancellation arrives by webhook, then stops', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: Membership = MEMBER;
    const { requests } = renderProfile({ membership: () => answer, portalReturned: true });
    await screen.findByTestId('manage-subscription');
    const calls = () => requests.filter((request) => request.url === '/api/billing/membership').length;
    expect(screen.queryByTestId('membership-cancel-at')).not.toBeInTheDocument();

    answer = { ...MEMBER, cancel_at: '2026-12-22T18:00:00.000Z' };
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(await screen.findByTestId('membership-cancel-at')).toHaveTextContent('Se cancelará el 22 de diciembre de 2026');

    // After the follow window it stops asking.
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    const settled = calls();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(calls()).toBe(settled));
  });

  it('does not keep asking on a plain visit', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { requests } = renderProfile();
    await screen.findByTestId('manage-subscription');
    const before = requests.filter((request) => request.url === '/api/billing/membership').length;
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(requests.filter((request) => request.url === '/api/billing/membership')).toHaveLength(before);
  });

  it('says nothing about cancelling while the subscription renews', async () => {
    renderProfile();
    await screen.findByTestId('manage-subscription');
    expect(screen.queryByTestId('membership-cancel-at')).not.toBeInTheDocument();
    expect(screen.queryByTestId('membership-ended')).not.toBeInTheDocument();
  });

  it('once ended, says the seat and the price are gone and offers buying again', async () => {
    renderProfile({ membership: { ...MEMBER, status: 'cancelled', cancel_at: '2026-12-22T18:00:00.000Z' } });
    expect(await screen.findByTestId('membership-ended')).toHaveTextContent('la plaza quedó libre');
    expect(screen.queryByTestId('membership-cancel-at')).not.toBeInTheDocument();
    expect(await screen.findByTestId('pay-with-stripe')).toHaveTextContent('Pagar con Stripe');
  });

  it("lists the invoices with their amount, VAT, state and Stripe's download link", async () => {
    renderProfile();
    const rows = await screen.findAllByTestId('invoice');
    expect(rows.map((row) => within(row).getByTestId('invoice-number').textContent)).toEqual(['LIFE-0002', 'LIFE-0001']);
    const first = rows[0]!;
    expect(within(first).getByTestId('invoice-amount')).toHaveTextContent('2,00 €');
    expect(within(first).getByTestId('invoice-status')).toHaveTextContent('Pagada');
    expect(within(first).getByTestId('invoice-tax')).toHaveTextContent('IVA incluido: 0,35 €');
    const pdf = within(first).getByRole('link', { name: 'Descargar la factura LIFE-0002 en PDF' });
    expect(pdf).toHaveAttribute('href', 'https://pay.stripe.test/invoice/in_2/pdf');
    expect(within(first).getByTestId('invoice-hosted')).toHaveAttribute('href', 'https://pay.stripe.test/invoice/in_2');
    const second = rows[1]!;
    expect(within(second).getByTestId('invoice-status')).toHaveTextContent('Pendiente');
    expect(within(second).queryByTestId('invoice-tax')).not.toBeInTheDocument();
    expect(within(second).queryByTestId('invoice-hosted')).not.toBeInTheDocument();
  });

  it('says when there are no invoices', async () => {
    renderProfile({ invoices: () => jsonResponse(200, { invoices: [], has_more: false }) });
    expect(await screen.findByTestId('invoices-empty')).toHaveTextContent('Aún no tienes facturas.');
  });

  it('says when the invoices could not be loaded', async () => {
    // A 4xx is not retried (a 502 would be, after a pause).
    renderProfile({ invoices: () => jsonResponse(409, { error: 'no_stripe_customer', message: 'Tu membresía no tiene cliente de Stripe.' }) });
    expect(await screen.findByTestId('invoices-error')).toHaveTextContent('No se pudieron cargar las facturas.');
  });

  it('speaks the active language', async () => {
    await i18n.changeLanguage('en');
    renderProfile({ membership: { ...MEMBER, cancel_at: '2026-12-22T18:00:00.000Z' } });
    expect(await screen.findByTestId('manage-subscription')).toHaveAccessibleName('Manage subscription');
    expect(await screen.findByTestId('membership-cancel-at')).toHaveTextContent('Cancels on December 22, 2026');
    const [first] = await screen.findAllByTestId('invoice');
    expect(within(first!).getByRole('link', { name: 'Download invoice LIFE-0002 as PDF' })).toBeInTheDocument();
  });
});
