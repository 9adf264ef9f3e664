import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { TooltipProvider } from '@/components/ui/tooltip';
import { createQueryClient } from '@/lib/query-client';

/**
 * Renders `ui` as the page at `/` of a throw-away memory router (so <Link> works), with
 * react-query and tooltips. Routing is asynchronous: query with `findBy…` first.
 * `initialPath` may add a query string to `/` (e.g. `/?login_error=not_invited`).
 */
export function renderWithProviders(ui: ReactNode, { queryClient = createQueryClient(), initialPath = '/' } = {}) {
  const rootRoute = createRootRoute({ component: Outlet });
  const pageRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: () => ui });
  // Targets of the layout's links, so navigation in tests lands somewhere.
  const otherRoutes = ['/dashboard', '/today', '/profile', '/privacy-policy', '/terms-of-use', '/legal', '/cookies-policy'].map((path) =>
    createRoute({ getParentRoute: () => rootRoute, path, component: () => null }),
  );
  const router = createRouter({
    routeTree: rootRoute.addChildren([pageRoute, ...otherRoutes]),
    history: createMemoryHistory({ initialEntries: [initialPath] }),
  });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        {/* The test route tree is not the registered app router type. */}
        <RouterProvider router={router as never} />
      </TooltipProvider>
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}

export const ADMIN_USER = { id: '1', username: 'ana', email: 'ana@example.com', role: 'admin' } as const;
export const REGULAR_USER = { id: '2', username: 'bruno', email: 'bruno@example.com', role: 'user' } as const;

export function signIn(user: { id: string; username: string; email: string; role: 'user' | 'admin' }) {
  window.localStorage.setItem('authToken', 'test-token');
  window.localStorage.setItem('user', JSON.stringify(user));
}
