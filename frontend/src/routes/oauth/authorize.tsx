import { createFileRoute } from '@tanstack/react-router';
import { ConsentPage } from '@/features/oauth/components/consent-page';

export const Route = createFileRoute('/oauth/authorize')({
  component: ConsentPage,
});
