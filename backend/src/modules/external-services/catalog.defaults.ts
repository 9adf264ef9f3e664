import type { ServiceStatus } from '@life/contracts';
import type { ExternalService, ServiceRegions } from './entities/external-service.entity.js';

/**
 * Battle.net's regions (decision 0042): one OAuth host for us, eu, kr and tw, another for China, an
 * API host per region, and profile calls in the `profile-{region}` namespace. `{region}` stands
 * for the region the person picked; the first is the default.
 */
export const BATTLENET_REGIONS: ServiceRegions = [
  { region: 'us', query: { namespace: 'profile-{region}' } },
  { region: 'eu', query: { namespace: 'profile-{region}' } },
  { region: 'kr', query: { namespace: 'profile-{region}' } },
  { region: 'tw', query: { namespace: 'profile-{region}' } },
  {
    region: 'cn',
    auth_url: 'https://oauth.battlenet.com.cn/authorize',
    token_url: 'https://oauth.battlenet.com.cn/token',
    user_url: 'https://oauth.battlenet.com.cn/userinfo',
    base_url: 'https://gateway.battlenet.com.cn',
    query: { namespace: 'profile-{region}' },
  },
];

type Defaults = Pick<ExternalService, 'serviceName' | 'serviceType' | 'description' | 'scopes' | 'baseUrl' | 'authUrl' | 'tokenUrl' | 'userUrl'> &
  Partial<
    Pick<
      ExternalService,
      | 'tokenAuth'
      | 'tokenBody'
      | 'sendScope'
      | 'pkce'
      | 'extraAuthParams'
      | 'extraHeaders'
      | 'apiKeyHeader'
      | 'apiAuthScheme'
      | 'revokeUrl'
      | 'revokeStyle'
      | 'accountUrl'
      | 'regions'
      | 'linkStyle'
    >
  > & { status: ServiceStatus };

const GOOGLE = {
  baseUrl: 'https://www.googleapis.com',
  authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  userUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
  // A refresh token only comes with offline access and a fresh consent.
  extraAuthParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
  revokeUrl: 'https://oauth2.googleapis.com/revoke',
  revokeStyle: 'google' as const,
  accountUrl: 'https://myaccount.google.com/permissions',
};

/**
 * The service catalog as first created (facts from shared/design/PROVIDERS.md). Every field is
 * only a default: admins edit rows, tests point them at local stand-ins, and an existing row is
 * never overwritten.
 */
export const CATALOG_DEFAULTS: Defaults[] = [
  {
    // The dashboard's card for signing in with GitHub: the OAuth app is the login provider row
    // `github` (/api/login-providers), so this row holds none (decision 0040).
    serviceName: 'githublogin',
    serviceType: 'login',
    status: 'active',
    description: 'Inicia sesión en Life con tu cuenta de GitHub.',
  },
  {
    serviceName: 'github',
    serviceType: 'código',
    status: 'active',
    description: 'Tus repositorios, contribuciones y proyectos de código en GitHub.',
    scopes: 'read:user user:email',
    baseUrl: 'https://api.github.com',
    authUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    userUrl: 'https://api.github.com/user',
    revokeUrl: 'https://api.github.com/applications/{client_id}/grant',
    revokeStyle: 'github',
    accountUrl: 'https://github.com/settings/applications',
  },
  {
    serviceName: 'spotify',
    serviceType: 'música',
    status: 'active',
    description: 'Tu música, tus listas y tus podcasts favoritos en Spotify.',
    scopes: 'user-read-email user-read-private user-read-currently-playing user-read-recently-played',
    baseUrl: 'https://api.spotify.com/v1',
    authUrl: 'https://accounts.spotify.com/authorize',
    tokenUrl: 'https://accounts.spotify.com/api/token',
    userUrl: 'https://api.spotify.com/v1/me',
    tokenAuth: 'basic',
    accountUrl: 'https://www.spotify.com/account/apps/',
  },
  {
    serviceName: 'philipshue',
    serviceType: 'hogar',
    status: 'active',
    description: 'Las luces inteligentes de tu casa con Philips Hue.',
    scopes: null,
    baseUrl: 'https://api.meethue.com',
    authUrl: 'https://api.meethue.com/v2/oauth2/authorize',
    tokenUrl: 'https://api.meethue.com/v2/oauth2/token',
    userUrl: null,
    tokenAuth: 'basic',
    sendScope: false,
    accountUrl: 'https://account.meethue.com/apps',
    // After the grant: press the link button remotely and create a bridge user (decision 0041).
    linkStyle: 'hue',
  },
  {
    serviceName: 'youtube',
    serviceType: 'vídeo',
    status: 'active',
    description: 'Tus canales, suscripciones y listas de YouTube.',
    scopes: 'https://www.googleapis.com/auth/youtube.readonly',
    ...GOOGLE,
    userUrl: 'https://www.googleapis.com/youtube/v3/channels?part=snippet&mine=true',
  },
  {
    serviceName: 'googlecalendar',
    serviceType: 'calendario',
    status: 'active',
    description: 'Tus calendarios y eventos de Google Calendar.',
    scopes: 'openid email https://www.googleapis.com/auth/calendar.readonly',
    ...GOOGLE,
  },
  {
    serviceName: 'googledrive',
    serviceType: 'archivos',
    status: 'active',
    description: 'Los archivos que compartas con Life desde Google Drive.',
    scopes: 'openid email https://www.googleapis.com/auth/drive.metadata.readonly',
    ...GOOGLE,
  },
  {
    serviceName: 'googlefit',
    serviceType: 'salud',
    // Google Fit takes no new sign-ups since 2024 and is being retired in 2026.
    status: 'maintenance',
    description: 'Tu actividad física en Google Fit (Google está retirando este servicio).',
    scopes: 'openid email https://www.googleapis.com/auth/fitness.activity.read https://www.googleapis.com/auth/fitness.sleep.read',
    ...GOOGLE,
  },
  {
    serviceName: 'soundcloud',
    serviceType: 'música',
    status: 'active',
    description: 'Tus pistas, listas y artistas favoritos de SoundCloud.',
    scopes: null,
    baseUrl: 'https://api.soundcloud.com',
    authUrl: 'https://secure.soundcloud.com/authorize',
    tokenUrl: 'https://secure.soundcloud.com/oauth/token',
    userUrl: 'https://api.soundcloud.com/me',
    sendScope: false,
    apiAuthScheme: 'OAuth',
    revokeUrl: 'https://secure.soundcloud.com/sign-out',
    revokeStyle: 'soundcloud',
  },
  {
    serviceName: 'fitbit',
    serviceType: 'salud',
    // The Fitbit Web API is sunset in late 2026 in favour of the Google Health API.
    status: 'maintenance',
    description: 'Tus pasos, tu sueño y tu ritmo cardiaco en Fitbit (API en retirada).',
    scopes: 'activity heartrate sleep profile',
    baseUrl: 'https://api.fitbit.com',
    authUrl: 'https://www.fitbit.com/oauth2/authorize',
    tokenUrl: 'https://api.fitbit.com/oauth2/token',
    userUrl: 'https://api.fitbit.com/1/user/-/profile.json',
    tokenAuth: 'basic',
    revokeUrl: 'https://api.fitbit.com/oauth2/revoke',
    revokeStyle: 'rfc7009',
  },
  {
    // Microsoft identity platform v2 (the `common` tenant: personal, work and school accounts) and
    // Microsoft Graph: OneDrive's files, Outlook's calendar and mail (the landing's card promises
    // all three), read only. `offline_access` is what brings a refresh token; every refresh returns
    // a new one. Microsoft has no per-app revocation endpoint.
    serviceName: 'microsoft',
    serviceType: 'archivos',
    status: 'active',
    description: 'Tus archivos de OneDrive, tu calendario y tu correo de Outlook.',
    scopes: 'openid profile offline_access User.Read Files.Read Calendars.Read Mail.Read',
    baseUrl: 'https://graph.microsoft.com/v1.0',
    authUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    userUrl: 'https://graph.microsoft.com/v1.0/me',
    accountUrl: 'https://account.live.com/consent/Manage',
  },
  {
    serviceName: 'notion',
    serviceType: 'notas',
    status: 'active',
    description: 'Las páginas y bases de datos de Notion que elijas compartir.',
    scopes: null,
    baseUrl: 'https://api.notion.com/v1',
    authUrl: 'https://api.notion.com/v1/oauth/authorize',
    tokenUrl: 'https://api.notion.com/v1/oauth/token',
    userUrl: 'https://api.notion.com/v1/users/me',
    tokenAuth: 'basic',
    tokenBody: 'json',
    sendScope: false,
    extraAuthParams: { owner: 'user' },
    extraHeaders: { 'Notion-Version': '2022-06-28' },
    revokeUrl: 'https://api.notion.com/v1/oauth/revoke',
    revokeStyle: 'notion',
  },
  {
    serviceName: 'wow',
    serviceType: 'juegos',
    status: 'active',
    description: 'Tus personajes de World of Warcraft en Battle.net.',
    scopes: 'openid wow.profile',
    baseUrl: 'https://{region}.api.blizzard.com',
    authUrl: 'https://oauth.battle.net/authorize',
    tokenUrl: 'https://oauth.battle.net/token',
    userUrl: 'https://oauth.battle.net/userinfo',
    tokenAuth: 'basic',
    // The person picks the region when connecting (decision 0042).
    regions: BATTLENET_REGIONS,
    accountUrl: 'https://account.battle.net/connections',
  },
  {
    serviceName: 'destiny2',
    serviceType: 'juegos',
    status: 'active',
    description: 'Tus guardianes y tu progreso en Destiny 2 (Bungie.net).',
    scopes: null,
    baseUrl: 'https://www.bungie.net/Platform',
    authUrl: 'https://www.bungie.net/en/OAuth/Authorize',
    tokenUrl: 'https://www.bungie.net/platform/app/oauth/token/',
    userUrl: 'https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/',
    tokenAuth: 'basic',
    sendScope: false,
    pkce: false,
    apiKeyHeader: 'X-API-Key',
    accountUrl: 'https://www.bungie.net/7/en/User/Account/IdentitySettings',
  },
];
