import { useEffect } from 'react';
import { useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

/**
 * Each page's `<title>`, by route, in the language on screen (issue 20): tabs, history and screen
 * readers tell the pages apart. The home page has its own full title; every other is
 * "{page} · Life", its name being the page's main heading where it has one.
 */
export const PAGE_TITLE_KEYS = {
  '/': 'app.titles.home',
  '/_authenticated/dashboard': 'dashboard.title',
  '/_authenticated/profile': 'profile.title',
  '/_authenticated/today': 'yourDay.today.title',
  '/contact': 'contact.title',
  '/legal': 'legal.notice.title',
  '/privacy-policy': 'legal.privacy.title',
  '/terms-of-use': 'legal.terms.title',
  '/cookies-policy': 'legal.cookies.title',
  '/oauth/authorize': 'oauth.consent.title',
  '/oauth/logout': 'oauth.logout.title',
  '/login/$provider/callback': 'app.titles.signingIn',
  '/callback/$service': 'app.titles.connecting',
} as const;

const NOT_FOUND_KEY = 'notFound.title';

/** The title key of what is on screen: the deepest matched route's, or the 404 page's. */
function useTitleKey(): string | undefined {
  return useRouterState({
    select: (state) => {
      const { matches } = state;
      const deepest = matches.at(-1);
      // No route but the root matched (an unknown path), or a route said notFound().
      if (!deepest || deepest.routeId === '__root__' || matches.some((match) => match.status === 'notFound')) return NOT_FOUND_KEY;
      return (PAGE_TITLE_KEYS as Record<string, string>)[deepest.routeId];
    },
  });
}

export function usePageTitle(): void {
  const { t } = useTranslation();
  const key = useTitleKey();
  const title = key === undefined ? t('app.name') : key === PAGE_TITLE_KEYS['/'] ? t(key) : t('app.titles.format', { page: t(key) });
  useEffect(() => {
    document.title = title;
  }, [title]);
}
