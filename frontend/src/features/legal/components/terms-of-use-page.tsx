import { useTranslation } from 'react-i18next';
import { LegalPage, LegalText } from './legal-page';

export function TermsOfUsePage() {
  const { t } = useTranslation();
  return (
    <LegalPage title={t('legal.terms.title')}>
      <p>
        <LegalText i18nKey="legal.terms.intro" />
      </p>
      <h2>{t('legal.terms.useTitle')}</h2>
      <p>{t('legal.terms.use')}</p>
      <h2>{t('legal.terms.ipTitle')}</h2>
      <p>
        <LegalText i18nKey="legal.terms.ip" />
      </p>
      <h2>{t('legal.terms.liabilityTitle')}</h2>
      <p>
        <LegalText i18nKey="legal.terms.liability" />
      </p>
      <h2>{t('legal.terms.changesTitle')}</h2>
      <p>{t('legal.terms.changes')}</p>
    </LegalPage>
  );
}
