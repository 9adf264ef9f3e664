import { useEffect, useId, useState } from 'react';
import type { OAuthClientWithSecret } from '@life/contracts';
import { Check, Copy, Info } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';

/** A read-only value with a copy button. The text is selected on focus, for when the clipboard is not available. */
export function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  const id = useId();
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch (error) {
      // No clipboard (an insecure origin, a refused permission): the field is still there to select by hand.
      console.error('No se pudo copiar al portapapeles', error);
      document.getElementById(id)?.focus();
    }
  }

  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
        {label}
      </label>
      <div className="flex gap-2">
        <Input
          id={id}
          readOnly
          value={value}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 flex-1 font-mono text-sm sm:text-xs"
          data-testid={testId}
        />
        <Button
          variant="outline"
          size="icon"
          className="size-11 shrink-0 rounded-xl"
          aria-label={copied ? t('oauth.admin.secret.copied') : t('oauth.admin.secret.copy', { field: label })}
          title={copied ? t('oauth.admin.secret.copied') : t('oauth.admin.secret.copy', { field: label })}
          onClick={() => void copy()}
          data-testid={`${testId}-copy`}
        >
          {copied ? <Check aria-hidden="true" className="text-green-700" /> : <Copy aria-hidden="true" />}
        </Button>
      </div>
    </div>
  );
}

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
