import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import {
  CHECK_RATE,
  CHECK_TIMEOUT_MS,
  checkAuthorizationEndpoint,
  checkClientId,
  checkHttps,
  checkSecret,
  checkUrlsSet,
  classifyTokenAnswer,
  line,
  madeUpCode,
  madeUpVerifier,
  report,
  type CheckLine,
  type CheckReport,
} from '../../core/config-check/config-check.js';
import { msg } from '../../core/i18n/messages.js';
import { isPrivateUrl } from '../../core/util/private-address.js';
import { RateLimitService, type RateLimit } from '../../core/rate-limit/rate-limit.service.js';
import { CatalogService, loginProviderOf, serviceCallbackUrl } from './catalog.service.js';
import { ExternalService } from './entities/external-service.entity.js';
import { ServicesError, ServicesErrorCode } from './external-services.errors.js';
import { ProviderClient, TokenEndpointError } from './provider-client.js';

/**
 * 'Comprobar configuración' for a catalog service (decision 0044): the admin's app for it (client
 * id, secret, API key), its URLs, and whether the provider answers and accepts the credentials,
 * without connecting anyone. The token endpoint is spoken to by ProviderClient, with the quirks
 * the row declares (Basic or body, form or JSON, extra headers, the API key), exactly as Conectar.
 */
@Injectable()
export class ServiceCheckService {
  private readonly rate: RateLimit;

  constructor(
    private readonly em: EntityManager,
    private readonly catalog: CatalogService,
    private readonly client: ProviderClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    rateLimits: RateLimitService,
  ) {
    this.rate = rateLimits.create(CHECK_RATE);
  }

  async check(id: string, adminId: string): Promise<CheckReport> {
    const service = await this.em.findOne(ExternalService, { id });
    if (!service) throw new ServicesError(ServicesErrorCode.UnknownService, msg('services.serviceNotFound'));
    await this.rate.consume(adminId);
    // githublogin and its kind are their login provider's sign-in: nothing of their own to check.
    const provider = loginProviderOf({ service_name: service.serviceName, service_type: service.serviceType });
    if (provider) return report([line('login_provider', true, msg('configCheck.loginTypeService', { provider }))]);

    const allowPrivate = this.config.allowPrivateServiceUrls;
    const callbackUrl = serviceCallbackUrl(service, this.config.appUrl);
    const secret = this.open(() => this.catalog.appSecret(service));
    const apiKey = this.open(() => this.catalog.apiKey(service));
    const lines: CheckLine[] = [checkClientId(service.appId), checkSecret(!!secret)];
    if (service.apiKeyHeader) {
      lines.push(
        apiKey
          ? line('api_key', true, msg('configCheck.apiKeySet', { header: service.apiKeyHeader }))
          : line('api_key', false, msg('configCheck.apiKeyMissing', { header: service.apiKeyHeader })),
      );
    }
    const urls = { auth_url: service.authUrl, token_url: service.tokenUrl };
    lines.push(checkUrlsSet(urls));
    lines.push(
      checkHttps(
        { ...urls, base_url: service.baseUrl, user_url: service.userUrl, revoke_url: service.revokeUrl, redirect_uri: callbackUrl },
        this.config.isProduction,
      ),
    );

    const network: Promise<CheckLine>[] = [];
    if (service.authUrl) network.push(checkAuthorizationEndpoint(service.authUrl, service.appId, allowPrivate));
    if (service.tokenUrl && service.appId && secret && (!service.apiKeyHeader || apiKey)) {
      network.push(this.tokenLine(service, service.appId, secret, apiKey, callbackUrl));
    }
    lines.push(...(await Promise.all(network)));
    return report(lines);
  }

  /** A sealed value this server can no longer open counts as missing. */
  private open(read: () => string | undefined): string | undefined {
    try {
      return read();
    } catch {
      return undefined;
    }
  }

  private async tokenLine(
    service: ExternalService,
    clientId: string,
    clientSecret: string,
    apiKey: string | undefined,
    redirectUri: string,
  ): Promise<CheckLine> {
    const tokenUrl = service.tokenUrl!;
    // Same address rule and limit as every other probe (ProviderClient itself follows the catalog's rules).
    if (!this.config.allowPrivateServiceUrls && isPrivateUrl(tokenUrl))
      return line('token_endpoint', false, msg('configCheck.privateAddress', { url: tokenUrl }));
    const params: Record<string, string> = { grant_type: 'authorization_code', code: madeUpCode(), redirect_uri: redirectUri };
    if (service.pkce) params.code_verifier = madeUpVerifier();
    try {
      await this.client.token(service, { clientId, clientSecret }, params, apiKey, { timeoutMs: CHECK_TIMEOUT_MS, followRedirects: false });
      // A made-up code that is accepted: the URL is not a real token endpoint (or not a careful one).
      return line('token_endpoint', false, msg('configCheck.tokenUnexpected', { code: 'access_token' }));
    } catch (error) {
      if (!(error instanceof TokenEndpointError)) throw error;
      if (error.oauthError === 'network')
        return line('token_endpoint', false, msg('configCheck.unreachable', { url: tokenUrl, reason: error.reason ?? 'error' }));
      const code = error.oauthError.startsWith('http_') ? undefined : error.oauthError;
      return classifyTokenAnswer(code, error.status, redirectUri);
    }
  }
}
