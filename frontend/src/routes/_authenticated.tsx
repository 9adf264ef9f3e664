import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { getAuthToken } from '@/lib/session';

/** Layout for signed-in pages: without an auth token the visitor is sent home. */
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: () => {
    if (!getAuthToken()) throw redirect({ to: '/' });
  },
  component: Outlet,
});
