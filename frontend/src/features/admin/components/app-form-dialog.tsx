import { useId, useState, type FormEvent, type ReactNode } from 'react';
import {
  BASE_SCOPES,
  CLIENT_TYPES,
  DEFAULT_CLIENT_SCOPES,
  SERVICE_NAMES,
  serviceScope,
  type BaseScope,
  type ClientType,
  type CreateOAuthClient,
  type OAuthClientView,
} from '@life/contracts';
import { Ban, BadgeCheck, KeyRound, LoaderCircle, RotateCcw, ShieldOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { apiErrorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { useCreateOAuthClient } from '../api/create-oauth-client';
import { useRegenerateClientSecret } from '../api/regenerate-client-secret';
import { useSetOAuthClientStanding } from '../api/set-oauth-client-standing';
import { useUpdateOAuthClient } from '../api/update-oauth-client';
import { ClientCredentials, CopyField } from './client-credentials';

/** Every scope an app may be allowed: the base ones, then service:<name> for each catalog service. */
export const SERVICE_SCOPES: readonly string[] = SERVICE_NAMES.map(serviceScope);

/** i18n keys may not contain ':' (i18next's namespace separator). */
const BASE_SCOPE_HINT_KEYS: Record<BaseScope, string> = {
  openid: 'openid',
  profile: 'profile',
  email: 'email',
  read: 'read',
  'services:read': 'servicesRead',
};

interface FormValues {
  name: string;
  description: string;
  /** One URI per line. */
  redirectUris: string;
  /** One URI per line (RP-initiated logout); may be empty. */
  postLogoutRedirectUris: string;
  allowedScopes: string[];
  active: boolean;
  clientType: ClientType;
  /** RFC 9126: authorization requests must be pushed to /oauth/par first. */
  requirePar: boolean;
}

/** The textarea's lines, trimmed, without blank ones. */
export function parseRedirectUris(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

function valuesOf(client: OAuthClientView | undefined): FormValues {
  if (!client) {
    return {
      name: '',
      description: '',
      redirectUris: '',
      postLogoutRedirectUris: '',
      allowedScopes: [...DEFAULT_CLIENT_SCOPES],
      active: true,
      clientType: 'confidential',
      requirePar: false,
    };
  }
  return {
    name: client.name,
    description: client.description ?? '',
    redirectUris: client.redirect_uris.join('\n'),
    postLogoutRedirectUris: (client.post_logout_redirect_uris ?? []).join('\n'),
    allowedScopes: [...client.allowed_scopes],
    active: client.active,
    clientType: client.client_type,
    requirePar: client.require_pushed_authorization_requests,
  };
}

/** The full app object with the edited fields (spec section 7); the first redirect URI is also `redirect_uri`. */
export function clientWithEdits(client: OAuthClientView, values: FormValues): OAuthClientView {
  const redirectUris = parseRedirectUris(values.redirectUris);
  return {
    ...client,
    name: values.name.trim(),
    description: values.description.trim() || null,
    redirect_uri: redirectUris[0] ?? '',
    redirect_uris: redirectUris,
    post_logout_redirect_uris: parseRedirectUris(values.postLogoutRedirectUris),
    allowed_scopes: values.allowedScopes,
    active: values.active,
    require_pushed_authorization_requests: values.requirePar,
  };
}

function newClientOf(values: FormValues): CreateOAuthClient {
  return {
    name: values.name.trim(),
    client_type: values.clientType,
    redirect_uris: parseRedirectUris(values.redirectUris),
    post_logout_redirect_uris: parseRedirectUris(values.postLogoutRedirectUris),
    allowed_scopes: values.allowedScopes,
    description: values.description.trim() || null,
    active: values.active,
    require_pushed_authorization_requests: values.requirePar,
  };
}

export interface AppFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The app to edit; none for a new one. */
  client?: OAuthClientView;
  /** Changes each time a new app is started, so its form starts blank. */
  formKey?: number;
}

/** 'Nueva aplicación' and the edit dialog of 'Aplicaciones Conectadas'. */
export function AppFormDialog({ open, onOpenChange, client, formKey = 0 }: AppFormDialogProps) {
  const done = () => onOpenChange(false);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* Above the admin panel (z-70); the fields scroll between a fixed title and fixed buttons. */}
      <DialogContent
        className="z-[80] max-w-2xl overflow-hidden"
        overlayClassName="z-[80]"
        data-testid="app-dialog"
        // Radix would focus the first field with its text selected, so one stray key replaces the name.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          (event.currentTarget as HTMLElement).querySelector<HTMLElement>('input:not([readonly]), textarea')?.focus();
        }}
      >
        {/* Remounted for each app (and each new one), so the fields start from its values. */}
        {client ? <EditAppForm key={client.id} client={client} onDone={done} /> : <CreateApp key={formKey} onDone={done} />}
      </DialogContent>
    </Dialog>
  );
}

function CreateApp({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const create = useCreateOAuthClient();

  // Created: the secret is shown this once, then forgotten with the dialog.
  if (create.data) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>{t('oauth.admin.secret.createdTitle')}</DialogTitle>
          <DialogDescription>{t('oauth.admin.secret.createdDescription', { name: create.data.name })}</DialogDescription>
        </DialogHeader>
        <ClientCredentials client={create.data} />
        <div className="-mx-6 flex justify-end border-t px-6 pt-4 sm:-mx-7 sm:px-7">
          <Button onClick={onDone} data-testid="app-created-done">
            {t('oauth.admin.secret.done')}
          </Button>
        </div>
      </>
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>{t('oauth.admin.form.newTitle')}</DialogTitle>
        <DialogDescription>{t('oauth.admin.form.newDescription')}</DialogDescription>
      </DialogHeader>
      <AppFields
        onSubmit={(values) => create.mutate(newClientOf(values))}
        onCancel={onDone}
        saving={create.isPending}
        error={create.isError ? create.error : undefined}
        onEdit={() => create.isError && create.reset()}
        submitLabel={t('oauth.admin.form.create')}
      />
    </>
  );
}

function EditAppForm({ client, onDone }: { client: OAuthClientView; onDone: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateOAuthClient();
  return (
    <>
      <DialogHeader>
        <DialogTitle>{t('oauth.admin.form.editTitle')}</DialogTitle>
        <DialogDescription>{t(`oauth.admin.form.typeDescriptions.${client.client_type}`)}</DialogDescription>
      </DialogHeader>
      <AppFields
        client={client}
        onSubmit={(values) => update.mutate(clientWithEdits(client, values), { onSuccess: onDone })}
        onCancel={onDone}
        saving={update.isPending}
        error={update.isError ? update.error : undefined}
        onEdit={() => update.isError && update.reset()}
        submitLabel={t('oauth.admin.form.save')}
      >
        {client.client_type === 'confidential' && <SecretSection client={client} />}
        <StandingSection client={client} />
      </AppFields>
    </>
  );
}

interface AppFieldsProps {
  client?: OAuthClientView;
  onSubmit: (values: FormValues) => void;
  onCancel: () => void;
  saving: boolean;
  error?: unknown;
  /** A new edit makes the last failure stale. */
  onEdit: () => void;
  submitLabel: string;
  /** Shown after the fields (the edit dialog's secret section). */
  children?: ReactNode;
}

function AppFields({ client, onSubmit, onCancel, saving, error, onEdit, submitLabel, children }: AppFieldsProps) {
  const { t } = useTranslation();
  const id = useId();
  const [values, setValues] = useState<FormValues>(() => valuesOf(client));

  function set<K extends keyof FormValues>(field: K, value: FormValues[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    onEdit();
  }

  function toggleScope(scope: string, checked: boolean) {
    const others = values.allowedScopes.filter((entry) => entry !== scope);
    set('allowedScopes', checked ? [...others, scope] : others);
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Spec section 5: no required-field checks here; the server's messages say what is wrong.
    onSubmit(values);
  }

  const fieldId = (field: string) => `${id}-${field}`;
  const saveError =
    error !== undefined ? t('oauth.admin.form.saveError', { message: apiErrorMessage(error) ?? t('oauth.admin.form.unknownError') }) : undefined;
  const scopeBox = (scope: string, hint?: string) => (
    <label
      key={scope}
      className="flex min-h-11 cursor-pointer items-start gap-3 rounded-xl border border-input bg-card px-3 py-2.5 text-sm shadow-xs has-[:checked]:border-primary/50 has-[:checked]:bg-secondary/40"
    >
      <input
        type="checkbox"
        name="allowed_scopes"
        value={scope}
        checked={values.allowedScopes.includes(scope)}
        disabled={saving}
        onChange={(event) => toggleScope(scope, event.target.checked)}
        className="mt-0.5 size-4 shrink-0 cursor-pointer accent-primary disabled:cursor-not-allowed"
        data-testid={`app-scope-${scope}`}
      />
      <span className="grid min-w-0 gap-0.5">
        <span className="font-mono text-xs font-medium break-words text-foreground">{scope}</span>
        {hint && <span className="text-xs text-muted-foreground">{hint}</span>}
      </span>
    </label>
  );

  return (
    <form onSubmit={handleSubmit} noValidate className="flex min-h-0 flex-1 flex-col gap-4">
      <div className="-mx-6 grid min-h-0 flex-1 content-start gap-4 overflow-y-auto px-6 pt-1 pb-2 sm:-mx-7 sm:grid-cols-2 sm:px-7">
        {client && (
          <div className="sm:col-span-2">
            <CopyField label={t('oauth.admin.secret.clientId')} value={client.client_id} testId="app-client-id" />
          </div>
        )}
        <Field label={t('oauth.admin.form.fields.name')} htmlFor={fieldId('name')} wide={!!client}>
          <Input
            id={fieldId('name')}
            name="name"
            autoComplete="off"
            value={values.name}
            disabled={saving}
            onChange={(event) => set('name', event.target.value)}
            data-testid="app-field-name"
          />
        </Field>
        {!client && (
          <Field
            label={t('oauth.admin.form.fields.client_type')}
            htmlFor={fieldId('client_type')}
            hint={t(`oauth.admin.form.typeDescriptions.${values.clientType}`)}
            hintId={`${fieldId('client_type')}-hint`}
          >
            <NativeSelect
              id={fieldId('client_type')}
              name="client_type"
              value={values.clientType}
              disabled={saving}
              aria-describedby={`${fieldId('client_type')}-hint`}
              onChange={(event) => set('clientType', event.target.value as ClientType)}
              data-testid="app-field-client_type"
            >
              {CLIENT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`oauth.admin.form.types.${type}`)}
                </option>
              ))}
            </NativeSelect>
          </Field>
        )}
        <Field label={t('oauth.admin.form.fields.description')} htmlFor={fieldId('description')} wide>
          <Textarea
            id={fieldId('description')}
            name="description"
            rows={2}
            className="min-h-16"
            value={values.description}
            disabled={saving}
            onChange={(event) => set('description', event.target.value)}
            data-testid="app-field-description"
          />
        </Field>
        <Field
          label={t('oauth.admin.form.fields.redirect_uris')}
          htmlFor={fieldId('redirect_uris')}
          wide
          hint={t('oauth.admin.form.redirectUrisHint')}
          hintId={`${fieldId('redirect_uris')}-hint`}
        >
          <Textarea
            id={fieldId('redirect_uris')}
            name="redirect_uris"
            rows={3}
            spellCheck={false}
            autoComplete="off"
            placeholder="https://app.ejemplo.com/callback"
            className="min-h-20 font-mono text-xs sm:text-xs"
            value={values.redirectUris}
            disabled={saving}
            aria-describedby={`${fieldId('redirect_uris')}-hint`}
            onChange={(event) => set('redirectUris', event.target.value)}
            data-testid="app-field-redirect_uris"
          />
        </Field>
        <Field
          label={t('oauth.admin.form.fields.post_logout_redirect_uris')}
          htmlFor={fieldId('post_logout_redirect_uris')}
          wide
          hint={t('oauth.admin.form.postLogoutRedirectUrisHint')}
          hintId={`${fieldId('post_logout_redirect_uris')}-hint`}
        >
          <Textarea
            id={fieldId('post_logout_redirect_uris')}
            name="post_logout_redirect_uris"
            rows={2}
            spellCheck={false}
            autoComplete="off"
            placeholder="https://app.ejemplo.com/signed-out"
            className="min-h-16 font-mono text-xs sm:text-xs"
            value={values.postLogoutRedirectUris}
            disabled={saving}
            aria-describedby={`${fieldId('post_logout_redirect_uris')}-hint`}
            onChange={(event) => set('postLogoutRedirectUris', event.target.value)}
            data-testid="app-field-post_logout_redirect_uris"
          />
        </Field>
        <fieldset className="grid gap-3 sm:col-span-2" data-testid="app-field-allowed_scopes">
          <legend className="mb-1.5 text-xs font-medium text-muted-foreground">{t('oauth.admin.form.fields.allowed_scopes')}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {BASE_SCOPES.map((scope) => scopeBox(scope, t(`oauth.admin.form.scopeHints.${BASE_SCOPE_HINT_KEYS[scope]}`)))}
          </div>
          <p className="pt-1 text-xs font-medium text-muted-foreground">{t('oauth.admin.form.serviceScopes')}</p>
          <div className="grid gap-2 sm:grid-cols-2">{SERVICE_SCOPES.map((scope) => scopeBox(scope))}</div>
        </fieldset>
        <label
          htmlFor={fieldId('active')}
          className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-input bg-card px-4 text-sm font-medium text-foreground shadow-xs sm:col-span-2"
        >
          <input
            id={fieldId('active')}
            name="active"
            type="checkbox"
            checked={values.active}
            disabled={saving}
            onChange={(event) => set('active', event.target.checked)}
            className="size-4 cursor-pointer accent-primary disabled:cursor-not-allowed"
            data-testid="app-field-active"
          />
          {t('oauth.admin.form.fields.active')}
        </label>
        <label
          htmlFor={fieldId('require_par')}
          className="flex min-h-11 cursor-pointer items-start gap-3 rounded-xl border border-input bg-card px-4 py-2.5 text-sm shadow-xs sm:col-span-2"
        >
          <input
            id={fieldId('require_par')}
            name="require_pushed_authorization_requests"
            type="checkbox"
            checked={values.requirePar}
            disabled={saving}
            aria-describedby={`${fieldId('require_par')}-hint`}
            onChange={(event) => set('requirePar', event.target.checked)}
            className="mt-0.5 size-4 shrink-0 cursor-pointer accent-primary disabled:cursor-not-allowed"
            data-testid="app-field-require_par"
          />
          <span className="grid min-w-0 gap-0.5">
            <span className="font-medium text-foreground">{t('oauth.admin.form.fields.require_pushed_authorization_requests')}</span>
            <span id={`${fieldId('require_par')}-hint`} className="text-xs text-muted-foreground">
              {t('oauth.admin.form.requireParHint')}
            </span>
          </span>
        </label>
        {children}
      </div>
      {saveError && (
        <Alert variant="error" data-testid="app-save-error">
          {saveError}
        </Alert>
      )}
      <div className="-mx-6 flex flex-col-reverse gap-3 border-t px-6 pt-4 sm:-mx-7 sm:flex-row sm:justify-end sm:px-7">
        <Button variant="outline" onClick={onCancel} data-testid="app-cancel">
          {t('oauth.admin.form.cancel')}
        </Button>
        <Button type="submit" disabled={saving} data-testid="app-save">
          {saving && <LoaderCircle aria-hidden="true" className="animate-spin" />}
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** 'Regenerar secreto' (confidential apps): asks first, then shows the new secret once. */
function SecretSection({ client }: { client: OAuthClientView }) {
  const { t } = useTranslation();
  const regenerate = useRegenerateClientSecret();
  const newSecret = regenerate.data?.client_secret;

  function handleRegenerate() {
    if (!window.confirm(t('oauth.admin.secret.confirmRegenerate'))) return;
    regenerate.mutate({ id: client.id });
  }

  return (
    <section
      className="grid gap-3 rounded-2xl border bg-muted/30 p-4 sm:col-span-2"
      aria-labelledby={`${client.id}-secret-title`}
      data-testid="app-secret-section"
    >
      <h3 id={`${client.id}-secret-title`} className="text-sm font-semibold text-foreground">
        {t('oauth.admin.secret.sectionTitle')}
      </h3>
      {newSecret ? (
        <>
          <CopyField label={t('oauth.admin.secret.newSecret')} value={newSecret} testId="app-new-secret" />
          <Alert variant="warning">{t('oauth.admin.secret.warning')}</Alert>
        </>
      ) : (
        <p className="text-sm text-muted-foreground">{t(client.has_secret ? 'oauth.admin.secret.regenerateHint' : 'oauth.admin.secret.noSecretHint')}</p>
      )}
      {regenerate.isError && (
        <Alert variant="error" data-testid="app-secret-error">
          {t('oauth.admin.secret.regenerateError', { message: apiErrorMessage(regenerate.error) ?? t('oauth.admin.form.unknownError') })}
        </Alert>
      )}
      <div>
        <Button variant="outline" size="sm" disabled={regenerate.isPending} onClick={handleRegenerate} data-testid="app-regenerate-secret">
          {regenerate.isPending ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <KeyRound aria-hidden="true" />}
          {t('oauth.admin.secret.regenerate')}
        </Button>
      </div>
    </section>
  );
}

/**
 * Life's review of an app (decision 0037): verify or withdraw it (the consent screen says so), and
 * suspend it (refused everywhere, its tokens stop working; its maker cannot lift it) or lift that.
 */
function StandingSection({ client }: { client: OAuthClientView }) {
  const { t } = useTranslation();
  const standing = useSetOAuthClientStanding();
  const current = standing.data ?? client;

  function handleSuspend() {
    if (!window.confirm(t('oauth.admin.standing.confirmSuspend', { name: current.name }))) return;
    standing.mutate({ id: client.id, action: 'suspend' });
  }

  return (
    <section
      className="grid gap-3 rounded-2xl border bg-muted/30 p-4 sm:col-span-2"
      aria-labelledby={`${client.id}-standing-title`}
      data-testid="app-standing-section"
    >
      <h3 id={`${client.id}-standing-title`} className="text-sm font-semibold text-foreground">
        {t('oauth.admin.standing.title')}
      </h3>
      <p className="text-sm text-muted-foreground">{t('oauth.admin.standing.hint')}</p>
      {standing.isError && (
        <Alert variant="error" data-testid="app-standing-error">
          {t('oauth.admin.standing.error', { message: apiErrorMessage(standing.error) ?? t('oauth.admin.form.unknownError') })}
        </Alert>
      )}
      <div className="flex flex-wrap gap-2">
        {current.verified ? (
          <Button
            variant="outline"
            size="sm"
            disabled={standing.isPending}
            onClick={() => standing.mutate({ id: client.id, action: 'unverify' })}
            data-testid="app-unverify"
          >
            <ShieldOff aria-hidden="true" />
            {t('oauth.admin.standing.unverify')}
          </Button>
        ) : (
          <Button
            variant="outline"
            size="sm"
            disabled={standing.isPending}
            onClick={() => standing.mutate({ id: client.id, action: 'verify' })}
            data-testid="app-verify"
          >
            <BadgeCheck aria-hidden="true" />
            {t('oauth.admin.standing.verify')}
          </Button>
        )}
        {current.suspended ? (
          <Button
            variant="outline"
            size="sm"
            disabled={standing.isPending}
            onClick={() => standing.mutate({ id: client.id, action: 'unsuspend' })}
            data-testid="app-unsuspend"
          >
            <RotateCcw aria-hidden="true" />
            {t('oauth.admin.standing.unsuspend')}
          </Button>
        ) : (
          <Button
            variant="outline"
            size="sm"
            className="hover:border-destructive/40 hover:bg-destructive/10 hover:text-destructive"
            disabled={standing.isPending}
            onClick={handleSuspend}
            data-testid="app-suspend"
          >
            <Ban aria-hidden="true" />
            {t('oauth.admin.standing.suspend')}
          </Button>
        )}
      </div>
    </section>
  );
}

interface FieldProps {
  label: string;
  htmlFor: string;
  children: ReactNode;
  /** Takes the full width on wide screens. */
  wide?: boolean;
  hint?: string;
  hintId?: string;
}

function Field({ label, htmlFor, children, wide = false, hint, hintId }: FieldProps) {
  return (
    <div className={cn('grid content-start gap-1.5', wide && 'sm:col-span-2')}>
      <label htmlFor={htmlFor} className="text-xs font-medium text-muted-foreground">
        {label}
      </label>
      {children}
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}
