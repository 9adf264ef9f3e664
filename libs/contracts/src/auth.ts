import { z } from 'zod';
import { oauthAppFields, optionalText, optionalUrl } from './common.js';
import { SessionUserSchema } from './session.js';
import { isHighlyRestrictive } from './username.js';

/** A same-origin path to return to after signing in (never another origin). */
export const ReturnToSchema = z
  .string()
  .max(2000)
  .regex(/^\/(?![/\\])[^\s\\]*$/, 'returnTo must be a path on this site');

export const LoginStartQuerySchema = z.object({ returnTo: ReturnToSchema.optional() }).strict();

/** Providers add their own parameters (Google: scope, authuser, hd...); only these are read. */
export const LoginCallbackQuerySchema = z.object({
  code: z.string().min(1).max(4096),
  state: z.string().min(1).max(200),
  /** RFC 9207: the issuer that sent the answer, checked against the provider we started with. */
  iss: z.string().max(2000).optional(),
});

/** `GET /login/{provider}/callback` on success (spec section 7: authToken, user). */
export const LoginSuccessSchema = z
  .object({
    authToken: z.string(),
    user: SessionUserSchema,
    returnTo: z.string().optional(),
  })
  .meta({ id: 'LoginSuccess' });
export type LoginSuccess = z.infer<typeof LoginSuccessSchema>;

/** Why a sign-in was refused; the SPA shows the message on the landing page. */
export const LOGIN_ERRORS = [
  'invalid_state',
  'not_invited',
  'provider_error',
  'provider_unavailable',
  'unverified_email',
  'invalid_id_token',
  'account_being_erased',
] as const;
export type LoginErrorCode = (typeof LOGIN_ERRORS)[number];

export const UserProfileSchema = z
  .object({ id: z.string(), username: z.string(), email: z.string(), role: z.enum(['user', 'admin']) })
  .meta({ id: 'UserProfile' });
export type UserProfile = z.infer<typeof UserProfileSchema>;

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;

export const UpdateProfileSchema = z
  .object({
    username: z
      .string()
      .trim()
      .min(USERNAME_MIN, 'validation.usernameTooShort')
      .max(USERNAME_MAX, 'validation.usernameTooLong')
      .regex(/^[\p{L}\p{N}_.-]+$/u, 'validation.usernameCharacters')
      // Full-width or mathematical letters look like ordinary ones (ａｄｍｉｎ, 𝖺𝖽𝗆𝗂𝗇) yet are other characters.
      .refine((name) => name === name.normalize('NFKC'), 'validation.usernameLookalike')
      .refine(isHighlyRestrictive, 'validation.usernameMixedScripts'),
  })
  .strict()
  .meta({ id: 'UpdateProfile' });
export type UpdateProfile = z.infer<typeof UpdateProfileSchema>;

export const EmailSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email('validation.email'))
  .transform((value) => value.toLowerCase());

export const BetaInviteSchema = z.object({ email: z.string(), invited_by: z.string().nullable(), created_at: z.string() }).meta({ id: 'BetaInvite' });
export type BetaInviteDto = z.infer<typeof BetaInviteSchema>;
export const BetaInviteListSchema = z.array(BetaInviteSchema);

export const CreateBetaInviteSchema = z.object({ email: EmailSchema }).strict().meta({ id: 'CreateBetaInvite' });
export const BetaInviteParamsSchema = z.object({ email: z.string().max(254) });

/** What the API shows instead of a stored secret; sending it back means "unchanged". */
export const SECRET_MASK = '********';

export const LoginProviderSchema = z
  .object({
    id: z.string(),
    service_name: z.string(),
    service_type: z.string(),
    description: z.string().nullable(),
    ...oauthAppFields,
  })
  .meta({ id: 'LoginProvider' });
export type LoginProviderDto = z.infer<typeof LoginProviderSchema>;
export const LoginProviderListSchema = z.array(LoginProviderSchema);

export const LoginProviderInputSchema = z
  .object({
    id: z.string().optional(),
    service_name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'validation.providerNameCharacters'),
    service_type: z.string().max(40).optional(),
    description: optionalText(2000),
    app_id: optionalText(500),
    app_secret: optionalText(10_000),
    base_url: optionalUrl,
    auth_url: optionalUrl,
    token_url: optionalUrl,
    redirect_url: optionalUrl,
    scopes: optionalText(1000),
    user_url: optionalUrl,
    /** Read-only (the answer's redirect URI to register): accepted so an answer can be sent back as it is, and ignored. */
    callback_url: z.string().max(2000).optional(),
  })
  .strict()
  .meta({ id: 'LoginProviderInput' });
export type LoginProviderInput = z.infer<typeof LoginProviderInputSchema>;

export const IdParamsSchema = z.object({ id: z.uuid('id must be a UUID') });
export const ProviderParamsSchema = z.object({ provider: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Unknown provider') });
