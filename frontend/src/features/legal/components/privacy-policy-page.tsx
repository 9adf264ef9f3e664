import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { LegalPage, LegalText } from './legal-page';

const PURPOSE_COUNT = 4;
const STORED_COUNT = 7;
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
      {/* The dashboard's privacy banner and the profile's 'Tus datos' link here. */}
      <h2 id="que-guardamos" className="scroll-mt-24">
        {t('legal.privacy.storedTitle')}
      </h2>
      <p>{t('legal.privacy.storedIntro')}</p>
      <ul data-testid="privacy-stored">
        {Array.from({ length: STORED_COUNT }, (_, i) => (
          <li key={i}>{t(`legal.privacy.stored.${i}`)}</li>
        ))}
      </ul>
      <h2>{t('legal.privacy.retentionTitle')}</h2>
      <p>{t('legal.privacy.retention')}</p>
      <h2>{t('legal.privacy.rightsTitle')}</h2>
      <p>
        <LegalText i18nKey="legal.privacy.rights" />
      </p>
      <p>
        <LegalText
          i18nKey="legal.privacy.selfService"
          components={{
            // The profile's 'Tus datos' section (features/profile: DATA_RIGHTS_ANCHOR).
            export: <Link to="/profile" hash="tus-datos" className={linkClass} />,
            erase: <Link to="/profile" hash="tus-datos" className={linkClass} />,
          }}
        />
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
