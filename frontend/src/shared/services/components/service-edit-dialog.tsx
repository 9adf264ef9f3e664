import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { REVOKE_STYLES, SECRET_MASK, SERVICE_STATUSES, SERVICE_TYPES, type ExternalServiceDto } from '@life/contracts';
import { ArrowLeft, ChevronRight, LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { apiErrorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { useUpdateService } from '../api/update-service';
import { catalogType } from '../utils/catalog-text';

/** Plain text fields of the External service entity (spec section 3), in form order. */
const MAIN_TEXT_FIELDS = ['scopes', 'app_id'] as const;
const URL_FIELDS = ['base_url', 'auth_url', 'token_url', 'redirect_url', 'user_url'] as const;
const ADVANCED_TEXT_FIELDS = ['api_key_header', 'revoke_url', 'account_url'] as const;
const JSON_FIELDS = ['extra_auth_params', 'extra_headers'] as const;
/** Nullable text fields: a blank one is sent as null. */
const NULLABLE_FIELDS = ['description', ...MAIN_TEXT_FIELDS, ...URL_FIELDS, ...ADVANCED_TEXT_FIELDS] as const;

type JsonField = (typeof JSON_FIELDS)[number];
type NullableField = (typeof NULLABLE_FIELDS)[number];

interface FormValues extends Record<NullableField | JsonField, string> {
  service_name: string;
  service_type: string;
  status: ExternalServiceDto['status'];
  app_secret: string;
  api_key: string;
  token_auth: ExternalServiceDto['token_auth'];
  token_body: ExternalServiceDto['token_body'];
  send_scope: boolean;
  pkce: boolean;
  revoke_style: ExternalServiceDto['revoke_style'];
}

function valuesOf(service: ExternalServiceDto): FormValues {
  const nullable = Object.fromEntries(NULLABLE_FIELDS.map((field) => [field, service[field] ?? ''])) as Record<NullableField, string>;
  return {
    ...nullable,
    service_name: service.service_name,
    service_type: service.service_type,
    status: service.status,
    app_secret: service.app_secret,
    api_key: service.api_key,
    token_auth: service.token_auth,
    token_body: service.token_body,
    send_scope: service.send_scope,
    pkce: service.pkce,
    revoke_style: service.revoke_style,
    extra_auth_params: JSON.stringify(service.extra_auth_params, null, 2),
    extra_headers: JSON.stringify(service.extra_headers, null, 2),
  };
}

/** A JSON object of strings, or undefined when the text is not one. Blank text is `{}`. */
export function parseStringRecord(text: string): Record<string, string> | undefined {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
    if (!Object.values(value).every((entry) => typeof entry === 'string')) return undefined;
    return value as Record<string, string>;
  } catch {
    return undefined;
  }
}

/**
 * The full service object with the edited fields (spec section 7): blanks become null, the secrets
 * go as typed ('********' keeps the stored one, '' removes it). Undefined when a JSON field is invalid.
 */
export function serviceWithEdits(service: ExternalServiceDto, values: FormValues): ExternalServiceDto | undefined {
  const extraAuthParams = parseStringRecord(values.extra_auth_params);
  const extraHeaders = parseStringRecord(values.extra_headers);
  if (!extraAuthParams || !extraHeaders) return undefined;
  const nullable = Object.fromEntries(NULLABLE_FIELDS.map((field) => [field, values[field].trim() || null])) as Record<NullableField, string | null>;
  // A login row holds no app (decision 0040): the form hides those fields and sends them empty.
  const loginRow = values.service_type.trim() === 'login';
  if (loginRow) for (const field of [...MAIN_TEXT_FIELDS, ...URL_FIELDS, 'revoke_url'] as const) nullable[field] = null;
  return {
    ...service,
    ...nullable,
    service_name: values.service_name.trim(),
    service_type: values.service_type.trim(),
    status: values.status,
    app_secret: loginRow ? '' : values.app_secret,
    api_key: loginRow ? '' : values.api_key,
    token_auth: values.token_auth,
    token_body: values.token_body,
    send_scope: values.send_scope,
    pkce: values.pkce,
    revoke_style: values.revoke_style,
    extra_auth_params: extraAuthParams,
    extra_headers: extraHeaders,
  };
}

/** Every field the dialog edits, in form order: what the confirmation compares. */
const EDITED_FIELDS = [
  'service_name',
  'service_type',
  'description',
  'status',
  ...MAIN_TEXT_FIELDS,
  'app_secret',
  ...URL_FIELDS,
  'token_auth',
  'token_body',
  'send_scope',
  'pkce',
  ...JSON_FIELDS,
  'api_key_header',
  'api_key',
  'revoke_url',
  'revoke_style',
  'account_url',
] as const satisfies readonly (keyof ExternalServiceDto)[];
type EditedField = (typeof EDITED_FIELDS)[number];
const SECRET_FIELDS: ReadonlySet<EditedField> = new Set(['app_secret', 'api_key']);

/** The fields whose value the edit changes (a secret left as the mask is unchanged). */
export function changedFields(service: ExternalServiceDto, edited: ExternalServiceDto): EditedField[] {
  return EDITED_FIELDS.filter((field) => JSON.stringify(service[field] ?? null) !== JSON.stringify(edited[field] ?? null));
}

export interface ServiceEditDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  service?: ExternalServiceDto | null;
}

/** The admins' service edit dialog (dashboard edit button and the admin 'Servicios Conectados' section). */
export function ServiceEditDialog({ open, onOpenChange, service }: ServiceEditDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open && !!service} onOpenChange={onOpenChange}>
      {/* Above the admin panel (z-70); the fields scroll between a fixed title and fixed buttons. */}
      <DialogContent
        className="z-[80] max-w-2xl overflow-hidden"
        overlayClassName="z-[80]"
        data-testid="service-dialog"
        // Radix would focus the first field with its text selected, so one stray key replaces the key
        // every person's catalog uses: start in the description instead.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          (event.currentTarget as HTMLElement).querySelector<HTMLElement>('textarea, input')?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{t('services.form.title', { name: service?.service_name ?? '' })}</DialogTitle>
          <DialogDescription>{t('services.form.description')}</DialogDescription>
        </DialogHeader>
        {/* Remounted for each service, so the fields start from its values. */}
        {service && <ServiceForm key={service.id} service={service} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function ServiceForm({ service, onDone }: { service: ExternalServiceDto; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [values, setValues] = useState<FormValues>(() => valuesOf(service));
  const [jsonErrors, setJsonErrors] = useState<Partial<Record<JsonField, boolean>>>({});
  /** Set by Guardar: the edited service, waiting for the admin to confirm a change that reaches every person. */
  const [confirming, setConfirming] = useState<{ edited: ExternalServiceDto; fields: EditedField[] } | null>(null);
  const update = useUpdateService();
  const saving = update.isPending;

  const loginRow = values.service_type === 'login';

  function set<K extends keyof FormValues>(field: K, value: FormValues[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    if (field === 'extra_auth_params' || field === 'extra_headers') setJsonErrors((current) => ({ ...current, [field]: false }));
    if (update.isError) update.reset();
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = JSON_FIELDS.filter((field) => parseStringRecord(values[field]) === undefined);
    setJsonErrors(Object.fromEntries(invalid.map((field) => [field, true])));
    const edited = serviceWithEdits(service, values);
    if (!edited || invalid.length > 0) {
      // The JSON fields live in the 'Avanzado' group: open it and put the cursor on the first bad one.
      const form = event.currentTarget;
      const advanced = form.querySelector('details');
      if (advanced) advanced.open = true;
      form.ownerDocument.getElementById(fieldId(invalid[0]!))?.focus();
      return;
    }
    const fields = changedFields(service, edited);
    if (fields.length === 0) {
      onDone();
      return;
    }
    // The catalog is every person's: say what changes and ask before sending it.
    setConfirming({ edited, fields });
  }

  if (confirming) {
    return (
      <ConfirmChanges
        service={service}
        edited={confirming.edited}
        fields={confirming.fields}
        saving={saving}
        error={update.isError ? t('services.form.saveError', { message: apiErrorMessage(update.error) ?? t('services.form.unknownError') }) : undefined}
        onBack={() => {
          update.reset();
          setConfirming(null);
        }}
        onConfirm={() => update.mutate(confirming.edited, { onSuccess: onDone })}
      />
    );
  }

  const fieldId = (field: string) => `${id}-${field}`;
  const common = (field: keyof FormValues) => ({ id: fieldId(field), name: field, disabled: saving, 'data-testid': `service-field-${field}` });
  const hinted = (field: string) =>
    field === 'service_name' || field === 'app_id' ? t(`services.form.hints.${field}`, { key: service.service_name }) : undefined;
  const text = (field: NullableField | 'service_name', { url = false, wide = false } = {}) => (
    <Field key={field} label={t(`services.form.fields.${field}`)} htmlFor={fieldId(field)} wide={wide} hint={hinted(field)} hintId={`${fieldId(field)}-hint`}>
      <Input
        {...common(field)}
        type={url ? 'url' : 'text'}
        inputMode={url ? 'url' : undefined}
        autoComplete="off"
        spellCheck={false}
        value={values[field]}
        onChange={(event) => set(field, event.target.value)}
        aria-describedby={hinted(field) ? `${fieldId(field)}-hint` : undefined}
      />
    </Field>
  );
  const secret = (field: 'app_secret' | 'api_key') => (
    <Field
      label={t(`services.form.fields.${field}`)}
      htmlFor={fieldId(field)}
      hint={service[field] === SECRET_MASK ? t('services.form.secretHint') : undefined}
      hintId={`${fieldId(field)}-hint`}
    >
      <Input
        {...common(field)}
        type="password"
        autoComplete="new-password"
        value={values[field]}
        // Typing into the mask would append to it: select it so the first key replaces it.
        onFocus={(event) => event.currentTarget.select()}
        onChange={(event) => set(field, event.target.value)}
        aria-describedby={service[field] === SECRET_MASK ? `${fieldId(field)}-hint` : undefined}
      />
    </Field>
  );
  const checkbox = (field: 'send_scope' | 'pkce') => (
    <label
      key={field}
      htmlFor={fieldId(field)}
      className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-input bg-card px-4 text-sm shadow-xs"
    >
      <input
        {...common(field)}
        type="checkbox"
        checked={values[field]}
        onChange={(event) => set(field, event.target.checked)}
        className="size-4 cursor-pointer accent-primary disabled:cursor-not-allowed"
      />
      <span className="font-medium text-foreground">{t(`services.form.fields.${field}`)}</span>
    </label>
  );

  const saveError = update.isError ? t('services.form.saveError', { message: apiErrorMessage(update.error) ?? t('services.form.unknownError') }) : undefined;

  return (
    <form onSubmit={handleSubmit} noValidate className="flex min-h-0 flex-1 flex-col gap-4">
      <div className="-mx-6 grid min-h-0 flex-1 content-start gap-4 overflow-y-auto px-6 pt-1 pb-2 sm:-mx-7 sm:grid-cols-2 sm:px-7">
        {text('service_name')}
        <Field label={t('services.form.fields.service_type')} htmlFor={fieldId('service_type')}>
          <NativeSelect {...common('service_type')} value={values.service_type} onChange={(event) => set('service_type', event.target.value)}>
            {/* A type written before the list existed stays visible, so the admin sees what to replace. */}
            {!(SERVICE_TYPES as readonly string[]).includes(values.service_type) && <option value={values.service_type}>{values.service_type}</option>}
            {SERVICE_TYPES.map((type) => (
              <option key={type} value={type}>
                {catalogType(type, i18n)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label={t('services.form.fields.description')} htmlFor={fieldId('description')} wide>
          <Textarea
            {...common('description')}
            rows={3}
            className="min-h-20"
            value={values.description}
            onChange={(event) => set('description', event.target.value)}
          />
        </Field>
        <Field label={t('services.form.fields.status')} htmlFor={fieldId('status')}>
          <NativeSelect {...common('status')} value={values.status} onChange={(event) => set('status', event.target.value as FormValues['status'])}>
            {SERVICE_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`services.statuses.${status}`)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        {loginRow ? (
          // A login row is the card of a login provider: its app lives there (decision 0040), the server refuses one here.
          <Alert className="sm:col-span-2" data-testid="service-login-row">
            {t('services.form.loginRow')}
          </Alert>
        ) : (
          <>
            {text('scopes')}
            {text('app_id')}
            {secret('app_secret')}
            {URL_FIELDS.map((field) => text(field, { url: true, wide: true }))}
          </>
        )}

        <details hidden={loginRow} className="group/advanced rounded-2xl border bg-muted/30 sm:col-span-2" data-testid="service-advanced">
          <summary className="flex cursor-pointer list-none items-center gap-2 rounded-2xl px-4 py-3 text-sm font-semibold text-foreground select-none hover:bg-muted/60 [&::-webkit-details-marker]:hidden">
            <ChevronRight aria-hidden="true" className="size-4 transition-transform group-open/advanced:rotate-90" />
            {t('services.form.advanced')}
          </summary>
          <div className="grid gap-4 border-t px-4 pt-4 pb-4 sm:grid-cols-2">
            <Field label={t('services.form.fields.token_auth')} htmlFor={fieldId('token_auth')}>
              <NativeSelect
                {...common('token_auth')}
                value={values.token_auth}
                onChange={(event) => set('token_auth', event.target.value as FormValues['token_auth'])}
              >
                <option value="body">{t('services.form.options.token_auth.body')}</option>
                <option value="basic">{t('services.form.options.token_auth.basic')}</option>
              </NativeSelect>
            </Field>
            <Field label={t('services.form.fields.token_body')} htmlFor={fieldId('token_body')}>
              <NativeSelect
                {...common('token_body')}
                value={values.token_body}
                onChange={(event) => set('token_body', event.target.value as FormValues['token_body'])}
              >
                <option value="form">{t('services.form.options.token_body.form')}</option>
                <option value="json">{t('services.form.options.token_body.json')}</option>
              </NativeSelect>
            </Field>
            {checkbox('send_scope')}
            {checkbox('pkce')}
            {JSON_FIELDS.map((field) => (
              <Field
                key={field}
                label={t(`services.form.fields.${field}`)}
                htmlFor={fieldId(field)}
                wide
                error={jsonErrors[field] ? t('services.form.invalidJson') : undefined}
                hintId={`${fieldId(field)}-error`}
              >
                <Textarea
                  {...common(field)}
                  rows={3}
                  spellCheck={false}
                  className="min-h-20 font-mono text-xs sm:text-xs"
                  value={values[field]}
                  aria-invalid={jsonErrors[field] || undefined}
                  aria-describedby={jsonErrors[field] ? `${fieldId(field)}-error` : undefined}
                  onChange={(event) => set(field, event.target.value)}
                />
              </Field>
            ))}
            {text('api_key_header')}
            {secret('api_key')}
            {text('revoke_url', { url: true, wide: true })}
            <Field label={t('services.form.fields.revoke_style')} htmlFor={fieldId('revoke_style')}>
              <NativeSelect
                {...common('revoke_style')}
                value={values.revoke_style}
                onChange={(event) => set('revoke_style', event.target.value as FormValues['revoke_style'])}
              >
                {REVOKE_STYLES.map((style) => (
                  <option key={style} value={style}>
                    {style}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            {text('account_url', { url: true, wide: true })}
          </div>
        </details>
      </div>
      {saveError && (
        <Alert variant="error" data-testid="service-save-error">
          {saveError}
        </Alert>
      )}
      <div className="-mx-6 flex flex-col-reverse gap-3 border-t px-6 pt-4 sm:-mx-7 sm:flex-row sm:justify-end sm:px-7">
        <Button variant="outline" onClick={onDone} data-testid="service-cancel">
          {t('services.form.cancel')}
        </Button>
        <Button type="submit" disabled={saving} data-testid="service-save">
          {saving && <LoaderCircle aria-hidden="true" className="animate-spin" />}
          {t('services.form.save')}
        </Button>
      </div>
    </form>
  );
}

interface FieldProps {
  label: string;
  htmlFor: string;
  children: ReactNode;
  /** Takes the full width on wide screens. */
  wide?: boolean;
  hint?: string;
  error?: string;
  hintId?: string;
}

function Field({ label, htmlFor, children, wide = false, hint, error, hintId }: FieldProps) {
  return (
    <div className={cn('grid content-start gap-1.5', wide && 'sm:col-span-2')}>
      <label htmlFor={htmlFor} className="text-sm font-medium text-foreground">
        {label}
      </label>
      {children}
      {error ? (
        <p id={hintId} className="text-xs text-destructive">
          {error}
        </p>
      ) : (
        hint && (
          <p id={hintId} className="text-xs text-muted-foreground">
            {hint}
          </p>
        )
      )}
    </div>
  );
}

interface ConfirmChangesProps {
  service: ExternalServiceDto;
  edited: ExternalServiceDto;
  fields: readonly EditedField[];
  saving: boolean;
  error?: string;
  onBack: () => void;
  onConfirm: () => void;
}

/** How a changed value reads in the confirmation: secrets never, long texts cut, blanks as a dash. */
function shownValue(field: EditedField, value: unknown, t: (key: string) => string, i18n: Parameters<typeof catalogType>[1]): string {
  if (SECRET_FIELDS.has(field)) return value ? t('services.form.confirm.secretChanged') : t('services.form.confirm.secretRemoved');
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'status') return t(`services.statuses.${String(value)}`);
  if (field === 'service_type') return catalogType(String(value), i18n);
  if (typeof value === 'boolean') return value ? t('services.form.confirm.yes') : t('services.form.confirm.no');
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** The second step of Guardar: what changes, for whom, and a key change spelled out. */
function ConfirmChanges({ service, edited, fields, saving, error, onBack, onConfirm }: ConfirmChangesProps) {
  const { t, i18n } = useTranslation();
  const renamed = fields.includes('service_name');
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-4" data-testid="service-confirm">
      <div className="-mx-6 grid min-h-0 flex-1 content-start gap-4 overflow-y-auto px-6 pt-1 pb-2 sm:-mx-7 sm:px-7">
        <Alert variant="warning" data-testid="service-confirm-warning">
          <strong className="block font-semibold">{t('services.form.confirm.title')}</strong>
          {t('services.form.confirm.everyone', { name: service.service_name })}
        </Alert>
        {renamed && (
          <p className="rounded-2xl border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm text-foreground" data-testid="service-confirm-rename">
            {t('services.form.confirm.rename', { from: service.service_name, to: edited.service_name })}
          </p>
        )}
        <dl className="grid gap-2 text-sm" data-testid="service-confirm-changes">
          {fields.map((field) => (
            <div key={field} className="grid gap-0.5 rounded-xl bg-muted/60 px-4 py-2.5" data-field={field}>
              <dt className="font-medium text-foreground">{t(`services.form.fields.${field}`)}</dt>
              <dd className="break-words text-muted-foreground">
                {SECRET_FIELDS.has(field) ? (
                  shownValue(field, edited[field], t, i18n)
                ) : (
                  <>
                    <span className="line-through decoration-muted-foreground/60">{shownValue(field, service[field], t, i18n)}</span>
                    {' → '}
                    <span className="font-medium text-foreground">{shownValue(field, edited[field], t, i18n)}</span>
                  </>
                )}
              </dd>
            </div>
          ))}
        </dl>
      </div>
      {error && (
        <Alert variant="error" data-testid="service-save-error">
          {error}
        </Alert>
      )}
      <div className="-mx-6 flex flex-col-reverse gap-3 border-t px-6 pt-4 sm:-mx-7 sm:flex-row sm:justify-end sm:px-7">
        <Button variant="outline" onClick={onBack} disabled={saving} data-testid="service-confirm-back">
          <ArrowLeft aria-hidden="true" />
          {t('services.form.confirm.back')}
        </Button>
        <Button onClick={onConfirm} disabled={saving} data-testid="service-confirm-save">
          {saving && <LoaderCircle aria-hidden="true" className="animate-spin" />}
          {t('services.form.confirm.save')}
        </Button>
      </div>
    </div>
  );
}
