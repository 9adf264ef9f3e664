import { useMutation, useQuery, useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { DayRefreshAnswerSchema, DayViewSchema, DayViewsSchema, type DayView, type DayViews } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { reportError } from '@/lib/report-error';

/**
 * "Tu día" (issue 19): the views of the connected services, read from the snapshots the workers
 * fetched (`GET /api/your-day/views`), and what the person does with them: switch a view off or on,
 * ask for a fresh fetch ('Actualizar'), switch a Philips Hue light. Used by the dashboard's cards and
 * panel; the "Tu día" page (features/your-day) reads `GET /api/your-day/today` under the same root key.
 */

/** Every your-day query starts with this: a change to a view makes all of them stale. */
export const YOUR_DAY_QUERY_KEY = ['your-day'] as const;
export const DAY_VIEWS_QUERY_KEY = [...YOUR_DAY_QUERY_KEY, 'views'] as const;

/** The person's time zone, sent with every read: the server cuts "today" and "tomorrow" in it. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function getDayViews({ signal }: { signal?: AbortSignal } = {}): Promise<DayViews> {
  return apiRequest(`/api/your-day/views?tz=${encodeURIComponent(browserTimeZone())}`, { schema: DayViewsSchema, signal });
}

export function setDayViewEnabled({ service, enabled }: { service: string; enabled: boolean }): Promise<DayView> {
  return apiRequest(`/api/your-day/views/${encodeURIComponent(service)}`, { method: 'PUT', body: { enabled }, schema: DayViewSchema });
}

export function refreshDayView(service: string): Promise<{ queued: boolean }> {
  return apiRequest(`/api/your-day/views/${encodeURIComponent(service)}/refresh`, { method: 'POST', schema: DayRefreshAnswerSchema });
}

export function switchHueLight({ lightId, on }: { lightId: string; on: boolean }): Promise<DayView> {
  return apiRequest(`/api/your-day/views/philipshue/lights/${encodeURIComponent(lightId)}`, { method: 'POST', body: { on }, schema: DayViewSchema });
}

/** How often a page asks again while it waits for a fetch (a view being prepared, 'Actualizar'), and for how long at most. */
export const POLL_EVERY_MS = 3_000;
export const POLL_FOR_MS = 60_000;

/** When each query started waiting (a view being prepared): polling stops `POLL_FOR_MS` later. */
const waitingSince = new WeakMap<object, number>();

/**
 * A `refetchInterval` for a query that waits for the workers: every `POLL_EVERY_MS` while `waiting`,
 * for `POLL_FOR_MS` at most (react-query asks again after every answer). `query` keys the clock.
 */
export function boundedPoll(query: object, waiting: boolean): number | false {
  if (!waiting) {
    waitingSince.delete(query);
    return false;
  }
  const since = waitingSince.get(query) ?? Date.now();
  waitingSince.set(query, since);
  return Date.now() - since < POLL_FOR_MS ? POLL_EVERY_MS : false;
}

function pollWhilePending(query: Query<DayViews, Error, DayViews, readonly unknown[]>): number | false {
  return boundedPoll(query, query.state.data?.views.some((view) => view.state === 'pending') ?? false);
}

/** The views, asked again every few seconds while one is still being prepared (`pending`), for a minute at most. */
export function useDayViews({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: DAY_VIEWS_QUERY_KEY,
    queryFn: ({ signal }) => getDayViews({ signal }),
    enabled,
    // A failure says so at once, with Reintentar; the rest of the page works.
    retry: false,
    refetchInterval: pollWhilePending,
  });
}

/** Puts the view the server answered with in place of the one on screen; the "Tu día" timeline is read again when next shown. */
function storeView(queryClient: QueryClient, view: DayView) {
  queryClient.setQueryData<DayViews>(DAY_VIEWS_QUERY_KEY, (current) => {
    if (!current) return current;
    const known = current.views.some((existing) => existing.service === view.service);
    return { views: known ? current.views.map((existing) => (existing.service === view.service ? view : existing)) : [...current.views, view] };
  });
  void queryClient.invalidateQueries({ queryKey: YOUR_DAY_QUERY_KEY, predicate: (query) => query.queryKey[1] !== DAY_VIEWS_QUERY_KEY[1] });
}

/** 'Mostrar esta vista': off, nothing is fetched or kept; on, the view is `pending` until its first fetch. */
export function useSetDayViewEnabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setDayViewEnabled,
    onSuccess: (view) => storeView(queryClient, view),
    onError: (error) => reportError('Error cambiando la vista', error),
  });
}

/** 'Actualizar': queues a fetch (202); the panel then asks for the views until `checked_at` changes (a new snapshot or a problem). */
export function useRefreshDayView() {
  return useMutation({
    mutationFn: refreshDayView,
    onError: (error) => reportError('Error pidiendo la actualización', error),
  });
}

/** A Hue light switched at the provider and read back: the answer is the view with the light's real state. */
export function useSwitchHueLight() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: switchHueLight,
    onSuccess: (view) => storeView(queryClient, view),
    onError: (error) => reportError('Error cambiando la luz', error),
  });
}
