import {
  ContactMessageInputSchema,
  CONTACT_MESSAGE_MAX,
  CONTACT_MESSAGE_MIN,
  CONTACT_NAME_MAX,
  type ContactMessageSubmission,
  type ContactSubject,
} from '@life/contracts';

export const CONTACT_FIELDS = ['name', 'email', 'subject', 'message', 'consent'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

/** An i18n key (under `contact.errors`) and its values: field errors are translated, not the server's text. */
export interface FieldError {
  key: string;
  values?: Record<string, number>;
}
export type FieldErrors = Partial<Record<ContactField, FieldError>>;

export interface ContactFormValues {
  name: string;
  email: string;
  subject: ContactSubject | '';
  message: string;
  consent: boolean;
  /** The honeypot: people never see it, so it stays empty. */
  website: string;
}

const isField = (value: string | undefined): value is ContactField => CONTACT_FIELDS.includes(value as ContactField);

/** The message for `field` given the zod issue code (the same codes the server's contract reports). */
export function fieldError(field: ContactField, code: string | undefined, empty: boolean): FieldError {
  switch (field) {
    case 'name':
      return code === 'too_big' ? { key: 'nameTooLong', values: { max: CONTACT_NAME_MAX } } : { key: empty ? 'nameRequired' : 'nameInvalid' };
    case 'email':
      return { key: empty ? 'emailRequired' : 'emailInvalid' };
    case 'subject':
      return { key: 'subject' };
    case 'message':
      return code === 'too_big'
        ? { key: 'messageTooLong', values: { max: CONTACT_MESSAGE_MAX } }
        : { key: 'messageTooShort', values: { min: CONTACT_MESSAGE_MIN } };
    case 'consent':
      return { key: 'consent' };
  }
}

/** Checks the form with the shared contract; the first problem of each field wins. */
export function validateContactForm(
  values: ContactFormValues,
): { data: ContactMessageSubmission; errors?: undefined } | { data?: undefined; errors: FieldErrors } {
  const result = ContactMessageInputSchema.safeParse({
    ...values,
    subject: values.subject || undefined,
    website: values.website || undefined,
  });
  if (result.success) return { data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field !== 'string' || !isField(field) || errors[field]) continue;
    const raw = values[field];
    errors[field] = fieldError(field, issue.code, typeof raw === 'string' && raw.trim() === '');
  }
  return { errors };
}

/** Field errors from a 400 answer's `details` (paths like `body.email`); others are ignored. */
export function fieldErrorsFromDetails(details: readonly { path: string }[], values: ContactFormValues): FieldErrors {
  const errors: FieldErrors = {};
  for (const detail of details) {
    const field = detail.path.split('.')[1];
    if (!isField(field) || errors[field]) continue;
    const raw = values[field];
    const text = typeof raw === 'string' ? raw.trim() : '';
    const max = field === 'name' ? CONTACT_NAME_MAX : field === 'message' ? CONTACT_MESSAGE_MAX : Infinity;
    errors[field] = fieldError(field, text.length > max ? 'too_big' : undefined, typeof raw === 'string' && text === '');
  }
  return errors;
}
