import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { LegalPage, LegalText } from './legal-page';

const PURPOSE_COUNT = 4;
const linkClass = 'font-medium text-primary underline underline-offset-4';

export function PrivacyPolicyPage() {
  const { t } = useTranslation();
  return (
    <LegalPage title={t('legal.privacy.title')}>
      <h2>{t('legal.privacy.controllerTitle')}</h2>
      <p>
        <LegalText i18nKey="legal.privacy.controller" />
      </p>
      <h2>{t('legal.privacy.purposesTitle')}</h2>
      <p>{t('legal.privacy.purposesIntro')}</p>
      <ul>
        {Array.from({ length: PURPOSE_COUNT }, (_, i) => (
          <li key={i}>{t(`legal.privacy.purposes.${i}`)}</li>
        ))}
      </ul>
      <h2>{t('legal.privacy.rightsTitle')}</h2>
      <p>
        <LegalText i18nKey="legal.privacy.rights" />
      </p>
      <h2>{t('legal.privacy.accountTitle')}</h2>
      <p>
        <LegalText
          i18nKey="legal.privacy.account"
          components={{
            profile: <Link to="/profile" className={linkClass} />,
            // Data-rights requests are the privacy subject of the contact form: preselect it.
            contact: <Link to="/contact" search={{ subject: 'privacy' }} className={linkClass} />,
          }}
        />
      </p>
    </LegalPage>
  );
}
