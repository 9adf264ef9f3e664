import { z } from 'zod';
import { EmailSchema } from './auth.js';

/** What a message is about; the list on the contact page (privacy covers data-rights requests). */
export const CONTACT_SUBJECTS = ['general', 'privacy', 'billing', 'other'] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number];

/** received: stored, not (yet) mailed; sent: the SMTP server accepted it; failed: gave up after every retry. */
export const CONTACT_MESSAGE_STATUSES = ['received', 'sent', 'failed'] as const;
export type ContactMessageStatus = (typeof CONTACT_MESSAGE_STATUSES)[number];

export const CONTACT_NAME_MAX = 100;
export const CONTACT_MESSAGE_MIN = 10;
export const CONTACT_MESSAGE_MAX = 5000;

/** The name goes into a mail header (Reply-To): no control characters. */
// eslint-disable-next-line no-control-regex
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

/**
 * `POST /api/contact`. `website` is a honeypot: the page hides it from people, so a
 * filled one means a bot (the answer looks the same, nothing is kept).
 */
export const ContactMessageInputSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'validation.contactNameRequired')
      .max(CONTACT_NAME_MAX, 'validation.contactNameTooLong')
      .regex(NO_CONTROL_CHARACTERS, 'validation.contactNameLineBreaks'),
    email: EmailSchema,
    subject: z.enum(CONTACT_SUBJECTS, 'validation.contactSubject'),
    message: z.string().trim().min(CONTACT_MESSAGE_MIN, 'validation.contactMessageTooShort').max(CONTACT_MESSAGE_MAX, 'validation.contactMessageTooLong'),
    consent: z.literal(true, 'validation.contactConsent'),
    website: z.string().max(500).optional(),
  })
  .strict()
  .meta({ id: 'ContactMessageInput' });
export type ContactMessageInput = z.input<typeof ContactMessageInputSchema>;
/** What the server works with after validation (trimmed, e-mail lower-cased). */
export type ContactMessageSubmission = z.output<typeof ContactMessageInputSchema>;

/** The same answer for every accepted message (and for a honeypot hit): no id is revealed. */
export const ContactAcceptedSchema = z.object({ status: z.literal('received') }).meta({ id: 'ContactAccepted' });
export type ContactAccepted = z.infer<typeof ContactAcceptedSchema>;

/** A stored message, as admins see it. */
export const ContactMessageSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    subject: z.enum(CONTACT_SUBJECTS),
    message: z.string(),
    /** The account that was signed in when the message was sent, if any. */
    user_id: z.string().nullable(),
    status: z.enum(CONTACT_MESSAGE_STATUSES),
    attempts: z.number().int(),
    /** Why the last delivery attempt failed (no secrets). */
    last_error: z.string().nullable(),
    sent_at: z.string().nullable(),
    handled_at: z.string().nullable(),
    /** E-mail of the admin who marked it handled. */
    handled_by: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'ContactMessage' });
export type ContactMessageDto = z.infer<typeof ContactMessageSchema>;
export const ContactMessageListSchema = z.array(ContactMessageSchema);

export const CONTACT_LIST_LIMIT_MAX = 200;

export const ContactMessageListQuerySchema = z
  .object({
    subject: z.enum(CONTACT_SUBJECTS).optional(),
    status: z.enum(CONTACT_MESSAGE_STATUSES).optional(),
    limit: z.coerce.number().int().min(1).max(CONTACT_LIST_LIMIT_MAX).default(100),
  })
  .strict();
export type ContactMessageListQuery = z.input<typeof ContactMessageListQuerySchema>;
export type ContactMessageListFilter = z.output<typeof ContactMessageListQuerySchema>;
