import { createFileRoute } from '@tanstack/react-router';
import { CookiesPolicyPage } from '@/features/legal/components/cookies-policy-page';

export const Route = createFileRoute('/cookies-policy')({
  component: CookiesPolicyPage,
});
