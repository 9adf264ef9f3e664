import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { getAuthToken } from '@/lib/session';

/**
 * Layout for signed-in pages: without an auth token the visitor is sent home, which says why,
 * offers to sign in, and comes back here afterwards (`/?next=/dashboard`).
 */
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: ({ location }) => {
    if (!getAuthToken()) throw redirect({ to: '/', search: { next: location.href } });
  },
  component: Outlet,
});
