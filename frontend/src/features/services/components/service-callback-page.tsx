import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, useRouter } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PageStatus } from '@/components/layout/page-status';
import { SERVICES_QUERY_KEY } from '@/shared/services/api/get-services';
import { completeConnectionOnce, SERVICE_SEGMENT } from '../api/complete-connection';

/**
 * Return page of a service connection (`/callback/{service}?code&state`). Sends the query string,
 * exactly as the provider wrote it, to the backend once (spec section 5), then goes to /dashboard
 * on success and to / otherwise (spec section 8).
 */
export function ServiceCallbackPage() {
  const { t } = useTranslation();
  const { service } = useParams({ from: '/callback/$service' });
  const router = useRouter();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    // The raw query, not the router's parsed copy: its JSON parsing would turn a long numeric
    // code into a rounded number.
    const search = router.history.location.search;
    const code = new URLSearchParams(search).get('code');
    if (!code || !SERVICE_SEGMENT.test(service)) {
      void navigate({ to: '/', replace: true });
      return;
    }

    let active = true;
    void completeConnectionOnce(service, search, code).then(async (ok) => {
      // A StrictMode re-run (or a remount) subscribes again; only the mounted page navigates.
      if (!active) return;
      if (!ok) {
        void navigate({ to: '/', replace: true });
        return;
      }
      // The dashboard must show the new connection, not a list cached before it.
      await queryClient.invalidateQueries({ queryKey: SERVICES_QUERY_KEY, refetchType: 'none' });
      if (active) void navigate({ to: '/dashboard', replace: true });
    });
    return () => {
      active = false;
    };
  }, [service, router, navigate, queryClient]);

  return <PageStatus message={t('callback.service')} />;
}
