import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppRouter } from '@/app/router';
import { TooltipProvider } from '@/components/ui/tooltip';
import { createQueryClient } from '@/lib/query-client';

function renderApp(path: string) {
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }));
  render(
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <RouterProvider router={router} />
      </TooltipProvider>
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  // The legal pages prefetch /api/site; nothing needs to answer here.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise(() => {})),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('/contact route', () => {
  it('is public, inside the layout, and reached from the footer', async () => {
    const router = renderApp('/terms-of-use');
    await userEvent.click(await within(await screen.findByRole('contentinfo')).findByRole('link', { name: 'Contacto' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Contacto' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/contact');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByLabelText('Asunto')).toHaveValue('');
  });

  it('preselects the privacy subject when the privacy policy links here, and ignores unknown subjects', async () => {
    renderApp('/privacy-policy');
    await userEvent.click(await screen.findByRole('link', { name: 'página de contacto' }));
    await waitFor(() => expect(screen.getByLabelText('Asunto')).toHaveValue('privacy'));
  });

  it('ignores a subject that is not in the list', async () => {
    renderApp('/contact?subject=sales');
    expect(await screen.findByLabelText('Asunto')).toHaveValue('');
  });
});
