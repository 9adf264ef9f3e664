import { createFileRoute } from '@tanstack/react-router';
import { isSitePath } from '@/lib/auth';
import { CheckoutCancelledNotice } from '@/features/billing/components/checkout-cancelled-notice';
import { EditionsSection } from '@/features/billing/components/editions-section';
import { LandingPage } from '@/features/landing/components/landing-page';

export interface LandingSearch {
  /** Why the last sign-in failed (set by the backend or the login callback page). */
  login_error?: string;
  /** A signed-in page a signed-out visitor opened: the landing says why it is here, and signing in goes back there. */
  next?: string;
  /** What just happened, said on arrival: `account_erased` after erasing the account. */
  notice?: LandingNotice;
  /** `cancelled` when Stripe Checkout sends the person back without paying. */
  checkout?: 'cancelled';
}

export type LandingNotice = 'account_erased';

export const Route = createFileRoute('/')({
  validateSearch: (search: Record<string, unknown>): LandingSearch => {
    const code = search.login_error;
    return {
      // The router JSON-parses query values; any code is shown as text.
      ...(code === undefined || code === null || code === '' ? {} : { login_error: String(code) }),
      ...(isSitePath(search.next) ? { next: search.next } : {}),
      ...(search.notice === 'account_erased' ? { notice: search.notice } : {}),
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
