import { createRootRouteWithContext } from '@tanstack/react-router';
import type { RouterContext } from '@/app/router';
import { RootLayout } from '@/app/root-layout';
import { NotFoundPage } from '@/components/layout/not-found-page';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});
