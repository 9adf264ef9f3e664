import type { AppGrant } from '@life/contracts';
import { AppWindow, Check, LoaderCircle, Unplug } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { apiErrorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useAppGrants } from '../api/get-app-grants';
import { useRevokeAppGrant } from '../api/revoke-app-grant';

/** 'Aplicaciones con acceso': the third-party apps the person said yes to, each with Revocar. */
export function AppGrantsSection() {
  const { t } = useTranslation();
  const grants = useAppGrants();
  const revoke = useRevokeAppGrant();

  function handleRevoke(grant: AppGrant) {
    if (!window.confirm(t('profile.apps.confirmRevoke', { name: grant.client_name }))) return;
    revoke.mutate({ id: grant.id });
  }

  return (
    <section aria-labelledby="app-grants-title" data-testid="app-grants" className="mt-8 rounded-3xl border bg-card p-6 shadow-soft sm:p-8">
      <h2 id="app-grants-title" className="text-xl font-semibold tracking-tight text-foreground">
        {t('profile.apps.title')}
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">{t('profile.apps.description')}</p>

      {revoke.isError && (
        <Alert variant="error" className="mt-5" data-testid="app-grants-revoke-error">
          {t('profile.apps.revokeError', { message: apiErrorMessage(revoke.error) ?? t('profile.apps.tryAgain') })}
        </Alert>
      )}

      <div className="mt-5">
        {grants.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner label={t('profile.apps.loading')} />
          </div>
        ) : grants.isError ? (
          <Alert
            variant="error"
            data-testid="app-grants-error"
            action={
              <Button variant="outline" size="sm" className="-my-1" onClick={() => void grants.refetch()}>
                {t('profile.retry')}
              </Button>
            }
          >
            {t('profile.apps.loadError')}
          </Alert>
        ) : grants.data.length === 0 ? (
          <p className="rounded-2xl bg-muted/60 px-4 py-5 text-center text-sm text-muted-foreground" data-testid="app-grants-empty">
            {t('profile.apps.empty')}
          </p>
        ) : (
          <ul className="grid gap-3">
            {grants.data.map((grant) => (
              <GrantItem key={grant.id} grant={grant} revoking={revoke.isPending && revoke.variables.id === grant.id} onRevoke={() => handleRevoke(grant)} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function GrantItem({ grant, revoking, onRevoke }: { grant: AppGrant; revoking: boolean; onRevoke: () => void }) {
  const { t } = useTranslation();
  const grantedAt = new Date(grant.granted_at);
  return (
    // Phones: name, scopes, then Revocar; wider screens: Revocar at the top right.
    <li
      className="grid grid-cols-1 gap-3 rounded-2xl border px-4 py-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:px-5"
      data-testid="app-grant"
      data-grant-id={grant.id}
    >
      <div className="flex min-w-0 items-start gap-3">
        <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-secondary text-secondary-foreground">
          <AppWindow aria-hidden="true" className="size-4" />
        </span>
        <div className="min-w-0">
          <h3 className="font-semibold break-words text-foreground" data-testid="app-grant-name">
            {grant.client_name}
          </h3>
          {!Number.isNaN(grantedAt.getTime()) && (
            <p className="text-xs text-muted-foreground" data-testid="app-grant-date">
              {t('profile.apps.grantedAt', { date: formatDate(grantedAt) })}
            </p>
          )}
        </div>
      </div>
      <Button
        variant="outline"
        size="sm"
        className="order-last justify-self-start hover:border-destructive/40 hover:bg-destructive/10 hover:text-destructive sm:order-none sm:col-start-2 sm:row-start-1 sm:justify-self-end"
        aria-label={t('profile.apps.revokeLabel', { name: grant.client_name })}
        disabled={revoking}
        onClick={onRevoke}
        data-testid="app-grant-revoke"
      >
        {revoking ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Unplug aria-hidden="true" />}
        {t('profile.apps.revoke')}
      </Button>
      {grant.scopes.length > 0 ? (
        <ul className="grid gap-1.5 sm:col-span-2 sm:pl-12" aria-label={t('profile.apps.scopesLabel')} data-testid="app-grant-scopes">
          {grant.scopes.map((entry) => (
            <li key={entry.scope} data-scope={entry.scope} className="flex items-start gap-2 text-sm text-foreground">
              <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
              <span className="min-w-0 break-words">{entry.description}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground sm:col-span-2 sm:pl-12">{t('profile.apps.noScopes')}</p>
      )}
    </li>
  );
}
