import { useTranslation } from 'react-i18next';
import { PageStatus } from '@/components/layout/page-status';

/** Return page of a service connection. Processing the code comes with the services module. */
export function ServiceCallbackPage() {
  const { t } = useTranslation();
  return <PageStatus message={t('callback.service')} />;
}
