import { z } from 'zod';
import { LoginCallbackQuerySchema } from './auth.js';
import { oauthAppFields, optionalServiceUrl, optionalText, SERVICE_KEY_PATTERN, SERVICE_STATUSES, SERVICE_TYPES } from './common.js';

/** How a provider's token endpoint wants to be spoken to (PROVIDERS.md quirks), all admin-editable. */
export const TokenAuthSchema = z.enum(['body', 'basic']);
export const TokenBodySchema = z.enum(['form', 'json']);
export const REVOKE_STYLES = ['none', 'rfc7009', 'github', 'google', 'notion', 'soundcloud'] as const;

/**
 * Why Conectar cannot start a connection to a service, said on its card before any click: its
 * status is not active (announced, inactive, maintenance), or no app is configured for it (no
 * admin credentials, none of the person's own, and no development provider).
 */
export const UNAVAILABLE_REASONS = ['announced', 'inactive', 'maintenance', 'not_configured'] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/** An entry of `GET /api/external-services/all` (spec section 3 "External service"), for one person. */
export const ExternalServiceSchema = z
  .object({
    id: z.string(),
    service_name: z.string(),
    service_type: z.string(),
    description: z.string().nullable(),
    connected: z.boolean(),
    needs_reconnect: z.boolean(),
    status: z.enum(SERVICE_STATUSES),
    ...oauthAppFields,
    token_auth: TokenAuthSchema,
    token_body: TokenBodySchema,
    send_scope: z.boolean(),
    pkce: z.boolean(),
    extra_auth_params: z.record(z.string(), z.string()),
    extra_headers: z.record(z.string(), z.string()),
    api_key_header: z.string().nullable(),
    /** '********' when an API key is stored. */
    api_key: z.string(),
    revoke_url: z.string().nullable(),
    revoke_style: z.enum(REVOKE_STYLES),
    account_url: z.string().nullable(),
    account_name: z.string().nullable(),
    /** Why Conectar cannot start a connection now, or null when it can (login-type services: null, they have no Conectar). */
    unavailable_reason: z.enum(UNAVAILABLE_REASONS).nullable(),
    /** Conectar goes to the service's development provider, a local stand-in (development only, decision 0020). */
    dev_provider: z.boolean(),
    /** The regions the person picks from when connecting (Battle.net: us, eu, kr, tw, cn); empty when the service has none. */
    regions: z.array(z.string()),
    /** The region this person's connection was made in, or null. */
    region: z.string().nullable(),
  })
  .meta({ id: 'ExternalService' });
export type ExternalServiceDto = z.infer<typeof ExternalServiceSchema>;
export const ExternalServiceListSchema = z.array(ExternalServiceSchema);

const headerRecord = z
  .record(z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'validation.headerNames'), z.string().max(500))
  .refine((r) => Object.keys(r).length <= 10, { message: 'validation.tooManyEntries', params: { maximum: 10 } });
const paramRecord = z
  .record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/), z.string().max(500))
  .refine((r) => Object.keys(r).length <= 10, { message: 'validation.tooManyEntries', params: { maximum: 10 } });

/**
 * `PUT /api/external-services/{id}`: the full object as the dialog edited it (extra read-only fields
 * are ignored). The key is a slug, the type one of SERVICE_TYPES, the URLs https (decision 0026).
 */
export const ExternalServiceUpdateSchema = z
  .object({
    service_name: z.string().regex(SERVICE_KEY_PATTERN, 'validation.serviceKey'),
    service_type: z.enum(SERVICE_TYPES, 'validation.serviceType'),
    description: optionalText(2000),
    status: z.enum(SERVICE_STATUSES),
    scopes: optionalText(1000),
    app_id: optionalText(500),
    app_secret: optionalText(10_000),
    base_url: optionalServiceUrl,
    auth_url: optionalServiceUrl,
    token_url: optionalServiceUrl,
    redirect_url: optionalServiceUrl,
    user_url: optionalServiceUrl,
    token_auth: TokenAuthSchema.optional(),
    token_body: TokenBodySchema.optional(),
    send_scope: z.boolean().optional(),
    pkce: z.boolean().optional(),
    extra_auth_params: paramRecord.optional(),
    extra_headers: headerRecord.optional(),
    api_key_header: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}$/)
      .nullable()
      .optional(),
    api_key: optionalText(1000),
    revoke_url: optionalServiceUrl,
    revoke_style: z.enum(REVOKE_STYLES).optional(),
    account_url: optionalServiceUrl,
    /**
     * The regions' settings (decision 0042). Absent: they stay as they are (the catalog editor does
     * not show them yet, and the dialog's copy of the card's `regions`, a list of keys, is ignored).
     */
    region_settings: z
      .array(
        z
          .object({
            region: z.string().regex(/^[a-z]{2,8}$/, 'validation.region'),
            auth_url: optionalServiceUrl,
            token_url: optionalServiceUrl,
            user_url: optionalServiceUrl,
            base_url: optionalServiceUrl,
            query: paramRecord.optional(),
          })
          .strict(),
      )
      .refine((r) => r.length <= 20, { message: 'validation.tooManyEntries', params: { maximum: 20 } })
      .refine((r) => new Set(r.map((entry) => entry.region)).size === r.length, { message: 'validation.region' })
      .nullable()
      .optional(),
  })
  .strip()
  .meta({ id: 'ExternalServiceUpdate' });
export type ExternalServiceUpdate = z.infer<typeof ExternalServiceUpdateSchema>;

export const ServiceNameParamsSchema = z.object({ service_name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Unknown service') });
export const ServiceParamsSchema = z.object({ service: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Unknown service') });

export const AuthUrlSchema = z.object({ auth_url: z.string() }).meta({ id: 'AuthUrl' });

/** `POST /api/external-services/{service_name}/auth`'s optional body: the region a service with regions is connected in (Battle.net). */
export const ConnectStartSchema = z
  .object({
    region: z
      .string()
      .regex(/^[a-z]{2,8}$/, 'validation.region')
      .optional(),
  })
  .strict()
  .optional()
  .meta({ id: 'ConnectStart' });

/** Same shape as a sign-in's answer: code, state and the optional RFC 9207 issuer. */
export const ServiceCallbackQuerySchema = LoginCallbackQuerySchema;

/** `GET /callback/{service}` on success: the connection and the signed-in person (`user`, as spec section 5 reads for spotify). */
export const ServiceCallbackSchema = z
  .object({
    service: z.string(),
    connected: z.literal(true),
    account_name: z.string().nullable(),
    user: z.object({ id: z.string(), username: z.string(), email: z.string(), role: z.enum(['user', 'admin']) }),
  })
  .meta({ id: 'ServiceCallback' });

export const DisconnectResultSchema = z
  .object({
    service: z.string(),
    revoked_at_provider: z.boolean(),
    /** Where the person can finish removing the app's access when the provider has no revocation endpoint. */
    finish_at: z.string().nullable(),
  })
  .meta({ id: 'DisconnectResult' });

export const UserCredentialSchema = z.object({ service_name: z.string(), client_id: z.string(), client_secret: z.string() }).meta({ id: 'UserCredential' });

export const UserCredentialInputSchema = z
  .object({
    service_name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    client_id: z.string().trim().max(500),
    client_secret: z.string().max(10_000),
  })
  .strict()
  .meta({ id: 'UserCredentialInput' });
