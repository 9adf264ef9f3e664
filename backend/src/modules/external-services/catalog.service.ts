import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CreateRequestContext } from '@mikro-orm/decorators/legacy';
import { EntityManager } from '@mikro-orm/postgresql';
import { SECRET_MASK, type ExternalServiceDto, type ExternalServiceUpdate } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { firstPrivateUrlFieldResolved } from '../../core/util/private-address.js';
import { CATALOG_DEFAULTS } from './catalog.defaults.js';
import { DevProviders } from './dev-providers.service.js';
import { Connection } from './entities/connection.entity.js';
import { ExternalService, type LinkStyle, type ServiceRegions } from './entities/external-service.entity.js';
import type { ExternalServicesDb } from './entities/index.js';
import { ServicesError, ServicesErrorCode } from './external-services.errors.js';
import { regionsOf } from './regions.js';
import { TokenVault } from './token-vault.js';
import { msg } from '../../core/i18n/messages.js';

const TABLE = 'external_services';

/** The regions' URLs as given (blank ones dropped: the row's own are used) and their query defaults. */
function normaliseRegions(input: NonNullable<ExternalServiceUpdate['region_settings']>): ServiceRegions {
  return input.map(
    (value) =>
      Object.fromEntries(
        Object.entries(value).filter(([, field]) => field !== null && field !== undefined && field !== ''),
      ) as unknown as ServiceRegions[number],
  );
}
const SERVICE_URL_FIELDS = ['base_url', 'auth_url', 'token_url', 'redirect_url', 'user_url', 'revoke_url', 'account_url'] as const;
const blankToNull = (value: string | null | undefined) => (value === undefined ? undefined : value === null || value.trim() === '' ? null : value.trim());

/** The catalog fields a DTO is made of: an entity, or a plain row mapped in `listFor`. */
type ServiceFields = Omit<ExternalService, 'createdAt' | 'updatedAt' | 'redirectUrl' | 'apiAuthScheme'> &
  Partial<Pick<ExternalService, 'redirectUrl' | 'apiAuthScheme'>>;

/**
 * Whether Conectar can start a connection, and with what: said on the card before any click.
 * Login-type services have no Conectar. A status other than active says why not. Otherwise a
 * connection needs a client (the person's own credentials, the admin's app, or in development the
 * service's development provider, which brings its own endpoints) and, without a development
 * provider, the row's authorize and token URLs.
 */
export function availabilityOf(
  service: Pick<ExternalService, 'serviceType' | 'status' | 'appId' | 'authUrl' | 'tokenUrl'>,
  options: { ownCredentials: boolean; devProvider: boolean },
): Pick<ExternalServiceDto, 'unavailable_reason' | 'dev_provider'> {
  if (service.serviceType === 'login') return { unavailable_reason: null, dev_provider: false };
  if (service.status !== 'active') return { unavailable_reason: service.status, dev_provider: false };
  const devProvider = !options.ownCredentials && !service.appId && options.devProvider;
  const hasClient = options.ownCredentials || !!service.appId || devProvider;
  const hasUrls = devProvider || (!!service.authUrl && !!service.tokenUrl);
  return { unavailable_reason: hasClient && hasUrls ? null : 'not_configured', dev_provider: devProvider };
}

/**
 * The redirect URI to register at the provider: the row's own, or `APP_URL/callback/<service>`
 * (what Conectar sends). A login-type row (githublogin) is its login provider's sign-in, so its
 * URI is that provider's `APP_URL/login/<provider>/callback`.
 */
export function serviceCallbackUrl(service: Pick<ExternalService, 'serviceName' | 'serviceType' | 'redirectUrl'>, appUrl: string): string {
  if (service.redirectUrl) return service.redirectUrl;
  const provider = loginProviderOf({ service_name: service.serviceName, service_type: service.serviceType });
  return provider ? `${appUrl}/login/${provider}/callback` : `${appUrl}/callback/${service.serviceName}`;
}

/**
 * A connection whose access token has expired and that has nothing to refresh it with (Battle.net
 * gives no refresh token; its tokens live 24 h) is as broken as one whose refresh was refused.
 */
export const expiredForGood = (connection: { expiresAt?: Date | string | null; hasRefreshToken: boolean }, now = Date.now()): boolean =>
  !connection.hasRefreshToken && !!connection.expiresAt && new Date(connection.expiresAt).getTime() <= now;

export function toServiceDto(
  service: ServiceFields,
  appUrl: string,
  connection?: Pick<Connection, 'status' | 'accountName'> & { region?: string | null; expiredForGood?: boolean },
  availability: Pick<ExternalServiceDto, 'unavailable_reason' | 'dev_provider'> = availabilityOf(service, { ownCredentials: false, devProvider: false }),
): ExternalServiceDto {
  return {
    id: service.id,
    service_name: service.serviceName,
    service_type: service.serviceType,
    description: service.description ?? null,
    connected: connection?.status === 'connected' && !connection.expiredForGood,
    needs_reconnect: connection?.status === 'needs_reconnect' || (connection?.status === 'connected' && !!connection.expiredForGood),
    status: service.status,
    scopes: service.scopes ?? null,
    app_id: service.appId ?? null,
    app_secret: service.appSecretEncrypted ? SECRET_MASK : '',
    base_url: service.baseUrl ?? null,
    auth_url: service.authUrl ?? null,
    token_url: service.tokenUrl ?? null,
    redirect_url: service.redirectUrl ?? null,
    user_url: service.userUrl ?? null,
    token_auth: service.tokenAuth,
    token_body: service.tokenBody,
    send_scope: service.sendScope,
    pkce: service.pkce,
    extra_auth_params: service.extraAuthParams,
    extra_headers: service.extraHeaders,
    api_key_header: service.apiKeyHeader ?? null,
    api_key: service.apiKeyEncrypted ? SECRET_MASK : '',
    revoke_url: service.revokeUrl ?? null,
    revoke_style: service.revokeStyle,
    account_url: service.accountUrl ?? null,
    account_name: connection?.accountName ?? null,
    callback_url: serviceCallbackUrl(service, appUrl),
    ...availability,
    regions: regionsOf(service),
    region: connection?.region ?? null,
  };
}

/**
 * A catalog row as a person who is not an admin sees it: what the dashboard shows (name, type,
 * description, status, scopes, URLs, connection state), without the admin's app configuration
 * (issue 18, point 8c): no app id, no extra headers or authorization parameters (they may carry
 * app keys or versions tied to the app), no API key header, and not even whether a secret or an
 * API key is stored. The fields stay, empty, so the answer keeps its documented shape.
 */
export function withoutAppConfiguration(service: ExternalServiceDto): ExternalServiceDto {
  return { ...service, app_id: null, app_secret: '', extra_auth_params: {}, extra_headers: {}, api_key_header: null, api_key: '' };
}

/** What a login-type row never holds: its provider's OAuth app is the login provider row (decision 0040). */
const LOGIN_ROW_APP_FIELDS = [
  'app_id',
  'app_secret',
  'api_key',
  'scopes',
  'base_url',
  'auth_url',
  'token_url',
  'redirect_url',
  'user_url',
  'revoke_url',
] as const;

/**
 * The identity provider behind a login-type row: `<provider>login` (githublogin → github), or null
 * for any other row. Such a row is connected when the person signs in with that provider.
 */
export function loginProviderOf(service: Pick<ExternalServiceDto, 'service_name' | 'service_type'>): string | null {
  if (service.service_type !== 'login') return null;
  const match = /^(.+)login$/.exec(service.service_name);
  return match ? match[1]! : null;
}

const jsonb = (value: Record<string, string> | string) => (typeof value === 'string' ? (JSON.parse(value) as Record<string, string>) : value);
const regionsJson = (value: ServiceRegions | string | null | undefined): ServiceRegions | null =>
  typeof value === 'string' ? (JSON.parse(value) as ServiceRegions) : (value ?? null);

/** What calling a service's API needs from its catalog row (the proxy, TokenAccess): plain, read-only. */
export interface ServiceApiTarget {
  readonly id: string;
  readonly serviceName: string;
  readonly baseUrl: string | null;
  readonly apiAuthScheme: string;
  readonly extraHeaders: Readonly<Record<string, string>>;
  readonly apiKeyHeader: string | null;
  readonly apiKeyEncrypted: string | null;
  /** Per-region URLs and API query defaults (Battle.net), or null. */
  readonly regions: ServiceRegions | null;
  /** Hue: calls carry the connection's application key (decision 0041). */
  readonly linkStyle: LinkStyle;
}

/**
 * How long a process keeps a catalog row for API calls. The process where an admin saves a
 * service drops its copy at once; the others see the change within this time (the same bound
 * as the authorization server's revocations).
 */
export const API_TARGET_CACHE_MS = 1000;

/** The service catalog: seeded once, admin-editable, listed with each person's connection state. */
@Injectable()
export class CatalogService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Catalog');
  /** serviceName → the row for API calls (or null: no such service) and when it was read; one read in flight per name. */
  private readonly apiTargets = new Map<string, { at: number; row: Promise<ServiceApiTarget | null> }>();

  constructor(
    private readonly em: EntityManager,
    private readonly vault: TokenVault,
    private readonly devProviders: DevProviders,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Adds missing catalog rows; never overwrites what an admin changed. */
  @CreateRequestContext()
  async onApplicationBootstrap(): Promise<void> {
    const existing = new Set((await this.em.find(ExternalService, {}, { fields: ['serviceName'] })).map((row) => row.serviceName));
    for (const defaults of CATALOG_DEFAULTS) {
      if (existing.has(defaults.serviceName)) continue;
      this.em.create(ExternalService, defaults);
      this.logger.log(`Created catalog entry ${defaults.serviceName}`);
    }
    await this.em.flush().catch(() => undefined); // Another process may have created them at the same moment.
    this.apiTargets.clear();
  }

  /**
   * The catalog row an API call needs, from a per-process copy at most API_TARGET_CACHE_MS old
   * (the proxy asks for it on every request); concurrent callers share one read.
   */
  async apiTarget(name: string): Promise<ServiceApiTarget> {
    const now = Date.now();
    let entry = this.apiTargets.get(name);
    if (!entry || now - entry.at >= API_TARGET_CACHE_MS) {
      const row = this.readApiTarget(name);
      entry = { at: now, row };
      this.apiTargets.set(name, entry);
      // A failed read is not kept: the next call tries again.
      row.catch(() => {
        if (this.apiTargets.get(name) === entry) this.apiTargets.delete(name);
      });
      // Bounded: names come from URLs, so unknown ones must not pile up.
      if (this.apiTargets.size > 1000) this.apiTargets.delete(this.apiTargets.keys().next().value!);
    }
    const service = await entry.row;
    if (!service) throw new ServicesError(ServicesErrorCode.UnknownService, msg('services.unknownService', { service: name }));
    return service;
  }

  private async readApiTarget(name: string): Promise<ServiceApiTarget | null> {
    const row = await this.em
      .getKysely<ExternalServicesDb>()
      .selectFrom('external_services')
      .select(['id', 'service_name', 'app_id', 'base_url', 'api_auth_scheme', 'extra_headers', 'api_key_header', 'api_key_encrypted', 'regions', 'link_style'])
      .where('service_name', '=', name)
      .executeTakeFirst();
    if (!row) return null;
    // In development, a row with no app of its own is called at its development provider.
    const target = await this.devProviders.overlay({
      id: row.id,
      serviceName: row.service_name,
      appId: row.app_id ?? null,
      baseUrl: row.base_url ?? null,
      apiAuthScheme: row.api_auth_scheme,
      extraHeaders: jsonb(row.extra_headers),
      apiKeyHeader: row.api_key_header ?? null,
      apiKeyEncrypted: row.api_key_encrypted ?? null,
      regions: regionsJson(row.regions),
    });
    return Object.freeze({
      id: target.id,
      serviceName: target.serviceName,
      baseUrl: target.baseUrl ?? null,
      apiAuthScheme: target.apiAuthScheme,
      extraHeaders: Object.freeze({ ...target.extraHeaders }),
      apiKeyHeader: target.apiKeyHeader ?? null,
      apiKeyEncrypted: target.apiKeyEncrypted ?? null,
      regions: target.regions ?? null,
      linkStyle: row.link_style,
    });
  }

  /**
   * The dashboard's first call: one query, plain rows rather than entities, only the columns
   * the cards show (never the sealed tokens).
   */
  async listFor(userId: string): Promise<ExternalServiceDto[]> {
    const rows = await this.em
      .getKysely<ExternalServicesDb>()
      .selectFrom('external_services as s')
      .leftJoin('service_connections as c', (join) => join.onRef('c.service_id', '=', 's.id').on('c.user_id', '=', userId))
      .leftJoin('user_service_credentials as u', (join) => join.onRef('u.service_name', '=', 's.service_name').on('u.user_id', '=', userId))
      .select((eb) => [
        's.id',
        's.service_name',
        's.service_type',
        's.description',
        's.status',
        's.scopes',
        's.app_id',
        eb('s.app_secret_encrypted', 'is not', null).as('has_app_secret'),
        's.base_url',
        's.auth_url',
        's.token_url',
        's.redirect_url',
        's.user_url',
        's.token_auth',
        's.token_body',
        's.send_scope',
        's.pkce',
        's.extra_auth_params',
        's.extra_headers',
        's.api_key_header',
        eb('s.api_key_encrypted', 'is not', null).as('has_api_key'),
        's.revoke_url',
        's.revoke_style',
        's.account_url',
        's.regions',
        's.link_style',
        'c.status as connection_status',
        'c.account_name',
        'c.region',
        'c.expires_at',
        eb('c.refresh_token_encrypted', 'is not', null).as('has_refresh_token'),
        eb('u.id', 'is not', null).as('has_own_credentials'),
      ])
      .orderBy('s.service_name')
      .execute();
    const served = new Map(await Promise.all(rows.map(async (row) => [row.service_name, await this.devProviders.serves(row.service_name)] as const)));
    // The row in the entity's shape (secrets only as "is set": the DTO masks them anyway).
    return rows.map((row) =>
      toServiceDto(
        {
          id: row.id,
          serviceName: row.service_name,
          serviceType: row.service_type,
          description: row.description,
          status: row.status,
          scopes: row.scopes,
          appId: row.app_id,
          appSecretEncrypted: row.has_app_secret ? SECRET_MASK : null,
          baseUrl: row.base_url,
          authUrl: row.auth_url,
          tokenUrl: row.token_url,
          redirectUrl: row.redirect_url,
          userUrl: row.user_url,
          tokenAuth: row.token_auth,
          tokenBody: row.token_body,
          sendScope: row.send_scope,
          pkce: row.pkce,
          extraAuthParams: jsonb(row.extra_auth_params),
          extraHeaders: jsonb(row.extra_headers),
          apiKeyHeader: row.api_key_header,
          apiKeyEncrypted: row.has_api_key ? SECRET_MASK : null,
          revokeUrl: row.revoke_url,
          revokeStyle: row.revoke_style,
          accountUrl: row.account_url,
          regions: regionsJson(row.regions),
          linkStyle: row.link_style,
        },
        this.config.appUrl,
        row.connection_status
          ? {
              status: row.connection_status,
              accountName: row.account_name,
              region: row.region,
              expiredForGood: expiredForGood({ expiresAt: row.expires_at, hasRefreshToken: !!row.has_refresh_token }),
            }
          : undefined,
        availabilityOf(
          { serviceType: row.service_type, status: row.status, appId: row.app_id, authUrl: row.auth_url, tokenUrl: row.token_url },
          { ownCredentials: !!row.has_own_credentials, devProvider: served.get(row.service_name) ?? false },
        ),
      ),
    );
  }

  async byName(name: string): Promise<ExternalService> {
    const service = await this.em.findOne(ExternalService, { serviceName: name });
    if (!service) throw new ServicesError(ServicesErrorCode.UnknownService, msg('services.unknownService', { service: name }));
    return service;
  }

  appSecret(service: Pick<ExternalService, 'id' | 'appSecretEncrypted'>): string | undefined {
    return service.appSecretEncrypted ? this.vault.open(TABLE, service.id, 'app_secret', service.appSecretEncrypted) : undefined;
  }

  apiKey(service: Pick<ExternalService, 'id' | 'apiKeyEncrypted'>): string | undefined {
    return service.apiKeyEncrypted ? this.vault.open(TABLE, service.id, 'api_key', service.apiKeyEncrypted) : undefined;
  }

  async update(id: string, input: ExternalServiceUpdate): Promise<ExternalServiceDto> {
    const service = await this.em.findOne(ExternalService, { id });
    if (!service) throw new ServicesError(ServicesErrorCode.UnknownService, msg('services.serviceNotFound'));
    // The regions' URLs go through the same checks, named `regions.<region>.<field>`.
    const regionUrls: Record<string, string | null | undefined> = {};
    for (const value of input.region_settings ?? []) {
      for (const field of ['auth_url', 'token_url', 'user_url', 'base_url'] as const) regionUrls[`regions.${value.region}.${field}`] = value[field];
    }
    const urlFields = [...SERVICE_URL_FIELDS, ...Object.keys(regionUrls)];
    const urls: Record<string, string | null | undefined> = { ...Object.fromEntries(SERVICE_URL_FIELDS.map((field) => [field, input[field]])), ...regionUrls };
    // The contract checks the shape (slug, known type, https or loopback http); production allows no plain http at all (decision 0026).
    if (this.config.isProduction) {
      const insecure = urlFields.find((field) => {
        const value = urls[field]?.trim();
        if (!value) return false;
        try {
          return new URL(value).protocol !== 'https:';
        } catch {
          return true;
        }
      });
      if (insecure) throw new ServicesError(ServicesErrorCode.InsecureServiceUrl, msg('services.serviceHttpsInProduction', { field: insecure }));
    }
    // Nor loopback or private addresses, by name or by what the name resolves to, unless ALLOW_PRIVATE_SERVICE_URLS=true (decisions 0032, 0050).
    if (!this.config.allowPrivateServiceUrls) {
      const local = await firstPrivateUrlFieldResolved(urls, urlFields);
      if (local) throw new ServicesError(ServicesErrorCode.PrivateServiceUrl, msg('services.privateServiceUrl', { field: local }));
    }
    // A login-type row is the card of a sign-in provider whose app is its login provider row (decision 0040).
    if (input.service_type === 'login') {
      const field = LOGIN_ROW_APP_FIELDS.find((name) => {
        const value = input[name];
        return typeof value === 'string' && value.trim() !== '' && value !== SECRET_MASK;
      });
      if (field) throw new ServicesError(ServicesErrorCode.LoginTypeService, msg('services.loginRowHoldsNoApp', { field }));
    }
    if (input.service_name !== service.serviceName && (await this.em.count(ExternalService, { serviceName: input.service_name }))) {
      throw new ServicesError(ServicesErrorCode.ServiceExists, msg('services.serviceExists', { name: input.service_name }));
    }
    service.serviceName = input.service_name;
    service.serviceType = input.service_type;
    service.status = input.status;
    const text = [
      ['description', input.description],
      ['scopes', input.scopes],
      ['appId', input.app_id],
      ['baseUrl', input.base_url],
      ['authUrl', input.auth_url],
      ['tokenUrl', input.token_url],
      ['redirectUrl', input.redirect_url],
      ['userUrl', input.user_url],
      ['revokeUrl', input.revoke_url],
      ['accountUrl', input.account_url],
    ] as const;
    for (const [key, value] of text) {
      const normalised = blankToNull(value);
      if (normalised !== undefined) service[key] = normalised;
    }
    if (input.token_auth) service.tokenAuth = input.token_auth;
    if (input.token_body) service.tokenBody = input.token_body;
    if (input.send_scope !== undefined) service.sendScope = input.send_scope;
    if (input.pkce !== undefined) service.pkce = input.pkce;
    if (input.extra_auth_params) service.extraAuthParams = input.extra_auth_params;
    if (input.extra_headers) service.extraHeaders = input.extra_headers;
    if (input.api_key_header !== undefined) service.apiKeyHeader = input.api_key_header;
    if (input.revoke_style) service.revokeStyle = input.revoke_style;
    if (input.region_settings !== undefined)
      service.regions = input.region_settings && input.region_settings.length > 0 ? normaliseRegions(input.region_settings) : null;
    // The mask (or an absent field) keeps a stored secret; an empty string clears it.
    if (input.app_secret !== undefined && input.app_secret !== SECRET_MASK) {
      service.appSecretEncrypted = input.app_secret ? this.vault.seal(TABLE, service.id, 'app_secret', input.app_secret) : null;
    }
    if (input.api_key !== undefined && input.api_key !== SECRET_MASK) {
      service.apiKeyEncrypted = input.api_key ? this.vault.seal(TABLE, service.id, 'api_key', input.api_key) : null;
    }
    if (service.serviceType === 'login') {
      Object.assign(service, { appId: null, appSecretEncrypted: null, apiKeyEncrypted: null, scopes: null, baseUrl: null, authUrl: null, tokenUrl: null });
      Object.assign(service, { redirectUrl: null, userUrl: null, revokeUrl: null });
    }
    await this.em.flush();
    // This process sees the change at once; the others within API_TARGET_CACHE_MS.
    this.apiTargets.clear();
    return toServiceDto(
      service,
      this.config.appUrl,
      undefined,
      availabilityOf(service, { ownCredentials: false, devProvider: await this.devProviders.serves(service.serviceName) }),
    );
  }
}
