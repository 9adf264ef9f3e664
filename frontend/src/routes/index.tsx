import { createFileRoute } from '@tanstack/react-router';
import { isSitePath } from '@/lib/auth';
import { EditionsSection } from '@/features/billing/components/editions-section';
import { LandingPage } from '@/features/landing/components/landing-page';

export interface LandingSearch {
  /** Why the last sign-in failed (set by the backend or the login callback page). */
  login_error?: string;
  /** A signed-in page a signed-out visitor opened: the landing says why it is here, and signing in goes back there. */
  next?: string;
  /** What just happened, said on arrival: `account_erased` after erasing the account. */
  notice?: LandingNotice;
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
    };
  },
  component: Landing,
});

/** Features do not import each other: the landing page gets billing's editions here. */
function Landing() {
  return <LandingPage editions={<EditionsSection />} />;
}
