import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CreateRequestContext } from '@mikro-orm/decorators/legacy';
import { EntityManager, MikroORM, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { LOGIN_PROVIDERS, SECRET_MASK, type LoginProviderDto, type LoginProviderInput } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { KeyRing } from '../../core/crypto/key-ring.js';
import { firstPrivateUrlFieldResolved } from '../../core/util/private-address.js';
import { AuthError, AuthErrorCode } from './auth.errors.js';
import type { AuthDb } from './entities/index.js';
import { LoginProvider } from './entities/login-provider.entity.js';
import { LOGIN_PROVIDER_DEFAULTS } from './login-providers.defaults.js';
import { msg } from '../../core/i18n/messages.js';

/** Associated data binds a ciphertext to its row and column: a secret cannot be pasted into another row. */
const secretAad = (row: LoginProvider) => `login_providers:${row.id}:app_secret`;

/** The redirect URI to register at the provider: the row's own, or `APP_URL/login/<provider>/callback` (what the sign-in sends). */
export function loginCallbackUrl(row: Pick<LoginProvider, 'serviceName' | 'redirectUrl'>, appUrl: string): string {
  return row.redirectUrl || `${appUrl}/login/${row.serviceName}/callback`;
}

export function toLoginProviderDto(row: LoginProvider, appUrl: string): LoginProviderDto {
  return {
    id: row.id,
    service_name: row.serviceName,
    service_type: row.serviceType,
    description: row.description ?? null,
    app_id: row.appId ?? null,
    app_secret: row.appSecretEncrypted ? SECRET_MASK : '',
    base_url: row.baseUrl ?? null,
    auth_url: row.authUrl ?? null,
    token_url: row.tokenUrl ?? null,
    redirect_url: row.redirectUrl ?? null,
    scopes: row.scopes ?? null,
    user_url: row.userUrl ?? null,
    callback_url: loginCallbackUrl(row, appUrl),
  };
}

const LOGIN_PROVIDER_URL_FIELDS = ['base_url', 'auth_url', 'token_url', 'redirect_url', 'user_url'] as const;

const blankToNull = (value: string | null | undefined) => (value === undefined ? undefined : value === null || value.trim() === '' ? null : value.trim());

@Injectable()
export class LoginProvidersService implements OnApplicationBootstrap {
  private readonly logger = new Logger('LoginProviders');

  constructor(
    private readonly em: EntityManager,
    private readonly orm: MikroORM,
    private readonly keyRing: KeyRing,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Creates the four default rows once; never overwrites what an admin changed. */
  @CreateRequestContext()
  async onApplicationBootstrap(): Promise<void> {
    for (const defaults of LOGIN_PROVIDER_DEFAULTS) {
      const inserted = await this.em
        .getKysely<AuthDb>()
        .insertInto('login_providers')
        .values({
          id: sql<string>`gen_random_uuid()`,
          created_at: sql<Date>`now()`,
          updated_at: sql<Date>`now()`,
          service_name: defaults.serviceName,
          service_type: 'login',
          description: defaults.description,
          base_url: defaults.baseUrl,
          auth_url: defaults.authUrl,
          token_url: defaults.tokenUrl,
          user_url: defaults.userUrl,
          scopes: defaults.scopes,
        })
        .onConflict((oc) => oc.column('service_name').doNothing())
        .returning('id')
        .execute();
      if (inserted.length > 0) this.logger.log(`Created default login provider ${defaults.serviceName}`);
    }
  }

  async list(): Promise<LoginProviderDto[]> {
    const rows = await this.em.find(LoginProvider, {}, { orderBy: { serviceName: 'asc' } });
    return rows.map((row) => toLoginProviderDto(row, this.config.appUrl));
  }

  findByName(name: string): Promise<LoginProvider | null> {
    return this.em.findOne(LoginProvider, { serviceName: name });
  }

  decryptSecret(row: LoginProvider): string | undefined {
    return row.appSecretEncrypted ? this.keyRing.decrypt(row.appSecretEncrypted, secretAad(row)) : undefined;
  }

  /** The catalog editor's rules (decisions 0026, 0032, 0050): https in production; no private host, by name or by what it resolves to. */
  private async checkUrls(input: LoginProviderInput): Promise<void> {
    if (this.config.isProduction) {
      const insecure = LOGIN_PROVIDER_URL_FIELDS.find((field) => {
        const value = input[field]?.trim();
        if (!value) return false;
        try {
          return new URL(value).protocol !== 'https:';
        } catch {
          return true;
        }
      });
      if (insecure) throw new AuthError(AuthErrorCode.InsecureServiceUrl, msg('services.serviceHttpsInProduction', { field: insecure }));
    }
    if (!this.config.allowPrivateServiceUrls) {
      const local = await firstPrivateUrlFieldResolved(input, LOGIN_PROVIDER_URL_FIELDS);
      if (local) throw new AuthError(AuthErrorCode.PrivateServiceUrl, msg('services.privateServiceUrl', { field: local }));
    }
  }

  private apply(row: LoginProvider, input: LoginProviderInput): void {
    row.serviceName = input.service_name;
    if (input.service_type !== undefined) row.serviceType = input.service_type.trim() || 'login';
    const fields = [
      ['description', input.description],
      ['appId', input.app_id],
      ['baseUrl', input.base_url],
      ['authUrl', input.auth_url],
      ['tokenUrl', input.token_url],
      ['redirectUrl', input.redirect_url],
      ['scopes', input.scopes],
      ['userUrl', input.user_url],
    ] as const;
    for (const [key, value] of fields) {
      const normalised = blankToNull(value);
      if (normalised !== undefined) row[key] = normalised;
    }
    // The mask (or an absent field) means "keep the stored secret"; an empty string clears it.
    if (input.app_secret !== undefined && input.app_secret !== SECRET_MASK) {
      row.appSecretEncrypted = input.app_secret === null || input.app_secret === '' ? null : this.keyRing.encrypt(input.app_secret, secretAad(row));
    }
  }

  private assertKnownName(name: string): void {
    if (!(LOGIN_PROVIDERS as readonly string[]).includes(name)) {
      throw new AuthError(AuthErrorCode.UnknownProvider, msg('auth.unsupportedLoginProvider', { providers: LOGIN_PROVIDERS.join(', ') }));
    }
  }

  async create(input: LoginProviderInput): Promise<LoginProviderDto> {
    this.assertKnownName(input.service_name);
    await this.checkUrls(input);
    if (await this.findByName(input.service_name))
      throw new AuthError(AuthErrorCode.LoginProviderExists, msg('auth.loginProviderExists', { name: input.service_name }));
    const row = this.em.create(LoginProvider, { serviceName: input.service_name, serviceType: 'login' });
    this.apply(row, input);
    try {
      await this.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException)
        throw new AuthError(AuthErrorCode.LoginProviderExists, msg('auth.loginProviderExists', { name: input.service_name }));
      throw error;
    }
    return toLoginProviderDto(row, this.config.appUrl);
  }

  async update(id: string, input: LoginProviderInput): Promise<LoginProviderDto> {
    this.assertKnownName(input.service_name);
    await this.checkUrls(input);
    const row = await this.em.findOne(LoginProvider, { id });
    if (!row) throw new AuthError(AuthErrorCode.LoginProviderNotFound, msg('auth.loginProviderNotFound'));
    if (input.service_name !== row.serviceName && (await this.findByName(input.service_name))) {
      throw new AuthError(AuthErrorCode.LoginProviderExists, msg('auth.loginProviderExists', { name: input.service_name }));
    }
    this.apply(row, input);
    await this.em.flush();
    return toLoginProviderDto(row, this.config.appUrl);
  }

  async remove(id: string): Promise<void> {
    const deleted = await this.em.nativeDelete(LoginProvider, { id });
    if (deleted === 0) throw new AuthError(AuthErrorCode.LoginProviderNotFound, msg('auth.loginProviderNotFound'));
  }
}
