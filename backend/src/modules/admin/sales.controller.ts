import { Controller, Get, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  SalesAttentionEventsSchema,
  SalesMembersFilterSchema,
  SalesMembersPageSchema,
  SalesMembersQuerySchema,
  SalesRefundsSchema,
  SalesSummarySchema,
  type Language,
  type SalesAttentionEvents,
  type SalesMembersFilter,
  type SalesMembersPage,
  type SalesMembersParams,
  type SalesRefunds,
  type SalesSummary,
} from '@life/contracts';
import type { FastifyReply } from 'fastify';
import { Contract } from '../../core/http/contract.js';
import { Roles } from '../../core/http/roles.decorator.js';
import { RequestLanguage } from '../../core/i18n/request-language.decorator.js';
import { Audited } from '../audit/public/audited.decorator.js';
import {
  SalesAttentionEventsQuery,
  SalesMembersCsvQuery,
  SalesMembersPageQuery,
  SalesRefundsQuery,
  SalesSummaryQuery,
} from '../billing/public/sales-queries.js';

/** Sales figures and member data are never kept by a browser or a proxy. */
const noStore = (reply: FastifyReply) => void reply.header('cache-control', 'no-store');

/** The admin panel's "Ventas" (issue 17): what billing sold, to whom, and what needs a look. Read-only. */
@Controller('api/admin/sales')
@Roles('admin')
export class AdminSalesController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @Contract({
    summary: 'Per edition: seat limit, seats sold, reserved and free, members by status, MRR and what checkouts collected',
    tags: ['admin'],
    access: 'admin',
    response: SalesSummarySchema,
  })
  summary(@Res({ passthrough: true }) reply: FastifyReply): Promise<SalesSummary> {
    noStore(reply);
    return this.queries.execute(new SalesSummaryQuery());
  }

  @Get('members')
  @Contract({
    summary: 'Members by number, a page at a time; filter by edition and status, search by part of the e-mail or the member number',
    tags: ['admin'],
    access: 'admin',
    query: SalesMembersQuerySchema,
    response: SalesMembersPageSchema,
  })
  members(@Query() query: SalesMembersParams, @Res({ passthrough: true }) reply: FastifyReply): Promise<SalesMembersPage> {
    noStore(reply);
    return this.queries.execute(new SalesMembersPageQuery(query));
  }

  @Get('members.csv')
  @Audited({
    action: 'admin.sales_members_exported',
    target: () => ({ type: 'sales_members' }),
    // The search text may be an e-mail: the audit log says a search was used, not what it was.
    details: ({ query, result }) => {
      const { q, ...filters } = (query ?? {}) as SalesMembersFilter;
      return { filters: q ? { ...filters, searched: true } : filters, rows: typeof result === 'string' ? Math.max(0, result.split('\r\n').length - 2) : null };
    },
  })
  @Contract({
    summary: 'Every member matching the filters as CSV (UTF-8 with BOM, RFC 4180, formula-like cells prefixed with an apostrophe); audited',
    tags: ['admin'],
    access: 'admin',
    query: SalesMembersFilterSchema,
    produces: 'text/csv (Content-Disposition: attachment)',
  })
  async membersCsv(
    @Query() filter: SalesMembersFilter,
    @RequestLanguage() language: Language,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const file = await this.queries.execute(new SalesMembersCsvQuery(filter, language));
    noStore(reply);
    void reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${file.filename}"`);
    return file.content;
  }

  @Get('refunds')
  @Contract({
    summary: 'Refunded and disputed memberships, newest status change first',
    tags: ['admin'],
    access: 'admin',
    response: SalesRefundsSchema,
  })
  refunds(@Res({ passthrough: true }) reply: FastifyReply): Promise<SalesRefunds> {
    noStore(reply);
    return this.queries.execute(new SalesRefundsQuery());
  }

  @Get('events')
  @Contract({
    summary: 'Stripe events that gave up (failed, never applied, not dismissed); retry and dismiss them in Salud',
    tags: ['admin'],
    access: 'admin',
    response: SalesAttentionEventsSchema,
  })
  events(@Res({ passthrough: true }) reply: FastifyReply): Promise<SalesAttentionEvents> {
    noStore(reply);
    return this.queries.execute(new SalesAttentionEventsQuery());
  }
}
