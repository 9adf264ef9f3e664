import { useTranslation } from 'react-i18next';
import { PageStatus } from '@/components/layout/page-status';

/** Return page of a login. Exchanging the code for a session comes with the backend's auth module. */
export function LoginCallbackPage() {
  const { t } = useTranslation();
  return <PageStatus message={t('callback.login')} />;
}
