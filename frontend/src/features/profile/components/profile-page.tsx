import { useTranslation } from 'react-i18next';

export function ProfilePage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-foreground">{t('profile.title')}</h1>
    </div>
  );
}
