import { createFileRoute } from '@tanstack/react-router';
import { siteInfoQueryOptions } from '@/features/legal/api/get-site-info';
import { TermsOfUsePage } from '@/features/legal/components/terms-of-use-page';

export const Route = createFileRoute('/terms-of-use')({
  // Start fetching the company details without holding the page back: it shows placeholders meanwhile.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(siteInfoQueryOptions());
  },
  component: TermsOfUsePage,
});
