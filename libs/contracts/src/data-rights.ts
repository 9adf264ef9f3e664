import { z } from 'zod';
import { DayItemSchema, DaySectionSchema } from './your-day.js';

/**
 * The person's data rights (privacy policy: access, rectification, erasure, restriction,
 * objection, portability): a JSON export of everything we hold about them, and erasing the
 * account. Both run as background jobs (docs/data-rights.md).
 */

export const DATA_EXPORT_STATUSES = ['pending', 'running', 'ready', 'failed'] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];

/** `POST /api/users/me/export` (202) and `GET /api/users/me/export/{id}`. */
export const DataExportSchema = z
  .object({
    id: z.string(),
    status: z.enum(DATA_EXPORT_STATUSES),
    created_at: z.string(),
    /** When the file was ready (or the job gave up). */
    finished_at: z.string().nullable(),
    /** After this the file is deleted; null until it is ready. */
    expires_at: z.string().nullable(),
    size_bytes: z.number().int().nullable(),
  })
  .meta({ id: 'DataExport' });
export type DataExport = z.infer<typeof DataExportSchema>;

export const DataExportParamsSchema = z.object({ id: z.uuid('validation.exportId') });

/** What the person may type to confirm the erasure, besides their own username. */
export const ERASE_CONFIRMATION_WORD = 'ELIMINAR';

/** `POST /api/users/me/erase`: `confirm` is the person's username or ERASE_CONFIRMATION_WORD. */
export const EraseAccountSchema = z
  .object({
    confirm: z.string().trim().min(1, 'validation.erasureConfirmation').max(100),
  })
  .strict()
  .meta({ id: 'EraseAccount' });
export type EraseAccount = z.infer<typeof EraseAccountSchema>;

/** True when `typed` confirms the erasure of the account called `username`. */
export function confirmsErasure(typed: string, username: string): boolean {
  const value = typed.trim();
  return value === ERASE_CONFIRMATION_WORD || value.toLowerCase() === username.toLowerCase();
}

/** `POST /api/users/me/erase` → 202: sessions are already revoked, the rest is queued. */
export const ErasureAcceptedSchema = z
  .object({
    status: z.literal('accepted'),
    requested_at: z.string(),
  })
  .meta({ id: 'ErasureAccepted' });
export type ErasureAccepted = z.infer<typeof ErasureAcceptedSchema>;

const when = z.string().nullable();

/**
 * The downloaded file (`life-datos-<date>.json`). Never a secret: no token, hash, ciphertext or
 * client secret; connections and credentials say only what they are.
 */
export const DataExportDocumentSchema = z
  .object({
    format: z.literal('life-data-export'),
    version: z.literal(1),
    generated_at: z.string(),
    profile: z.object({
      id: z.string(),
      username: z.string(),
      email: z.string(),
      email_verified: z.boolean(),
      role: z.string(),
      created_at: z.string(),
      updated_at: z.string(),
    }),
    sign_in_identities: z.array(
      z.object({ provider: z.string(), subject: z.string(), email: z.string().nullable(), created_at: z.string(), last_login_at: when }),
    ),
    sessions: z.array(
      z.object({
        created_at: z.string(),
        last_used_at: when,
        expires_at: when,
        revoked_at: when,
        ip: z.string().nullable(),
        user_agent: z.string().nullable(),
      }),
    ),
    connections: z.array(
      z.object({
        service: z.string(),
        status: z.string(),
        account_id: z.string().nullable(),
        account_name: z.string().nullable(),
        scope: z.string().nullable(),
        client_source: z.string(),
        connected_at: z.string(),
        access_token_expires_at: when,
        last_refresh_at: when,
        refresh_failures: z.number(),
        last_error: z.string().nullable(),
      }),
    ),
    service_credentials: z.array(z.object({ service_name: z.string(), client_id: z.string(), created_at: z.string(), updated_at: z.string() })),
    app_grants: z.array(
      z.object({
        client_id: z.string(),
        client_name: z.string(),
        scopes: z.array(z.string()),
        granted_at: z.string(),
        updated_at: z.string(),
        revoked_at: when,
      }),
    ),
    app_tokens: z.array(
      z.object({
        client_id: z.string(),
        scopes: z.array(z.string()),
        issued_at: z.string(),
        access_expires_at: when,
        refresh_expires_at: when,
        revoked_at: when,
        revoked_reason: z.string().nullable(),
      }),
    ),
    apps_owned: z.array(z.object({ name: z.string(), client_id: z.string(), redirect_uris: z.array(z.string()), active: z.boolean(), created_at: z.string() })),
    membership: z
      .object({
        edition: z.string(),
        price_cents: z.number(),
        member_number: z.number(),
        status: z.string(),
        status_at: when,
        since: z.string(),
        stripe_customer_id: z.string().nullable(),
        stripe_subscription_id: z.string().nullable(),
      })
      .nullable(),
    checkouts: z.array(z.object({ edition: z.string(), price_cents: z.number(), status: z.string(), created_at: z.string(), expires_at: when })),
    beta_invitation: z.object({ email: z.string(), created_at: z.string() }).nullable(),
    contact_messages: z.array(
      z.object({ created_at: z.string(), name: z.string(), email: z.string(), subject: z.string(), message: z.string(), status: z.string(), sent_at: when }),
    ),
    /** The e-mails telling the person that a connection broke (one per break). */
    reconnect_notices: z.array(z.object({ created_at: z.string(), service: z.string(), language: z.string(), status: z.string(), sent_at: when })).optional(),
    /** "Tu día": each service's view, with the snapshot Life keeps of it (issue 19), and the zone and language the workers use. */
    your_day: z
      .object({
        time_zone: z.string().nullable(),
        language: z.string().nullable(),
        views: z.array(
          z.object({
            service: z.string(),
            enabled: z.boolean(),
            fetched_at: when,
            expires_at: when,
            problem: z.string().nullable(),
            snapshot: z.object({ headline: DayItemSchema.nullable(), sections: z.array(DaySectionSchema), timeline: z.array(DayItemSchema) }).nullable(),
          }),
        ),
      })
      .optional(),
    activity: z.array(
      z.object({
        at: z.string(),
        action: z.string(),
        target_type: z.string().nullable(),
        target_id: z.string().nullable(),
        ip: z.string().nullable(),
        user_agent: z.string().nullable(),
        details: z.record(z.string(), z.unknown()),
      }),
    ),
    data_exports: z.array(z.object({ created_at: z.string(), status: z.string(), finished_at: when })),
  })
  .meta({ id: 'DataExportDocument' });
export type DataExportDocument = z.infer<typeof DataExportDocumentSchema>;
