import { z } from 'zod';

/** Every error the API returns has this shape. `details` lists field problems on validation errors. */
export const ApiErrorSchema = z
  .object({
    error: z.string().describe('Stable machine-readable code, e.g. validation_failed, not_found'),
    message: z.string().describe('Human-readable explanation'),
    details: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .describe('Field problems, for validation errors'),
    requestId: z.string().optional(),
  })
  .meta({ id: 'ApiError' });
export type ApiError = z.infer<typeof ApiErrorSchema>;

export const LOGIN_PROVIDERS = ['github', 'google', 'microsoft', 'apple'] as const;
export type LoginProviderName = (typeof LOGIN_PROVIDERS)[number];

/** The catalog's services: the spec's twelve callback routes and Microsoft Cloud (decision 0024). */
export const SERVICE_NAMES = [
  'github',
  'spotify',
  'philipshue',
  'youtube',
  'googlecalendar',
  'googledrive',
  'googlefit',
  'soundcloud',
  'fitbit',
  'notion',
  'wow',
  'destiny2',
  // Not in the spec's list of callback routes: the landing's Microsoft Cloud (decision 0024).
  'microsoft',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/**
 * The name a person sees for each catalog service (decision 0023): brand names, the same in every
 * language and the same as the landing's cards. The key (`service_name`) stays in URLs, API paths and
 * scopes. A service an admin added or renamed has no entry and is shown by its key.
 */
export const SERVICE_DISPLAY_NAMES: Readonly<Record<string, string>> = Object.freeze({
  github: 'GitHub',
  spotify: 'Spotify',
  philipshue: 'Philips Hue',
  youtube: 'YouTube',
  googlecalendar: 'Google Calendar',
  googledrive: 'Google Drive',
  googlefit: 'Google Fit',
  soundcloud: 'SoundCloud',
  fitbit: 'Fitbit',
  notion: 'Notion',
  wow: 'World of Warcraft',
  destiny2: 'Destiny 2',
  microsoft: 'Microsoft Cloud',
  githublogin: 'GitHub',
});

/** A service's display name, or its key when it has none. */
export function serviceDisplayName(serviceName: string): string {
  return Object.hasOwn(SERVICE_DISPLAY_NAMES, serviceName) ? SERVICE_DISPLAY_NAMES[serviceName]! : serviceName;
}

export const SERVICE_STATUSES = ['announced', 'inactive', 'active', 'maintenance'] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];

/**
 * The catalog's service types (`service_type`), as stored: Spanish words, which are also the keys
 * of the dashboard's translations (`services.catalogTypes`). `login` marks the sign-in services;
 * `otros` is for anything else. The service editor offers only these (decision 0026).
 */
export const SERVICE_TYPES = ['archivos', 'calendario', 'código', 'hogar', 'juegos', 'música', 'notas', 'salud', 'vídeo', 'login', 'otros'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/** A catalog key (`service_name`): a lowercase ASCII slug, 2 to 40 characters, starting with a letter. */
export const SERVICE_KEY_PATTERN = /^[a-z][a-z0-9_-]{1,39}$/;

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Path segments naming a provider or service: letters, digits, underscore, hyphen (spec section 5). */
export const SegmentSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** An optional http(s) URL field of an admin form: '' or null clear it. */
export const optionalUrl = z
  .union([z.literal(''), z.url({ protocol: /^https?$/, message: 'validation.httpUrl' }).max(2000)])
  .nullable()
  .optional();

/**
 * What is wrong with a catalog service URL (decision 0026), as a message id, or undefined: absolute,
 * no user or password, and `https`; plain `http` only on a loopback host (127.0.0.1, [::1],
 * localhost), where the tests' stand-ins and the development providers listen. Production refuses
 * even those (the server checks that part).
 */
export function serviceUrlProblem(value: string): string | undefined {
  // The URL parser drops control characters and spaces that `trim()` keeps ("\u0001http://…"):
  // refuse them, so what is checked is what is stored and fetched.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(value)) return 'validation.absoluteUrl';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'validation.absoluteUrl';
  }
  if (url.username || url.password) return 'validation.urlCredentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return 'validation.httpsUrl';
}

/** The hosts on which plain http is acceptable (RFC 8252 loopback). */
export const isLoopbackHost = (hostname: string) => hostname === '127.0.0.1' || hostname === '[::1]' || hostname === 'localhost';

/** An optional catalog service URL: '' or null clear it; otherwise `serviceUrlProblem` decides. */
export const optionalServiceUrl = z
  .union([
    z.literal(''),
    z
      .string()
      .trim()
      .max(2000)
      .superRefine((value, ctx) => {
        const problem = serviceUrlProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  ])
  .nullable()
  .optional();

/** An optional free-text field of an admin form, bounded. */
export const optionalText = (max: number) => z.string().max(max).nullable().optional();

/** How an admin sees an OAuth app registration (login providers, catalog services): never the secret. */
export const oauthAppFields = {
  app_id: z.string().nullable(),
  /** '********' when a secret is stored, '' when none. */
  app_secret: z.string(),
  base_url: z.string().nullable(),
  auth_url: z.string().nullable(),
  token_url: z.string().nullable(),
  redirect_url: z.string().nullable(),
  user_url: z.string().nullable(),
  scopes: z.string().nullable(),
  /**
   * The redirect URI to register at the provider (read-only): `redirect_url` when an admin set one,
   * otherwise `APP_URL/login/<provider>/callback` (login providers) or `APP_URL/callback/<service>`.
   */
  callback_url: z.string(),
};

/** One line of a configuration check (decision 0044): a stable id, whether it passed, and what to do, in the admin's language. */
export const ConfigurationCheckItemSchema = z.object({
  id: z.string(),
  ok: z.boolean(),
  message: z.string(),
});
export type ConfigurationCheckItem = z.infer<typeof ConfigurationCheckItemSchema>;

/** `POST /api/login-providers/{id}/check`, `POST /api/external-services/{id}/check`: no sign-in is started. */
export const ConfigurationCheckSchema = z
  .object({
    /** Every check passed. */
    ok: z.boolean(),
    checks: z.array(ConfigurationCheckItemSchema),
  })
  .meta({ id: 'ConfigurationCheck' });
export type ConfigurationCheck = z.infer<typeof ConfigurationCheckSchema>;
