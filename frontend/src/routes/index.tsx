import { createFileRoute } from '@tanstack/react-router';
import { CheckoutCancelledNotice } from '@/features/billing/components/checkout-cancelled-notice';
import { EditionsSection } from '@/features/billing/components/editions-section';
import { LandingPage } from '@/features/landing/components/landing-page';

export interface LandingSearch {
  /** Why the last sign-in failed (set by the backend or the login callback page). */
  login_error?: string;
  /** `cancelled` when Stripe Checkout sends the person back without paying. */
  checkout?: 'cancelled';
}

export const Route = createFileRoute('/')({
  validateSearch: (search: Record<string, unknown>): LandingSearch => {
    const code = search.login_error;
    // The router JSON-parses query values; any code is shown as text.
    return {
      ...(code === undefined || code === null || code === '' ? {} : { login_error: String(code) }),
      ...(search.checkout === 'cancelled' ? { checkout: 'cancelled' as const } : {}),
    };
  },
  component: Landing,
});

/** Features do not import each other: the landing page gets billing's editions (and its word after a cancelled checkout) here. */
function Landing() {
  const cancelled = Route.useSearch().checkout === 'cancelled';
  const navigate = Route.useNavigate();
  const dismiss = () => void navigate({ search: ({ checkout: _dismissed, ...rest }) => rest, replace: true });
  return <LandingPage editions={<EditionsSection />} notice={cancelled ? <CheckoutCancelledNotice onDismiss={dismiss} /> : undefined} />;
}
