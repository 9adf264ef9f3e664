import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { LogOut, Settings } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LazyTooltip } from '@/components/ui/lazy-tooltip';
import { logout } from '@/lib/auth';
import { useSession } from '@/lib/session';
import { useStoredUserRefresh } from '@/lib/session-sync';
import { CountryPicker } from './country-picker';
import { preloadHeaderWhenIdle } from './header-overlays-loader';
import { LoginDialog } from './login-dialog';
import { SideMenu } from './side-menu';

export interface HeaderProps {
  /** While the admin overlay is open the hamburger is not rendered (spec section 2). */
  adminPanelOpen: boolean;
  onOpenAdminPanel: () => void;
}

export function LogoMark() {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className="size-7">
      <defs>
        <linearGradient id="life-logo-gradient" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#f97362" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill="url(#life-logo-gradient)" />
      <path d="M11 8v16h10" fill="none" stroke="#fff" strokeWidth="3.2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function Header({ adminPanelOpen, onOpenAdminPanel }: HeaderProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user, isSignedIn, isAdmin } = useSession();
  // The name shown follows a rename made in another tab, browser or device.
  useStoredUserRefresh();
  // The dialogs and hints are not part of the first paint; fetch them once the page is idle.
  useEffect(() => preloadHeaderWhenIdle(), []);

  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-background/85 backdrop-blur-md">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-1 px-3 sm:gap-2 sm:px-6">
        {/* The side menu is for signed-in users only, so signed out there is no hamburger at all. */}
        {isSignedIn && !adminPanelOpen && <SideMenu />}
        <Link to="/" className="flex items-center gap-2 rounded-lg px-1 text-xl font-bold tracking-tight text-foreground" data-testid="home-link">
          <LogoMark />
          <span>{t('app.name')}</span>
        </Link>

        <div className="ml-auto flex min-w-0 items-center gap-1 sm:gap-2">
          <CountryPicker />
          {isAdmin && (
            <LazyTooltip content={t('header.openAdmin')}>
              <Button variant="ghost" size="icon" aria-label={t('header.openAdmin')} data-testid="admin-gear" onClick={onOpenAdminPanel}>
                <Settings aria-hidden="true" />
              </Button>
            </LazyTooltip>
          )}
          {isSignedIn && user ? (
            <>
              <span
                className="mx-1 max-w-[7rem] min-w-0 truncate text-sm font-medium text-foreground sm:max-w-[12rem]"
                title={t('header.signedInAs', { username: user.username })}
                data-testid="header-username"
              >
                {user.username}
              </span>
              <Button variant="outline" size="sm" className="px-3 sm:px-4" data-testid="logout-button" onClick={() => void logout(() => navigate({ to: '/' }))}>
                <LogOut aria-hidden="true" />
                <span className="sr-only sm:not-sr-only">{t('header.logout')}</span>
              </Button>
            </>
          ) : (
            <LoginDialog />
          )}
        </div>
      </div>
    </header>
  );
}
