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

// Lookups read the token and its (active) client only: who the person is comes from users when an
// answer needs it. A person who asks to erase their account has every grant and token revoked at
// that moment (AppGrantsErasureHandler), so no app represents them from then on (docs/data-rights.md).

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
  /** Refresh rotations of concurrent requests as one statement and one commit (see rotate). */
  private readonly rotations = new Batcher<{ presented: string; row: NewTokenRow; id: string }, boolean>((calls) => this.rotateRows(calls));
  /** Refresh-token lookups of concurrent requests as one statement. */
  private readonly refreshLookups = new Batcher<string, AccessRow | undefined>((hashes) => this.refreshRows(hashes));
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

  /** Unrevoked tokens of active clients, with what the endpoints need; each lookup adds its hash and expiry. */
  private liveTokens() {
    return this.pool
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
      ])
      .where('t.revoked_at', 'is', null);
  }

  private async accessRows(hashes: string[]): Promise<(AccessRow | undefined)[]> {
    const rows = await this.liveTokens()
      .select('t.access_token_hash')
      .where('t.access_token_hash', 'in', [...new Set(hashes)])
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
    const row = await this.refreshLookups.add(sha256(token));
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

  /**
   * Refresh rotation as one statement and one commit: spends the presented refresh token and
   * stores the new pair only if this call spent it; true for exactly one caller, however many
   * race. A revocation racing with it either comes first (the spend sees `revoked_at` and stores
   * nothing) or waits for the spent row's lock and then runs again and sees the new row
   * (revokeTokens below), so the new pair never outlives its family, code or grant.
   */
  rotate(presented: string, row: NewTokenRow): Promise<boolean> {
    return this.rotations.add({ presented, row, id: randomUUID() });
  }

  /**
   * The rotations of concurrent requests as one statement and one commit (the presented hashes as
   * bpchar[], the column's type: as text[] PostgreSQL would compare text and scan the whole table
   * instead of using the unique index). Two of them presenting
   * the same token join the same row: PostgreSQL updates it once, so only one new pair is stored.
   */
  private async rotateRows(calls: { presented: string; row: NewTokenRow; id: string }[]): Promise<boolean[]> {
    const column = <T>(pick: (call: { presented: string; row: NewTokenRow; id: string }) => T) => calls.map(pick);
    const stored = await sql<{ id: string }>`with input as (select * from unnest(
        ${column((c) => sha256(c.presented))}::bpchar[], ${column((c) => c.id)}::uuid[], ${column((c) => sha256(c.row.accessToken))}::text[],
        ${column((c) => (c.row.refreshToken ? sha256(c.row.refreshToken) : null))}::text[], ${column((c) => c.row.accessExpiresAt)}::timestamptz[],
        ${column((c) => c.row.refreshExpiresAt ?? null)}::timestamptz[], ${column((c) => c.row.clientRowId)}::uuid[],
        ${column((c) => c.row.userId)}::uuid[], ${column((c) => c.row.grantId)}::uuid[], ${column((c) => c.row.codeId)}::uuid[],
        ${column((c) => c.row.familyId)}::uuid[], ${column((c) => JSON.stringify(c.row.scopes))}::text[])
        as i(presented, id, access_hash, refresh_hash, access_expires, refresh_expires, client_id, user_id, grant_id, code_id, family_id, scopes)),
      spent as (update oauth_tokens t set refresh_used_at = now() from input i
        where t.refresh_token_hash = i.presented and t.refresh_used_at is null and t.revoked_at is null returning i.*)
      insert into oauth_tokens (id, created_at, updated_at, access_token_hash, refresh_token_hash, access_expires_at, refresh_expires_at,
        client_id, user_id, grant_id, code_id, family_id, scopes)
      select id, now(), now(), access_hash, refresh_hash, access_expires, refresh_expires, client_id, user_id, grant_id, code_id, family_id, scopes::jsonb
      from spent returning id`.execute(this.pool);
    const winners = new Set(stored.rows.map((row) => row.id));
    return calls.map((call) => winners.has(call.id));
  }

  private async refreshRows(hashes: string[]): Promise<(AccessRow | undefined)[]> {
    const rows = await this.liveTokens()
      .select('t.refresh_token_hash')
      .where('t.refresh_token_hash', 'in', [...new Set(hashes)])
      .where('t.refresh_used_at', 'is', null)
      .where('t.refresh_expires_at', '>', sql<Date>`now()`)
      .execute();
    const byHash = new Map(rows.map((row) => [row.refresh_token_hash, row as unknown as AccessRow]));
    return hashes.map((hash) => byHash.get(hash));
  }

  /**
   * Revokes the live tokens matching `column = value`, twice: a refresh rotation that held the
   * lock of a row the first pass revoked committed its new pair before the first pass ended,
   * and only a statement started after that sees the new row.
   */
  private async revokeTokens(column: 'family_id' | 'code_id' | 'grant_id' | 'user_id', value: string, reason: string): Promise<number> {
    let revoked = 0;
    for (let pass = 0; pass < 2; pass++) {
      const rows = await this.pool
        .updateTable('oauth_tokens')
        .set({ revoked_at: sql<Date>`now()`, revoked_reason: reason })
        .where(column, '=', value)
        .where('revoked_at', 'is', null)
        .returning('id')
        .execute();
      revoked += rows.length;
    }
    return revoked;
  }

  async revokeFamily(familyId: string, reason: RevokeReason): Promise<number> {
    return this.revokeTokens('family_id', familyId, reason);
  }

  async revokeById(id: string, reason: RevokeReason): Promise<void> {
    await this.db.execute('update oauth_tokens set revoked_at = now(), revoked_reason = ? where id = ? and revoked_at is null', [reason, id], 'run');
  }

  async revokeFromCode(codeId: string): Promise<number> {
    return this.revokeTokens('code_id', codeId, 'code_replay');
  }

  async revokeGrant(grantId: string): Promise<number> {
    return this.revokeTokens('grant_id', grantId, 'grant_revoked');
  }

  /** Every live token issued for a person, whatever grant (account erasure). */
  async revokeAllOfUser(userId: string): Promise<number> {
    return this.revokeTokens('user_id', userId, 'revoked');
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
