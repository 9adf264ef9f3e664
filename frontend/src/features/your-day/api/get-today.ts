import { useQuery, type Query } from '@tanstack/react-query';
import { TodaySchema, type Today } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { boundedPoll, browserTimeZone, YOUR_DAY_QUERY_KEY } from '@/shared/your-day/api/day-views';

/** `GET /api/your-day/today?tz=`: today's items of every connected service, in the person's time zone. */
export function getToday({ signal }: { signal?: AbortSignal } = {}): Promise<Today> {
  return apiRequest(`/api/your-day/today?tz=${encodeURIComponent(browserTimeZone())}`, { schema: TodaySchema, signal });
}

export const TODAY_QUERY_KEY = [...YOUR_DAY_QUERY_KEY, 'today'] as const;

/** A service whose first snapshot is not there yet (just connected): ask again every few seconds, a minute at most. */
function pollWhileFirstFetch(query: Query<Today, Error, Today, readonly unknown[]>): number | false {
  return boundedPoll(query, query.state.data?.services.some((service) => service.state === 'pending' && service.problem === null) ?? false);
}

export function useToday() {
  return useQuery({
    queryKey: TODAY_QUERY_KEY,
    queryFn: ({ signal }) => getToday({ signal }),
    retry: false,
    // "Tu día" is about now: read again when the person comes back to the tab.
    refetchOnWindowFocus: true,
    refetchInterval: pollWhileFirstFetch,
  });
}
