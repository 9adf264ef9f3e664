/**
 * Key rotation over the sealed columns every module declares: a core capability like the
 * migrations, run by external-services' `vault-keys` job and the CLI. Each module lists its own
 * sealed columns (`modules/<m>/sealed-columns.ts`); the app composes them; a column missing from
 * those lists stays under its old key after a rotation (connections-keys.test checks them all).
 */
import { KeyRing } from './key-ring.js';

/**
 * A table with key-ring ciphertexts, each sealed under `<table>:<row id>:<aad>` (TokenVault's rule),
 * or `<table>:<aadColumn's value>:<aad>` when the value is bound to another column of the row
 * (a signing key's `kid`, a spent refresh token's `successor_id`).
 */
export interface SealedTable {
  table: string;
  columns: { column: string; aad: string }[];
  /** The column whose value goes in the associated data instead of `id` (the rows are still keyed by `id`). */
  aadColumn?: string;
  /** Rows a token refresh rewrites: re-seal one only while holding its refresh lock (RotationHooks). */
  lockedByRefresh?: boolean;
}

/** The injection token for every module's sealed tables, composed by the app (src/sealed-columns.ts). */
export const SEALED_TABLES = Symbol('SEALED_TABLES');

/** Runs SQL with `?` placeholders and returns the rows (MikroORM's `getConnection().execute`). */
export type Execute = <T>(sql: string, params?: unknown[]) => Promise<T>;

/** The key id inside a stored value `v1.<keyId>.…`, in SQL. */
const keyIdSql = (column: string) => `split_part(${column}, '.', 2)`;

export interface KeyUsage {
  table: string;
  column: string;
  keyId: string;
  count: number;
}

/** How many stored values each key id sealed, per column. */
export async function keyUsage(execute: Execute, tables: readonly SealedTable[]): Promise<KeyUsage[]> {
  const usage: KeyUsage[] = [];
  for (const { table, columns } of tables) {
    for (const { column } of columns) {
      // Raw SQL: the key-rotation engine builds its statements over SEALED_TABLES (tables and columns of several modules), not one entity.
      const rows = await execute<{ key_id: string; n: string }[]>(
        `select ${keyIdSql(column)} as key_id, count(*) as n from ${table} where ${column} is not null and ${column} <> '' group by 1 order by 1`,
      );
      for (const row of rows) usage.push({ table, column, keyId: row.key_id, count: Number(row.n) });
    }
  }
  return usage;
}

/** Values not sealed under `primaryId` (what a rotation still has to re-seal). */
export async function staleCount(execute: Execute, tables: readonly SealedTable[], primaryId: string): Promise<number> {
  return (await keyUsage(execute, tables)).filter((usage) => usage.keyId !== primaryId).reduce((sum, usage) => sum + usage.count, 0);
}

export interface RotationResult {
  primaryKeyId: string;
  /** Values re-sealed under the primary key. */
  reencrypted: number;
  /** Values that did not decrypt (key missing from the ring, or tampered): left as they are. */
  failed: number;
  /** Connection rows skipped because a refresh held them the whole time (a new pass takes them). */
  busy: number;
  /** Values still not under the primary key after the pass: 0 means old keys can be removed. */
  stale: number;
  byTable: Record<string, number>;
}

export interface RotationHooks {
  /** Takes the refresh locks of these connection ids; returns the ones it got. */
  lockRows?: (ids: string[]) => Promise<Map<string, unknown>>;
  unlockRows?: (locks: Map<string, unknown>) => Promise<void>;
  progress?: (done: number) => Promise<void> | void;
  batchSize?: number;
}

const BATCH = 500;
const BUSY_RETRIES = 20;

/**
 * Re-seals every stored secret whose key id is not the ring's primary: decrypt with the old key,
 * encrypt with the primary, in batches, each row written with compare-and-set (only if it still
 * holds what was read), so concurrent writes are never overwritten. Safe to run while the app
 * serves traffic and workers refresh tokens, and safe to run twice.
 */
export async function reencryptAll(execute: Execute, tables: readonly SealedTable[], ring: KeyRing, hooks: RotationHooks = {}): Promise<RotationResult> {
  const primary = ring.primaryId;
  const result: RotationResult = { primaryKeyId: primary, reencrypted: 0, failed: 0, busy: 0, stale: 0, byTable: {} };
  const batchSize = hooks.batchSize ?? BATCH;
  for (const { table, columns, lockedByRefresh, aadColumn } of tables) {
    const aadOf = (row: Record<string, string | null>, aad: string) => `${table}:${aadColumn ? row[aadColumn] : row.id}:${aad}`;
    const staleWhere = columns.map(({ column }) => `(${column} is not null and ${column} <> '' and ${keyIdSql(column)} <> ?)`).join(' or ');
    const staleParams = columns.map(() => primary);
    let deferred: string[] = [];
    let after = '00000000-0000-0000-0000-000000000000';
    const pass = async (rows: Record<string, string | null>[]): Promise<void> => {
      let locks: Map<string, unknown> | undefined;
      let todo = rows;
      if (lockedByRefresh && hooks.lockRows) {
        locks = await hooks.lockRows(rows.map((row) => row.id!));
        todo = rows.filter((row) => locks!.has(row.id!));
        deferred.push(...rows.filter((row) => !locks!.has(row.id!)).map((row) => row.id!));
      }
      try {
        const values: unknown[] = [];
        const tuples: string[] = [];
        const resealed = new Map<string, number>();
        for (const row of todo) {
          const next: (string | null)[] = [];
          let failed = 0;
          for (const { column, aad } of columns) {
            const stored = row[column] ?? null;
            if (!stored || KeyRing.keyIdOf(stored) === primary) {
              next.push(stored);
              continue;
            }
            try {
              next.push(ring.encrypt(ring.decrypt(stored, aadOf(row, aad)), aadOf(row, aad)));
            } catch {
              next.push(stored);
              failed += 1;
            }
          }
          result.failed += failed;
          const changed = next.filter((value, index) => value !== (row[columns[index]!.column] ?? null)).length;
          if (changed === 0) continue;
          resealed.set(row.id!, changed);
          tuples.push(`(?::uuid, ${columns.map(() => '?::text, ?::text').join(', ')})`);
          values.push(row.id, ...columns.flatMap(({ column }, index) => [next[index], row[column] ?? null]));
        }
        if (tuples.length === 0) return;
        const names = columns.flatMap((_, index) => [`n${index}`, `o${index}`]).join(', ');
        // Raw SQL: a compare-and-set update from a values list, built over SEALED_TABLES' tables and columns.
        const updated = await execute<{ id: string }[]>(
          `update ${table} as t set ${columns.map(({ column }, index) => `${column} = v.n${index}`).join(', ')}
             from (values ${tuples.join(', ')}) as v(id, ${names})
            where t.id = v.id and ${columns.map(({ column }, index) => `t.${column} is not distinct from v.o${index}`).join(' and ')}
            returning t.id`,
          values,
        );
        const done = updated.reduce((sum, row) => sum + (resealed.get(row.id) ?? 0), 0);
        result.reencrypted += done;
        result.byTable[table] = (result.byTable[table] ?? 0) + done;
        await hooks.progress?.(result.reencrypted);
      } finally {
        if (locks && hooks.unlockRows) await hooks.unlockRows(locks);
      }
    };
    // Raw SQL: the batch reads below, built over SEALED_TABLES' tables and columns.
    const select = `select id, ${[...(aadColumn ? [`${aadColumn}::text as ${aadColumn}`] : []), ...columns.map(({ column }) => column)].join(', ')} from ${table}`;
    for (;;) {
      const rows = await execute<Record<string, string | null>[]>(`${select} where id > ? and (${staleWhere}) order by id limit ?`, [
        after,
        ...staleParams,
        batchSize,
      ]);
      if (rows.length === 0) break;
      await pass(rows);
      after = rows[rows.length - 1]!.id!;
    }
    // Rows a refresh held: try again a few times (a refresh takes well under a second).
    for (let attempt = 0; attempt < BUSY_RETRIES && deferred.length > 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const ids = deferred;
      deferred = [];
      for (let start = 0; start < ids.length; start += batchSize) {
        const chunk = ids.slice(start, start + batchSize);
        const rows = await execute<Record<string, string | null>[]>(`${select} where id in (${chunk.map(() => '?').join(', ')}) and (${staleWhere})`, [
          ...chunk,
          ...staleParams,
        ]);
        await pass(rows);
      }
    }
    result.busy += deferred.length;
  }
  result.stale = await staleCount(execute, tables, primary);
  return result;
}
