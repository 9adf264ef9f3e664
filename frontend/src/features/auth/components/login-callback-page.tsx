import { useEffect } from 'react';
import { useNavigate, useParams, useRouter } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PageStatus } from '@/components/layout/page-status';
import { completeLoginOnce, PROVIDER_SEGMENT } from '../api/complete-login';

/**
 * Return page of a login (`/login/{provider}/callback?code&state`). Sends the query string,
 * exactly as the provider wrote it, to the backend once, then goes to `returnTo` (default
 * /dashboard) or back home with `?login_error=<code>`.
 */
export function LoginCallbackPage() {
  const { t } = useTranslation();
  const { provider } = useParams({ from: '/login/$provider/callback' });
  const router = useRouter();
  const navigate = useNavigate();

  useEffect(() => {
    // The raw query, not the router's parsed copy: its JSON parsing would turn a code such as
    // "12345678901234567890" into a rounded number.
    const search = router.history.location.search;
    const code = new URLSearchParams(search).get('code');
    if (!code || !PROVIDER_SEGMENT.test(provider)) {
      void navigate({ to: '/', replace: true });
      return;
    }

    let active = true;
    void completeLoginOnce(provider, search, code).then((outcome) => {
      // A StrictMode re-run (or a remount) subscribes again; only the mounted page navigates.
      if (!active) return;
      if (outcome.ok) void navigate({ href: outcome.returnTo, replace: true });
      else void navigate({ to: '/', search: { login_error: outcome.error }, replace: true });
    });
    return () => {
      active = false;
    };
  }, [provider, router, navigate]);

  return <PageStatus message={t('callback.login')} />;
}
