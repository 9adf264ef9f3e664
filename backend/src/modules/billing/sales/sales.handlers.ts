import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { SalesAttentionEvents, SalesMembersPage, SalesRefunds, SalesSummary } from '@life/contracts';
import { SalesAttentionEventsQuery, SalesMembersCsvQuery, SalesMembersPageQuery, SalesRefundsQuery, SalesSummaryQuery } from '../public/sales-queries.js';
import { BillingSalesService } from './billing-sales.service.js';
import { membersCsvHeader, membersCsvRecords, UTF8_BOM } from './members-csv.js';

@QueryHandler(SalesSummaryQuery)
export class SalesSummaryHandler implements IQueryHandler<SalesSummaryQuery> {
  constructor(private readonly sales: BillingSalesService) {}
  execute(): Promise<SalesSummary> {
    return this.sales.summary();
  }
}

@QueryHandler(SalesMembersPageQuery)
export class SalesMembersPageHandler implements IQueryHandler<SalesMembersPageQuery> {
  constructor(private readonly sales: BillingSalesService) {}
  execute({ params }: SalesMembersPageQuery): Promise<SalesMembersPage> {
    return this.sales.members(params);
  }
}

@QueryHandler(SalesMembersCsvQuery)
export class SalesMembersCsvHandler implements IQueryHandler<SalesMembersCsvQuery> {
  constructor(private readonly sales: BillingSalesService) {}
  async execute({ filter, language }: SalesMembersCsvQuery): Promise<{ filename: string; content: string; rows: number }> {
    // Bounded: at most the seats sold (30,000 by default, a few MB), read a batch at a time.
    const parts = [UTF8_BOM, membersCsvHeader(language)];
    let rows = 0;
    for await (const batch of this.sales.allMembers(filter)) {
      parts.push(membersCsvRecords(batch, language));
      rows += batch.length;
    }
    const day = new Date().toISOString().slice(0, 10);
    return { filename: `members-${day}.csv`, content: parts.join(''), rows };
  }
}

@QueryHandler(SalesRefundsQuery)
export class SalesRefundsHandler implements IQueryHandler<SalesRefundsQuery> {
  constructor(private readonly sales: BillingSalesService) {}
  execute(): Promise<SalesRefunds> {
    return this.sales.refunds();
  }
}

@QueryHandler(SalesAttentionEventsQuery)
export class SalesAttentionEventsHandler implements IQueryHandler<SalesAttentionEventsQuery> {
  constructor(private readonly sales: BillingSalesService) {}
  execute(): Promise<SalesAttentionEvents> {
    return this.sales.eventsNeedingAttention();
  }
}

/** What the web roles dispatch for the admin's sales view. */
export const BILLING_SALES_HANDLERS = [
  BillingSalesService,
  SalesSummaryHandler,
  SalesMembersPageHandler,
  SalesMembersCsvHandler,
  SalesRefundsHandler,
  SalesAttentionEventsHandler,
];
