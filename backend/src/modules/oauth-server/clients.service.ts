import { randomBytes } from 'node:crypto';
import { Injectable, Optional } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import {
  DEFAULT_CLIENT_SCOPES,
  isPersonScope,
  type CreateOAuthClient,
  type OAuthClientStandingAction,
  type OAuthClientView,
  type OAuthClientWithSecret,
  type UpdateOAuthClient,
} from '@life/contracts';
import { AppError } from '../../core/http/app-error.js';
import { ClientCache, type ClientRecord } from './client-cache.js';
import { OAuthClient } from './entities/oauth-client.entity.js';
import { CLIENT_SECRET_PREFIX, hashesEqual, newSecret, sha256 } from './secrets.js';
import { msg } from '../../core/i18n/messages.js';
import { PersonNamesQuery } from '../users/public/queries.js';

export class ClientNotFoundError extends AppError {
  constructor() {
    super(404, 'not_found', msg('oauth.clientNotFound'));
  }
}

export function toClientView(client: OAuthClient): OAuthClientView {
  return {
    id: client.id,
    name: client.name,
    client_id: client.clientId,
    client_type: client.clientType,
    redirect_uri: client.redirectUris[0] ?? '',
    redirect_uris: [...client.redirectUris],
    post_logout_redirect_uris: [...(client.postLogoutRedirectUris ?? [])],
    allowed_scopes: [...client.allowedScopes],
    description: client.description ?? null,
    owner_user_id: client.ownerUser?.id ?? null,
    active: client.active,
    has_secret: !!client.clientSecretHash,
    require_pushed_authorization_requests: client.requirePushedAuthorizationRequests,
    created_at: client.createdAt.toISOString(),
    developer_id: client.developer?.id ?? null,
    logo_uri: client.logoUri ?? null,
    policy_uri: client.policyUri ?? null,
    tos_uri: client.tosUri ?? null,
    verified: client.verified,
    suspended: client.suspended,
  };
}

/** An IP loopback redirect URI (RFC 8252 §7.3) split at its port: `http://127.0.0.1` or `http://[::1]`, the port, the rest. */
const LOOPBACK = /^(http:\/\/(?:127\.0\.0\.1|\[::1\]))(?::(\d{1,5}))?([/?][\x21-\x7e]*)?$/;

/** The loopback URI without its port, or undefined when it is not one (or its port is not a port). */
function withoutPort(uri: string): string | undefined {
  const match = LOOPBACK.exec(uri);
  if (!match) return undefined;
  if (match[2] !== undefined && (Number(match[2]) < 1 || Number(match[2]) > 65535)) return undefined;
  return `${match[1]}${match[3] ?? ''}`;
}

/** What an admin's verify / unverify / suspend / unsuspend sets (decision 0037). */
const STANDING: Record<OAuthClientStandingAction, { verified?: boolean; suspended?: boolean }> = {
  verify: { verified: true },
  unverify: { verified: false },
  suspend: { suspended: true },
  unsuspend: { suspended: false },
};

/**
 * RFC 6749 §3.1.2: a redirection endpoint has no fragment; and credentials in it
 * (`https://user:pass@host`) have no place in a redirect either. Registered or requested.
 */
export function redirectUriForbidden(uri: string): boolean {
  if (uri.includes('#')) return true;
  try {
    const url = new URL(uri);
    return !!(url.username || url.password);
  } catch {
    return false;
  }
}

/**
 * RFC 9700 §4.1.3 / RFC 8252 §7.3: exact string match, except that a loopback IP redirect
 * may use any port (native apps pick a free port at run time): everything but the port is
 * still compared as a string, character for character (no URL normalisation: `/a/../cb` is
 * not `/cb`). `localhost` gets no such leeway (RFC 8252 §8.3).
 */
export function redirectUriMatches(registered: readonly string[], requested: string): boolean {
  if (redirectUriForbidden(requested)) return false;
  if (registered.includes(requested)) return true;
  const asked = withoutPort(requested);
  return asked !== undefined && registered.some((candidate) => withoutPort(candidate) === asked);
}

const uniqueUris = (input: { redirect_uri?: string; redirect_uris?: string[] }): string[] | undefined => {
  if (input.redirect_uris) return [...new Set(input.redirect_uris)];
  return input.redirect_uri ? [input.redirect_uri] : undefined;
};

/** Client applications: registration, secrets (hashed; shown once), lookup for the endpoints. */
@Injectable()
export class ClientsService {
  constructor(
    private readonly em: EntityManager,
    private readonly cache?: ClientCache,
    @Optional() private readonly queries?: QueryBus,
  ) {}

  private async names(ids: string[]): Promise<Record<string, string>> {
    return this.queries ? this.queries.execute(new PersonNamesQuery(ids)) : {};
  }

  /** Every change to a client goes through here: this process forgets it now, the others when they hear it. */
  private async changed(clientId: string): Promise<void> {
    await this.cache?.changed(clientId);
  }

  /** Every app with the username of the person who made it (the users module names them). */
  async list(): Promise<OAuthClientView[]> {
    const clients = await this.em.find(OAuthClient, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
    const developers = [...new Set(clients.flatMap((client) => (client.developer ? [client.developer.id] : [])))];
    const names = developers.length === 0 ? {} : await this.names(developers);
    return clients.map((client) => ({ ...toClientView(client), developer_name: client.developer ? (names[client.developer.id] ?? null) : null }));
  }

  /** An admin verifies, unverifies, suspends or lifts a suspension; a suspended app stops working at once. */
  async setStanding(id: string, action: OAuthClientStandingAction): Promise<OAuthClientView> {
    const client = await this.em.findOne(OAuthClient, { id });
    if (!client) throw new ClientNotFoundError();
    Object.assign(client, STANDING[action]);
    await this.em.flush();
    await this.changed(client.clientId);
    return toClientView(client);
  }

  /** A person asked to erase their account: every app they made is suspended now (decision 0050); their row ids. */
  async suspendAllOf(developerId: string): Promise<string[]> {
    const apps = await this.em.find(OAuthClient, { developer: developerId });
    for (const app of apps) app.suspended = true;
    await this.em.flush();
    for (const app of apps) await this.changed(app.clientId);
    return apps.map((app) => app.id);
  }

  async create(input: CreateOAuthClient, ownerId: string | null): Promise<OAuthClientWithSecret> {
    const secret = input.client_type === 'public' ? null : newSecret(CLIENT_SECRET_PREFIX);
    const client = this.em.create(OAuthClient, {
      name: input.name,
      clientId: `life_${randomBytes(16).toString('base64url')}`,
      clientType: input.client_type ?? 'confidential',
      clientSecretHash: secret ? sha256(secret) : null,
      redirectUris: uniqueUris(input) ?? [],
      postLogoutRedirectUris: [...new Set(input.post_logout_redirect_uris ?? [])],
      allowedScopes: [...new Set(input.allowed_scopes ?? DEFAULT_CLIENT_SCOPES)],
      description: input.description || null,
      ownerUser: ownerId ? ownerId : null,
      active: input.active ?? true,
      requirePushedAuthorizationRequests: input.require_pushed_authorization_requests ?? false,
    });
    await this.em.flush();
    await this.changed(client.clientId);
    return { ...toClientView(client), client_secret: secret };
  }

  async update(id: string, input: UpdateOAuthClient): Promise<OAuthClientView> {
    const client = await this.em.findOne(OAuthClient, { id });
    if (!client) throw new ClientNotFoundError();
    // A person-made app holds only the scopes about the person who consents, whoever edits it (decision 0050).
    const refused = client.developer ? (input.allowed_scopes ?? []).filter((scope) => !isPersonScope(scope)) : [];
    if (refused.length > 0) throw new AppError(400, 'developer_app_scope', msg('oauth.developerAppScope', { scopes: [...new Set(refused)].join(' ') }));
    if (input.name !== undefined) client.name = input.name;
    if (input.description !== undefined) client.description = input.description || null;
    if (input.active !== undefined) client.active = input.active;
    if (input.require_pushed_authorization_requests !== undefined) client.requirePushedAuthorizationRequests = input.require_pushed_authorization_requests;
    if (input.allowed_scopes !== undefined) client.allowedScopes = [...new Set(input.allowed_scopes)];
    // The full object carries both; the list wins when it is there (the spec's form only knows the first).
    const uris =
      input.redirect_uris ??
      (input.redirect_uri && input.redirect_uri !== client.redirectUris[0] ? [input.redirect_uri, ...client.redirectUris.slice(1)] : undefined);
    if (uris) client.redirectUris = [...new Set(uris)];
    if (input.post_logout_redirect_uris !== undefined) client.postLogoutRedirectUris = [...new Set(input.post_logout_redirect_uris)];
    await this.em.flush();
    await this.changed(client.clientId);
    return toClientView(client);
  }

  /** A new secret for a confidential client; the old one stops working at once. */
  async rotateSecret(id: string): Promise<OAuthClientWithSecret> {
    const client = await this.em.findOne(OAuthClient, { id });
    if (!client) throw new ClientNotFoundError();
    if (client.clientType !== 'confidential') throw new AppError(409, 'public_client', msg('oauth.publicClientNoSecret'));
    const secret = newSecret(CLIENT_SECRET_PREFIX);
    client.clientSecretHash = sha256(secret);
    await this.em.flush();
    await this.changed(client.clientId);
    return { ...toClientView(client), client_secret: secret };
  }

  async remove(id: string): Promise<void> {
    const client = await this.em.findOne(OAuthClient, { id }, { fields: ['clientId'] });
    const removed = await this.em.nativeDelete(OAuthClient, { id });
    if (client) await this.changed(client.clientId);
    if (removed === 0) throw new ClientNotFoundError();
  }

  /** An active client by its public id, or null (from the process's cache, see ClientCache). */
  findActive(clientId: string): Promise<ClientRecord | null> {
    if (!clientId || clientId.length > 100) return Promise.resolve(null);
    if (this.cache) return this.cache.get(clientId);
    return this.em
      .fork()
      .findOne(OAuthClient, { clientId, active: true, suspended: false })
      .then((client) =>
        client
          ? {
              id: client.id,
              clientId: client.clientId,
              name: client.name,
              clientType: client.clientType,
              clientSecretHash: client.clientSecretHash ?? null,
              redirectUris: client.redirectUris,
              allowedScopes: client.allowedScopes,
              requirePar: client.requirePushedAuthorizationRequests,
              developerId: client.developer?.id ?? null,
              verified: client.verified,
              logoUri: client.logoUri ?? null,
              policyUri: client.policyUri ?? null,
              tosUri: client.tosUri ?? null,
            }
          : null,
      );
  }

  /**
   * Client authentication at the token, revocation and introspection endpoints. A confidential
   * client must present its secret (a code_verifier does not replace it, RFC 9700 §2.3); a
   * public client must not present one.
   */
  async authenticate(clientId: string, secret: string | undefined): Promise<ClientRecord | null> {
    const client = await this.findActive(clientId);
    if (!client) return null;
    if (client.clientType === 'public') return secret ? null : client;
    if (!secret || !client.clientSecretHash) return null;
    return hashesEqual(client.clientSecretHash, secret) ? client : null;
  }
}
