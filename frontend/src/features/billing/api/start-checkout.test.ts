import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n/i18n';
import { ApiError } from '@/lib/api-client';
import { jsonResponse, stubFetch } from '@/test/fetch-mock';
import { checkoutErrorMessage, checkoutNavigation, startCheckout } from './start-checkout';

const stripe = vi.hoisted(() => ({
  redirectToCheckout: vi.fn(async (_options: { sessionId: string }) => ({ error: undefined as { message?: string } | undefined })),
  loadStripe: vi.fn(),
}));

vi.mock('@stripe/stripe-js', () => ({ loadStripe: stripe.loadStripe }));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  stripe.loadStripe.mockReset();
  stripe.redirectToCheckout.mockClear();
});

function answerCheckout(body: Record<string, unknown>) {
  window.localStorage.setItem('authToken', 'test-token');
  return stubFetch(() => jsonResponse(200, body));
}

describe('startCheckout (spec section 7)', () => {
  it('POSTs with the bearer and no body, then navigates to the url', async () => {
    const assign = vi.spyOn(checkoutNavigation, 'assign').mockImplementation(() => {});
    const { requests } = answerCheckout({ url: 'https://checkout.stripe.test/c/cs_1', sessionId: 'cs_1', edition: 'elite' });

    await expect(startCheckout()).resolves.toBe('redirecting');

    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/stripe/create-checkout-session',
      body: undefined,
      headers: { Authorization: 'Bearer test-token' },
    });
    expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/cs_1');
    expect(stripe.loadStripe).not.toHaveBeenCalled();
  });

  it('with only a sessionId and no public key, logs "Stripe public key not configured" and goes nowhere', async () => {
    vi.stubEnv('VITE_STRIPE_PUBLIC_KEY', '');
    const assign = vi.spyOn(checkoutNavigation, 'assign').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    answerCheckout({ sessionId: 'cs_2', edition: 'prestige' });

    await expect(startCheckout()).resolves.toBe('not_configured');

    expect(log).toHaveBeenCalledWith('Stripe public key not configured');
    expect(assign).not.toHaveBeenCalled();
    expect(stripe.loadStripe).not.toHaveBeenCalled();
  });

  it('with only a sessionId and a public key, redirects through Stripe.js', async () => {
    vi.stubEnv('VITE_STRIPE_PUBLIC_KEY', 'pk_test_123');
    stripe.loadStripe.mockResolvedValue({ redirectToCheckout: stripe.redirectToCheckout });
    answerCheckout({ sessionId: 'cs_3', edition: 'legacy' });

    await expect(startCheckout()).resolves.toBe('redirecting');

    expect(stripe.loadStripe).toHaveBeenCalledWith('pk_test_123');
    expect(stripe.redirectToCheckout).toHaveBeenCalledWith({ sessionId: 'cs_3' });
  });

  it('fails when Stripe.js answers with an error', async () => {
    vi.stubEnv('VITE_STRIPE_PUBLIC_KEY', 'pk_test_123');
    stripe.redirectToCheckout.mockResolvedValueOnce({ error: { message: 'Network down' } });
    stripe.loadStripe.mockResolvedValue({ redirectToCheckout: stripe.redirectToCheckout });
    answerCheckout({ sessionId: 'cs_4', edition: 'elite' });
    await expect(startCheckout()).rejects.toThrow('Network down');
  });

  it('turns error answers into ApiErrors', async () => {
    window.localStorage.setItem('authToken', 'test-token');
    stubFetch(() => jsonResponse(409, { error: 'sold_out', message: 'Todas las ediciones de por vida están agotadas.' }));
    await expect(startCheckout()).rejects.toMatchObject({ status: 409, code: 'sold_out' });
  });
});

describe('checkoutErrorMessage', () => {
  const t = i18n.t.bind(i18n);

  it('409 already_member → "Ya tienes una edición de por vida."', () => {
    expect(checkoutErrorMessage(new ApiError(409, 'already_member', 'whatever the server says'), t)).toBe('Ya tienes una edición de por vida.');
  });

  it('503 → "Los pagos no están configurados."', () => {
    expect(checkoutErrorMessage(new ApiError(503, 'payments_not_configured', 'Los pagos no están configurados en este servidor.'), t)).toBe(
      'Los pagos no están configurados.',
    );
  });

  it("others → the server's message", () => {
    const message = 'El proveedor de pagos no respondió. No se ha cobrado nada; inténtalo de nuevo.';
    expect(checkoutErrorMessage(new ApiError(502, 'payment_provider_error', message), t)).toBe(message);
    expect(checkoutErrorMessage(new ApiError(409, 'sold_out', 'Todas las ediciones de por vida están agotadas.'), t)).toBe(
      'Todas las ediciones de por vida están agotadas.',
    );
  });

  it('without a server message, a generic one', () => {
    expect(checkoutErrorMessage(new TypeError('Failed to fetch'), t)).toBe('No se pudo iniciar el pago. Inténtalo de nuevo.');
  });
});
