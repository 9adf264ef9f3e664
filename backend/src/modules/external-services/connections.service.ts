import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { serviceDisplayName } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { outboundFetch } from '../../core/http/outbound-fetch.js';
import { OneTimeStore } from '../../core/redis/one-time-store.js';
import { CatalogService, serviceCallbackUrl } from './catalog.service.js';
import { CredentialsService } from './credentials.service.js';
import { DevProviders } from './dev-providers.service.js';
import { Connection } from './entities/connection.entity.js';
import type { ExternalServicesDb } from './entities/index.js';
import { ExternalService } from './entities/external-service.entity.js';
import { ServicesError, ServicesErrorCode } from './external-services.errors.js';
import { ProviderClient, TokenEndpointError, type ClientCredentials, type TokenAnswer } from './provider-client.js';
import { TokenVault } from './token-vault.js';
import { msg } from '../../core/i18n/messages.js';
import { BridgeLinkError, linkHueBridge } from './bridge-link.js';
import { hasRegions, inRegion, regionsOf } from './regions.js';

const STATE_NAMESPACE = 'connect-state';
const STATE_TTL_SECONDS = 600;
export const CONNECTIONS_TABLE = 'service_connections';

interface ConnectState {
  userId: string;
  service: string;
  codeVerifier?: string;
  clientSource: 'user' | 'app';
  /** The region the person picked (services with regions: Battle.net). */
  region?: string;
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');

/** Connecting a person's account at a service, and disconnecting it. */
@Injectable()
export class ConnectionsService {
  private readonly logger = new Logger('Connections');

  constructor(
    private readonly em: EntityManager,
    private readonly catalog: CatalogService,
    private readonly credentials: CredentialsService,
    private readonly client: ProviderClient,
    private readonly vault: TokenVault,
    private readonly states: OneTimeStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly devProviders: DevProviders,
  ) {}

  redirectUri(service: ExternalService): string {
    return serviceCallbackUrl(service, this.config.appUrl);
  }

  /**
   * The client to connect with and the row as that client sees it: the person's own credentials
   * when stored (the row as it is), else the admin's app, else, in development, the service's
   * development provider (the row read with the stand-in's app and endpoints: DevProviders).
   */
  async resolve<T extends Pick<ExternalService, 'id' | 'serviceName' | 'appId' | 'appSecretEncrypted'>>(
    userId: string,
    service: T,
    source?: 'user' | 'app',
  ): Promise<{ service: T; client: ClientCredentials & { source: 'user' | 'app' } }> {
    if (source !== 'app') {
      const own = await this.credentials.forFlow(userId, service.serviceName);
      if (own) return { service, client: { ...own, source: 'user' } };
      if (source === 'user') throw new ServicesError(ServicesErrorCode.ServiceNotConfigured, msg('services.credentialsGone'));
    }
    const app = await this.devProviders.overlay(service);
    if (!app.appId) throw new ServicesError(ServicesErrorCode.ServiceNotConfigured, msg('services.notConfigured', { service: service.serviceName }));
    return { service: app, client: { clientId: app.appId, clientSecret: this.catalog.appSecret(app), source: 'app' } };
  }

  async authUrl(userId: string, serviceName: string, region?: string): Promise<{ auth_url: string }> {
    const row = await this.catalog.byName(serviceName);
    if (row.serviceType === 'login') throw new ServicesError(ServicesErrorCode.LoginTypeService, msg('services.loginOnly'));
    if (row.status !== 'active') throw new ServicesError(ServicesErrorCode.ServiceNotActive, msg('services.inactive'));
    const resolved = await this.resolve(userId, row);
    // A service with regions (Battle.net) is connected in the region the person picked, the
    // catalog's first when none was sent (decision 0042); a region of another service is refused.
    if (region !== undefined && !(hasRegions(resolved.service) ? regionsOf(resolved.service).includes(region) : false)) {
      throw new ServicesError(
        ServicesErrorCode.InvalidRegion,
        hasRegions(resolved.service) ? msg('services.regionRequired', { regions: regionsOf(resolved.service).join(', ') }) : msg('services.noRegions'),
      );
    }
    region ??= hasRegions(resolved.service) ? regionsOf(resolved.service)[0] : undefined;
    const client = resolved.client;
    const service = inRegion(resolved.service, region);
    if (!service.authUrl || !service.tokenUrl) throw new ServicesError(ServicesErrorCode.ServiceNotConfigured, msg('services.missingUrls'));
    const codeVerifier = service.pkce ? b64url(randomBytes(32)) : undefined;
    const state = await this.states.create<ConnectState>(
      STATE_NAMESPACE,
      { userId, service: serviceName, codeVerifier, clientSource: client.source, ...(region ? { region } : {}) },
      STATE_TTL_SECONDS,
    );
    const url = new URL(service.authUrl);
    const params: Record<string, string> = {
      ...service.extraAuthParams,
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: this.redirectUri(service),
      state,
    };
    if (service.sendScope && service.scopes) params.scope = service.scopes;
    if (codeVerifier) {
      params.code_challenge = b64url(createHash('sha256').update(codeVerifier).digest());
      params.code_challenge_method = 'S256';
    }
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return { auth_url: url.toString() };
  }

  /** Finishes a connection: the state must have been issued to this same person for this service. */
  async finish(user: { id: string }, serviceName: string, code: string, stateValue: string, language?: string): Promise<Connection> {
    // Whose state it is is checked BEFORE it is spent (peek, then GETDEL): another person replaying
    // the callback URL is refused and the person who started the connection can still finish it.
    const belongs = (candidate: ConnectState | undefined): candidate is ConnectState =>
      !!candidate && candidate.userId === user.id && candidate.service === serviceName;
    if (!belongs(await this.states.peek<ConnectState>(STATE_NAMESPACE, stateValue)))
      throw new ServicesError(ServicesErrorCode.InvalidState, msg('services.connectLinkExpired'));
    const state = await this.states.consume<ConnectState>(STATE_NAMESPACE, stateValue);
    if (!belongs(state)) throw new ServicesError(ServicesErrorCode.InvalidState, msg('services.connectLinkExpired'));
    const resolved = await this.resolve(user.id, await this.catalog.byName(serviceName), state.clientSource);
    const client = resolved.client;
    const service = inRegion(resolved.service, state.region);
    const apiKey = this.catalog.apiKey(service);
    let tokens: TokenAnswer;
    try {
      tokens = await this.client.token(
        service,
        client,
        {
          grant_type: 'authorization_code',
          code,
          redirect_uri: this.redirectUri(service),
          ...(state.codeVerifier ? { code_verifier: state.codeVerifier } : {}),
        },
        apiKey,
      );
    } catch (error) {
      const reason = error instanceof TokenEndpointError ? error.oauthError : 'error';
      throw new ServicesError(ServicesErrorCode.ProviderError, `${serviceName} rechazó la conexión (${reason.slice(0, 80)}).`);
    }
    const account = await this.client.whoAmI(service, tokens.accessToken, apiKey, tokens.raw);
    const linkKey = await this.link(service, tokens.accessToken, user.id);
    return this.store(user.id, service, client.source, tokens, account, { region: state.region ?? null, language: language ?? null, linkKey });
  }

  /**
   * The step after the grant that some services need before their API answers (Philips Hue: the
   * remote link button and a bridge user, decision 0041). Answers the key to seal, or null.
   */
  async link(service: Pick<ExternalService, 'linkStyle' | 'baseUrl' | 'serviceName'>, accessToken: string, userId: string): Promise<string | null> {
    if (service.linkStyle !== 'hue') return null;
    if (!service.baseUrl) throw new ServicesError(ServicesErrorCode.ServiceNotConfigured, msg('services.missingUrls'));
    try {
      return await linkHueBridge(service.baseUrl, accessToken, `life#${userId.slice(0, 8)}`, this.config.allowPrivateServiceUrls);
    } catch (error) {
      const reason = error instanceof BridgeLinkError ? error.reason : 'error';
      this.logger.warn(`Linking the ${service.serviceName} bridge failed: ${reason}`);
      throw new ServicesError(ServicesErrorCode.ProviderError, msg('services.bridgeNotLinked', { service: serviceDisplayName(service.serviceName) }));
    }
  }

  private async store(
    userId: string,
    service: ExternalService,
    source: 'user' | 'app',
    tokens: TokenAnswer,
    account: { id?: string; name?: string },
    extra: { region: string | null; language: string | null; linkKey: string | null },
  ): Promise<Connection> {
    const em = this.em.fork();
    let connection = await em.findOne(Connection, { user: userId, service: service.id });
    connection ??= em.create(Connection, {
      user: userId,
      service: em.getReference(ExternalService, service.id),
      accessTokenEncrypted: '',
    });
    connection.accessTokenEncrypted = this.vault.seal(CONNECTIONS_TABLE, connection.id, 'access_token', tokens.accessToken);
    connection.refreshTokenEncrypted = tokens.refreshToken ? this.vault.seal(CONNECTIONS_TABLE, connection.id, 'refresh_token', tokens.refreshToken) : null;
    connection.expiresAt = tokens.expiresIn ? new Date(Date.now() + tokens.expiresIn * 1000) : null;
    connection.scope = tokens.scope ?? service.scopes ?? null;
    connection.status = 'connected';
    connection.clientSource = source;
    connection.accountId = account.id ?? null;
    connection.accountName = account.name ?? null;
    connection.refreshFailures = 0;
    connection.refreshNotBefore = null;
    connection.lastError = null;
    connection.lastRefreshAt = new Date();
    connection.region = extra.region;
    connection.language = extra.language;
    connection.linkKeyEncrypted = extra.linkKey ? this.vault.seal(CONNECTIONS_TABLE, connection.id, 'link_key', extra.linkKey) : null;
    try {
      await em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException)
        throw new ServicesError(ServicesErrorCode.InvalidState, msg('services.connectionCompletedElsewhere'));
      throw error;
    }
    return connection;
  }

  /**
   * Revokes at the provider where it has an endpoint, deletes our tokens, and says where to
   * finish the revocation when it has none.
   */
  async disconnect(userId: string, serviceName: string): Promise<{ service: string; revoked_at_provider: boolean; finish_at: string | null }> {
    const service = await this.catalog.byName(serviceName);
    const em = this.em.fork();
    const connection = await em.findOne(Connection, { user: userId, service: service.id });
    if (!connection) throw new ServicesError(ServicesErrorCode.NotConnected, msg('services.notConnected'));
    let revoked = false;
    try {
      revoked = await this.revokeAtProvider(userId, service, connection);
    } catch (error) {
      this.logger.warn(`Revocation at ${serviceName} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    await em.remove(connection).flush();
    return { service: serviceName, revoked_at_provider: revoked, finish_at: revoked ? null : (service.accountUrl ?? null) };
  }

  /**
   * Every connection of a person, one by one through `disconnect` (account erasure): revoked at
   * the provider where it can be, then deleted. A connection already gone is skipped, so running
   * it again after a stop half-way only handles what is left.
   */
  async disconnectAll(userId: string): Promise<{ service: string; revoked_at_provider: boolean; finish_at: string | null }[]> {
    const rows = await this.em
      .getKysely<ExternalServicesDb>()
      .selectFrom('service_connections as c')
      .innerJoin('external_services as s', 's.id', 'c.service_id')
      .select('s.service_name')
      .where('c.user_id', '=', userId)
      .orderBy('s.service_name')
      .execute();
    const results: { service: string; revoked_at_provider: boolean; finish_at: string | null }[] = [];
    for (const { service_name } of rows) {
      try {
        results.push(await this.disconnect(userId, service_name));
      } catch (error) {
        if (error instanceof ServicesError && error.code === ServicesErrorCode.NotConnected) continue;
        throw error;
      }
    }
    return results;
  }

  private async revokeAtProvider(userId: string, row: ExternalService, connection: Connection): Promise<boolean> {
    const resolved = await this.resolve(userId, row, connection.clientSource);
    const client = resolved.client;
    const service = inRegion(resolved.service, connection.region);
    if (service.revokeStyle === 'none' || !service.revokeUrl) return false;
    const access = this.vault.open(CONNECTIONS_TABLE, connection.id, 'access_token', connection.accessTokenEncrypted);
    const refresh = connection.refreshTokenEncrypted
      ? this.vault.open(CONNECTIONS_TABLE, connection.id, 'refresh_token', connection.refreshTokenEncrypted)
      : undefined;
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret ?? '')}`).toString('base64')}`;
    const headers = this.client.headers(service, this.catalog.apiKey(service));
    const signal = AbortSignal.timeout(10_000);
    // The catalog's revocation URL reaches public addresses only in production (decision 0050).
    const fetch = outboundFetch(this.config.allowPrivateServiceUrls);
    let response: Response;
    switch (service.revokeStyle) {
      case 'github':
        response = await fetch(service.revokeUrl.replace('{client_id}', encodeURIComponent(client.clientId)), {
          method: 'DELETE',
          headers: { ...headers, authorization: basic, accept: 'application/vnd.github+json', 'content-type': 'application/json', 'user-agent': 'Life' },
          body: JSON.stringify({ access_token: access }),
          signal,
        });
        break;
      case 'google':
        response = await fetch(`${service.revokeUrl}?${new URLSearchParams({ token: refresh ?? access }).toString()}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          signal,
        });
        break;
      case 'notion':
        response = await fetch(service.revokeUrl, {
          method: 'POST',
          headers: { ...headers, authorization: basic, 'content-type': 'application/json' },
          body: JSON.stringify({ token: access }),
          signal,
        });
        break;
      case 'soundcloud':
        response = await fetch(service.revokeUrl, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ access_token: access }),
          signal,
        });
        break;
      case 'rfc7009':
        response = await fetch(service.revokeUrl, {
          method: 'POST',
          headers: { ...headers, authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token: refresh ?? access, token_type_hint: refresh ? 'refresh_token' : 'access_token' }).toString(),
          signal,
        });
        break;
      default:
        return false;
    }
    return response.ok;
  }
}
