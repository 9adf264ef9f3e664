import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { CONTACT_MESSAGE_MAX, CONTACT_SUBJECTS, type ContactSubject, type SessionUser } from '@life/contracts';
import { LoaderCircle, Send } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { useSendContactMessage } from '../api/send-contact-message';
import {
  CONTACT_FIELDS,
  fieldErrorsFromDetails,
  validateContactForm,
  type ContactField,
  type ContactFormValues,
  type FieldErrors,
} from '../utils/field-errors';

/** What the confirmation repeats back to the sender. */
export interface SentMessage {
  name: string;
  email: string;
  subject: ContactSubject;
}

export interface ContactFormProps {
  /** The signed-in person, whose name and e-mail fill the form. */
  user: SessionUser | null;
  initialSubject?: ContactSubject;
  onSent: (message: SentMessage) => void;
}

const invalidClass = 'aria-invalid:border-destructive aria-invalid:focus-visible:ring-destructive/15';

export function ContactForm({ user, initialSubject, onSent }: ContactFormProps) {
  const { t } = useTranslation();
  const id = useId();
  const send = useSendContactMessage();
  const [values, setValues] = useState<ContactFormValues>({
    name: user?.username ?? '',
    email: user?.email ?? '',
    subject: initialSubject ?? '',
    message: '',
    consent: false,
    website: '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const fieldRefs = useRef<Partial<Record<ContactField, HTMLElement | null>>>({});

  const fieldId = (field: ContactField | 'website') => `${id}-${field}`;
  const errorId = (field: ContactField) => `${id}-${field}-error`;

  function update<K extends keyof ContactFormValues>(field: K, value: ContactFormValues[K]) {
    const next = { ...values, [field]: value };
    setValues(next);
    if (send.isError) send.reset();
    // Once a field shows an error, it is re-checked as the person fixes it.
    if (field !== 'website' && errors[field as ContactField]) {
      const result = validateContactForm(next);
      setErrors((current) => ({ ...current, [field]: result.errors?.[field as ContactField] }));
    }
  }

  function showErrors(found: FieldErrors) {
    setErrors(found);
    const first = CONTACT_FIELDS.find((field) => found[field]);
    if (first) fieldRefs.current[first]?.focus();
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (send.isPending) return;
    const result = validateContactForm(values);
    if (result.errors) {
      showErrors(result.errors);
      return;
    }
    setErrors({});
    const message = result.data;
    send.mutate(message, {
      onSuccess: () => onSent({ name: message.name, email: message.email, subject: message.subject }),
      onError: (error) => {
        if (error instanceof ApiError && error.status === 400) showErrors(fieldErrorsFromDetails(error.details, values));
      },
    });
  }

  const failure = send.isError ? failureMessageKey(send.error) : undefined;

  const describedBy = (field: ContactField, hint?: string) => [errors[field] ? errorId(field) : undefined, hint].filter(Boolean).join(' ') || undefined;

  const fieldErrorText = (field: ContactField): ReactNode => {
    const error = errors[field];
    if (!error) return null;
    return (
      <p id={errorId(field)} className="text-sm text-destructive" data-testid={`contact-error-${field}`}>
        {t(`contact.errors.${error.key}`, error.values ?? {})}
      </p>
    );
  };

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-6" data-testid="contact-form" aria-describedby={user ? `${id}-prefilled` : undefined}>
      {user && (
        <p id={`${id}-prefilled`} className="-mb-2 text-sm text-muted-foreground" data-testid="contact-prefilled">
          {t('contact.prefilled')}
        </p>
      )}
      <div className="grid gap-6 sm:grid-cols-2">
        <div className="grid content-start gap-2">
          <label htmlFor={fieldId('name')} className="text-sm font-medium text-foreground">
            {t('contact.fields.name')}
          </label>
          <Input
            id={fieldId('name')}
            ref={(element) => {
              fieldRefs.current.name = element;
            }}
            name="name"
            autoComplete="name"
            maxLength={200}
            value={values.name}
            onChange={(event) => update('name', event.target.value)}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy('name')}
            className={invalidClass}
            data-testid="contact-name"
          />
          {fieldErrorText('name')}
        </div>
        <div className="grid content-start gap-2">
          <label htmlFor={fieldId('email')} className="text-sm font-medium text-foreground">
            {t('contact.fields.email')}
          </label>
          <Input
            id={fieldId('email')}
            ref={(element) => {
              fieldRefs.current.email = element;
            }}
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder={t('contact.placeholders.email')}
            value={values.email}
            onChange={(event) => update('email', event.target.value)}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={describedBy('email')}
            className={invalidClass}
            data-testid="contact-email"
          />
          {fieldErrorText('email')}
        </div>
      </div>

      <div className="grid gap-2">
        <label htmlFor={fieldId('subject')} className="text-sm font-medium text-foreground">
          {t('contact.fields.subject')}
        </label>
        <NativeSelect
          id={fieldId('subject')}
          ref={(element) => {
            fieldRefs.current.subject = element;
          }}
          name="subject"
          value={values.subject}
          onChange={(event) => update('subject', event.target.value as ContactSubject | '')}
          aria-invalid={errors.subject ? true : undefined}
          aria-describedby={describedBy('subject', `${id}-subject-hint`)}
          data-testid="contact-subject"
        >
          <option value="" disabled>
            {t('contact.subjectPlaceholder')}
          </option>
          {CONTACT_SUBJECTS.map((subject) => (
            <option key={subject} value={subject}>
              {t(`contact.subjects.${subject}`)}
            </option>
          ))}
        </NativeSelect>
        <p id={`${id}-subject-hint`} className="text-xs text-muted-foreground">
          {t('contact.subjectHint')}
        </p>
        {fieldErrorText('subject')}
      </div>

      <div className="grid gap-2">
        <div className="flex items-baseline justify-between gap-3">
          <label htmlFor={fieldId('message')} className="text-sm font-medium text-foreground">
            {t('contact.fields.message')}
          </label>
          <span
            id={`${id}-message-count`}
            className={cn('text-xs text-muted-foreground tabular-nums', values.message.trim().length > CONTACT_MESSAGE_MAX && 'text-destructive')}
          >
            {t('contact.messageCount', { length: values.message.trim().length, max: CONTACT_MESSAGE_MAX })}
          </span>
        </div>
        <Textarea
          id={fieldId('message')}
          ref={(element) => {
            fieldRefs.current.message = element;
          }}
          name="message"
          rows={7}
          placeholder={t('contact.placeholders.message')}
          value={values.message}
          onChange={(event) => update('message', event.target.value)}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={describedBy('message', `${id}-message-count`)}
          data-testid="contact-message"
        />
        {fieldErrorText('message')}
      </div>

      {/* Honeypot: off-screen and out of the tab order, so only bots fill it in. */}
      <div aria-hidden="true" className="pointer-events-none absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor={fieldId('website')}>{t('contact.honeypot')}</label>
        <input
          id={fieldId('website')}
          name="website"
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={values.website}
          onChange={(event) => update('website', event.target.value)}
          data-testid="contact-website"
        />
      </div>

      <div className="grid gap-2">
        <div className="flex items-start gap-3">
          <input
            id={fieldId('consent')}
            ref={(element) => {
              fieldRefs.current.consent = element;
            }}
            name="consent"
            type="checkbox"
            checked={values.consent}
            onChange={(event) => update('consent', event.target.checked)}
            aria-invalid={errors.consent ? true : undefined}
            aria-describedby={describedBy('consent')}
            className="mt-0.5 size-4 shrink-0 cursor-pointer accent-primary"
            data-testid="contact-consent"
          />
          <label htmlFor={fieldId('consent')} className="text-sm leading-relaxed text-foreground/85">
            <Trans
              i18nKey="contact.consent"
              components={{ privacy: <Link to="/privacy-policy" target="_blank" className="font-medium text-primary underline underline-offset-4" /> }}
            />
          </label>
        </div>
        {fieldErrorText('consent')}
      </div>

      {failure && (
        <Alert variant="error" data-testid="contact-failure">
          {t(failure)}
        </Alert>
      )}

      <div>
        <Button type="submit" size="lg" disabled={send.isPending} data-testid="contact-submit">
          {send.isPending ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Send aria-hidden="true" />}
          {send.isPending ? t('contact.sending') : t('contact.submit')}
        </Button>
      </div>
    </form>
  );
}

/** The banner for a failed send: field problems are shown at the fields instead. */
function failureMessageKey(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 429) return 'contact.errors.rateLimited';
    if (error.status === 400) return 'contact.errors.checkFields';
  }
  return 'contact.errors.generic';
}
