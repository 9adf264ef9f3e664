import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { displayNameOf } from '@/shared/services/utils/service-names';
import { getCredentials, saveCredentials, type CredentialValues } from '../api/credentials';

const EMPTY: CredentialValues = { client_id: '', client_secret: '' };

export interface CredentialsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The service whose credentials are edited; without one the fields stay empty. */
  service?: { service_name: string } | null;
  /** Called after a save, before the dialog closes. */
  onSaved?: () => void;
}

/**
 * 'Editar credenciales - {service}': the person's own Client ID and Client Secret for a service
 * (spec sections 2, 4, 5 and 8). Opened for a service it loads the stored pair with the fields
 * disabled; a 404 means none (empty fields) and a network failure just stops loading. Closed, or
 * without a service, the fields are cleared. Guardar sends whatever is typed (empty values too),
 * does not look at the answer, calls `onSaved` and closes.
 */
export function CredentialsDialog({ open, onOpenChange, service, onSaved }: CredentialsDialogProps) {
  const { t, i18n } = useTranslation();
  const serviceName = service?.service_name;
  const active = open && !!serviceName;
  const stored = useQuery({
    queryKey: ['services', 'credentials', serviceName],
    queryFn: ({ signal }) => getCredentials(serviceName!, { signal }),
    enabled: active,
    retry: false,
    // Always read afresh when the dialog opens, and forget the pair once it closes.
    staleTime: 0,
    gcTime: 0,
  });
  const loading = active && stored.isFetching;
  const initial = active && !loading && stored.data ? stored.data : EMPTY;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="z-[80]" overlayClassName="z-[80]" data-testid="credentials-dialog">
        <DialogHeader>
          <DialogTitle>{t('credentials.title', { name: serviceName ? displayNameOf(serviceName, i18n) : '' })}</DialogTitle>
          <DialogDescription>{t('credentials.description')}</DialogDescription>
        </DialogHeader>
        {/* Remounted when the stored pair arrives (or the service changes), so the fields start from it. */}
        <CredentialsForm
          key={`${serviceName ?? ''}:${loading ? 'loading' : stored.dataUpdatedAt}`}
          serviceName={serviceName}
          initial={initial}
          loading={loading}
          onSaved={onSaved}
          onClose={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  );
}

interface CredentialsFormProps {
  serviceName?: string;
  initial: CredentialValues;
  loading: boolean;
  onSaved?: () => void;
  onClose: () => void;
}

function CredentialsForm({ serviceName, initial, loading, onSaved, onClose }: CredentialsFormProps) {
  const { t } = useTranslation();
  const id = useId();
  const [values, setValues] = useState<CredentialValues>(initial);
  const [saving, setSaving] = useState(false);
  const busy = loading || saving;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!serviceName) return;
    setSaving(true);
    await saveCredentials({ service_name: serviceName, ...values });
    setSaving(false);
    onSaved?.();
    onClose();
  }

  const set = (field: keyof CredentialValues, value: string) => setValues((current) => ({ ...current, [field]: value }));

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate className="grid gap-5" aria-busy={busy}>
      <div className="grid gap-2">
        <label htmlFor={`${id}-client-id`} className="text-sm font-medium text-foreground">
          {t('credentials.clientId')}
        </label>
        <Input
          id={`${id}-client-id`}
          name="client_id"
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={values.client_id}
          disabled={busy}
          onChange={(event) => set('client_id', event.target.value)}
          data-testid="credentials-client-id"
        />
      </div>
      <div className="grid gap-2">
        <label htmlFor={`${id}-client-secret`} className="text-sm font-medium text-foreground">
          {t('credentials.clientSecret')}
        </label>
        <Input
          id={`${id}-client-secret`}
          name="client_secret"
          type="password"
          autoComplete="new-password"
          value={values.client_secret}
          disabled={busy}
          // Typing into the mask would append to it: select it so the first key replaces it.
          onFocus={(event) => event.currentTarget.select()}
          onChange={(event) => set('client_secret', event.target.value)}
          data-testid="credentials-client-secret"
        />
      </div>
      {loading && (
        <p role="status" className="-mt-2 flex items-center gap-2 text-sm text-muted-foreground">
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          {t('credentials.loading')}
        </p>
      )}
      <div className="flex flex-col-reverse gap-3 pt-1 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose} data-testid="credentials-cancel">
          {t('credentials.cancel')}
        </Button>
        <Button type="submit" disabled={busy || !serviceName} data-testid="credentials-save">
          {saving && <LoaderCircle aria-hidden="true" className="animate-spin" />}
          {t('credentials.save')}
        </Button>
      </div>
    </form>
  );
}
