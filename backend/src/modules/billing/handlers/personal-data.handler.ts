import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOr } from '../../../core/database/row-values.js';
import { CollectingPersonalDataEvent } from '../../data-rights/public/events.js';
import type { BillingDb } from '../entities/index.js';

/** 'Descargar mis datos', billing's part: the membership and the checkouts. */
@EventsHandler(CollectingPersonalDataEvent)
export class BillingPersonalDataHandler implements IEventHandler<CollectingPersonalDataEvent> {
  constructor(private readonly em: EntityManager) {}

  async handle(event: CollectingPersonalDataEvent): Promise<void> {
    const db = this.em.getKysely<BillingDb>();
    // Timestamps arrive as text on MikroORM's connection (whatever their declared type): iso() reads either.
    const [membership, checkouts] = await Promise.all([
      db
        .selectFrom('memberships')
        .select(['edition', 'price_cents', 'member_number', 'status', 'status_at', 'created_at', 'stripe_customer_id', 'stripe_subscription_id'])
        .where('user_id', '=', event.userId)
        .executeTakeFirst(),
      db
        .selectFrom('seat_reservations')
        .select(['edition', 'price_cents', 'status', 'created_at', 'expires_at'])
        .where('user_id', '=', event.userId)
        .orderBy('created_at')
        .execute(),
    ]);
    event.parts.membership = membership
      ? {
          edition: membership.edition,
          price_cents: membership.price_cents,
          member_number: membership.member_number,
          status: membership.status,
          status_at: iso(membership.status_at),
          since: isoOr(membership.created_at),
          stripe_customer_id: membership.stripe_customer_id ?? null,
          stripe_subscription_id: membership.stripe_subscription_id ?? null,
        }
      : null;
    event.parts.checkouts = checkouts.map((row) => ({
      edition: row.edition,
      price_cents: row.price_cents,
      status: row.status,
      created_at: isoOr(row.created_at),
      expires_at: iso(row.expires_at),
    }));
  }
}
