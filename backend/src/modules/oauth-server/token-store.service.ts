import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { sql, type Kysely } from 'kysely';
import type { OAuthServerDb } from './entities/index.js';
import { ACCESS_TOKEN_PREFIX, REFRESH_TOKEN_PREFIX, sha256 } from './secrets.js';
import { Batcher } from './batcher.js';

export type RevokeReason = 'revoked' | 'refresh_reuse' | 'code_replay' | 'grant_revoked';

/** What an access token stands for, as the resource API, userinfo and introspection see it. */
export interface AccessTokenInfo {
  tokenId: string;
  clientRowId: string;
  clientId: string;
  userId: string | null;
  grantId: string | null;
  scopes: string[];
  issuedAt: Date;
  expiresAt: Date;
}

export interface RefreshTokenInfo {
  tokenId: string;
  clientRowId: string;
  clientId: string;
  userId: string | null;
  scopes: string[];
  issuedAt: Date;
  expiresAt: Date | null;
  familyId: string;
  grantId: string | null;
  codeId: string | null;
}

export interface NewTokenRow {
  accessToken: string;
  accessExpiresAt: Date;
  refreshToken?: string;
  refreshExpiresAt?: Date;
  clientRowId: string;
  userId: string | null;
  grantId: string | null;
  codeId: string | null;
  familyId: string;
  scopes: string[];
}

interface AccessRow {
  id: string;
  client_row: string;
  client_id: string;
  user_id: string | null;
  grant_id: string | null;
  scopes: string[];
  created_at: Date;
  access_expires_at: Date;
  refresh_expires_at: Date | null;
  family_id: string;
  code_id: string | null;
}

// The token and its client only: who the person is comes from users when an answer needs it. A
// person who asks to erase their account has every grant and token revoked at that moment
// (AppGrantsErasureHandler), so no app represents them from then on (docs/data-rights.md).
const SELECT = `select t.id, c.id as client_row, c.client_id, t.user_id, t.grant_id, t.scopes,
  t.created_at, t.access_expires_at, t.refresh_expires_at, t.family_id, t.code_id
  from oauth_tokens t join oauth_clients c on c.id = t.client_id and c.active`;

/**
 * Issued tokens, by SHA-256 hash. Every check the endpoints rely on is one SQL statement, so
 * two processes racing on a token see one winner (single-use codes, refresh rotation).
 */
@Injectable()
export class TokenStore {
  private readonly logger = new Logger(TokenStore.name);

  /**
   * Group commit (decision 0017): the rows of concurrent token requests go to PostgreSQL as one
   * multi-row INSERT, one statement and one commit; each request is answered only after that
   * COMMIT (the statement returned), so every token handed out is durable.
   */
  private readonly inserts = new Batcher<NewTokenRow & { id: string }, void>((rows) => this.insertRows(rows));
  /** Access-token lookups of concurrent requests as one `where access_token_hash in (...)` statement. */
  private readonly accessLookups = new Batcher<string, AccessRow | undefined>((hashes) => this.accessRows(hashes));

  constructor(private readonly em: EntityManager) {}

  private get db() {
    return this.em.getConnection();
  }

  /** The pool's query builder, outside any transaction of the request that happens to start a batch. */
  private get pool(): Kysely<OAuthServerDb> {
    return this.em.getConnection().getClient() as unknown as Kysely<OAuthServerDb>;
  }

  private async insertRows(rows: (NewTokenRow & { id: string })[]): Promise<void[]> {
    await this.pool
      .insertInto('oauth_tokens')
      .values(
        rows.map((row) => ({
          id: row.id,
          created_at: sql<Date>`now()`,
          updated_at: sql<Date>`now()`,
          access_token_hash: sha256(row.accessToken),
          refresh_token_hash: row.refreshToken ? sha256(row.refreshToken) : null,
          access_expires_at: row.accessExpiresAt,
          refresh_expires_at: row.refreshExpiresAt ?? null,
          client_id: row.clientRowId,
          user_id: row.userId,
          grant_id: row.grantId,
          code_id: row.codeId,
          family_id: row.familyId,
          scopes: JSON.stringify(row.scopes),
        })),
      )
      .execute();
    return rows.map(() => undefined);
  }

  private async accessRows(hashes: string[]): Promise<(AccessRow | undefined)[]> {
    const rows = await this.pool
      .selectFrom('oauth_tokens as t')
      .innerJoin('oauth_clients as c', (join) => join.onRef('c.id', '=', 't.client_id').on('c.active', '=', true))
      .select([
        't.id',
        'c.id as client_row',
        'c.client_id',
        't.user_id',
        't.grant_id',
        't.scopes',
        't.created_at',
        't.access_expires_at',
        't.refresh_expires_at',
        't.family_id',
        't.code_id',
        't.access_token_hash',
      ])
      .where('t.access_token_hash', 'in', [...new Set(hashes)])
      .where('t.revoked_at', 'is', null)
      .where('t.access_expires_at', '>', sql<Date>`now()`)
      .execute();
    const byHash = new Map(rows.map((row) => [row.access_token_hash, row as unknown as AccessRow]));
    return hashes.map((hash) => byHash.get(hash));
  }

  async insert(row: NewTokenRow): Promise<string> {
    const id = randomUUID();
    await this.inserts.add({ ...row, id });
    // A replayed code, a reused refresh token or a revoked grant may have been detected while
    // this token was being made: it must not outlive that decision. A client_credentials token
    // (no person, no code, no grant, a new family) has nothing to be revoked with.
    if (!row.codeId && !row.grantId && !row.userId) return id;
    const late = await this.db.execute<{ id: string }[]>(
      `update oauth_tokens set revoked_at = now(), revoked_reason = 'late_' || coalesce(
          (select 'refresh_reuse' where exists (select 1 from oauth_tokens f where f.family_id = ? and f.revoked_reason in ('refresh_reuse', 'code_replay'))),
          (select 'code_replay' where exists (select 1 from oauth_codes k where k.id = ? and k.replayed_at is not null)),
          (select 'grant_revoked' where exists (select 1 from oauth_grants g where g.id = ? and g.revoked_at is not null)))
        where id = ? and (
          exists (select 1 from oauth_tokens f where f.family_id = ? and f.revoked_reason in ('refresh_reuse', 'code_replay'))
          or exists (select 1 from oauth_codes k where k.id = ? and k.replayed_at is not null)
          or exists (select 1 from oauth_grants g where g.id = ? and g.revoked_at is not null))
        returning id`,
      [row.familyId, row.codeId, row.grantId, id, row.familyId, row.codeId, row.grantId],
    );
    if (late.length > 0) this.logger.warn({ tokenId: id }, 'Token revoked at birth: its family, code or grant was revoked meanwhile');
    return id;
  }

  /** A live access token (not expired, not revoked, client active), or null. */
  async findAccess(token: string): Promise<AccessTokenInfo | null> {
    if (!token.startsWith(ACCESS_TOKEN_PREFIX) || token.length > 200) return null;
    const row = await this.accessLookups.add(sha256(token));
    if (!row) return null;
    return {
      tokenId: row.id,
      clientRowId: row.client_row,
      clientId: row.client_id,
      userId: row.user_id,
      grantId: row.grant_id,
      scopes: row.scopes,
      issuedAt: new Date(row.created_at),
      expiresAt: new Date(row.access_expires_at),
    };
  }

  /** A refresh token that has not been spent, revoked or expired, or null. */
  async findRefresh(token: string): Promise<RefreshTokenInfo | null> {
    if (!token.startsWith(REFRESH_TOKEN_PREFIX) || token.length > 200) return null;
    const rows = await this.db.execute<AccessRow[]>(
      `${SELECT} where t.refresh_token_hash = ? and t.revoked_at is null and t.refresh_used_at is null and t.refresh_expires_at > now()`,
      [sha256(token)],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      tokenId: row.id,
      clientRowId: row.client_row,
      clientId: row.client_id,
      userId: row.user_id,
      scopes: row.scopes,
      issuedAt: new Date(row.created_at),
      expiresAt: row.refresh_expires_at ? new Date(row.refresh_expires_at) : null,
      familyId: row.family_id,
      grantId: row.grant_id,
      codeId: row.code_id,
    };
  }

  /** The refresh token's row whatever its state (for reuse detection and revocation). */
  async refreshRow(token: string): Promise<{ id: string; familyId: string; clientRowId: string; used: boolean; revoked: boolean } | null> {
    if (!token.startsWith(REFRESH_TOKEN_PREFIX) || token.length > 200) return null;
    const rows = await this.db.execute<{ id: string; family_id: string; client_id: string; refresh_used_at: Date | null; revoked_at: Date | null }[]>(
      'select id, family_id, client_id, refresh_used_at, revoked_at from oauth_tokens where refresh_token_hash = ?',
      [sha256(token)],
    );
    const row = rows[0];
    return row ? { id: row.id, familyId: row.family_id, clientRowId: row.client_id, used: !!row.refresh_used_at, revoked: !!row.revoked_at } : null;
  }

  /** Spends a refresh token: true for exactly one caller, however many race. */
  async spendRefresh(token: string): Promise<boolean> {
    const rows = await this.db.execute<{ id: string }[]>(
      'update oauth_tokens set refresh_used_at = now() where refresh_token_hash = ? and refresh_used_at is null and revoked_at is null returning id',
      [sha256(token)],
    );
    return rows.length === 1;
  }

  async revokeFamily(familyId: string, reason: RevokeReason): Promise<number> {
    const rows = await this.db.execute<{ id: string }[]>(
      'update oauth_tokens set revoked_at = now(), revoked_reason = ? where family_id = ? and revoked_at is null returning id',
      [reason, familyId],
    );
    return rows.length;
  }

  async revokeById(id: string, reason: RevokeReason): Promise<void> {
    await this.db.execute('update oauth_tokens set revoked_at = now(), revoked_reason = ? where id = ? and revoked_at is null', [reason, id], 'run');
  }

  async revokeFromCode(codeId: string): Promise<number> {
    const rows = await this.db.execute<{ id: string }[]>(
      `update oauth_tokens set revoked_at = now(), revoked_reason = 'code_replay' where code_id = ? and revoked_at is null returning id`,
      [codeId],
    );
    return rows.length;
  }

  async revokeGrant(grantId: string): Promise<number> {
    const rows = await this.db.execute<{ id: string }[]>(
      `update oauth_tokens set revoked_at = now(), revoked_reason = 'grant_revoked' where grant_id = ? and revoked_at is null returning id`,
      [grantId],
    );
    return rows.length;
  }

  /** Every live token issued for a person, whatever grant (account erasure). */
  async revokeAllOfUser(userId: string): Promise<number> {
    const rows = await this.db.execute<{ id: string }[]>(
      `update oauth_tokens set revoked_at = now(), revoked_reason = 'revoked' where user_id = ? and revoked_at is null returning id`,
      [userId],
    );
    return rows.length;
  }

  /** The access token's row whatever its state, for revocation by its own client. */
  async accessRow(token: string): Promise<{ id: string; clientRowId: string } | null> {
    if (!token.startsWith(ACCESS_TOKEN_PREFIX) || token.length > 200) return null;
    const rows = await this.db.execute<{ id: string; client_id: string }[]>('select id, client_id from oauth_tokens where access_token_hash = ?', [
      sha256(token),
    ]);
    return rows[0] ? { id: rows[0].id, clientRowId: rows[0].client_id } : null;
  }
}
