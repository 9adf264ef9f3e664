import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { sql, type Kysely } from 'kysely';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { KeyRing } from '../../core/crypto/key-ring.js';
import type { OAuthServerDb } from './entities/index.js';
import { ACCESS_TOKEN_PREFIX, REFRESH_TOKEN_PREFIX, sha256 } from './secrets.js';
import { Batcher } from './batcher.js';

export type RevokeReason = 'revoked' | 'refresh_reuse' | 'code_replay' | 'grant_revoked' | 'client_revoked';

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
  /** RFC 9449 `cnf.jkt`: the DPoP key the token is bound to, or null for a Bearer token. */
  dpopJkt: string | null;
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
  /** For a public client, the DPoP key a refresh must prove (decision 0036). */
  dpopJkt: string | null;
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
  /** RFC 9449: the thumbprint of the DPoP key the pair is bound to (null: Bearer). */
  dpopJkt?: string | null;
}

/** The pair a rotation stored, answered again to the same client inside the grace window (decision 0028). */
export interface GracePair {
  accessToken: string;
  accessExpiresAt: Date;
  refreshToken: string;
  refreshExpiresAt: Date | null;
  userId: string | null;
  grantId: string | null;
  codeId: string | null;
  familyId: string;
  scopes: string[];
  dpopJkt: string | null;
}

interface RotationCall {
  presented: string;
  row: NewTokenRow;
  id: string;
  /** The new pair sealed for the grace window (null when the window is 0). */
  sealed: string | null;
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
  dpop_jkt: string | null;
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
  private readonly rotations = new Batcher<RotationCall, boolean>((calls) => this.rotateRows(calls));
  /** Refresh-token lookups of concurrent requests as one statement. */
  private readonly refreshLookups = new Batcher<string, AccessRow | undefined>((hashes) => this.refreshRows(hashes));
  /** Access-token lookups of concurrent requests as one `where access_token_hash in (...)` statement. */
  private readonly accessLookups = new Batcher<string, AccessRow | undefined>((hashes) => this.accessRows(hashes));

  constructor(
    private readonly em: EntityManager,
    private readonly keyRing: KeyRing,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The sealed pair is bound to the row that holds it (AES-GCM associated data). */
  private sealAad(successorId: string) {
    return `oauth_tokens:${successorId}:successor_pair`;
  }

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
          dpop_jkt: row.dpopJkt ?? null,
        })),
      )
      .execute();
    return rows.map(() => undefined);
  }

  /** Unrevoked tokens of active clients, with what the endpoints need; each lookup adds its hash and expiry. */
  private liveTokens() {
    return this.pool
      .selectFrom('oauth_tokens as t')
      .innerJoin('oauth_clients as c', (join) => join.onRef('c.id', '=', 't.client_id').on('c.active', '=', true).on('c.suspended', '=', false))
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
        't.dpop_jkt',
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
      dpopJkt: row.dpop_jkt ?? null,
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
      dpopJkt: row.dpop_jkt ?? null,
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
    const id = randomUUID();
    // Sealed before the statement, so the spend, the new pair and its sealed copy are one commit.
    const sealed =
      this.config.oauth.refreshGraceSeconds > 0 && row.refreshToken
        ? this.keyRing.encrypt(JSON.stringify({ a: row.accessToken, r: row.refreshToken }), this.sealAad(id))
        : null;
    return this.rotations.add({ presented, row, id, sealed });
  }

  /**
   * Decision 0028: the pair that replaced `presented`, when the same client presents the spent
   * token again inside the grace window and that pair is still unspent and unrevoked (its family
   * too: a revocation revokes the spent row as well). Null otherwise: then it is a reuse.
   */
  async gracePair(presented: string, clientRowId: string): Promise<GracePair | null> {
    const seconds = this.config.oauth.refreshGraceSeconds;
    if (seconds <= 0 || !presented.startsWith(REFRESH_TOKEN_PREFIX) || presented.length > 200) return null;
    const row = await this.pool
      .selectFrom('oauth_tokens as p')
      .innerJoin('oauth_tokens as s', 's.id', 'p.successor_id')
      .innerJoin('oauth_clients as c', (join) => join.onRef('c.id', '=', 's.client_id').on('c.active', '=', true).on('c.suspended', '=', false))
      .select([
        's.id',
        'p.successor_sealed',
        's.access_expires_at',
        's.refresh_expires_at',
        's.user_id',
        's.grant_id',
        's.code_id',
        's.family_id',
        's.scopes',
        's.dpop_jkt',
      ])
      .where('p.refresh_token_hash', '=', sha256(presented))
      .where('p.client_id', '=', clientRowId)
      .where('p.revoked_at', 'is', null)
      .where('p.successor_sealed', 'is not', null)
      .where('p.refresh_used_at', '>', sql<Date>`now() - make_interval(secs => ${seconds})`)
      .where('s.revoked_at', 'is', null)
      .where('s.refresh_used_at', 'is', null)
      .where('s.refresh_expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    if (!row) return null;
    let pair: { a: string; r: string };
    try {
      pair = JSON.parse(this.keyRing.decrypt(row.successor_sealed!, this.sealAad(row.id))) as { a: string; r: string };
    } catch (error) {
      // Sealed under a key this process lacks (ENCRYPTION_KEYS differ between processes): no grace.
      this.logger.warn({ err: error, tokenId: row.id }, 'Could not open the sealed successor pair of a spent refresh token');
      return null;
    }
    return {
      accessToken: pair.a,
      accessExpiresAt: new Date(row.access_expires_at),
      refreshToken: pair.r,
      refreshExpiresAt: row.refresh_expires_at ? new Date(row.refresh_expires_at) : null,
      userId: row.user_id ?? null,
      grantId: row.grant_id ?? null,
      codeId: row.code_id ?? null,
      familyId: row.family_id,
      scopes: row.scopes,
      dpopJkt: row.dpop_jkt ?? null,
    };
  }

  /** Wipes the sealed successor pairs whose grace window is over (decision 0028); the worker runs it often. */
  async wipeSealedSuccessors(): Promise<number> {
    const result = await this.pool
      .updateTable('oauth_tokens')
      .set({ successor_sealed: null })
      .where('successor_sealed', 'is not', null)
      .where('refresh_used_at', '<', sql<Date>`now() - make_interval(secs => ${this.config.oauth.refreshGraceSeconds})`)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * The rotations of concurrent requests as one statement and one commit (the presented hashes as
   * bpchar[], the column's type: as text[] PostgreSQL would compare text and scan the whole table
   * instead of using the unique index). Two of them presenting
   * the same token join the same row: PostgreSQL updates it once, so only one new pair is stored.
   */
  private async rotateRows(calls: RotationCall[]): Promise<boolean[]> {
    const column = <T>(pick: (call: RotationCall) => T) => calls.map(pick);
    const stored = await sql<{ id: string }>`with input as (select * from unnest(
        ${column((c) => sha256(c.presented))}::bpchar[], ${column((c) => c.id)}::uuid[], ${column((c) => sha256(c.row.accessToken))}::text[],
        ${column((c) => (c.row.refreshToken ? sha256(c.row.refreshToken) : null))}::text[], ${column((c) => c.row.accessExpiresAt)}::timestamptz[],
        ${column((c) => c.row.refreshExpiresAt ?? null)}::timestamptz[], ${column((c) => c.row.clientRowId)}::uuid[],
        ${column((c) => c.row.userId)}::uuid[], ${column((c) => c.row.grantId)}::uuid[], ${column((c) => c.row.codeId)}::uuid[],
        ${column((c) => c.row.familyId)}::uuid[], ${column((c) => JSON.stringify(c.row.scopes))}::text[], ${column((c) => c.sealed)}::text[],
        ${column((c) => c.row.dpopJkt ?? null)}::text[])
        as i(presented, id, access_hash, refresh_hash, access_expires, refresh_expires, client_id, user_id, grant_id, code_id, family_id, scopes, sealed, dpop_jkt)),
      spent as (update oauth_tokens t set refresh_used_at = now(), successor_id = i.id, successor_sealed = i.sealed from input i
        where t.refresh_token_hash = i.presented and t.refresh_used_at is null and t.revoked_at is null returning i.*)
      insert into oauth_tokens (id, created_at, updated_at, access_token_hash, refresh_token_hash, access_expires_at, refresh_expires_at,
        client_id, user_id, grant_id, code_id, family_id, scopes, dpop_jkt)
      select id, now(), now(), access_hash, refresh_hash, access_expires, refresh_expires, client_id, user_id, grant_id, code_id, family_id, scopes::jsonb, dpop_jkt
      from spent returning id`.execute(this.pool);
    // Tests only: the worst moment to die, everything committed and nothing answered (test/oauth-refresh-crash.test.ts).
    if (this.config.testHooks.killAfterRefreshRotation) process.kill(process.pid, 'SIGKILL');
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
  private async revokeTokens(column: 'family_id' | 'code_id' | 'grant_id' | 'user_id' | 'client_id', value: string, reason: string): Promise<number> {
    let revoked = 0;
    for (let pass = 0; pass < 2; pass++) {
      const rows = await this.pool
        .updateTable('oauth_tokens')
        .set({ revoked_at: sql<Date>`now()`, revoked_reason: reason, successor_sealed: null })
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
    await this.db.execute(
      'update oauth_tokens set revoked_at = now(), revoked_reason = ?, successor_sealed = null where id = ? and revoked_at is null',
      [reason, id],
      'run',
    );
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

  /** Every live token issued to an app, for people or for itself (suspension, its developer's erasure: decision 0050). */
  async revokeAllOfClient(clientRowId: string): Promise<number> {
    return this.revokeTokens('client_id', clientRowId, 'client_revoked');
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
