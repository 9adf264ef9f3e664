import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { DataExport as DataExportView, DataExportDocument, DataExportStatus } from '@life/contracts';

type Row = Record<string, unknown>;

const iso = (value: unknown): string | null => (value instanceof Date ? value.toISOString() : typeof value === 'string' ? new Date(value).toISOString() : null);
const isoOr = (value: unknown): string => iso(value) ?? '';
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

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
 * Every table that holds something about a person, read for the export and cleared for the
 * erasure. Each query names its columns: the export can only contain what is listed here, so a
 * secret column added later never slips in. Tables with outside effects (provider tokens, app
 * tokens, billing, the audit log) are handled by their modules' services instead.
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

  // --- the export document ------------------------------------------------------------

  /** Everything we hold about the person, or null when the account is gone. */
  async document(userId: string): Promise<DataExportDocument | null> {
    const [user] = await this.query('select id, username, email, email_verified, role, created_at, updated_at from users where id = ?', [userId]);
    if (!user) return null;
    const email = String(user.email);
    const [identities, sessions, connections, credentials, grants, tokens, owned, memberships, checkouts, invitations, messages, activity, exports] =
      await Promise.all([
        this.query('select provider, subject, email, created_at, last_login_at from user_identities where user_id = ? order by created_at', [userId]),
        // Never token_hash.
        this.query('select created_at, last_used_at, expires_at, revoked_at, ip, user_agent from sessions where user_id = ? order by created_at', [userId]),
        // Never the sealed tokens.
        this.query(
          `select s.service_name, c.status, c.account_id, c.account_name, c.scope, c.client_source, c.created_at, c.expires_at, c.last_refresh_at,
                c.refresh_failures, c.last_error
           from service_connections c join external_services s on s.id = c.service_id where c.user_id = ? order by s.service_name`,
          [userId],
        ),
        // Never the sealed client secret.
        this.query('select service_name, client_id, created_at, updated_at from user_service_credentials where user_id = ? order by service_name', [userId]),
        this.query(
          `select c.client_id, c.name, g.scopes, g.created_at, g.updated_at, g.revoked_at
           from oauth_grants g join oauth_clients c on c.id = g.client_id where g.user_id = ? order by g.created_at`,
          [userId],
        ),
        // Never the hashes.
        this.query(
          `select c.client_id, t.scopes, t.created_at, t.access_expires_at, t.refresh_expires_at, t.revoked_at, t.revoked_reason
           from oauth_tokens t join oauth_clients c on c.id = t.client_id where t.user_id = ? order by t.created_at`,
          [userId],
        ),
        this.query('select name, client_id, redirect_uris, active, created_at from oauth_clients where owner_user_id = ? order by created_at', [userId]),
        this.query(
          `select edition, price_cents, member_number, status, status_at, created_at, stripe_customer_id, stripe_subscription_id
           from memberships where user_id = ?`,
          [userId],
        ),
        this.query('select edition, price_cents, status, created_at, expires_at from seat_reservations where user_id = ? order by created_at', [userId]),
        this.query('select email, created_at from beta_invites where email = ?', [email.toLowerCase()]),
        // Never the keyed IP hash.
        this.query(
          `select created_at, name, email, subject, message, status, sent_at from contact_messages
          where user_id = ? or lower(email) = ? order by created_at`,
          [userId, email.toLowerCase()],
        ),
        this.query('select at, action, target_type, target_id, ip, user_agent, details from audit_events where actor_id = ? order by at, id', [userId]),
        this.query('select created_at, status, finished_at from data_exports where user_id = ? order by created_at', [userId]),
      ]);
    const membership = memberships[0];
    const invitation = invitations[0];
    return {
      format: 'life-data-export',
      version: 1,
      generated_at: new Date().toISOString(),
      profile: {
        id: String(user.id),
        username: String(user.username),
        email,
        email_verified: user.email_verified === true,
        role: String(user.role),
        created_at: isoOr(user.created_at),
        updated_at: isoOr(user.updated_at),
      },
      sign_in_identities: identities.map((row) => ({
        provider: String(row.provider),
        subject: String(row.subject),
        email: text(row.email),
        created_at: isoOr(row.created_at),
        last_login_at: iso(row.last_login_at),
      })),
      sessions: sessions.map((row) => ({
        created_at: isoOr(row.created_at),
        last_used_at: iso(row.last_used_at),
        expires_at: iso(row.expires_at),
        revoked_at: iso(row.revoked_at),
        ip: text(row.ip),
        user_agent: text(row.user_agent),
      })),
      connections: connections.map((row) => ({
        service: String(row.service_name),
        status: String(row.status),
        account_id: text(row.account_id),
        account_name: text(row.account_name),
        scope: text(row.scope),
        client_source: String(row.client_source),
        connected_at: isoOr(row.created_at),
        access_token_expires_at: iso(row.expires_at),
        last_refresh_at: iso(row.last_refresh_at),
        refresh_failures: Number(row.refresh_failures ?? 0),
        last_error: text(row.last_error),
      })),
      service_credentials: credentials.map((row) => ({
        service_name: String(row.service_name),
        client_id: String(row.client_id),
        created_at: isoOr(row.created_at),
        updated_at: isoOr(row.updated_at),
      })),
      app_grants: grants.map((row) => ({
        client_id: String(row.client_id),
        client_name: String(row.name),
        scopes: strings(row.scopes),
        granted_at: isoOr(row.created_at),
        updated_at: isoOr(row.updated_at),
        revoked_at: iso(row.revoked_at),
      })),
      app_tokens: tokens.map((row) => ({
        client_id: String(row.client_id),
        scopes: strings(row.scopes),
        issued_at: isoOr(row.created_at),
        access_expires_at: iso(row.access_expires_at),
        refresh_expires_at: iso(row.refresh_expires_at),
        revoked_at: iso(row.revoked_at),
        revoked_reason: text(row.revoked_reason),
      })),
      apps_owned: owned.map((row) => ({
        name: String(row.name),
        client_id: String(row.client_id),
        redirect_uris: strings(row.redirect_uris),
        active: row.active === true,
        created_at: isoOr(row.created_at),
      })),
      membership: membership
        ? {
            edition: String(membership.edition),
            price_cents: Number(membership.price_cents),
            member_number: Number(membership.member_number),
            status: String(membership.status),
            status_at: iso(membership.status_at),
            since: isoOr(membership.created_at),
            stripe_customer_id: text(membership.stripe_customer_id),
            stripe_subscription_id: text(membership.stripe_subscription_id),
          }
        : null,
      checkouts: checkouts.map((row) => ({
        edition: String(row.edition),
        price_cents: Number(row.price_cents),
        status: String(row.status),
        created_at: isoOr(row.created_at),
        expires_at: iso(row.expires_at),
      })),
      beta_invitation: invitation ? { email: String(invitation.email), created_at: isoOr(invitation.created_at) } : null,
      contact_messages: messages.map((row) => ({
        created_at: isoOr(row.created_at),
        name: String(row.name),
        email: String(row.email),
        subject: String(row.subject),
        message: String(row.message),
        status: String(row.status),
        sent_at: iso(row.sent_at),
      })),
      activity: activity.map((row) => ({
        at: isoOr(row.at),
        action: String(row.action),
        target_type: text(row.target_type),
        // An admin's invitations name other people's e-mails: theirs to ask for, not part of this copy.
        target_id: row.target_type === 'beta_invite' ? null : text(row.target_id),
        ip: text(row.ip),
        user_agent: text(row.user_agent),
        details: row.details && typeof row.details === 'object' ? (row.details as Record<string, unknown>) : {},
      })),
      data_exports: exports.map((row) => ({ created_at: isoOr(row.created_at), status: String(row.status), finished_at: iso(row.finished_at) })),
    };
  }
}
