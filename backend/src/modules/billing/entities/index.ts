// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import type { InferClassEntityDB } from '@mikro-orm/sql';
import type { ColumnType } from 'kysely';
import { EditionStock } from './edition-stock.entity.js';
import { Reservation } from './reservation.entity.js';
import { Membership } from './membership.entity.js';
import { StripeEvent } from './stripe-event.entity.js';

export const BILLING_ENTITIES = [EditionStock, Reservation, Membership, StripeEvent];

type Inferred = InferClassEntityDB<typeof EditionStock | typeof Reservation | typeof Membership | typeof StripeEvent>;

/**
 * These tables for the typed query builder (`em.getKysely<BillingDb>()`), inferred from the
 * entities. The jsonb payload is not inferred: it reads as an object and is written as its JSON text.
 */
export type BillingDb = Omit<Inferred, 'stripe_events'> & {
  stripe_events: Omit<Inferred['stripe_events'], 'payload'> & { payload: ColumnType<Record<string, unknown>, string, string> };
};
