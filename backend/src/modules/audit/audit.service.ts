import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import type { AuditAction, AuditEvent as AuditEventView, AuditPage } from '@life/contracts';
import { AppError } from '../../core/http/app-error.js';
import { currentRequest } from '../../core/http/request-scope.js';
import type { AuditDb } from './entities/index.js';
import { msg } from '../../core/i18n/messages.js';

export interface AuditRecord {
  /** A fixed id makes the record idempotent (written once however often the caller runs); default random. */
  id?: string;
  action: AuditAction;
  actor?: { id?: string | null; label?: string | null };
  target?: { type: string; id?: string | null };
  details?: Record<string, unknown>;
  /** Defaults to the current request's (AsyncLocalStorage). */
  ip?: string | null;
  userAgent?: string | null;
}

/** Keys whose values must never reach the log, at any depth. */
const SECRET_KEY = /secret|token|password|passwd|code_verifier|^code$|authorization|cookie|api_key|private/i;

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 4) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => redact(item, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .slice(0, 50)
        .map(([key, item]) => [key, SECRET_KEY.test(key) ? '[redacted]' : redact(item, depth + 1)]),
    );
  }
  if (typeof value === 'string') return value.length > 300 ? `${value.slice(0, 300)}…` : value;
  return value;
}

/** Where the current request comes from and who made it (undefined outside a request: a worker, the CLI). */
function requestFacts(): { ip?: string; userAgent?: string; actorId?: string; actorLabel?: string } | undefined {
  const request = currentRequest();
  if (!request) return undefined;
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof userAgent === 'string' ? userAgent : undefined, actorId: request.auth?.id, actorLabel: request.auth?.email };
}

/**
 * The audit log. Writing never fails the caller: a sign-in must not break because the log
 * could not be written (the failure itself is logged). Reading is admin-only.
 */
@Injectable()
export class AuditService {
  private readonly logger = new Logger('Audit');

  constructor(private readonly em: EntityManager) {}

  async record(entry: AuditRecord): Promise<void> {
    const context = requestFacts();
    try {
      await this.em
        .getKysely<AuditDb>()
        .insertInto('audit_events')
        .values({
          id: entry.id ?? randomUUID(),
          at: sql<Date>`now()`,
          action: entry.action,
          actor_id: entry.actor?.id ?? (entry.actor ? null : (context?.actorId ?? null)),
          actor_label: (entry.actor?.label ?? (entry.actor ? null : (context?.actorLabel ?? null)))?.slice(0, 254) ?? null,
          target_type: entry.target?.type.slice(0, 40) ?? null,
          target_id: entry.target?.id?.slice(0, 254) ?? null,
          ip: (entry.ip === undefined ? (context?.ip ?? null) : entry.ip)?.slice(0, 64) ?? null,
          user_agent: (entry.userAgent === undefined ? (context?.userAgent ?? null) : entry.userAgent)?.slice(0, 300) ?? null,
          details: JSON.stringify(redact(entry.details ?? {})),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    } catch (error) {
      this.logger.error({ err: error, action: entry.action }, 'Could not write an audit record');
    }
  }

  /**
   * Account erasure: the person's records keep what happened and when, but no longer say who
   * (label), from where (IP) or with what (browser). `actor_id` stays: a random id that no row
   * names any more once the account is deleted. Invitations that named their e-mail lose it.
   */
  async anonymiseActor(userId: string, email: string): Promise<number> {
    const db = this.em.getKysely<AuditDb>();
    const rows = await db
      .updateTable('audit_events')
      .set({ actor_label: null, ip: null, user_agent: null })
      .where('actor_id', '=', userId)
      .where((eb) => eb.or([eb('actor_label', 'is not', null), eb('ip', 'is not', null), eb('user_agent', 'is not', null)]))
      .returning('id')
      .execute();
    const named = await db
      .updateTable('audit_events')
      .set({ target_id: null })
      .where('target_type', '=', 'beta_invite')
      .where((eb) => eb(eb.fn('lower', ['target_id']), '=', email.toLowerCase()))
      .returning('id')
      .execute();
    return rows.length + named.length;
  }

  async page(query: { limit: number; before?: string; action?: string }): Promise<AuditPage> {
    let select = this.em.getKysely<AuditDb>().selectFrom('audit_events').selectAll();
    if (query.before) {
      const cursor = /^(\d{4}-\d\d-\d\dT[\d:.]+Z)\|([0-9a-f-]{36})$/.exec(query.before);
      if (!cursor) throw new AppError(400, 'invalid_cursor', msg('audit.invalidCursor'));
      const [, at, id] = cursor;
      select = select.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(sql<Date>`${at}::timestamptz`, sql<string>`${id}::uuid`)));
    }
    if (query.action) select = select.where('action', '=', query.action);
    const rows = await select
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit + 1)
      .execute();
    // Nullable columns are typed `| undefined` (optional entity properties); the database answers null.
    const items = rows.slice(0, query.limit).map((row): AuditEventView => ({
      id: row.id,
      at: new Date(row.at).toISOString(),
      action: row.action,
      actor_id: row.actor_id ?? null,
      actor_label: row.actor_label ?? null,
      target_type: row.target_type ?? null,
      target_id: row.target_id ?? null,
      // Named by AuditPageHandler, which asks each owning module.
      target_label: null,
      ip: row.ip ?? null,
      user_agent: row.user_agent ?? null,
      details: row.details ?? {},
    }));
    const last = items[items.length - 1];
    return { items, next_before: rows.length > query.limit && last ? `${last.at}|${last.id}` : null };
  }
}
