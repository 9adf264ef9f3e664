import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { isoOr, text } from '../../../core/database/row-values.js';
import { CollectingPersonalDataEvent } from '../../data-rights/public/events.js';
import type { AuditDb } from '../entities/index.js';

/** 'Descargar mis datos', the audit log's part: what they did. */
@EventsHandler(CollectingPersonalDataEvent)
export class AuditPersonalDataHandler implements IEventHandler<CollectingPersonalDataEvent> {
  constructor(private readonly em: EntityManager) {}

  async handle(event: CollectingPersonalDataEvent): Promise<void> {
    const activity = await this.em
      .getKysely<AuditDb>()
      .selectFrom('audit_events')
      .select(['at', 'action', 'target_type', 'target_id', 'ip', 'user_agent', 'details'])
      .where('actor_id', '=', event.userId)
      .orderBy('at')
      .orderBy('id')
      .execute();
    event.parts.activity = activity.map((row) => ({
      at: isoOr(row.at),
      action: String(row.action),
      target_type: text(row.target_type),
      // An admin's invitations name other people's e-mails: theirs to ask for, not part of this copy.
      target_id: row.target_type === 'beta_invite' ? null : text(row.target_id),
      ip: text(row.ip),
      user_agent: text(row.user_agent),
      details: row.details && typeof row.details === 'object' ? (row.details as Record<string, unknown>) : {},
    }));
  }
}
