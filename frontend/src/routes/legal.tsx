import { createFileRoute } from '@tanstack/react-router';
import { siteInfoQueryOptions } from '@/features/legal/api/get-site-info';
import { LegalNoticePage } from '@/features/legal/components/legal-notice-page';

export const Route = createFileRoute('/legal')({
  // Start fetching the company details without holding the page back: it shows placeholders meanwhile.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(siteInfoQueryOptions());
  },
  component: LegalNoticePage,
});
