import { createRouter, type RouterHistory } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { NotFoundPage } from '@/components/layout/not-found-page';
import { setUnauthorizedHandler } from '@/lib/api-client';
import { routeTree } from '@/routeTree.gen';

export interface RouterContext {
  queryClient: QueryClient;
}

/** `history` is for tests (memory history); the browser history is the default. */
export function createAppRouter(queryClient: QueryClient, history?: RouterHistory) {
  const router = createRouter({
    routeTree,
    history,
    context: { queryClient },
    defaultPreload: 'intent',
    // Loaders prefetch into react-query, which owns freshness.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultNotFoundComponent: NotFoundPage,
  });
  // API policy: a 401 has already cleared the session; take the user home, which says a sign-in is
  // needed and comes back to the page after it (`?next=`), as for a signed-out visit.
  setUnauthorizedHandler(() => {
    // The location being shown or navigated to: a page's other calls may 401 too, after the first one's navigation.
    const { pathname, href } = router.latestLocation;
    if (pathname !== '/') void router.navigate({ to: '/', search: { next: href } });
  });
  return router;
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
