import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOr, text, type Row } from '../../../core/database/row-values.js';
import { CollectingPersonalDataEvent } from '../../data-rights/public/events.js';

/** 'Descargar mis datos', billing's part: the membership and the checkouts. */
@EventsHandler(CollectingPersonalDataEvent)
export class BillingPersonalDataHandler implements IEventHandler<CollectingPersonalDataEvent> {
  constructor(private readonly em: EntityManager) {}

  async handle(event: CollectingPersonalDataEvent): Promise<void> {
    const db = this.em.getConnection();
    const [memberships, checkouts] = await Promise.all([
      db.execute<Row[]>(
        `select edition, price_cents, member_number, status, status_at, created_at, stripe_customer_id, stripe_subscription_id
         from memberships where user_id = ?`,
        [event.userId],
      ),
      db.execute<Row[]>('select edition, price_cents, status, created_at, expires_at from seat_reservations where user_id = ? order by created_at', [
        event.userId,
      ]),
    ]);
    const membership = memberships[0];
    event.parts.membership = membership
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
      : null;
    event.parts.checkouts = checkouts.map((row) => ({
      edition: String(row.edition),
      price_cents: Number(row.price_cents),
      status: String(row.status),
      created_at: isoOr(row.created_at),
      expires_at: iso(row.expires_at),
    }));
  }
}
