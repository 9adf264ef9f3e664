import { lazy, Suspense, useState } from 'react';
import { Outlet } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Footer } from '@/components/layout/footer';
import { Header } from '@/components/layout/header';
import { loadAllSpanish } from '@/i18n/i18n';
import { isFramed } from '@/lib/frame';
import { useSession } from '@/lib/session';
import { usePageTitle } from './page-title';

// Only admins ever open the panel, so its code (and later its sections) loads on demand.
// It opens over the landing page too, whose Spanish is only the part that page shows.
const AdminPanel = lazy(() =>
  Promise.all([import('@/features/admin/components/admin-panel'), loadAllSpanish()]).then(([module]) => ({ default: module.AdminPanel })),
);

export function RootLayout() {
  const { t } = useTranslation();
  const { isAdmin } = useSession();
  usePageTitle();
  const [adminRequested, setAdminRequested] = useState(false);
  // Framed (the admin panel's Autorizar shows the consent page in a dialog): only the page, no header, footer or panel.
  const [framed] = useState(isFramed);
  // Losing the admin role (logout, another tab) closes the panel.
  const adminPanelOpen = adminRequested && isAdmin;

  if (framed) {
    return (
      <main id="main" className="min-h-dvh" data-testid="framed-main">
        <Outlet />
      </main>
    );
  }

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-primary px-4 py-2 text-sm text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        {t('app.skipToContent')}
      </a>
      <Header adminPanelOpen={adminPanelOpen} onOpenAdminPanel={() => setAdminRequested(true)} />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <Footer />
      {adminPanelOpen && (
        <Suspense fallback={null}>
          <AdminPanel open onOpenChange={setAdminRequested} />
        </Suspense>
      )}
    </div>
  );
}
