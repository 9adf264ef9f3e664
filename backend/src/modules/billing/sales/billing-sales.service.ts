import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import {
  MEMBERSHIP_STATUSES,
  type EditionId,
  type SalesAttentionEvents,
  type SalesMember,
  type SalesMembersFilter,
  type SalesMembersPage,
  type SalesMembersParams,
  type SalesRefunds,
  type SalesSummary,
} from '@life/contracts';
import { sql, type SelectQueryBuilder } from 'kysely';
import { isoOr } from '../../../core/database/row-values.js';
import { PeopleMatchingEmailQuery, PersonEmailsQuery } from '../../users/public/queries.js';
import { editionById } from '../editions.js';
import type { BillingDb } from '../entities/index.js';

type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

/** At most this many accounts match one e-mail search (more than every seat there is by default: 30,000). */
export const EMAIL_SEARCH_LIMIT = 50_000;
/** The CSV export reads the members in pages of this many (one e-mail query per page). */
export const EXPORT_BATCH = 1_000;

/** The statuses listed under "Reembolsos y disputas". */
const REFUND_STATUSES: MembershipStatus[] = ['refunded', 'disputed'];

interface MemberRow {
  user_id: string | null;
  edition: string;
  price_cents: number;
  member_number: number;
  status: MembershipStatus;
  status_at: unknown;
  created_at: unknown;
  user_erased_at: unknown;
}

type MembersQuery = SelectQueryBuilder<BillingDb, 'memberships', object>;

/**
 * The company's sales view (admin panel, "Ventas"): read-only answers over billing's own tables
 * (edition_stock, memberships, stripe_events). E-mails are the users module's: asked through its
 * public queries, never joined here.
 */
@Injectable()
export class BillingSalesService {
  constructor(
    private readonly em: EntityManager,
    private readonly queries: QueryBus,
  ) {}

  private db() {
    return this.em.fork().getKysely<BillingDb>();
  }

  async summary(): Promise<SalesSummary> {
    const db = this.db();
    const paidSession = sql<string>`e.payload->'data'->'object'->>'id'`;
    const [stock, byStatus, mrr, collected, refunds, attention] = await Promise.all([
      db.selectFrom('edition_stock').select(['edition', 'seat_limit', 'reserved', 'confirmed']).orderBy('position').execute(),
      db
        .selectFrom('memberships')
        .select(['edition', 'status', (eb) => eb.fn.countAll<string>().as('n')])
        .groupBy(['edition', 'status'])
        .execute(),
      db
        .selectFrom('memberships')
        .select(['edition', (eb) => eb.fn.sum<string>('price_cents').as('cents')])
        .where('status', '=', 'active')
        .groupBy('edition')
        .execute(),
      // Money Stripe reported as collected when a checkout was paid: the session's amount_total,
      // once per session (a paid completion, or the later success of a delayed payment method).
      db
        .selectFrom('stripe_events as e')
        .innerJoin('memberships as m', (join) => join.on('m.checkout_session_id', '=', paidSession))
        // One amount per session (max), however many events say it was paid.
        .select(['m.edition', sql<string>`max(coalesce((e.payload->'data'->'object'->>'amount_total')::bigint, 0))`.as('cents')])
        .where('e.processed_at', 'is not', null)
        .where((eb) =>
          eb.or([
            eb.and([eb('e.type', '=', 'checkout.session.completed'), eb(sql`e.payload->'data'->'object'->>'payment_status'`, '=', 'paid')]),
            eb('e.type', '=', 'checkout.session.async_payment_succeeded'),
          ]),
        )
        .groupBy(['m.edition', 'm.checkout_session_id'])
        .execute(),
      db
        .selectFrom('memberships')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('status', 'in', REFUND_STATUSES)
        .executeTakeFirstOrThrow(),
      this.attentionCount(),
    ]);

    const countOf = (edition: string, status: MembershipStatus) => Number(byStatus.find((row) => row.edition === edition && row.status === status)?.n ?? 0);
    const editions = stock.map((row) => {
      const edition = editionById(row.edition)!;
      return {
        id: edition.id,
        name: edition.name,
        price_cents: edition.priceCents,
        seat_limit: row.seat_limit,
        sold: row.confirmed,
        reserved: row.reserved,
        free: Math.max(0, row.seat_limit - row.confirmed - row.reserved),
        members_by_status: Object.fromEntries(MEMBERSHIP_STATUSES.map((status) => [status, countOf(row.edition, status)])) as Record<MembershipStatus, number>,
        mrr_cents: Number(mrr.find((line) => line.edition === row.edition)?.cents ?? 0),
        collected_at_checkout_cents: collected.filter((line) => line.edition === row.edition).reduce((sum, line) => sum + Number(line.cents ?? 0), 0),
      };
    });
    const total = (key: 'seat_limit' | 'sold' | 'reserved' | 'free' | 'mrr_cents' | 'collected_at_checkout_cents') =>
      editions.reduce((sum, edition) => sum + edition[key], 0);
    return {
      currency: 'eur',
      editions,
      totals: {
        seat_limit: total('seat_limit'),
        sold: total('sold'),
        reserved: total('reserved'),
        free: total('free'),
        mrr_cents: total('mrr_cents'),
        collected_at_checkout_cents: total('collected_at_checkout_cents'),
      },
      refunds_and_disputes: Number(refunds.n),
      events_needing_attention: attention,
    };
  }

  private async attentionCount(): Promise<number> {
    const row = await this.needingAttention(this.db().selectFrom('stripe_events'))
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** An event needs attention when it gave up (failed_at), was never applied and nobody dismissed it. */
  private needingAttention<Q extends SelectQueryBuilder<BillingDb, 'stripe_events', object>>(query: Q): Q {
    return query.where('failed_at', 'is not', null).where('processed_at', 'is', null).where('dismissed_at', 'is', null) as Q;
  }

  /** Applies the list's filters; null when the search cannot match anyone (no need to ask the database). */
  private async filtered(query: MembersQuery, filter: SalesMembersFilter): Promise<MembersQuery | null> {
    let result = query;
    if (filter.edition) result = result.where('edition', '=', filter.edition);
    if (filter.status) result = result.where('status', '=', filter.status);
    const search = filter.q?.trim();
    if (search) {
      const number = /^#?\d{1,9}$/.test(search) ? Number(search.replace('#', '')) : null;
      const people = await this.queries.execute(new PeopleMatchingEmailQuery(search, EMAIL_SEARCH_LIMIT));
      if (number === null && people.length === 0) return null;
      result = result.where((eb) =>
        eb.or([...(number !== null ? [eb('member_number', '=', number)] : []), ...(people.length > 0 ? [eb('user_id', 'in', people)] : [])]),
      );
    }
    return result;
  }

  private memberColumns(query: MembersQuery) {
    return query.select(['user_id', 'edition', 'price_cents', 'member_number', 'status', 'status_at', 'created_at', 'user_erased_at']);
  }

  private async withEmails(rows: MemberRow[]): Promise<SalesMember[]> {
    const ids = rows.flatMap((row) => (row.user_id ? [row.user_id] : []));
    const emails = ids.length > 0 ? await this.queries.execute(new PersonEmailsQuery(ids)) : {};
    return rows.map((row) => {
      const email = row.user_id ? (emails[row.user_id] ?? null) : null;
      return {
        member_number: row.member_number,
        email,
        // Erased: the row was anonymised (no person), or the account is gone already.
        erased: email === null,
        edition: row.edition as EditionId,
        status: row.status,
        price_cents: row.price_cents,
        since: isoOr(row.created_at),
        status_at: isoOr(row.status_at),
      };
    });
  }

  async members(query: SalesMembersParams): Promise<SalesMembersPage> {
    const { page, page_size: pageSize } = query;
    const base = await this.filtered(this.db().selectFrom('memberships'), query);
    if (!base) return { items: [], total: 0, page, page_size: pageSize };
    const [rows, count] = await Promise.all([
      this.memberColumns(base)
        .orderBy('member_number')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items: await this.withEmails(rows as MemberRow[]), total: Number(count.n), page, page_size: pageSize };
  }

  /** Every member matching the filters, in member-number order, a page at a time (bounded by the seats sold). */
  async *allMembers(filter: SalesMembersFilter): AsyncGenerator<SalesMember[]> {
    const base = await this.filtered(this.db().selectFrom('memberships'), filter);
    if (!base) return;
    let after = 0;
    for (;;) {
      const rows = (await this.memberColumns(base).where('member_number', '>', after).orderBy('member_number').limit(EXPORT_BATCH).execute()) as MemberRow[];
      if (rows.length === 0) return;
      yield await this.withEmails(rows);
      after = rows[rows.length - 1]!.member_number;
      if (rows.length < EXPORT_BATCH) return;
    }
  }

  async refunds(): Promise<SalesRefunds> {
    const rows = await this.memberColumns(this.db().selectFrom('memberships'))
      .where('status', 'in', REFUND_STATUSES)
      .orderBy('status_at', 'desc')
      .orderBy('member_number')
      .limit(500)
      .execute();
    return { items: await this.withEmails(rows as MemberRow[]) };
  }

  async eventsNeedingAttention(): Promise<SalesAttentionEvents> {
    const rows = await this.needingAttention(this.db().selectFrom('stripe_events'))
      .select(['id', 'type', 'received_at', 'failed_at', 'attempts', 'last_error'])
      .orderBy('failed_at', 'desc')
      .limit(200)
      .execute();
    return {
      items: rows.map((row) => ({
        id: row.id,
        type: row.type,
        received_at: isoOr(row.received_at),
        failed_at: isoOr(row.failed_at),
        attempts: row.attempts,
        last_error: row.last_error ?? null,
      })),
    };
  }
}
