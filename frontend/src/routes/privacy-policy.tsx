import { createFileRoute } from '@tanstack/react-router';
import { siteInfoQueryOptions } from '@/features/legal/api/get-site-info';
import { PrivacyPolicyPage } from '@/features/legal/components/privacy-policy-page';

export const Route = createFileRoute('/privacy-policy')({
  // Start fetching the company details without holding the page back: it shows placeholders meanwhile.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(siteInfoQueryOptions());
  },
  component: PrivacyPolicyPage,
});
