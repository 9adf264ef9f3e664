import { z } from 'zod';
import { isLoopbackHost, optionalText, SERVICE_NAMES } from './common.js';

/**
 * Scopes a third-party app may ask for (docs/oauth-server.md):
 * - openid: an ID token saying who the person is (sub)
 * - profile: the username; email: the e-mail address
 * - read: what the admin panel's Autorizar asks; profile + services:read
 * - services:read: which services the person has connected (never their tokens)
 * - service:<name>: calls to that connected service's API through our proxy
 */
export const BASE_SCOPES = ['openid', 'profile', 'email', 'read', 'services:read'] as const;
export type BaseScope = (typeof BASE_SCOPES)[number];
export const SERVICE_SCOPE_PREFIX = 'service:';
export const serviceScope = (name: string) => `${SERVICE_SCOPE_PREFIX}${name}`;

/** A scope this server knows: a base scope or service:<catalog name>. */
export function isKnownScope(scope: string): boolean {
  if ((BASE_SCOPES as readonly string[]).includes(scope)) return true;
  return scope.startsWith(SERVICE_SCOPE_PREFIX) && (SERVICE_NAMES as readonly string[]).includes(scope.slice(SERVICE_SCOPE_PREFIX.length));
}

export const CLIENT_TYPES = ['confidential', 'public'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

export const DEFAULT_CLIENT_SCOPES: readonly string[] = ['openid', 'profile', 'email', 'read', 'services:read'];

const ScopeSchema = z.string().refine(isKnownScope, { message: 'validation.unknownScope' });

/**
 * A redirect URI as RFC 9700 wants it: absolute, https, or http only on a loopback host;
 * no fragment. Compared exactly (a loopback's port may vary).
 * Returns the message id (`validation.*`) of what is wrong, or undefined.
 */
export function redirectUriProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'validation.absoluteUrl';
  }
  if (url.hash || value.includes('#')) return 'validation.urlFragment';
  if (url.username || url.password) return 'validation.urlCredentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return 'validation.redirectUriScheme';
}

export const RedirectUriSchema = z
  .string()
  .trim()
  .min(1, 'validation.redirectUriRequired')
  .max(2000)
  .superRefine((value, ctx) => {
    const problem = redirectUriProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** How an admin sees a client application. The secret is never returned after it is created. */
export const OAuthClientSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    client_id: z.string(),
    client_type: z.enum(CLIENT_TYPES),
    /** The first registered redirect URI (the spec's single field). */
    redirect_uri: z.string(),
    redirect_uris: z.array(z.string()),
    /** Where RP-initiated logout may send the browser back to (OIDC RP-Initiated Logout 1.0), compared like redirect URIs. */
    post_logout_redirect_uris: z.array(z.string()),
    allowed_scopes: z.array(z.string()),
    description: z.string().nullable(),
    owner_user_id: z.string().nullable(),
    active: z.boolean(),
    /** Whether a secret is set (confidential clients); the secret itself is never shown again. */
    has_secret: z.boolean(),
    /** RFC 9126: its authorization requests must be pushed to `/oauth/par` first. */
    require_pushed_authorization_requests: z.boolean(),
    created_at: z.string(),
    /** The person who registered it on their profile (decision 0037); null for the company's own apps. */
    developer_id: z.string().nullable(),
    /** That person's username (admin list), null for company apps or when the account is gone. */
    developer_name: z.string().nullable().optional(),
    logo_uri: z.string().nullable(),
    policy_uri: z.string().nullable(),
    tos_uri: z.string().nullable(),
    /** Checked by the company: the consent screen says so. Company apps are verified when created. */
    verified: z.boolean(),
    /** Stopped by an admin: refused everywhere, its tokens stop working; only an admin lifts it. */
    suspended: z.boolean(),
  })
  .meta({ id: 'OAuthClient' });
export type OAuthClientView = z.infer<typeof OAuthClientSchema>;

export const OAuthClientListSchema = z.array(OAuthClientSchema);

/** The answer to create and to secret rotation: the only time the secret is visible. */
export const OAuthClientWithSecretSchema = OAuthClientSchema.extend({
  client_secret: z.string().nullable().describe('Shown once; null for public clients'),
}).meta({ id: 'OAuthClientWithSecret' });
export type OAuthClientWithSecret = z.infer<typeof OAuthClientWithSecretSchema>;

const redirectUrisField = z.array(RedirectUriSchema).min(1, 'validation.redirectUrisRequired').max(10);
/** Same rules as redirect URIs (https or loopback http, no fragment, up to 10), but none is fine. */
const postLogoutRedirectUrisField = z.array(RedirectUriSchema).max(10);

export const CreateOAuthClientSchema = z
  .object({
    name: z.string().trim().min(1, 'validation.nameRequired').max(120),
    client_type: z.enum(CLIENT_TYPES).default('confidential'),
    redirect_uri: RedirectUriSchema.optional(),
    redirect_uris: redirectUrisField.optional(),
    post_logout_redirect_uris: postLogoutRedirectUrisField.optional(),
    allowed_scopes: z.array(ScopeSchema).max(40).optional(),
    description: optionalText(1000),
    active: z.boolean().optional(),
    require_pushed_authorization_requests: z.boolean().optional(),
  })
  .refine((value) => value.redirect_uri || value.redirect_uris, {
    message: 'validation.redirectUrisRequired',
    path: ['redirect_uri'],
  })
  .meta({ id: 'CreateOAuthClient' });
export type CreateOAuthClient = z.input<typeof CreateOAuthClientSchema>;

/**
 * `PUT /oauth_clients/{id}` takes the full app object (spec section 7). Read-only fields it
 * carries back (id, client_id, client_secret, owner_user_id, client_type, dates) are ignored.
 */
export const UpdateOAuthClientSchema = z
  .object({
    name: z.string().trim().min(1, 'validation.nameRequired').max(120).optional(),
    redirect_uri: RedirectUriSchema.optional(),
    redirect_uris: redirectUrisField.optional(),
    post_logout_redirect_uris: postLogoutRedirectUrisField.optional(),
    allowed_scopes: z.array(ScopeSchema).max(40).optional(),
    description: optionalText(1000),
    active: z.boolean().optional(),
    require_pushed_authorization_requests: z.boolean().optional(),
  })
  .meta({ id: 'UpdateOAuthClient' });
export type UpdateOAuthClient = z.infer<typeof UpdateOAuthClientSchema>;

export const OAuthClientParamsSchema = z.object({ id: z.uuid() });

/**
 * Scopes a person-made app may ask for (decision 0037): the ones about the person who consents
 * (openid profile email read services:read service:<name>), nothing that speaks for the app itself.
 */
export function isPersonScope(scope: string): boolean {
  if ((BASE_SCOPES as readonly string[]).includes(scope)) return true;
  return scope.startsWith(SERVICE_SCOPE_PREFIX) && (SERVICE_NAMES as readonly string[]).includes(scope.slice(SERVICE_SCOPE_PREFIX.length));
}

export const DEFAULT_DEVELOPER_APP_SCOPES: readonly string[] = ['openid', 'profile', 'email'];

/** A logo or a policy link: absolute https, no credentials, no fragment-only tricks. Returns the message id or undefined. */
export function httpsUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'validation.absoluteUrl';
  }
  if (url.username || url.password) return 'validation.urlCredentials';
  if (url.protocol !== 'https:') return 'validation.httpsOnly';
  return undefined;
}

const HttpsUrlSchema = z
  .string()
  .trim()
  .max(2000, 'validation.urlTooLong')
  .superRefine((value, ctx) => {
    const problem = httpsUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** An optional https link: empty or null clears it. */
const optionalHttpsUrl = z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? null : value), HttpsUrlSchema.nullable().optional());

const PersonScopeSchema = z.string().refine(isPersonScope, { message: 'validation.personScope' });

/** An app a person registered on their profile, as they see it (never its secret after creation). */
export const DeveloperAppSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    client_id: z.string(),
    client_type: z.enum(CLIENT_TYPES),
    redirect_uris: z.array(z.string()),
    allowed_scopes: z.array(z.string()),
    description: z.string().nullable(),
    logo_uri: z.string().nullable(),
    policy_uri: z.string().nullable(),
    tos_uri: z.string().nullable(),
    verified: z.boolean(),
    suspended: z.boolean(),
    has_secret: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: 'DeveloperApp' });
export type DeveloperApp = z.infer<typeof DeveloperAppSchema>;
export const DeveloperAppListSchema = z
  .object({ items: z.array(DeveloperAppSchema), limit: z.number().int().describe('How many apps this person may have') })
  .meta({ id: 'DeveloperAppList' });
export type DeveloperAppList = z.infer<typeof DeveloperAppListSchema>;

export const DeveloperAppWithSecretSchema = DeveloperAppSchema.extend({
  client_secret: z.string().nullable().describe('Shown once; null for public clients'),
}).meta({ id: 'DeveloperAppWithSecret' });
export type DeveloperAppWithSecret = z.infer<typeof DeveloperAppWithSecretSchema>;

const developerAppFields = {
  name: z.string().trim().min(1, 'validation.nameRequired').max(120, 'validation.nameTooLong'),
  redirect_uris: redirectUrisField,
  allowed_scopes: z.array(PersonScopeSchema).min(1, 'validation.scopesRequired').max(20),
  description: optionalText(1000),
  logo_uri: optionalHttpsUrl,
  policy_uri: optionalHttpsUrl,
  tos_uri: optionalHttpsUrl,
};

export const CreateDeveloperAppSchema = z
  .object({
    ...developerAppFields,
    client_type: z.enum(CLIENT_TYPES).default('confidential'),
    allowed_scopes: developerAppFields.allowed_scopes.optional(),
  })
  .strict()
  .meta({ id: 'CreateDeveloperApp' });
export type CreateDeveloperApp = z.infer<typeof CreateDeveloperAppSchema>;

export const UpdateDeveloperAppSchema = z
  .object({
    name: developerAppFields.name.optional(),
    redirect_uris: redirectUrisField.optional(),
    allowed_scopes: developerAppFields.allowed_scopes.optional(),
    description: developerAppFields.description,
    logo_uri: optionalHttpsUrl,
    policy_uri: optionalHttpsUrl,
    tos_uri: optionalHttpsUrl,
  })
  .strict()
  .meta({ id: 'UpdateDeveloperApp' });
export type UpdateDeveloperApp = z.infer<typeof UpdateDeveloperAppSchema>;

/** What an admin changes of an app's standing (its own routes, each audited). */
export const OAUTH_CLIENT_STANDING_ACTIONS = ['verify', 'unverify', 'suspend', 'unsuspend'] as const;
export type OAuthClientStandingAction = (typeof OAUTH_CLIENT_STANDING_ACTIONS)[number];

/** One requested scope as the consent screen shows it. */
export const ScopeDescriptionSchema = z.object({ scope: z.string(), description: z.string() });

/**
 * `GET /oauth/authorize` as JSON: what the consent screen needs (the page sends the session's
 * bearer token when it has one). `sign_in` says the person must sign in first, or again
 * (`prompt=login`, `max_age`); the page then comes back with `login_ticket` added to its query.
 */
export const ConsentInfoSchema = z
  .object({
    client_id: z.string(),
    client_name: z.string(),
    redirect_uri: z.string(),
    scope: z.string(),
    scopes: z.array(ScopeDescriptionSchema),
    state: z.string().nullable(),
    sign_in: z.object({ again: z.boolean(), login_ticket: z.string().optional() }).optional(),
    /** The app's logo (https; shown with referrerpolicy=no-referrer), or null. */
    logo_uri: z.string().nullable(),
    policy_uri: z.string().nullable(),
    tos_uri: z.string().nullable(),
    /** Checked by the company ("Verificada por Life"); false: the consent screen warns. */
    verified: z.boolean(),
    /** Registered by a person on their profile rather than by the company. */
    developer_app: z.boolean(),
  })
  .meta({ id: 'ConsentInfo' });
export type ConsentInfo = z.infer<typeof ConsentInfoSchema>;

/**
 * `GET /oauth/logout` as JSON (OpenID Connect RP-Initiated Logout 1.0): what the sign-out page
 * needs, after the server checked the request. `redirect_to` is the registered
 * post_logout_redirect_uri with `state`, or null (the page then says the person is signed out).
 */
export const EndSessionInfoSchema = z
  .object({
    client_id: z.string().nullable(),
    client_name: z.string().nullable(),
    redirect_to: z.string().nullable(),
  })
  .meta({ id: 'EndSessionInfo' });
export type EndSessionInfo = z.infer<typeof EndSessionInfoSchema>;

export const CONSENT_ACTIONS = ['allow', 'deny'] as const;

/** The answer to `POST /oauth/authorize`: the browser navigates (GET) to `redirect_to`. */
export const ConsentDecisionSchema = z.object({ redirect_to: z.string() }).meta({ id: 'ConsentDecision' });
export type ConsentDecision = z.infer<typeof ConsentDecisionSchema>;

/**
 * The whole answer of `GET /oauth/authorize` as JSON: the question to show, or where the browser
 * goes without asking (a code from remembered consent; an OIDC error such as `login_required`).
 */
export const AuthorizeAnswerSchema = z.union([ConsentDecisionSchema, ConsentInfoSchema]).meta({ id: 'AuthorizeAnswer' });
export type AuthorizeAnswer = z.infer<typeof AuthorizeAnswerSchema>;

/** An app holding a grant from the signed-in person (profile: 'Aplicaciones con acceso'). */
export const AppGrantSchema = z
  .object({
    id: z.string(),
    client_id: z.string(),
    client_name: z.string(),
    scopes: z.array(ScopeDescriptionSchema),
    granted_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'AppGrant' });
export type AppGrant = z.infer<typeof AppGrantSchema>;
export const AppGrantListSchema = z.array(AppGrantSchema);
export const AppGrantParamsSchema = z.object({ id: z.uuid() });

/** `GET /api/v1/me` for an app token. */
export const AppMeSchema = z
  .object({
    sub: z.string(),
    username: z.string().optional(),
    email: z.string().optional(),
  })
  .meta({ id: 'AppMe' });

/** `GET /api/v1/services`: what is connected, never a token. */
export const AppServicesSchema = z
  .array(
    z.object({
      service_name: z.string(),
      status: z.string(),
      connected_at: z.string().nullable(),
      proxy_allowed: z.boolean().describe('Whether this token carries service:<name>'),
    }),
  )
  .meta({ id: 'AppServices' });
