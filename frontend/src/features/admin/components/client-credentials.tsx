import type { OAuthClientWithSecret } from '@life/contracts';
import { Info } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CopyField } from '@/components/copy-field';
import { Alert } from '@/components/ui/alert';

export { CopyField } from '@/components/copy-field';

/**
 * The client's credentials right after it is created or its secret regenerated: the only time
 * the secret can be seen. Public clients have none and are told to use PKCE.
 */
export function ClientCredentials({ client }: { client: OAuthClientWithSecret }) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-4" data-testid="client-credentials">
      <CopyField label={t('oauth.admin.secret.clientId')} value={client.client_id} testId="client-credentials-id" />
      {client.client_secret ? (
        <>
          <CopyField label={t('oauth.admin.secret.clientSecret')} value={client.client_secret} testId="client-credentials-secret" />
          <Alert variant="warning" data-testid="client-credentials-warning">
            {t('oauth.admin.secret.warning')}
          </Alert>
        </>
      ) : (
        <p className="flex items-start gap-2 rounded-2xl bg-muted/60 px-4 py-3 text-sm text-muted-foreground" data-testid="client-credentials-public">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {t('oauth.admin.secret.publicNote')}
        </p>
      )}
    </div>
  );
}
