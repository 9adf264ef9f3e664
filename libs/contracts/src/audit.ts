import { z } from 'zod';

/**
 * What the audit log records (issue 7): every admin change and every security event, with
 * who, what, when and from where, never a secret.
 */
export const AUDIT_ACTIONS = [
  // security events
  'auth.sign_in',
  'auth.sign_in_refused',
  'auth.logout',
  'oauth.consent_given',
  'oauth.consent_denied',
  'oauth.grant_revoked',
  'oauth.app_access_revoked',
  'oauth.refresh_reuse_detected',
  'oauth.code_replay_detected',
  // durable events of other modules (docs/architecture.md, the outbox)
  'connection.needs_reconnect',
  'billing.membership_started',
  'billing.cancellation_scheduled',
  'billing.cancellation_withdrawn',
  'billing.membership_ended',
  // a payment after its checkout (issue 17, docs/billing.md)
  'billing.membership_refunded',
  'billing.membership_disputed',
  'billing.dispute_closed',
  'billing.payment_settled',
  'billing.payment_failed',
  'billing.late_checkout_refunded',
  // data rights (docs/data-rights.md)
  'account.data_export_requested',
  'account.erasure_requested',
  'account.erased',
  // a person's own apps (profile: Mis aplicaciones, decision 0037)
  'developer.app_created',
  'developer.app_updated',
  'developer.app_secret_rotated',
  'developer.app_deleted',
  // admin changes
  'admin.beta_invite_added',
  'admin.beta_invite_removed',
  'admin.login_provider_created',
  'admin.login_provider_updated',
  'admin.login_provider_deleted',
  'admin.login_provider_checked',
  'admin.service_updated',
  'admin.service_checked',
  'admin.oauth_client_created',
  'admin.oauth_client_updated',
  'admin.oauth_client_secret_rotated',
  'admin.oauth_client_deleted',
  'admin.oauth_client_verified',
  'admin.oauth_client_unverified',
  'admin.oauth_client_suspended',
  'admin.oauth_client_unsuspended',
  'admin.signing_key_rotated',
  'admin.vault_key_rotation_requested',
  'admin.queue_job_retried',
  'admin.queue_job_discarded',
  'admin.sales_members_exported',
  'admin.stripe_event_retried',
  'admin.stripe_event_dismissed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEventSchema = z
  .object({
    id: z.string(),
    at: z.string(),
    action: z.string(),
    /** The person who did it (null for the system, an app, or someone not signed in). */
    actor_id: z.string().nullable(),
    /** How to show the actor: e-mail, client id or 'sistema'. */
    actor_label: z.string().nullable(),
    target_type: z.string().nullable(),
    target_id: z.string().nullable(),
    /** The target's name today (an app, a service, a person…), asked of the module that owns it; null when it has none or is gone. */
    target_label: z.string().nullable(),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    /** Non-secret context (fields changed, provider, reason). */
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const AuditQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    /** Cursor: events strictly older than this event id's time (from `next_before`). */
    before: z.string().max(100).optional(),
    action: z.string().max(60).optional(),
  })
  .strict();

export const AuditPageSchema = z.object({ items: z.array(AuditEventSchema), next_before: z.string().nullable() }).meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof AuditPageSchema>;
