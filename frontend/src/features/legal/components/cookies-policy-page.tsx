import { useTranslation } from 'react-i18next';
import { LegalPage } from './legal-page';

export function CookiesPolicyPage() {
  const { t } = useTranslation();
  return (
    <LegalPage title={t('legal.cookies.title')}>
      <p>{t('legal.cookies.intro')}</p>
      <h2>{t('legal.cookies.technicalTitle')}</h2>
      <p>{t('legal.cookies.technical')}</p>
      <h2>{t('legal.cookies.changesTitle')}</h2>
      <p>{t('legal.cookies.changes')}</p>
    </LegalPage>
  );
}
