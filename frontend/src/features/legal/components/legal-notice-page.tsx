import { useTranslation } from 'react-i18next';
import { LegalPage, LegalText } from './legal-page';

const COMPANY_FACTS = ['companyName', 'taxId', 'address', 'email'] as const;

export function LegalNoticePage() {
  const { t } = useTranslation();
  return (
    <LegalPage title={t('legal.notice.title')}>
      <p>{t('legal.notice.intro')}</p>
      <ul data-testid="company-facts">
        {COMPANY_FACTS.map((fact) => (
          <li key={fact}>
            <LegalText i18nKey={`legal.notice.${fact}`} />
          </li>
        ))}
      </ul>
      <h2>{t('legal.notice.purposeTitle')}</h2>
      <p>{t('legal.notice.purpose')}</p>
      <h2>{t('legal.notice.lawTitle')}</h2>
      <p>{t('legal.notice.law')}</p>
    </LegalPage>
  );
}
