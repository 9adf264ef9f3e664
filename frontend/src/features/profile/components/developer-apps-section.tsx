import { useId, useState, type FormEvent, type ReactNode } from 'react';
import {
  BASE_SCOPES,
  CLIENT_TYPES,
  DEFAULT_DEVELOPER_APP_SCOPES,
  SERVICE_NAMES,
  serviceScope,
  type BaseScope,
  type ClientType,
  type CreateDeveloperApp,
  type DeveloperApp,
  type DeveloperAppWithSecret,
  type UpdateDeveloperApp,
} from '@life/contracts';
import { Ban, BadgeCheck, Code, KeyRound, LoaderCircle, Pencil, Plus, ShieldAlert, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CopyField } from '@/components/copy-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { ApiError, apiErrorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { useCreateDeveloperApp, useDeleteDeveloperApp, useDeveloperApps, useRotateDeveloperAppSecret, useUpdateDeveloperApp } from '../api/developer-apps';

/** i18n keys may not contain ':' (i18next's namespace separator). */
const BASE_SCOPE_HINT_KEYS: Record<BaseScope, string> = {
  openid: 'openid',
  profile: 'profile',
  email: 'email',
  read: 'read',
  'services:read': 'servicesRead',
};
const SERVICE_SCOPES: readonly string[] = SERVICE_NAMES.map(serviceScope);

type FieldName = 'name' | 'description' | 'client_type' | 'redirect_uris' | 'allowed_scopes' | 'logo_uri' | 'policy_uri' | 'tos_uri';

interface FormValues {
  name: string;
  description: string;
  clientType: ClientType;
  /** One per line. */
  redirectUris: string;
  scopes: string[];
  logoUri: string;
  policyUri: string;
  tosUri: string;
}

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

function valuesOf(app?: DeveloperApp): FormValues {
  return {
    name: app?.name ?? '',
    description: app?.description ?? '',
    clientType: app?.client_type ?? 'confidential',
    redirectUris: app?.redirect_uris.join('\n') ?? '',
    scopes: app ? [...app.allowed_scopes] : [...DEFAULT_DEVELOPER_APP_SCOPES],
    logoUri: app?.logo_uri ?? '',
    policyUri: app?.policy_uri ?? '',
    tosUri: app?.tos_uri ?? '',
  };
}

function fieldsOf(values: FormValues): UpdateDeveloperApp {
  return {
    name: values.name.trim(),
    description: values.description.trim() || null,
    redirect_uris: lines(values.redirectUris),
    allowed_scopes: values.scopes,
    logo_uri: values.logoUri.trim() || null,
    policy_uri: values.policyUri.trim() || null,
    tos_uri: values.tosUri.trim() || null,
  };
}

/** The server's field problems (`body.redirect_uris.0` → redirect_uris), first message per field. */
export function fieldProblems(error: unknown): Partial<Record<FieldName, string>> {
  if (!(error instanceof ApiError)) return {};
  const problems: Partial<Record<FieldName, string>> = {};
  for (const problem of error.details) {
    const field = problem.path.replace(/^body\./, '').split('.')[0] as FieldName;
    problems[field] ??= problem.message;
  }
  return problems;
}

/**
 * 'Mis aplicaciones' (decision 0037): any signed-in person registers a few apps of their own
 * (name, redirect URIs, logo, policy links), sees the secret once, rotates it, edits and deletes
 * them. They start unverified; only Life verifies or suspends them (admin panel).
 */
export function DeveloperAppsSection() {
  const { t } = useTranslation();
  const apps = useDeveloperApps();
  const remove = useDeleteDeveloperApp();
  const rotate = useRotateDeveloperAppSecret();
  const [dialog, setDialog] = useState<{ open: boolean; app?: DeveloperApp; key: number }>({ open: false, key: 0 });
  const [rotated, setRotated] = useState<DeveloperAppWithSecret | null>(null);

  const limit = apps.data?.limit ?? 0;
  const atLimit = !!apps.data && apps.data.items.length >= limit;

  function handleDelete(app: DeveloperApp) {
    if (!window.confirm(t('profile.developer.confirmDelete', { name: app.name }))) return;
    remove.mutate({ id: app.id });
  }

  function handleRotate(app: DeveloperApp) {
    if (!window.confirm(t('profile.developer.confirmRotate', { name: app.name }))) return;
    rotate.mutate({ id: app.id }, { onSuccess: (answer) => setRotated(answer) });
  }

  return (
    <section aria-labelledby="developer-apps-title" data-testid="developer-apps" className="mt-8 rounded-3xl border bg-card p-6 shadow-soft sm:p-8">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1 basis-64">
          <h2 id="developer-apps-title" className="text-xl font-semibold tracking-tight text-foreground">
            {t('profile.developer.title')}
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">{t('profile.developer.description', { limit })}</p>
        </div>
        <Button
          disabled={!apps.data || atLimit}
          onClick={() => setDialog((current) => ({ open: true, key: current.key + 1 }))}
          aria-describedby={atLimit ? 'developer-apps-limit' : undefined}
          data-testid="developer-app-add"
        >
          <Plus aria-hidden="true" />
          {t('profile.developer.add')}
        </Button>
      </div>

      {atLimit && (
        <p id="developer-apps-limit" className="mt-3 text-sm text-muted-foreground" data-testid="developer-apps-limit">
          {t('profile.developer.limitReached', { limit })}
        </p>
      )}
      {remove.isError && (
        <Alert variant="error" className="mt-5" data-testid="developer-app-delete-error">
          {t('profile.developer.deleteError', { message: apiErrorMessage(remove.error) ?? t('profile.apps.tryAgain') })}
        </Alert>
      )}
      {rotate.isError && (
        <Alert variant="error" className="mt-5" data-testid="developer-app-rotate-error">
          {t('profile.developer.rotateError', { message: apiErrorMessage(rotate.error) ?? t('profile.apps.tryAgain') })}
        </Alert>
      )}

      <div className="mt-5">
        {apps.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner label={t('profile.developer.loading')} />
          </div>
        ) : apps.isError ? (
          <Alert
            variant="error"
            data-testid="developer-apps-error"
            action={
              <Button variant="outline" size="sm" className="-my-1" onClick={() => void apps.refetch()}>
                {t('profile.retry')}
              </Button>
            }
          >
            {t('profile.developer.loadError')}
          </Alert>
        ) : apps.data.items.length === 0 ? (
          <p className="rounded-2xl bg-muted/60 px-4 py-5 text-center text-sm text-muted-foreground" data-testid="developer-apps-empty">
            {t('profile.developer.empty')}
          </p>
        ) : (
          <ul className="grid gap-3">
            {apps.data.items.map((app) => (
              <DeveloperAppItem
                key={app.id}
                app={app}
                busy={(remove.isPending && remove.variables.id === app.id) || (rotate.isPending && rotate.variables.id === app.id)}
                onEdit={() => setDialog((current) => ({ ...current, open: true, app }))}
                onRotate={() => handleRotate(app)}
                onDelete={() => handleDelete(app)}
              />
            ))}
          </ul>
        )}
      </div>

      <DeveloperAppDialog open={dialog.open} onOpenChange={(open) => setDialog((current) => ({ ...current, open }))} app={dialog.app} formKey={dialog.key} />
      <Dialog open={rotated !== null} onOpenChange={(open) => !open && setRotated(null)}>
        <DialogContent className="max-w-lg" data-testid="developer-app-new-secret">
          {rotated && (
            <>
              <DialogHeader>
                <DialogTitle>{t('profile.developer.newSecretTitle', { name: rotated.name })}</DialogTitle>
                <DialogDescription>{t('oauth.admin.secret.warning')}</DialogDescription>
              </DialogHeader>
              <Credentials app={rotated} />
              <div className="flex justify-end">
                <Button onClick={() => setRotated(null)} data-testid="developer-app-secret-done">
                  {t('oauth.admin.secret.done')}
                </Button>
              </div>
            </>
          )}
        </DialogContent>
      </Dialog>
    </section>
  );
}

function StandingBadge({ app }: { app: DeveloperApp }) {
  const { t } = useTranslation();
  if (app.suspended) {
    return (
      <span
        className="inline-flex items-center gap-1 rounded-full border border-red-200 bg-red-50 px-2.5 py-0.5 text-xs font-medium text-red-800"
        data-testid="developer-app-suspended"
      >
        <Ban aria-hidden="true" className="size-3.5" />
        {t('profile.developer.suspended')}
      </span>
    );
  }
  return app.verified ? (
    <span
      className="inline-flex items-center gap-1 rounded-full border border-green-200 bg-green-50 px-2.5 py-0.5 text-xs font-medium text-green-800"
      data-testid="developer-app-verified"
    >
      <BadgeCheck aria-hidden="true" className="size-3.5" />
      {t('profile.developer.verified')}
    </span>
  ) : (
    <span
      className="inline-flex items-center gap-1 rounded-full border border-amber-200 bg-amber-50 px-2.5 py-0.5 text-xs font-medium text-amber-900"
      data-testid="developer-app-unverified"
    >
      <ShieldAlert aria-hidden="true" className="size-3.5" />
      {t('profile.developer.unverified')}
    </span>
  );
}

interface ItemProps {
  app: DeveloperApp;
  busy: boolean;
  onEdit: () => void;
  onRotate: () => void;
  onDelete: () => void;
}

function DeveloperAppItem({ app, busy, onEdit, onRotate, onDelete }: ItemProps) {
  const { t } = useTranslation();
  return (
    <li className="grid gap-3 rounded-2xl border px-4 py-4 sm:px-5" data-testid="developer-app" data-app-id={app.id}>
      <div className="flex min-w-0 items-start gap-3">
        <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-secondary text-secondary-foreground">
          <Code aria-hidden="true" className="size-4" />
        </span>
        <div className="grid min-w-0 flex-1 gap-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <h3 className="font-semibold break-words text-foreground" data-testid="developer-app-name">
              {app.name}
            </h3>
            <StandingBadge app={app} />
          </div>
          <p className="font-mono text-xs break-all text-muted-foreground" data-testid="developer-app-client-id">
            <span className="font-sans">{t('oauth.admin.secret.clientId')}: </span>
            {app.client_id}
          </p>
          <p className="text-xs text-muted-foreground">{t(`oauth.admin.form.types.${app.client_type}`)}</p>
        </div>
      </div>
      {app.suspended ? (
        <Alert variant="error" role="note" data-testid="developer-app-suspended-note">
          {t('profile.developer.suspendedHint')}
        </Alert>
      ) : (
        !app.verified && <p className="text-xs text-muted-foreground sm:pl-12">{t('profile.developer.unverifiedHint')}</p>
      )}
      <div className="flex flex-wrap gap-2 sm:pl-12">
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={t('profile.developer.edit', { name: app.name })} data-testid="developer-app-edit">
          <Pencil aria-hidden="true" />
          {t('profile.developer.editShort')}
        </Button>
        {app.client_type === 'confidential' && (
          <Button variant="outline" size="sm" disabled={busy} onClick={onRotate} data-testid="developer-app-rotate">
            <KeyRound aria-hidden="true" />
            {t('oauth.admin.secret.regenerate')}
          </Button>
        )}
        <Button
          variant="outline"
          size="sm"
          className="hover:border-destructive/40 hover:bg-destructive/10 hover:text-destructive"
          disabled={busy}
          onClick={onDelete}
          aria-label={t('profile.developer.delete', { name: app.name })}
          data-testid="developer-app-delete"
        >
          {busy ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Trash2 aria-hidden="true" />}
          {t('profile.developer.deleteShort')}
        </Button>
      </div>
    </li>
  );
}

/** The client id and, this once, the secret (public apps: none, PKCE instead). */
function Credentials({ app }: { app: DeveloperAppWithSecret }) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-4" data-testid="developer-app-credentials">
      <CopyField label={t('oauth.admin.secret.clientId')} value={app.client_id} testId="developer-app-credentials-id" />
      {app.client_secret ? (
        <>
          <CopyField label={t('oauth.admin.secret.clientSecret')} value={app.client_secret} testId="developer-app-credentials-secret" />
          <Alert variant="warning">{t('oauth.admin.secret.warning')}</Alert>
        </>
      ) : (
        <p className="rounded-2xl bg-muted/60 px-4 py-3 text-sm text-muted-foreground">{t('oauth.admin.secret.publicNote')}</p>
      )}
    </div>
  );
}

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  app?: DeveloperApp;
  formKey: number;
}

function DeveloperAppDialog({ open, onOpenChange, app, formKey }: DialogProps) {
  const done = () => onOpenChange(false);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl overflow-hidden" data-testid="developer-app-dialog">
        {app ? <EditForm key={app.id} app={app} onDone={done} /> : <CreateForm key={formKey} onDone={done} />}
      </DialogContent>
    </Dialog>
  );
}

function CreateForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const create = useCreateDeveloperApp();
  if (create.data) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>{t('oauth.admin.secret.createdTitle')}</DialogTitle>
          <DialogDescription>{t('oauth.admin.secret.createdDescription', { name: create.data.name })}</DialogDescription>
        </DialogHeader>
        <Credentials app={create.data} />
        <div className="flex justify-end">
          <Button onClick={onDone} data-testid="developer-app-created-done">
            {t('oauth.admin.secret.done')}
          </Button>
        </div>
      </>
    );
  }
  return (
    <>
      <DialogHeader>
        <DialogTitle>{t('profile.developer.form.newTitle')}</DialogTitle>
        <DialogDescription>{t('profile.developer.form.newDescription')}</DialogDescription>
      </DialogHeader>
      <AppFields
        creating
        onSubmit={(values) => create.mutate({ ...fieldsOf(values), client_type: values.clientType } as CreateDeveloperApp)}
        onCancel={onDone}
        saving={create.isPending}
        error={create.isError ? create.error : undefined}
        onEdit={() => create.isError && create.reset()}
        submitLabel={t('oauth.admin.form.create')}
      />
    </>
  );
}

function EditForm({ app, onDone }: { app: DeveloperApp; onDone: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateDeveloperApp();
  return (
    <>
      <DialogHeader>
        <DialogTitle>{t('oauth.admin.form.editTitle')}</DialogTitle>
        <DialogDescription>{t('profile.developer.form.editDescription')}</DialogDescription>
      </DialogHeader>
      <AppFields
        app={app}
        onSubmit={(values) => update.mutate({ id: app.id, fields: fieldsOf(values) }, { onSuccess: onDone })}
        onCancel={onDone}
        saving={update.isPending}
        error={update.isError ? update.error : undefined}
        onEdit={() => update.isError && update.reset()}
        submitLabel={t('oauth.admin.form.save')}
      />
    </>
  );
}

interface FieldsProps {
  app?: DeveloperApp;
  creating?: boolean;
  onSubmit: (values: FormValues) => void;
  onCancel: () => void;
  saving: boolean;
  error?: unknown;
  onEdit: () => void;
  submitLabel: string;
}

function AppFields({ app, creating = false, onSubmit, onCancel, saving, error, onEdit, submitLabel }: FieldsProps) {
  const { t } = useTranslation();
  const id = useId();
  const [values, setValues] = useState<FormValues>(() => valuesOf(app));
  const problems = fieldProblems(error);
  const generalError = error !== undefined && Object.keys(problems).length === 0 ? (apiErrorMessage(error) ?? t('oauth.admin.form.unknownError')) : undefined;

  function set<K extends keyof FormValues>(field: K, value: FormValues[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    onEdit();
  }

  function toggleScope(scope: string, checked: boolean) {
    const others = values.scopes.filter((entry) => entry !== scope);
    set('scopes', checked ? [...others, scope] : others);
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit(values);
  }

  const fieldId = (field: FieldName) => `${id}-${field}`;
  const described = (field: FieldName, hint: boolean) =>
    [hint ? `${fieldId(field)}-hint` : null, problems[field] ? `${fieldId(field)}-error` : null].filter(Boolean).join(' ') || undefined;
  const text = (field: FieldName, key: keyof FormValues, label: string, options: { hint?: string; placeholder?: string; type?: string } = {}) => (
    <Field id={fieldId(field)} label={label} hint={options.hint} problem={problems[field]}>
      <Input
        id={fieldId(field)}
        name={field}
        type={options.type ?? 'text'}
        autoComplete="off"
        spellCheck={false}
        placeholder={options.placeholder}
        value={values[key] as string}
        disabled={saving}
        aria-invalid={problems[field] ? true : undefined}
        aria-describedby={described(field, !!options.hint)}
        onChange={(event) => set(key, event.target.value as never)}
        data-testid={`developer-app-field-${field}`}
      />
    </Field>
  );
  const scopeBox = (scope: string, hint?: string) => (
    <label
      key={scope}
      className="flex min-h-11 cursor-pointer items-start gap-3 rounded-xl border border-input bg-card px-3 py-2.5 text-sm shadow-xs has-[:checked]:border-primary/50 has-[:checked]:bg-secondary/40"
    >
      <input
        type="checkbox"
        name="allowed_scopes"
        value={scope}
        checked={values.scopes.includes(scope)}
        disabled={saving}
        onChange={(event) => toggleScope(scope, event.target.checked)}
        className="mt-0.5 size-4 shrink-0 cursor-pointer accent-primary disabled:cursor-not-allowed"
        data-testid={`developer-app-scope-${scope}`}
      />
      <span className="grid min-w-0 gap-0.5">
        <span className="font-mono text-xs font-medium break-words text-foreground">{scope}</span>
        {hint && <span className="text-xs text-muted-foreground">{hint}</span>}
      </span>
    </label>
  );

  return (
    <form onSubmit={handleSubmit} noValidate className="flex min-h-0 flex-1 flex-col gap-4">
      <div className="-mx-6 grid min-h-0 flex-1 content-start gap-4 overflow-y-auto px-6 pt-1 pb-2 sm:-mx-7 sm:px-7">
        {text('name', 'name', t('profile.developer.form.name'))}
        {creating && (
          <Field
            id={fieldId('client_type')}
            label={t('oauth.admin.form.fields.client_type')}
            hint={t(`oauth.admin.form.typeDescriptions.${values.clientType}`)}
            problem={problems.client_type}
          >
            <NativeSelect
              id={fieldId('client_type')}
              name="client_type"
              value={values.clientType}
              disabled={saving}
              aria-describedby={described('client_type', true)}
              onChange={(event) => set('clientType', event.target.value as ClientType)}
              data-testid="developer-app-field-client_type"
            >
              {CLIENT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`oauth.admin.form.types.${type}`)}
                </option>
              ))}
            </NativeSelect>
          </Field>
        )}
        <Field
          id={fieldId('redirect_uris')}
          label={t('oauth.admin.form.fields.redirect_uris')}
          hint={t('oauth.admin.form.redirectUrisHint')}
          problem={problems.redirect_uris}
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
            aria-invalid={problems.redirect_uris ? true : undefined}
            aria-describedby={described('redirect_uris', true)}
            onChange={(event) => set('redirectUris', event.target.value)}
            data-testid="developer-app-field-redirect_uris"
          />
        </Field>
        <Field id={fieldId('description')} label={t('profile.developer.form.description')} problem={problems.description}>
          <Textarea
            id={fieldId('description')}
            name="description"
            rows={2}
            className="min-h-16"
            value={values.description}
            disabled={saving}
            aria-invalid={problems.description ? true : undefined}
            aria-describedby={described('description', false)}
            onChange={(event) => set('description', event.target.value)}
            data-testid="developer-app-field-description"
          />
        </Field>
        {text('logo_uri', 'logoUri', t('profile.developer.form.logoUri'), { hint: t('profile.developer.form.logoHint'), placeholder: 'https://', type: 'url' })}
        <div className="grid gap-4 sm:grid-cols-2">
          {text('policy_uri', 'policyUri', t('profile.developer.form.policyUri'), { placeholder: 'https://', type: 'url' })}
          {text('tos_uri', 'tosUri', t('profile.developer.form.tosUri'), { placeholder: 'https://', type: 'url' })}
        </div>
        <fieldset
          className="grid gap-3"
          aria-describedby={problems.allowed_scopes ? `${fieldId('allowed_scopes')}-error` : undefined}
          data-testid="developer-app-field-allowed_scopes"
        >
          <legend className="mb-1.5 text-xs font-medium text-muted-foreground">{t('oauth.admin.form.fields.allowed_scopes')}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {BASE_SCOPES.map((scope) => scopeBox(scope, t(`oauth.admin.form.scopeHints.${BASE_SCOPE_HINT_KEYS[scope]}`)))}
          </div>
          <details className="group rounded-xl border border-dashed px-3 py-2">
            <summary className="min-h-8 cursor-pointer py-1 text-xs font-medium text-muted-foreground">{t('oauth.admin.form.serviceScopes')}</summary>
            <div className="grid gap-2 pt-2 sm:grid-cols-2">{SERVICE_SCOPES.map((scope) => scopeBox(scope))}</div>
          </details>
          {problems.allowed_scopes && <FieldProblem id={`${fieldId('allowed_scopes')}-error`}>{problems.allowed_scopes}</FieldProblem>}
        </fieldset>
      </div>
      {(generalError || Object.keys(problems).length > 0) && (
        <Alert variant="error" data-testid="developer-app-save-error">
          {t('oauth.admin.form.saveError', { message: generalError ?? t('profile.developer.form.checkFields') })}
        </Alert>
      )}
      <div className="-mx-6 flex flex-col-reverse gap-3 border-t px-6 pt-4 sm:-mx-7 sm:flex-row sm:justify-end sm:px-7">
        <Button variant="outline" onClick={onCancel} data-testid="developer-app-cancel">
          {t('oauth.admin.form.cancel')}
        </Button>
        <Button type="submit" disabled={saving} data-testid="developer-app-save">
          {saving && <LoaderCircle aria-hidden="true" className="animate-spin" />}
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

function FieldProblem({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="text-xs font-medium text-red-700" data-testid="developer-app-field-error">
      {children}
    </p>
  );
}

function Field({ id, label, hint, problem, children }: { id: string; label: string; hint?: string; problem?: string; children: ReactNode }) {
  return (
    <div className={cn('grid content-start gap-1.5')}>
      <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {problem && <FieldProblem id={`${id}-error`}>{problem}</FieldProblem>}
    </div>
  );
}
