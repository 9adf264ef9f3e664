import { Query } from '@nestjs/cqrs';
import type { Language, SalesAttentionEvents, SalesMembersFilter, SalesMembersPage, SalesMembersParams, SalesRefunds, SalesSummary } from '@life/contracts';

/** The sales view (admin "Ventas"): per edition the seats sold, reserved and free, MRR and what checkouts collected. */
export class SalesSummaryQuery extends Query<SalesSummary> {}

/** One page of members (filtered by edition, status, or part of an e-mail / a member number), e-mails from users. */
export class SalesMembersPageQuery extends Query<SalesMembersPage> {
  constructor(readonly params: SalesMembersParams) {
    super();
  }
}

/** Every member matching the filters as a CSV file (UTF-8 with BOM, RFC 4180, formula cells neutralised). */
export class SalesMembersCsvQuery extends Query<{ filename: string; content: string; rows: number }> {
  constructor(
    readonly filter: SalesMembersFilter,
    readonly language: Language,
  ) {
    super();
  }
}

/** Refunded and disputed memberships, newest status change first. */
export class SalesRefundsQuery extends Query<SalesRefunds> {}

/** Stripe events that gave up and nobody dismissed (retry and dismiss are Salud's). */
export class SalesAttentionEventsQuery extends Query<SalesAttentionEvents> {}
