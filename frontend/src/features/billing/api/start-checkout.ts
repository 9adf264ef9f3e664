import { useEffect } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CheckoutResponse } from '@life/contracts';
import type { TFunction } from 'i18next';
import { ApiError, apiErrorMessage, apiRequest } from '@/lib/api-client';
import { BILLING_QUERY_KEY } from './query-keys';
import { reportError } from '@/lib/report-error';

/** Leaving the SPA. An object so tests can spy on it: jsdom cannot navigate. */
export const checkoutNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

/**
 * - `redirecting`: the browser is on its way to Stripe's checkout page.
 * - `not_configured`: the answer had only a sessionId and this build has no Stripe public key.
 */
export type CheckoutOutcome = 'redirecting' | 'not_configured';

/**
 * Spec section 7: `POST /api/stripe/create-checkout-session` (bearer, no body). A `url` is
 * navigated to; otherwise a `sessionId` goes through Stripe.js with the build's public key
 * (`VITE_STRIPE_PUBLIC_KEY`); without one it only logs 'Stripe public key not configured'.
 */
export async function startCheckout(): Promise<CheckoutOutcome> {
  const answer: CheckoutResponse = await apiRequest('/api/stripe/create-checkout-session', {
    method: 'POST',
    schema: () => import('./schemas').then((schemas) => schemas.CheckoutResponseSchema),
  });
  if (answer.url) {
    checkoutNavigation.assign(answer.url);
    return 'redirecting';
  }
  if (!answer.sessionId) throw new Error('The checkout answer has neither url nor sessionId');
  const publicKey = import.meta.env.VITE_STRIPE_PUBLIC_KEY;
  if (!publicKey) {
    console.log('Stripe public key not configured');
    return 'not_configured';
  }
  // Stripe.js is only needed here, so it is loaded on demand.
  const { loadStripe } = await import('@stripe/stripe-js');
  const stripe = await loadStripe(publicKey);
  if (!stripe) throw new Error('Stripe.js could not be loaded');
  const result = await stripe.redirectToCheckout({ sessionId: answer.sessionId });
  // On success the browser has left the page; an answer means it did not.
  if (result?.error) throw new Error(result.error.message ?? 'Stripe.js could not redirect to checkout');
  return 'redirecting';
}

/** The text to show for a failed checkout: ours for the known cases, else the server's message. */
export function checkoutErrorMessage(error: unknown, t: TFunction): string {
  if (error instanceof ApiError) {
    if (error.code === 'already_member') return t('billing.errors.alreadyMember');
    if (error.status === 503) return t('billing.errors.notConfigured');
  }
  return apiErrorMessage(error) ?? t('billing.errors.generic');
}

/** The one checkout used by the landing cards and the profile button. */
export function useCheckout() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: startCheckout,
    onError: (error) => {
      reportError('Error al iniciar el pago', error);
      // Sold out, already a member...: what the page shows may be stale.
      void queryClient.invalidateQueries({ queryKey: BILLING_QUERY_KEY });
    },
  });
  const { reset } = mutation;
  // Back from Stripe's page, the browser may restore this page as it was: "redirecting" and disabled.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [reset]);
  return mutation;
}
