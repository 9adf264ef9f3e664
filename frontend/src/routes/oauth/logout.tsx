import { createFileRoute } from '@tanstack/react-router';
import { LogoutPage } from '@/features/oauth/components/logout-page';

export const Route = createFileRoute('/oauth/logout')({
  component: LogoutPage,
});
