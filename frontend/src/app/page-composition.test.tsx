import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Membership } from '@life/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TooltipProvider } from '@/components/ui/tooltip';
import { checkoutNavigation } from '@/features/billing/api/start-checkout';
import { createQueryClient } from '@/lib/query-client';
import { jsonResponse, stubFetch } from '@/test/fetch-mock';
import { REGULAR_USER, signIn } from '@/test/render';
import { createAppRouter } from './router';

/**
 * Features do not import each other: the routes plug billing's pieces into the landing and profile pages.
 * These tests check the pieces land in the right place; their behaviour is tested in features/billing.
 */

const ELITE: Membership = {
  edition: 'elite',
  edition_name: 'Élite',
  price_cents: 200,
  currency: 'eur',
  member_number: 1,
  status: 'active',
  since: '2026-11-22T18:00:00.000Z',
};

function renderApp(path: string, { membership = null }: { membership?: Membership | null } = {}) {
  const api = stubFetch((request) => {
    if (request.url === '/api/billing/membership') return jsonResponse(200, { membership });
    if (request.url === '/api/stripe/create-checkout-session') return jsonResponse(200, { url: 'https://stripe.test/c/cs_9', edition: 'elite' });
    if (request.url === '/api/users/me') return jsonResponse(200, REGULAR_USER);
    if (request.url === '/api/users/me/apps') return jsonResponse(200, []);
    // Nothing else answers: the live editions, the data export... keep their stand-ins.
    return new Promise<Response>(() => {});
  });
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }));
  render(
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <RouterProvider router={router} />
      </TooltipProvider>
    </QueryClientProvider>,
  );
  return api;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('/ (landing)', () => {
  it('shows the editions under the services carousel', async () => {
    renderApp('/');
    const title = await screen.findByRole('heading', { level: 2, name: 'Ediciones Exclusivas' });
    const editions = title.closest('section')!;
    expect(within(editions).getAllByTestId('edition-card')).toHaveLength(3);
    expect(screen.getByTestId('carousel-track').compareDocumentPosition(editions) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});

describe('/?checkout=cancelled (back from Stripe without paying)', () => {
  it('says calmly at the top of the landing that nothing was charged, and the dismiss button takes the word and the parameter away', async () => {
    renderApp('/?checkout=cancelled&ref=mail');
    const notice = await screen.findByTestId('checkout-cancelled');
    expect(notice).toHaveTextContent('Has cancelado el pago: no se te ha cobrado nada. Puedes elegir una edición cuando quieras.');
    expect(notice).toHaveAttribute('role', 'status');
    const headline = screen.getByRole('heading', { level: 1 });
    expect(notice.compareDocumentPosition(headline) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    await userEvent.click(within(notice).getByRole('button', { name: 'Cerrar aviso' }));
    await waitFor(() => expect(screen.queryByTestId('checkout-cancelled')).not.toBeInTheDocument());
  });

  it('says nothing on / alone or with another checkout value', async () => {
    renderApp('/?checkout=whatever');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByTestId('checkout-cancelled')).not.toBeInTheDocument();
  });
});

describe('/profile', () => {
  it('puts "Pagar con Stripe" next to "Guardar cambios"; it is not the form submit', async () => {
    signIn(REGULAR_USER);
    const assign = vi.spyOn(checkoutNavigation, 'assign').mockImplementation(() => {});
    const { requests } = renderApp('/profile');
    const pay = await screen.findByRole('button', { name: 'Pagar con Stripe' });
    expect(pay).toHaveAttribute('data-testid', 'pay-with-stripe');
    expect(pay).toHaveAttribute('type', 'button');
    expect(pay.parentElement).toContainElement(await screen.findByTestId('profile-save'));

    await userEvent.click(pay);

    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://stripe.test/c/cs_9'));
    expect(requests.some((request) => request.method === 'PATCH')).toBe(false);
  });

  it("shows a member's edition above the profile form", async () => {
    signIn(REGULAR_USER);
    renderApp('/profile', { membership: ELITE });
    const panel = await screen.findByTestId('membership');
    expect(panel).toHaveTextContent('Élite');
    expect(panel.compareDocumentPosition(await screen.findByTestId('profile-save')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByTestId('pay-with-stripe')).not.toBeInTheDocument();
  });

  it('passes ?checkout=success on to the membership panel', async () => {
    signIn(REGULAR_USER);
    renderApp('/profile?checkout=success');
    expect(await screen.findByTestId('checkout-success')).toHaveTextContent('Pago recibido');
  });
});
