import { useQuery } from '@tanstack/react-query';
import { appGrantsQueryOptions } from '@/lib/app-grants';

/** `GET /api/users/me/apps` (shared with the consent screen, see lib/app-grants). */
export function useAppGrants() {
  return useQuery(appGrantsQueryOptions());
}
