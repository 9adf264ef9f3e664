import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { importPKCS8 } from 'jose';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import {
  CHECK_RATE,
  checkAuthorizationEndpoint,
  checkClientId,
  checkDiscovery,
  checkHttps,
  checkSecret,
  checkUrlsSet,
  classifyTokenAnswer,
  line,
  madeUpCode,
  madeUpVerifier,
  oauthErrorOf,
  probe,
  report,
  type CheckLine,
  type CheckReport,
} from '../../core/config-check/config-check.js';
import { msg } from '../../core/i18n/messages.js';
import { RateLimitService, type RateLimit } from '../../core/rate-limit/rate-limit.service.js';
import { appleClientSecret } from './apple-client-secret.js';
import { AuthError, AuthErrorCode } from './auth.errors.js';
import { LoginProvider } from './entities/login-provider.entity.js';
import { familyOf } from './login-providers.defaults.js';
import { loginCallbackUrl, LoginProvidersService } from './login-providers.service.js';

/** Apple's team id and key id: ten upper-case letters or digits (developer.apple.com, Membership and Keys). */
const APPLE_ID = /^[A-Z0-9]{10}$/;
/** A Services ID is a reverse-domain identifier (com.example.life.web), unlike the team id or a numeric app id. */
const REVERSE_DOMAIN = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

/**
 * 'Comprobar configuración' for a login provider (decision 0044): what is missing or wrong in its
 * row, told without starting a sign-in. Network checks run in parallel, each bounded.
 */
@Injectable()
export class LoginProviderCheckService {
  private readonly rate: RateLimit;

  constructor(
    private readonly em: EntityManager,
    private readonly providers: LoginProvidersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    rateLimits: RateLimitService,
  ) {
    this.rate = rateLimits.create(CHECK_RATE);
  }

  async check(id: string, adminId: string): Promise<CheckReport> {
    const row = await this.em.findOne(LoginProvider, { id });
    if (!row) throw new AuthError(AuthErrorCode.LoginProviderNotFound, msg('auth.loginProviderNotFound'));
    await this.rate.consume(adminId);
    const family = familyOf(row.serviceName);
    const allowPrivate = this.config.allowPrivateServiceUrls;
    const callbackUrl = loginCallbackUrl(row, this.config.appUrl);
    const lines: CheckLine[] = [checkClientId(row.appId)];

    let secret: string | undefined;
    try {
      secret = this.providers.decryptSecret(row);
    } catch {
      secret = undefined; // sealed under a key this server no longer has: as good as missing
    }
    let clientSecret: string | undefined = secret;
    if (family === 'apple') {
      const apple = await this.appleLines(row.appId, secret, row.baseUrl);
      lines.push(...apple.lines);
      clientSecret = apple.clientSecret;
    } else {
      lines.push(checkSecret(!!secret));
    }

    const urls: Record<string, string | null | undefined> = { base_url: row.baseUrl, auth_url: row.authUrl, token_url: row.tokenUrl };
    if (family === 'github') urls.user_url = row.userUrl;
    lines.push(checkUrlsSet(urls));
    lines.push(checkHttps({ ...urls, user_url: row.userUrl, redirect_uri: callbackUrl }, this.config.isProduction));

    const network: Promise<CheckLine[]>[] = [];
    if ((family === 'oidc' || family === 'apple') && row.baseUrl) {
      network.push(checkDiscovery({ baseUrl: row.baseUrl, authUrl: row.authUrl, tokenUrl: row.tokenUrl }, allowPrivate));
    }
    if (row.authUrl) network.push(checkAuthorizationEndpoint(row.authUrl, row.appId, allowPrivate).then((one) => [one]));
    if (row.tokenUrl && row.appId && clientSecret) network.push(this.tokenLine(row.tokenUrl, row.appId, clientSecret, callbackUrl).then((one) => [one]));
    for (const found of await Promise.all(network)) lines.push(...found);
    return report(lines);
  }

  /**
   * Apple's secret is the team's key, not a string Apple knows: its shape is checked here (team id,
   * key id, an ES256 PKCS#8 key), and the client secret JWT made from it goes to the token endpoint.
   */
  private async appleLines(
    clientId: string | null | undefined,
    stored: string | undefined,
    baseUrl: string | null | undefined,
  ): Promise<{ lines: CheckLine[]; clientSecret?: string }> {
    const lines: CheckLine[] = [];
    if (clientId) {
      lines.push(
        REVERSE_DOMAIN.test(clientId)
          ? line('apple_services_id', true, msg('configCheck.appleServicesIdOk'))
          : line('apple_services_id', false, msg('configCheck.appleServicesIdShape')),
      );
    }
    if (!stored) return { lines: [...lines, line('apple_key', false, msg('configCheck.appleKeyMissing'))] };
    let parsed: { team_id?: unknown; key_id?: unknown; private_key?: unknown };
    try {
      parsed = JSON.parse(stored) as typeof parsed;
      if (!parsed || typeof parsed !== 'object') throw new Error('not an object');
    } catch {
      return { lines: [...lines, line('apple_key', false, msg('configCheck.appleKeyNotJson'))] };
    }
    if (typeof parsed.team_id !== 'string' || !APPLE_ID.test(parsed.team_id))
      return { lines: [...lines, line('apple_key', false, msg('configCheck.appleTeamId'))] };
    if (typeof parsed.key_id !== 'string' || !APPLE_ID.test(parsed.key_id))
      return { lines: [...lines, line('apple_key', false, msg('configCheck.appleKeyId'))] };
    try {
      await importPKCS8(String(parsed.private_key), 'ES256');
    } catch {
      return { lines: [...lines, line('apple_key', false, msg('configCheck.applePrivateKey'))] };
    }
    lines.push(line('apple_key', true, msg('configCheck.appleKeyOk', { teamId: parsed.team_id, keyId: parsed.key_id })));
    if (!clientId || !baseUrl) return { lines };
    return { lines, clientSecret: await appleClientSecret(stored, clientId, baseUrl) };
  }

  /** The token endpoint with a made-up code and the configured credentials, as the sign-in sends them. */
  private async tokenLine(tokenUrl: string, clientId: string, clientSecret: string, redirectUri: string): Promise<CheckLine> {
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code: madeUpCode(),
      redirect_uri: redirectUri,
      client_id: clientId,
      client_secret: clientSecret,
      code_verifier: madeUpVerifier(),
    });
    const answer = await probe(
      tokenUrl,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body },
      this.config.allowPrivateServiceUrls,
    );
    if (answer.kind === 'failed') return line('token_endpoint', false, answer.message);
    return classifyTokenAnswer(oauthErrorOf(answer.body), answer.status, redirectUri);
  }
}
