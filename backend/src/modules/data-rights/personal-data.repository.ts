import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { DataExport as DataExportView, DataExportDocument, DataExportStatus } from '@life/contracts';
import { iso, isoOr, type Row } from '../../core/database/row-values.js';

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

const EXPORT_COLUMNS = 'id, user_id, status, created_at, finished_at, expires_at, size_bytes';

/** Raw queries may answer timestamps as text: always hand out Dates. */
const date = (value: unknown): Date | null => (value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value)));

const exportRow = (row: ExportRow): ExportRow => ({
  ...row,
  created_at: date(row.created_at)!,
  finished_at: date(row.finished_at),
  expires_at: date(row.expires_at),
  size_bytes: row.size_bytes === null ? null : Number(row.size_bytes),
});

/**
 * Data-rights' own table, `data_exports`: the requests, the finished files, their expiry. The
 * rest of the export comes from each module (CollectingPersonalDataEvent), and each names its
 * columns, so a secret column added later never slips in.
 */
@Injectable()
export class PersonalDataRepository {
  constructor(private readonly em: EntityManager) {}

  private query<T = Row>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.em.getConnection().execute<T[]>(sql, params);
  }

  // --- exports -------------------------------------------------------------------------

  async openExportOf(userId: string): Promise<ExportRow | null> {
    const rows = await this.query<ExportRow>(
      `select ${EXPORT_COLUMNS} from data_exports where user_id = ? and status in ('pending', 'running') order by created_at desc limit 1`,
      [userId],
    );
    return rows[0] ? exportRow(rows[0]) : null;
  }

  async createExport(userId: string): Promise<ExportRow> {
    const rows = await this.query<ExportRow>(
      `insert into data_exports (id, user_id, status, created_at, attempts) values (gen_random_uuid(), ?, 'pending', now(), 0) returning ${EXPORT_COLUMNS}`,
      [userId],
    );
    return exportRow(rows[0]!);
  }

  async exportOf(userId: string, exportId: string): Promise<ExportRow | null> {
    const rows = await this.query<ExportRow>(`select ${EXPORT_COLUMNS} from data_exports where id = ? and user_id = ?`, [exportId, userId]);
    return rows[0] ? exportRow(rows[0]) : null;
  }

  async exportContent(userId: string, exportId: string): Promise<string | null> {
    const rows = await this.query<{ content: string | null }>(`select content from data_exports where id = ? and user_id = ? and status = 'ready'`, [
      exportId,
      userId,
    ]);
    return rows[0]?.content ?? null;
  }

  /** Marks the export as being built; null when it is gone or already finished. */
  async claimExport(exportId: string): Promise<{ userId: string } | null> {
    const rows = await this.query<{ user_id: string }>(
      `update data_exports set status = 'running', started_at = now(), attempts = attempts + 1
        where id = ? and status in ('pending', 'running') returning user_id`,
      [exportId],
    );
    return rows[0] ? { userId: rows[0].user_id } : null;
  }

  async finishExport(exportId: string, content: string, ttlHours: number): Promise<boolean> {
    const rows = await this.query(
      `update data_exports set status = 'ready', content = ?, size_bytes = ?, finished_at = now(), expires_at = now() + make_interval(hours => ?), last_error = null
        where id = ? and status = 'running' returning id`,
      [content, Buffer.byteLength(content), ttlHours, exportId],
    );
    return rows.length > 0;
  }

  async failExport(exportId: string, reason: string, final: boolean): Promise<void> {
    await this.query(
      `update data_exports set last_error = ?, status = case when ? then 'failed'::data_export_status else status end, finished_at = case when ? then now() else finished_at end
        where id = ? and status in ('pending', 'running')`,
      [reason.slice(0, 300), final, final, exportId],
    );
  }

  /** Exports waiting for a worker for more than `olderThanMs` (their job may have been lost with Redis). */
  async stalledExportIds(olderThanMs: number, limit = 500): Promise<string[]> {
    const rows = await this.query<{ id: string }>(
      `select id from data_exports where status in ('pending', 'running') and created_at < now() - make_interval(secs => ?) order by created_at limit ?`,
      [olderThanMs / 1000, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Deletes files past their expiry, and requests that never finished within a day. */
  async deleteExpiredExports(staleAfterHours: number): Promise<number> {
    const rows = await this.query(
      `delete from data_exports where expires_at < now() or (status <> 'ready' and created_at < now() - make_interval(hours => ?)) returning id`,
      [staleAfterHours],
    );
    return rows.length;
  }

  // --- the person's own list, for their export -----------------------------------------

  async exportsListOf(userId: string): Promise<DataExportDocument['data_exports']> {
    const rows = await this.query('select created_at, status, finished_at from data_exports where user_id = ? order by created_at', [userId]);
    return rows.map((row) => ({ created_at: isoOr(row.created_at), status: String(row.status), finished_at: iso(row.finished_at) }));
  }
}
