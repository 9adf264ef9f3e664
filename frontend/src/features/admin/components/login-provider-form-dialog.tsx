import { useId, useState, type FormEvent } from 'react';
import { LOGIN_PROVIDERS, SECRET_MASK, type LoginProviderDto } from '@life/contracts';
import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';
import { useCreateLoginProvider, type LoginProviderFields } from '../api/create-login-provider';
import { useUpdateLoginProvider } from '../api/update-login-provider';

/** The provider fields in form order; their labels are the field names themselves. */
export const PROVIDER_FIELDS = [
  'service_name',
  'service_type',
  'description',
  'app_id',
  'app_secret',
  'base_url',
  'auth_url',
  'token_url',
  'redirect_url',
  'scopes',
  'user_url',
] as const;
export type ProviderField = (typeof PROVIDER_FIELDS)[number];
type FormValues = Record<ProviderField, string>;

const URL_FIELDS = new Set<ProviderField>(['base_url', 'auth_url', 'token_url', 'redirect_url', 'user_url']);
/** Short fields share a row on wide screens; the rest take the full width. */
const HALF_WIDTH = new Set<ProviderField>(['service_name', 'service_type', 'app_id', 'app_secret']);

const NEW_PROVIDER: FormValues = {
  service_name: '',
  service_type: 'login',
  description: '',
  app_id: '',
  app_secret: '',
  base_url: '',
  auth_url: '',
  token_url: '',
  redirect_url: '',
  scopes: '',
  user_url: '',
};

function valuesOf(provider: LoginProviderDto | undefined): FormValues {
  if (!provider) return NEW_PROVIDER;
  return Object.fromEntries(PROVIDER_FIELDS.map((field) => [field, provider[field] ?? ''])) as FormValues;
}

/** What the API gets: blanks become null, except the secret ('********' = keep, '' = none, else the new secret). */
export function fieldsOf(values: FormValues): LoginProviderFields {
  const text = (value: string) => value.trim() || null;
  return {
    service_name: values.service_name.trim(),
    service_type: values.service_type.trim(),
    description: text(values.description),
    app_id: text(values.app_id),
    app_secret: values.app_secret,
    base_url: text(values.base_url),
    auth_url: text(values.auth_url),
    token_url: text(values.token_url),
    redirect_url: text(values.redirect_url),
    scopes: text(values.scopes),
    user_url: text(values.user_url),
  };
}

export interface LoginProviderFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The provider to edit; none for a new one. */
  provider?: LoginProviderDto;
}

export function LoginProviderFormDialog({ open, onOpenChange, provider }: LoginProviderFormDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* Above the admin panel (z-70); the fields scroll between a fixed title and fixed buttons. */}
      <DialogContent
        className="z-[80] max-w-2xl overflow-hidden"
        overlayClassName="z-[80]"
        data-testid="provider-form"
        // Radix would focus the first field with its text selected, so one stray key replaces the name.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          (event.currentTarget as HTMLElement).querySelector<HTMLElement>('input, textarea')?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{provider ? t('admin.providers.form.editTitle') : t('admin.providers.form.newTitle')}</DialogTitle>
          <DialogDescription>{t('admin.providers.form.description')}</DialogDescription>
        </DialogHeader>
        {/* Remounted for each provider, so the fields start from its values. */}
        <ProviderForm key={provider?.id ?? 'new'} provider={provider} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ProviderForm({ provider, onDone }: { provider?: LoginProviderDto; onDone: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [values, setValues] = useState<FormValues>(() => valuesOf(provider));
  const create = useCreateLoginProvider();
  const update = useUpdateLoginProvider();
  const saving = create.isPending || update.isPending;
  const hasStoredSecret = provider?.app_secret === SECRET_MASK;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = fieldsOf(values);
    // Spec section 8: the form closes whatever the answer; failures are only logged (in the hooks).
    const options = { onSettled: onDone };
    if (provider) update.mutate({ id: provider.id, fields }, options);
    else create.mutate(fields, options);
  }

  function set(field: ProviderField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="flex min-h-0 flex-1 flex-col gap-4">
      <div className="-mx-6 grid min-h-0 flex-1 gap-4 overflow-y-auto px-6 pt-1 pb-2 sm:-mx-7 sm:grid-cols-2 sm:px-7">
        {PROVIDER_FIELDS.map((field) => {
          const inputId = `${id}-${field}`;
          const common = {
            id: inputId,
            name: field,
            value: values[field],
            'data-testid': `provider-field-${field}`,
            disabled: saving,
          };
          return (
            <div key={field} className={cn('grid content-start gap-1.5', !HALF_WIDTH.has(field) && 'sm:col-span-2')}>
              <label htmlFor={inputId} className="font-mono text-xs font-medium text-muted-foreground">
                {t(`admin.providers.fields.${field}`)}
              </label>
              {field === 'description' ? (
                <textarea
                  {...common}
                  rows={3}
                  onChange={(event) => set(field, event.target.value)}
                  className="min-h-16 w-full rounded-xl border border-input bg-card px-4 py-2.5 text-base text-foreground shadow-xs outline-none focus-visible:border-ring focus-visible:ring-4 focus-visible:ring-ring/15 disabled:opacity-50 sm:text-sm"
                />
              ) : field === 'app_secret' ? (
                <Input
                  {...common}
                  type="password"
                  autoComplete="new-password"
                  // Typing into the mask would append to it: select it so the first key replaces it.
                  onFocus={(event) => event.currentTarget.select()}
                  onChange={(event) => set(field, event.target.value)}
                  aria-describedby={hasStoredSecret ? `${inputId}-hint` : undefined}
                />
              ) : (
                <Input
                  {...common}
                  type="text"
                  inputMode={URL_FIELDS.has(field) ? 'url' : undefined}
                  autoComplete="off"
                  spellCheck={false}
                  list={field === 'service_name' ? `${id}-names` : undefined}
                  onChange={(event) => set(field, event.target.value)}
                />
              )}
              {field === 'app_secret' && hasStoredSecret && (
                <p id={`${inputId}-hint`} className="text-xs text-muted-foreground">
                  {t('admin.providers.form.secretHint')}
                </p>
              )}
            </div>
          );
        })}
      </div>
      <datalist id={`${id}-names`}>
        {LOGIN_PROVIDERS.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <div className="-mx-6 flex flex-col-reverse gap-3 border-t px-6 pt-4 sm:-mx-7 sm:flex-row sm:justify-end sm:px-7">
        <Button variant="outline" onClick={onDone} data-testid="provider-cancel">
          {t('admin.providers.form.cancel')}
        </Button>
        <Button type="submit" disabled={saving} data-testid="provider-save">
          {saving && <LoaderCircle aria-hidden="true" className="animate-spin" />}
          {t('admin.providers.form.save')}
        </Button>
      </div>
    </form>
  );
}
