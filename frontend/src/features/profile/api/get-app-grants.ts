import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { appGrantsQueryOptions } from '@/lib/app-grants';

/** `GET /api/users/me/apps` (shared with the consent screen, see lib/app-grants), in the language on screen. */
export function useAppGrants() {
  const { i18n } = useTranslation();
  return useQuery({ ...appGrantsQueryOptions(i18n.language), placeholderData: (previous) => previous });
}
