import { useEffect, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { TooltipProvider } from '@/components/ui/tooltip';
import i18n from '@/i18n/i18n';
import { createQueryClient } from '@/lib/query-client';
import { createAppRouter } from './router';

/**
 * Some answers carry texts the API wrote in the language asked for (what an app's permissions
 * mean, for one): when the language changes, what is on screen is fetched again in the new one.
 */
function refetchInNewLanguage(queryClient: ReturnType<typeof createQueryClient>): () => void {
  let shown = i18n.language;
  const onChange = (language: string) => {
    if (language === shown) return; // Same language, another country: only formats change.
    shown = language;
    void queryClient.invalidateQueries();
  };
  i18n.on('languageChanged', onChange);
  return () => i18n.off('languageChanged', onChange);
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter(queryClient));
  useEffect(() => refetchInNewLanguage(queryClient), [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider delayDuration={300}>
        <RouterProvider router={router} />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
