import { createFileRoute } from '@tanstack/react-router';
import { EditionsSection } from '@/features/billing/components/editions-section';
import { LandingPage } from '@/features/landing/components/landing-page';

export interface LandingSearch {
  /** Why the last sign-in failed (set by the backend or the login callback page). */
  login_error?: string;
}

export const Route = createFileRoute('/')({
  validateSearch: (search: Record<string, unknown>): LandingSearch => {
    const code = search.login_error;
    // The router JSON-parses query values; any code is shown as text.
    return code === undefined || code === null || code === '' ? {} : { login_error: String(code) };
  },
  component: Landing,
});

/** Features do not import each other: the landing page gets billing's editions here. */
function Landing() {
  return <LandingPage editions={<EditionsSection />} />;
}
