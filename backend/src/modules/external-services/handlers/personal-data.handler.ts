import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOr, text } from '../../../core/database/row-values.js';
import { CollectingPersonalDataEvent } from '../../data-rights/public/events.js';
import type { ExternalServicesDb } from '../entities/index.js';

/** 'Descargar mis datos', external-services' part: connections and own credentials (never a sealed token or secret). */
@EventsHandler(CollectingPersonalDataEvent)
export class ConnectionsPersonalDataHandler implements IEventHandler<CollectingPersonalDataEvent> {
  constructor(private readonly em: EntityManager) {}

  async handle(event: CollectingPersonalDataEvent): Promise<void> {
    const db = this.em.getKysely<ExternalServicesDb>();
    const [connections, credentials] = await Promise.all([
      db
        .selectFrom('service_connections as c')
        .innerJoin('external_services as s', 's.id', 'c.service_id')
        .select([
          's.service_name',
          'c.status',
          'c.account_id',
          'c.account_name',
          'c.scope',
          'c.client_source',
          'c.created_at',
          'c.expires_at',
          'c.last_refresh_at',
          'c.refresh_failures',
          'c.last_error',
        ])
        .where('c.user_id', '=', event.userId)
        .orderBy('s.service_name')
        .execute(),
      db
        .selectFrom('user_service_credentials')
        .select(['service_name', 'client_id', 'created_at', 'updated_at'])
        .where('user_id', '=', event.userId)
        .orderBy('service_name')
        .execute(),
    ]);
    event.parts.connections = connections.map((row) => ({
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
    }));
    event.parts.service_credentials = credentials.map((row) => ({
      service_name: String(row.service_name),
      client_id: String(row.client_id),
      created_at: isoOr(row.created_at),
      updated_at: isoOr(row.updated_at),
    }));
  }
}
