import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CreateRequestContext } from '@mikro-orm/decorators/legacy';
import { EntityManager } from '@mikro-orm/postgresql';
import { SECRET_MASK, type ExternalServiceDto, type ExternalServiceUpdate } from '@life/contracts';
import { CATALOG_DEFAULTS } from './catalog.defaults.js';
import { Connection } from './entities/connection.entity.js';
import { ExternalService } from './entities/external-service.entity.js';
import { ServicesError, ServicesErrorCode } from './external-services.errors.js';
import { TokenVault } from './token-vault.js';

const TABLE = 'external_services';
const blankToNull = (value: string | null | undefined) => (value === undefined ? undefined : value === null || value.trim() === '' ? null : value.trim());

export function toServiceDto(service: ExternalService, connection?: Connection): ExternalServiceDto {
  return {
    id: service.id,
    service_name: service.serviceName,
    service_type: service.serviceType,
    description: service.description ?? null,
    connected: connection?.status === 'connected',
    needs_reconnect: connection?.status === 'needs_reconnect',
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
  };
}

/** The service catalog: seeded once, admin-editable, listed with each person's connection state. */
@Injectable()
export class CatalogService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Catalog');

  constructor(
    private readonly em: EntityManager,
    private readonly vault: TokenVault,
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
  }

  async listFor(userId: string): Promise<ExternalServiceDto[]> {
    const [services, connections] = await Promise.all([this.em.find(ExternalService, {}, { orderBy: { serviceName: 'asc' } }), this.em.find(Connection, { user: userId })]);
    const byService = new Map(connections.map((connection) => [connection.service.id, connection]));
    return services.map((service) => toServiceDto(service, byService.get(service.id)));
  }

  async byName(name: string): Promise<ExternalService> {
    const service = await this.em.findOne(ExternalService, { serviceName: name });
    if (!service) throw new ServicesError(ServicesErrorCode.UnknownService, `No existe el servicio ${name}.`);
    return service;
  }

  appSecret(service: ExternalService): string | undefined {
    return service.appSecretEncrypted ? this.vault.open(TABLE, service.id, 'app_secret', service.appSecretEncrypted) : undefined;
  }

  apiKey(service: ExternalService): string | undefined {
    return service.apiKeyEncrypted ? this.vault.open(TABLE, service.id, 'api_key', service.apiKeyEncrypted) : undefined;
  }

  async update(id: string, input: ExternalServiceUpdate): Promise<ExternalServiceDto> {
    const service = await this.em.findOne(ExternalService, { id });
    if (!service) throw new ServicesError(ServicesErrorCode.UnknownService, 'No hay ningún servicio con ese id.');
    if (input.service_name !== service.serviceName && (await this.em.count(ExternalService, { serviceName: input.service_name }))) {
      throw new ServicesError(ServicesErrorCode.ServiceNotActive, `Ya existe un servicio llamado ${input.service_name}.`);
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
    // The mask (or an absent field) keeps a stored secret; an empty string clears it.
    if (input.app_secret !== undefined && input.app_secret !== SECRET_MASK) {
      service.appSecretEncrypted = input.app_secret ? this.vault.seal(TABLE, service.id, 'app_secret', input.app_secret) : null;
    }
    if (input.api_key !== undefined && input.api_key !== SECRET_MASK) {
      service.apiKeyEncrypted = input.api_key ? this.vault.seal(TABLE, service.id, 'api_key', input.api_key) : null;
    }
    await this.em.flush();
    return toServiceDto(service);
  }
}
