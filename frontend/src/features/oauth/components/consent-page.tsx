import { useTranslation } from 'react-i18next';
import { PageStatus } from '@/components/layout/page-status';

/** Consent screen for third-party apps: only its loading state exists so far. */
export function ConsentPage() {
  const { t } = useTranslation();
  return <PageStatus message={t('oauth.loading')} visuallyHidden />;
}
