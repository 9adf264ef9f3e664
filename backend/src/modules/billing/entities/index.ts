// The tables this module owns: only this module's code reads or writes them (docs/architecture.md).
import { EditionStock } from './edition-stock.entity.js';
import { Reservation } from './reservation.entity.js';
import { Membership } from './membership.entity.js';
import { StripeEvent } from './stripe-event.entity.js';

export const BILLING_ENTITIES = [EditionStock, Reservation, Membership, StripeEvent];
