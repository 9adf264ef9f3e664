import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { DataExport as DataExportView, DataExportDocument, DataExportStatus } from '@life/contracts';
import { sql } from 'kysely';
import { iso, isoOr } from '../../core/database/row-values.js';
import type { DataRightsDb } from './entities/index.js';

interface ExportRow {
  id: string;
  user_id: string;
  status: DataExportStatus;
  created_at: Date;
  finished_at: Date | null;
  expires_at: Date | null;
  size_bytes: number | null;
}

export const toDataExportView = (row: ExportRow): DataExportView => ({
  id: row.id,
  status: row.status,
  created_at: isoOr(row.created_at),
  finished_at: iso(row.finished_at),
  expires_at: iso(row.expires_at),
  size_bytes: row.size_bytes === null ? null : Number(row.size_bytes),
});

const EXPORT_COLUMNS = ['id', 'user_id', 'status', 'created_at', 'finished_at', 'expires_at', 'size_bytes'] as const;

/** Timestamps come back as text (MikroORM's pg type parsers), whatever the query builder's types say: always hand out Dates. */
const date = (value: unknown): Date | null => (value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value)));

/** A row as the query builder hands it: timestamps typed as Dates but text at run time, nullable columns typed `| undefined`. */
type SelectedExport = Pick<ExportRow, 'id' | 'user_id' | 'status'> & Record<'created_at' | 'finished_at' | 'expires_at' | 'size_bytes', unknown>;

const exportRow = (row: SelectedExport): ExportRow => ({
  id: row.id,
  user_id: row.user_id,
  status: row.status,
  created_at: date(row.created_at)!,
  finished_at: date(row.finished_at),
  expires_at: date(row.expires_at),
  size_bytes: row.size_bytes === null || row.size_bytes === undefined ? null : Number(row.size_bytes),
});

const OPEN = ['pending', 'running'] as const;
const now = () => sql<Date>`now()`;
/** How long the row of an expired export is kept (without its file) so its link answers 410. */
export const EXPIRED_ROW_DAYS = 30;

/**
 * Data-rights' own table, `data_exports`: the requests, the finished files, their expiry. The
 * rest of the export comes from each module (CollectingPersonalDataEvent), and each names its
 * columns, so a secret column added later never slips in.
 */
@Injectable()
export class PersonalDataRepository {
  constructor(private readonly em: EntityManager) {}

  private get db() {
    return this.em.getKysely<DataRightsDb>();
  }

  // --- exports -------------------------------------------------------------------------

  /** The person's open export (pending or running): at most one (the index `data_exports_one_open_per_user`). */
  async openExportOf(userId: string): Promise<ExportRow | null> {
    const row = await this.db
      .selectFrom('data_exports')
      .select(EXPORT_COLUMNS)
      .where('user_id', '=', userId)
      .where('status', 'in', OPEN)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? exportRow(row) : null;
  }

  /** The person's newest export, whatever its status. */
  async latestExportOf(userId: string): Promise<ExportRow | null> {
    const row = await this.db
      .selectFrom('data_exports')
      .select(EXPORT_COLUMNS)
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? exportRow(row) : null;
  }

  /**
   * A new pending export, unless the person already has an open one (pending or running): then
   * null. The partial unique index `data_exports_one_open_per_user` decides, so two requests at
   * once on two processes make one row; the loser's insert waits for the winner's transaction
   * and then does nothing. `admit` runs inside the winner's transaction before it commits (the
   * rate limit): when it throws, no row was made.
   */
  async createExportOnce(userId: string, admit: () => Promise<unknown>): Promise<ExportRow | null> {
    return this.em.fork().transactional(async (tx) => {
      const row = await tx
        .getKysely<DataRightsDb>()
        .insertInto('data_exports')
        .values({ id: sql<string>`gen_random_uuid()`, user_id: userId, status: 'pending', created_at: now(), attempts: 0 })
        // No conflict target: the only unique index an insert with a fresh id can hit is the open-export one.
        .onConflict((oc) => oc.doNothing())
        .returning(EXPORT_COLUMNS)
        .executeTakeFirst();
      if (!row) return null;
      await admit();
      return exportRow(row);
    });
  }

  async exportOf(userId: string, exportId: string): Promise<ExportRow | null> {
    const row = await this.db.selectFrom('data_exports').select(EXPORT_COLUMNS).where('id', '=', exportId).where('user_id', '=', userId).executeTakeFirst();
    return row ? exportRow(row) : null;
  }

  async exportContent(userId: string, exportId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('data_exports')
      .select('content')
      .where('id', '=', exportId)
      .where('user_id', '=', userId)
      .where('status', '=', 'ready')
      .executeTakeFirst();
    return row?.content ?? null;
  }

  /** Marks the export as being built; null when it is gone or already finished. */
  async claimExport(exportId: string): Promise<{ userId: string } | null> {
    const row = await this.db
      .updateTable('data_exports')
      .set((eb) => ({ status: 'running', started_at: now(), attempts: eb('attempts', '+', 1) }))
      .where('id', '=', exportId)
      .where('status', 'in', OPEN)
      .returning('user_id')
      .executeTakeFirst();
    return row ? { userId: row.user_id } : null;
  }

  async finishExport(exportId: string, content: string, ttlHours: number): Promise<boolean> {
    const rows = await this.db
      .updateTable('data_exports')
      .set({
        status: 'ready',
        content,
        size_bytes: Buffer.byteLength(content),
        finished_at: now(),
        expires_at: sql<Date>`now() + make_interval(hours => ${ttlHours})`,
        last_error: null,
      })
      .where('id', '=', exportId)
      .where('status', '=', 'running')
      .returning('id')
      .execute();
    return rows.length > 0;
  }

  async failExport(exportId: string, reason: string, final: boolean): Promise<void> {
    // A final failure also closes the request; otherwise only the reason is kept for the next attempt.
    await this.db
      .updateTable('data_exports')
      .set(final ? { last_error: reason.slice(0, 300), status: 'failed', finished_at: now() } : { last_error: reason.slice(0, 300) })
      .where('id', '=', exportId)
      .where('status', 'in', OPEN)
      .execute();
  }

  /** Exports waiting for a worker for more than `olderThanMs` (their job may have been lost with Redis). */
  async stalledExportIds(olderThanMs: number, limit = 500): Promise<string[]> {
    const rows = await this.db
      .selectFrom('data_exports')
      .select('id')
      .where('status', 'in', OPEN)
      .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000})`)
      .orderBy('created_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Deletes files past their expiry, and requests that never finished within a day. */
  /**
   * An expired file's content is deleted at once (as the person was told); the row stays
   * `EXPIRED_ROW_DAYS` more so an old link answers "expired, ask for a new one" (410) instead of
   * "not found". Exports that never became ready are deleted after `staleAfterHours`.
   */
  async deleteExpiredExports(staleAfterHours: number): Promise<number> {
    const emptied = await this.db
      .updateTable('data_exports')
      .set({ content: null, size_bytes: null })
      .where('expires_at', '<', now())
      .where('content', 'is not', null)
      .returning('id')
      .execute();
    const deleted = await this.db
      .deleteFrom('data_exports')
      .where((eb) =>
        eb.or([
          eb('expires_at', '<', sql<Date>`now() - make_interval(days => ${EXPIRED_ROW_DAYS})`),
          eb.and([eb('status', '<>', 'ready'), eb('created_at', '<', sql<Date>`now() - make_interval(hours => ${staleAfterHours})`)]),
        ]),
      )
      .returning('id')
      .execute();
    return emptied.length + deleted.length;
  }

  // --- the person's own list, for their export -----------------------------------------

  async exportsListOf(userId: string): Promise<DataExportDocument['data_exports']> {
    const rows = await this.db
      .selectFrom('data_exports')
      .select(['created_at', 'status', 'finished_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
    return rows.map((row) => ({ created_at: isoOr(row.created_at), status: String(row.status), finished_at: iso(row.finished_at) }));
  }
}
