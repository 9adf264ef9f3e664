import { createFileRoute } from '@tanstack/react-router';
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
  component: LandingPage,
});
