export type ServiceFamily = 'github' | 'google' | 'rotating' | 'hue' | 'spotify' | 'soundcloud' | 'notion' | 'bungie' | 'battlenet' | 'microsoft';
export type RevokeStyle = 'none' | 'rfc7009' | 'github' | 'google' | 'notion' | 'soundcloud';

export interface ServiceAccount {
  id: string;
  name: string;
}

/** How an API refuses a call, as each provider words it. */
export type ApiErrorStyle = 'oauth' | 'google' | 'spotify' | 'notion' | 'github' | 'fitbit' | 'soundcloud' | 'bungie' | 'graph';
export type ApiRefusal = 'missing' | 'invalid' | 'expired' | 'header' | 'bad_request';

export interface ApiEndpoint {
  path: string;
  /** Default GET. */
  method?: 'GET' | 'POST';
  answer: (account: ServiceAccount, request: { url: URL; body: unknown }) => unknown;
  /** A 400 reason for a malformed request (YouTube's missing filter, Fit's missing aggregateBy). */
  invalid?: (request: { url: URL; body: unknown }) => string | undefined;
}

/** The provider's own refusal of an API call: status, headers and body. */
export declare function apiRefusal(style: ApiErrorStyle, why: ApiRefusal, detail?: string): { status: number; headers?: Record<string, string>; body: unknown };

export interface ServiceStandInOptions {
  name: string;
  clientId: string;
  clientSecret: string;
  /** How the client authenticates at the token endpoint (default body). */
  tokenAuth?: 'basic' | 'body';
  /** The token request encoding accepted (default form). */
  body?: 'form' | 'json';
  /** Answer form-encoded unless `Accept: application/json` (GitHub). */
  formAnswerUnlessJson?: boolean;
  /** Headers every token, who-am-I and revocation call must carry (Notion-Version, X-API-Key). */
  requiredHeaders?: Record<string, string>;
  /** Refuse a `scope` parameter at authorize and token (Bungie). */
  requireNoScope?: boolean;
  requiredAuthParams?: Record<string, string>;
  /** Authorize parameters without which no refresh token is issued (Google). */
  refreshTokenRequires?: Record<string, string>;
  /** A scope without which no refresh token is issued (Microsoft: offline_access). */
  refreshTokenScope?: string;
  /** Where the authorize page and the token endpoint live (default /oauth/authorize, /oauth/token). */
  paths?: { authorize: string; token: string };
  /** Where rfc7009, google and notion revocation live (default /oauth/revoke). */
  revokePath?: string;
  pkce?: 'optional' | 'required' | 'refused';
  /** sometimes: every second refresh answer carries a new refresh token and the old one keeps working (Spotify). */
  refresh?: 'none' | 'static' | 'rotating' | 'sometimes';
  refreshAnswerIncludesRefreshToken?: boolean;
  /** Access token lifetime in seconds; null = never expires. */
  expiresIn?: number | null;
  revoke?: RevokeStyle;
  apiAuthScheme?: 'Bearer' | 'OAuth';
  /** The API endpoints; the first is the who-am-I the catalog row points at. */
  whoAmI?: ApiEndpoint[];
  /** How the API refuses a call (default oauth). */
  apiErrors?: ApiErrorStyle;
  /** The service's own API behind its access token (Hue's bridge link and CLIP v2, Battle.net's profile API). */
  apiRoutes?: { method: string; pattern: RegExp; handle: (call: unknown) => unknown }[];
  /** github: token errors with HTTP 200 and GitHub's codes (bad_verification_code, bad_refresh_token); fitbit: `{errors: [{errorType}]}`; microsoft: AADSTS `error_codes`. */
  tokenErrors?: 'oauth' | 'github' | 'fitbit' | 'microsoft';
  /** API calls without a User-Agent are refused with a 403 (GitHub). */
  requireUserAgent?: boolean;
  /** Token prefix (GitHub App: gh → ghu_ / ghr_). */
  tokenPrefix?: string;
  /** The error_description of a dead refresh token. */
  invalidGrantDescription?: string;
  /** The API base under the stand-in's origin, as the catalog's base_url has it (/v1, /Platform, /v1.0). */
  apiBasePath?: string;
  /** Extra fields of every token answer. */
  tokenAnswerExtras?: (account: ServiceAccount) => Record<string, unknown>;
  account?: ServiceAccount;
  /** Accept refresh tokens it never issued (seeded rows, the bench). */
  acceptAnyRefreshToken?: boolean;
  /** Accept access tokens it never issued (the app's development providers after a restart). */
  acceptAnyAccessToken?: boolean;
  /** Delay before each token answer (default 0: at once). */
  latencyMs?: number;
  /** Keep every token call in `tokenCalls` (default true). */
  recordCalls?: boolean;
  port?: number;
}

export interface ServiceTokenCall {
  grantType: string;
  clientAuth: 'basic' | 'body' | 'none';
  contentType: string;
  /** The values of the family's required headers as received. */
  headers: Record<string, string | undefined>;
  accept: string | undefined;
  body: Record<string, string>;
  status: number;
  error?: string;
}

export interface ServiceAuthorizeRequest {
  params: Record<string, string>;
}

export interface ServiceUserCall {
  path: string;
  scheme: string | undefined;
  headers: Record<string, string | undefined>;
  /** What the stand-in answered. */
  status?: number;
  /** Why it refused, when it did. */
  refusal?: ApiRefusal;
}

export interface ServiceRevocation {
  style: RevokeStyle;
  token: string;
  kind: 'access' | 'refresh' | 'unknown';
  clientAuth: 'basic' | 'none';
  contentType: string;
}

export interface ServiceCounts {
  authorization_code: number;
  refresh_token: number;
  refreshOk: number;
  reusedRefreshTokens: number;
  failedRefreshes: number;
}

export interface ServiceStandIn {
  name: string;
  url: string;
  close(): Promise<void>;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  userUrl: string;
  revokeUrl: string | null;
  tokenCalls: ServiceTokenCall[];
  authorizeRequests: ServiceAuthorizeRequest[];
  userCalls: ServiceUserCall[];
  revocations: ServiceRevocation[];
  /** Every token issued (when recordCalls), to check none is stored or logged in plaintext. */
  issued: { accessTokens: string[]; refreshTokens: string[] };
  readonly counts: ServiceCounts;
  /** Refresh tokens presented more than once: must stay 0. */
  readonly duplicateRefreshes: number;
  readonly account: ServiceAccount;
  setAccount(account: ServiceAccount): ServiceAccount;
  failNextRefresh(kind: 'invalid_grant' | 500, times?: number): void;
  clearFailures(): void;
  refreshTokenAlive(refreshToken: string): boolean;
  /** Every access token issued so far now counts as expired (also `POST /__standin/expire-access-tokens`); how many live ones it expired. */
  expireAccessTokens(): number;
  reset(): void;
  /** Calls to the service's own API routes (Hue's bridge and CLIP v2, Battle.net's profile API). */
  apiCalls: ServiceApiCallRecord[];
  /** Hue: `refuseLink` makes the bridge answer error 101 to the next link; `users` are its application keys. */
  apiState?: { refuseLink: boolean; users: Map<string, { devicetype: string }> };
}

export interface ServiceApiCallRecord {
  method: string;
  path: string;
  query: Record<string, string>;
  scheme?: string;
  headers: Record<string, string | undefined>;
  status: number;
}

export declare const BATTLENET_REGION_KEYS: readonly ['us', 'eu', 'kr', 'tw', 'cn'];

/** A body for PUT /api/external-services/:id. */
export interface ServiceRowBody {
  service_name: string;
  service_type: string;
  status: 'active';
  app_id: string;
  app_secret: string;
  auth_url: string;
  token_url: string;
  base_url: string;
  user_url: string;
  token_auth: 'basic' | 'body';
  token_body: 'form' | 'json';
  send_scope: boolean;
  pkce: boolean;
  extra_headers: Record<string, string>;
  api_key_header: string | null;
  api_key: string;
  revoke_url: string;
  revoke_style: RevokeStyle;
  account_url: string;
  /** Battle.net: the regions a person picks from, all served by the stand-in (`{region}` in base_url). */
  region_settings?: { region: string; auth_url?: string; token_url?: string; user_url?: string; base_url?: string; query?: Record<string, string> }[];
}

export type ServiceStandIns = { [F in ServiceFamily]?: ServiceStandIn } & {
  apiKey: string;
  /** By catalog service name: github, googlecalendar, youtube, fitbit, soundcloud, notion, destiny2, wow, microsoft (or what `rowsByFamily` named). */
  rows: Record<string, ServiceRowBody>;
  close(): Promise<void>;
};

export declare const FAMILY_ROWS: {
  readonly github: readonly ['github'];
  readonly google: readonly ['googlecalendar', 'youtube'];
  readonly rotating: readonly ['fitbit'];
  readonly soundcloud: readonly ['soundcloud'];
  readonly notion: readonly ['notion'];
  readonly bungie: readonly ['destiny2'];
  readonly battlenet: readonly ['wow'];
  readonly microsoft: readonly ['microsoft'];
};

/** Every connectable catalog service and the family standing in for it (the app's development providers). */
export declare const CATALOG_FAMILY_ROWS: {
  readonly github: readonly ['github'];
  readonly google: readonly ['googlecalendar', 'youtube', 'googledrive', 'googlefit'];
  readonly rotating: readonly ['fitbit'];
  readonly hue: readonly ['philipshue'];
  readonly spotify: readonly ['spotify'];
  readonly soundcloud: readonly ['soundcloud'];
  readonly notion: readonly ['notion'];
  readonly bungie: readonly ['destiny2'];
  readonly battlenet: readonly ['wow'];
};

/** GitHub App user tokens: 8-hour ghu_ tokens, single-use 6-month ghr_ refresh tokens (pass as overrides.github). */
export declare const GITHUB_APP_TOKENS: Partial<ServiceStandInOptions>;

export declare function startServiceStandIn(options: ServiceStandInOptions): Promise<ServiceStandIn>;
export declare function followAuthorize(authUrl: string): Promise<URL>;
export declare function familyPresets(apiKey?: string): Record<ServiceFamily, Omit<ServiceStandInOptions, 'clientId' | 'clientSecret'>>;
export declare function startServiceStandIns(options?: {
  families?: ServiceFamily[];
  overrides?: Partial<Record<ServiceFamily, Partial<ServiceStandInOptions>>>;
  /** Which catalog rows each family serves (default FAMILY_ROWS; the development providers pass CATALOG_FAMILY_ROWS). */
  rowsByFamily?: Partial<Record<ServiceFamily, readonly string[]>>;
}): Promise<ServiceStandIns>;
