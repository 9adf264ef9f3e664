import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { KeyRing } from '../../../core/crypto/key-ring.js';
import { iso } from '../../../core/database/row-values.js';
import { CollectingPersonalDataEvent } from '../../data-rights/public/events.js';
import { openSnapshot } from '../day-snapshot.js';
import type { YourDayDb } from '../entities/index.js';

/** 'Descargar mis datos', your-day's part: each view with the snapshot opened (it is the person's own data), and the zone. */
@EventsHandler(CollectingPersonalDataEvent)
export class DayPersonalDataHandler implements IEventHandler<CollectingPersonalDataEvent> {
  constructor(
    private readonly em: EntityManager,
    private readonly ring: KeyRing,
  ) {}

  async handle(event: CollectingPersonalDataEvent): Promise<void> {
    const db = this.em.getKysely<YourDayDb>();
    const [person, rows] = await Promise.all([
      db.selectFrom('day_people').select(['time_zone', 'language']).where('user_id', '=', event.userId).executeTakeFirst(),
      db
        .selectFrom('day_views')
        .select(['id', 'service_name', 'enabled', 'view_sealed', 'fetched_at', 'expires_at', 'problem'])
        .where('user_id', '=', event.userId)
        .orderBy('service_name')
        .execute(),
    ]);
    event.parts.your_day = {
      time_zone: person?.time_zone ?? null,
      language: person?.language ?? null,
      views: rows.map((row) => ({
        service: row.service_name,
        enabled: row.enabled,
        fetched_at: iso(row.fetched_at),
        expires_at: iso(row.expires_at),
        problem: row.problem ?? null,
        // An expired snapshot the sweeper has not cleared yet is not shown anywhere, and not exported either.
        snapshot:
          row.view_sealed && !(row.expires_at && new Date(row.expires_at).getTime() <= Date.now()) ? openSnapshot(this.ring, row.id, row.view_sealed) : null,
      })),
    };
  }
}
