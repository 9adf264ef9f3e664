import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { USERNAME_MAX, USERNAME_MIN, type UserProfile } from '@life/contracts';
import { Lock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { apiErrorMessage } from '@/lib/api-client';
import { useProfile } from '../api/get-profile';
import { useUpdateProfile } from '../api/update-profile';
import { AppGrantsSection } from './app-grants-section';
import { DataRightsSection } from './data-rights-section';
import { DeveloperAppsSection } from './developer-apps-section';

export interface ProfilePageProps {
  /** Shown above the profile form (billing's membership panel, plugged in by the `/profile` route). */
  membership?: ReactNode;
  /** Shown in the form's button row, next to 'Guardar cambios' (billing's 'Pagar con Stripe'). */
  formActions?: ReactNode;
}

export function ProfilePage({ membership, formActions }: ProfilePageProps) {
  const { t } = useTranslation();
  const profile = useProfile();

  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-foreground">{t('profile.title')}</h1>
      <p className="mt-2 text-muted-foreground">{t('profile.subtitle')}</p>
      {membership}
      <div className="mt-8 rounded-3xl border bg-card p-6 shadow-soft sm:p-8">
        {profile.isPending ? (
          <div className="flex justify-center py-10">
            <Spinner label={t('profile.loading')} />
          </div>
        ) : profile.isError ? (
          <Alert
            variant="error"
            data-testid="profile-error"
            action={
              <Button variant="outline" size="sm" className="-my-1" onClick={() => void profile.refetch()}>
                {t('profile.retry')}
              </Button>
            }
          >
            {t('profile.loadError')}
          </Alert>
        ) : (
          // Keyed, so the field starts from the loaded name (and restarts if another user's profile loads).
          <ProfileForm key={profile.data.id} profile={profile.data} actions={formActions} />
        )}
      </div>
      <AppGrantsSection />
      <DeveloperAppsSection />
      <DataRightsSection />
    </div>
  );
}

function ProfileForm({ profile, actions }: { profile: UserProfile; actions?: ReactNode }) {
  const { t } = useTranslation();
  const id = useId();
  const [username, setUsername] = useState(profile.username);
  const save = useUpdateProfile();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate({ username: username.trim() });
  }

  function handleChange(value: string) {
    setUsername(value);
    // A new edit makes the last result stale.
    if (save.isSuccess || save.isError) save.reset();
  }

  const serverMessage = save.isError ? apiErrorMessage(save.error) : undefined;

  return (
    <form onSubmit={handleSubmit} className="grid gap-6" noValidate>
      <div className="grid gap-2">
        <label htmlFor={`${id}-username`} className="text-sm font-medium text-foreground">
          {t('profile.username')}
        </label>
        <Input
          id={`${id}-username`}
          name="username"
          autoComplete="username"
          value={username}
          onChange={(event) => handleChange(event.target.value)}
          aria-describedby={`${id}-username-hint`}
          data-testid="profile-username"
        />
        {/* The rules the server checks (USERNAME_MIN/MAX, letters, digits, . - _), shown before any failure. */}
        <p id={`${id}-username-hint`} className="text-xs text-muted-foreground" data-testid="profile-username-hint">
          {t('profile.usernameHint', { min: USERNAME_MIN, max: USERNAME_MAX })}
        </p>
      </div>
      <div className="grid gap-2">
        <label htmlFor={`${id}-email`} className="text-sm font-medium text-foreground">
          {t('profile.email')}
        </label>
        <div className="relative">
          <Input
            id={`${id}-email`}
            type="email"
            value={profile.email}
            readOnly
            aria-describedby={`${id}-email-hint`}
            className="bg-muted pr-10 text-muted-foreground"
            data-testid="profile-email"
          />
          <Lock aria-hidden="true" className="pointer-events-none absolute top-1/2 right-3.5 size-4 -translate-y-1/2 text-muted-foreground" />
        </div>
        <p id={`${id}-email-hint`} className="text-xs text-muted-foreground">
          {t('profile.emailHint')}
        </p>
      </div>

      {save.isSuccess && (
        <Alert variant="success" data-testid="profile-success">
          {t('profile.saved')}
        </Alert>
      )}
      {save.isError && (
        <Alert variant="error" data-testid="profile-error">
          {serverMessage ? t('common.errorWithMessage', { error: t('profile.saveError'), message: serverMessage }) : t('profile.saveError')}
        </Alert>
      )}

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending} data-testid="profile-save">
          {save.isPending ? t('profile.saving') : t('profile.save')}
        </Button>
        {actions}
      </div>
    </form>
  );
}
