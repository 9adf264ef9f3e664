import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import {
  DEFAULT_DEVELOPER_APP_SCOPES,
  type CreateDeveloperApp,
  type DeveloperApp,
  type DeveloperAppList,
  type DeveloperAppWithSecret,
  type UpdateDeveloperApp,
} from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { AppError } from '../../core/http/app-error.js';
import { msg } from '../../core/i18n/messages.js';
import { ClientCache } from './client-cache.js';
import { ClientNotFoundError } from './clients.service.js';
import { OAuthClient } from './entities/oauth-client.entity.js';
import { CLIENT_SECRET_PREFIX, newSecret, sha256 } from './secrets.js';

export function toDeveloperApp(client: OAuthClient): DeveloperApp {
  return {
    id: client.id,
    name: client.name,
    client_id: client.clientId,
    client_type: client.clientType,
    redirect_uris: [...client.redirectUris],
    allowed_scopes: [...client.allowedScopes],
    description: client.description ?? null,
    logo_uri: client.logoUri ?? null,
    policy_uri: client.policyUri ?? null,
    tos_uri: client.tosUri ?? null,
    verified: client.verified,
    suspended: client.suspended,
    has_secret: !!client.clientSecretHash,
    created_at: client.createdAt.toISOString(),
  };
}

/** The fields whose change makes the company's check stale: what the consent screen shows of the app, where it sends people, and what it may ask. */
const CHECKED_FIELDS = ['name', 'redirect_uris', 'logo_uri', 'policy_uri', 'tos_uri', 'allowed_scopes', 'client_type'] as const;

/**
 * Apps a signed-in person registers on their profile (decision 0037). Every call names the owner:
 * another person's app is "not found" (404), never "forbidden", so ids cannot be probed. A
 * person-made app starts unverified, asks only person scopes and never gets client_credentials.
 */
@Injectable()
export class DeveloperAppsService {
  constructor(
    private readonly em: EntityManager,
    private readonly cache: ClientCache,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get limit(): number {
    return this.config.oauth.developerAppsPerPerson;
  }

  async list(userId: string): Promise<DeveloperAppList> {
    const clients = await this.em.fork().find(OAuthClient, { developer: userId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return { items: clients.map(toDeveloperApp), limit: this.limit };
  }

  private async owned(em: EntityManager, userId: string, id: string): Promise<OAuthClient> {
    const client = await em.findOne(OAuthClient, { id, developer: userId });
    if (!client) throw new ClientNotFoundError();
    return client;
  }

  async create(userId: string, input: CreateDeveloperApp): Promise<DeveloperAppWithSecret> {
    const limit = this.limit;
    const secret = input.client_type === 'public' ? null : newSecret(CLIENT_SECRET_PREFIX);
    const client = await this.em.fork().transactional(async (em) => {
      // One person's creations queue behind each other, so two at once cannot both pass the count.
      await em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`developer-apps:${userId}`]);
      const count = await em.count(OAuthClient, { developer: userId });
      if (count >= limit) throw new AppError(409, 'developer_app_limit', msg('oauth.developerAppLimit', { limit }));
      return em.create(OAuthClient, {
        name: input.name,
        clientId: `life_${randomBytes(16).toString('base64url')}`,
        clientType: input.client_type ?? 'confidential',
        clientSecretHash: secret ? sha256(secret) : null,
        redirectUris: [...new Set(input.redirect_uris)],
        allowedScopes: [...new Set(input.allowed_scopes ?? DEFAULT_DEVELOPER_APP_SCOPES)],
        description: input.description || null,
        ownerUser: null,
        developer: userId,
        logoUri: input.logo_uri ?? null,
        policyUri: input.policy_uri ?? null,
        tosUri: input.tos_uri ?? null,
        verified: false,
        suspended: false,
        active: true,
      });
    });
    await this.cache.changed(client.clientId);
    return { ...toDeveloperApp(client), client_secret: secret };
  }

  async update(userId: string, id: string, input: UpdateDeveloperApp): Promise<DeveloperApp> {
    const em = this.em.fork();
    const client = await this.owned(em, userId, id);
    const before = toDeveloperApp(client);
    if (input.name !== undefined) client.name = input.name;
    if (input.description !== undefined) client.description = input.description || null;
    if (input.redirect_uris !== undefined) client.redirectUris = [...new Set(input.redirect_uris)];
    if (input.allowed_scopes !== undefined) client.allowedScopes = [...new Set(input.allowed_scopes)];
    if (input.logo_uri !== undefined) client.logoUri = input.logo_uri ?? null;
    if (input.policy_uri !== undefined) client.policyUri = input.policy_uri ?? null;
    if (input.tos_uri !== undefined) client.tosUri = input.tos_uri ?? null;
    const after = toDeveloperApp(client);
    // The company checked what the app was: a new name, logo, link or redirect needs a new check.
    if (CHECKED_FIELDS.some((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))) client.verified = false;
    await em.flush();
    await this.cache.changed(client.clientId);
    return toDeveloperApp(client);
  }

  /** A new secret, shown this once; the old one stops working at once. */
  async rotateSecret(userId: string, id: string): Promise<DeveloperAppWithSecret> {
    const em = this.em.fork();
    const client = await this.owned(em, userId, id);
    if (client.clientType !== 'confidential') throw new AppError(409, 'public_client', msg('oauth.publicClientNoSecret'));
    const secret = newSecret(CLIENT_SECRET_PREFIX);
    client.clientSecretHash = sha256(secret);
    await em.flush();
    await this.cache.changed(client.clientId);
    return { ...toDeveloperApp(client), client_secret: secret };
  }

  /** The app goes with its grants, codes and tokens (foreign keys); answers what it was, for the audit log. */
  async remove(userId: string, id: string): Promise<DeveloperApp> {
    const em = this.em.fork();
    const client = await this.owned(em, userId, id);
    const view = toDeveloperApp(client);
    await em.nativeDelete(OAuthClient, { id: client.id, developer: userId });
    await this.cache.changed(client.clientId);
    return view;
  }
}
