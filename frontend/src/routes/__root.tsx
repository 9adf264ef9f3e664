import { createRootRouteWithContext } from '@tanstack/react-router';
import type { RouterContext } from '@/app/router';
import { RootLayout } from '@/app/root-layout';
import { NotFoundPage } from '@/components/layout/not-found-page';
import { loadAllSpanish } from '@/i18n/i18n';

export const Route = createRootRouteWithContext<RouterContext>()({
  // The landing page's Spanish is bundled; any other page waits for the rest (fetched once).
  beforeLoad: ({ location }) => (location.pathname === '/' ? undefined : loadAllSpanish()),
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});
