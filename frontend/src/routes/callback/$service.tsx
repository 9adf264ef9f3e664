import { createFileRoute } from '@tanstack/react-router';
import { ServiceCallbackPage } from '@/features/services/components/service-callback-page';

export const Route = createFileRoute('/callback/$service')({
  component: ServiceCallbackPage,
});
