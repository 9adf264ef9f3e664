import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SalesMember, SalesSummary } from '@life/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RootLayout } from '@/app/root-layout';
import i18n from '@/i18n/i18n';
import { jsonResponse, stubFetch } from '@/test/fetch-mock';
import { ADMIN_USER, renderWithProviders, signIn } from '@/test/render';
import { SalesView } from './sales-view';

const byStatus = (counts: Partial<SalesSummary['editions'][number]['members_by_status']>) => ({
  active: 0,
  past_due: 0,
  cancelled: 0,
  pending_payment: 0,
  refunded: 0,
  disputed: 0,
  ...counts,
});

const SUMMARY: SalesSummary = {
  currency: 'eur',
  editions: [
    {
      id: 'elite',
      name: 'Élite',
      price_cents: 200,
      seat_limit: 1000,
      sold: 1000,
      reserved: 0,
      free: 0,
      members_by_status: byStatus({ active: 990, cancelled: 10 }),
      mrr_cents: 198000,
      collected_at_checkout_cents: 200000,
    },
    {
      id: 'prestige',
      name: 'Prestige',
      price_cents: 300,
      seat_limit: 9000,
      sold: 1234,
      reserved: 3,
      free: 7763,
      members_by_status: byStatus({ active: 1230, refunded: 2, disputed: 2 }),
      mrr_cents: 369000,
      collected_at_checkout_cents: 370200,
    },
    {
      id: 'legacy',
      name: 'Legacy',
      price_cents: 400,
      seat_limit: 20000,
      sold: 0,
      reserved: 0,
      free: 20000,
      members_by_status: byStatus({}),
      mrr_cents: 0,
      collected_at_checkout_cents: 0,
    },
  ],
  totals: { seat_limit: 30000, sold: 2234, reserved: 3, free: 27763, mrr_cents: 567000, collected_at_checkout_cents: 570200 },
  refunds_and_disputes: 4,
  events_needing_attention: 1,
};

const member = (number: number, overrides: Partial<SalesMember> = {}): SalesMember => ({
  member_number: number,
  email: `m${number}@example.com`,
  erased: false,
  edition: 'elite',
  status: 'active',
  price_cents: 200,
  since: '2026-11-20T10:00:00.000Z',
  status_at: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

function stubApi() {
  return stubFetch((request) => {
    const url = new URL(request.url, 'http://localhost');
    if (url.pathname === '/api/admin/sales') return jsonResponse(200, SUMMARY);
    if (url.pathname === '/api/admin/sales/members') {
      const page = Number(url.searchParams.get('page'));
      const q = url.searchParams.get('q');
      if (q) return jsonResponse(200, { items: [member(7, { email: 'josé.núñez@ejemplo.es', status: 'past_due' })], total: 1, page: 1, page_size: 25 });
      const first = (page - 1) * 25 + 1;
      const items = Array.from({ length: page === 2 ? 5 : 25 }, (_, i) => member(first + i, i === 1 && page === 1 ? { email: null, erased: true } : {}));
      return jsonResponse(200, { items, total: 30, page, page_size: 25 });
    }
    if (url.pathname === '/api/admin/sales/refunds')
      return jsonResponse(200, { items: [member(9, { status: 'disputed', edition: 'prestige', status_at: '2026-11-24T09:00:00.000Z' })] });
    if (url.pathname === '/api/admin/sales/events')
      return jsonResponse(200, {
        items: [
          {
            id: 'evt_1',
            type: 'charge.dispute.created',
            received_at: '2026-11-24T08:00:00.000Z',
            failed_at: '2026-11-24T08:20:00.000Z',
            attempts: 10,
            last_error: 'No membership for charge ch_1',
          },
        ],
      });
    // The panel's default section (Servicios) loads too.
    if (url.pathname === '/api/services') return jsonResponse(200, []);
    return jsonResponse(404, { error: 'not_found', message: 'No such route' });
  });
}

beforeEach(() => signIn(ADMIN_USER));
afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('es');
});

describe('Ventas in the admin panel', () => {
  it('opens from the panel header: the menu keeps its five sections', async () => {
    stubApi();
    renderWithProviders(<RootLayout />);
    await userEvent.click(await screen.findByRole('button', { name: 'Abrir panel de administración' }));
    const panel = await screen.findByTestId('admin-panel');
    expect(within(screen.getByTestId('admin-menu')).getAllByRole('listitem')).toHaveLength(5);
    await userEvent.click(within(panel).getByTestId('admin-header-ventas'));
    expect(await within(panel).findByRole('heading', { level: 3, name: 'Ventas' })).toBeInTheDocument();
    expect(within(panel).getByTestId('admin-header-ventas')).toHaveAttribute('aria-current', 'page');
    // The events block links to Salud, where they are retried or dismissed.
    await userEvent.click(await within(panel).findByTestId('sales-open-health'));
    expect(within(panel).getByRole('heading', { level: 3, name: 'Salud del Sistema' })).toBeInTheDocument();
    expect(within(panel).getByTestId('admin-nav-salud')).toHaveAttribute('aria-current', 'page');
  });

  it('shows per edition the seats and the money, formatted for the reader, with the MRR label exactly', async () => {
    stubApi();
    renderWithProviders(<SalesView />);
    const table = await screen.findByTestId('sales-editions');
    await within(table).findAllByTestId('sales-edition');
    expect(within(table).getByRole('columnheader', { name: 'Ingresos mensuales (MRR)' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Cobrado al contratar' })).toBeInTheDocument();
    const prestige = within(table).getAllByTestId('sales-edition')[1]!;
    expect(within(prestige).getByTestId('sales-sold')).toHaveTextContent(/^1234$|^1\.234$/);
    expect(within(prestige).getByTestId('sales-free')).toHaveTextContent(/^7\.763$|^7763$/);
    expect(within(prestige).getByTestId('sales-mrr').textContent).toMatch(/^3690,00\s€$/);
    const total = within(table).getByTestId('sales-total');
    expect(within(total).getByTestId('sales-mrr').textContent).toMatch(/^5670,00\s€$/);
    expect(within(total).getByTestId('sales-collected').textContent).toMatch(/^5702,00\s€$/);

    await i18n.changeLanguage('en');
    await waitFor(() => expect(within(total).getByTestId('sales-mrr').textContent).toBe('€5,670.00'));
    expect(within(table).getByRole('columnheader', { name: 'Monthly recurring revenue (MRR)' })).toBeInTheDocument();
  });

  it('lists members page by page, names erased accounts, filters and searches through the API', async () => {
    const { requests } = stubApi();
    renderWithProviders(<SalesView />);
    const table = await screen.findByTestId('sales-members');
    await waitFor(() => expect(within(table).getAllByTestId('sales-member')).toHaveLength(25));
    expect(within(table).getAllByTestId('sales-member')[1]).toHaveTextContent('Cuenta eliminada');
    expect(screen.getByTestId('sales-page')).toHaveTextContent('Página 1 de 2 · 30 miembros en total');
    expect(screen.getByTestId('sales-previous')).toBeDisabled();

    await userEvent.click(screen.getByTestId('sales-next'));
    await waitFor(() => expect(within(table).getAllByTestId('sales-member')).toHaveLength(5));
    expect(requests.at(-1)?.url).toBe('/api/admin/sales/members?page=2&page_size=25');
    expect(screen.getByTestId('sales-next')).toBeDisabled();

    // A filter goes back to the first page.
    await userEvent.selectOptions(screen.getByTestId('sales-filter-status'), 'Pago pendiente');
    await waitFor(() => expect(requests.at(-1)?.url).toBe('/api/admin/sales/members?page=1&page_size=25&status=past_due'));
    await userEvent.selectOptions(screen.getByTestId('sales-filter-edition'), 'Prestige');
    await waitFor(() => expect(requests.at(-1)?.url).toBe('/api/admin/sales/members?page=1&page_size=25&edition=prestige&status=past_due'));

    await userEvent.type(screen.getByLabelText('Buscar por email o número'), 'núñez');
    await waitFor(() => expect(within(table).getAllByTestId('sales-member')).toHaveLength(1));
    expect(requests.at(-1)?.url).toBe(`/api/admin/sales/members?page=1&page_size=25&edition=prestige&status=past_due&q=${encodeURIComponent('núñez')}`);
    expect(within(table).getByTestId('sales-member')).toHaveTextContent('josé.núñez@ejemplo.es');
    expect(within(table).getByTestId('sales-status')).toHaveTextContent('Pago pendiente');
  });

  it('exports the filtered members as a CSV download', async () => {
    const { requests } = stubFetch((request) => {
      const url = new URL(request.url, 'http://localhost');
      if (url.pathname === '/api/admin/sales/members.csv')
        return new Response('\uFEFFNúmero de miembro\r\n', {
          status: 200,
          headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="members-2026-11-25.csv"' },
        });
      return jsonResponse(
        200,
        url.pathname === '/api/admin/sales' ? SUMMARY : url.pathname.endsWith('/members') ? { items: [], total: 0, page: 1, page_size: 25 } : { items: [] },
      );
    });
    const createObjectURL = vi.fn(() => 'blob:csv');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderWithProviders(<SalesView />);
    await userEvent.selectOptions(await screen.findByTestId('sales-filter-status'), 'Reembolsada');
    await userEvent.click(screen.getByTestId('sales-export'));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const download = requests.find((request) => request.url.startsWith('/api/admin/sales/members.csv'));
    expect(download).toMatchObject({ url: '/api/admin/sales/members.csv?status=refunded', headers: { Authorization: 'Bearer test-token' } });
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('members-2026-11-25.csv');
    click.mockRestore();
  });

  it('lists refunds and disputes and the events needing attention, read-only', async () => {
    stubApi();
    renderWithProviders(<SalesView />);
    const refund = await screen.findByTestId('sales-refund');
    expect(refund).toHaveTextContent('m9@example.com');
    expect(refund).toHaveTextContent('En disputa');
    const event = await screen.findByTestId('sales-event');
    expect(event).toHaveTextContent('charge.dispute.created');
    expect(event).toHaveTextContent('No membership for charge ch_1');
    expect(within(event).queryByRole('button')).not.toBeInTheDocument();
  });

  it('says so when the sales cannot be loaded', async () => {
    stubFetch(() => jsonResponse(403, { error: 'forbidden', message: 'This needs the admin role.' }));
    renderWithProviders(<SalesView />);
    expect((await screen.findAllByText('No se pudieron cargar las ventas. Inténtalo de nuevo.')).length).toBeGreaterThan(0);
  });
});
