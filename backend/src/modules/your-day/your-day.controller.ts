import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  DayRefreshAnswerSchema,
  DayViewSchema,
  DayViewSettingSchema,
  DayViewsSchema,
  HueLightSwitchSchema,
  SegmentSchema,
  TodayQuerySchema,
  TodaySchema,
  type Language,
} from '@life/contracts';
import { z } from 'zod';
import { Contract } from '../../core/http/contract.js';
import { CurrentUser, type AuthenticatedUser } from '../../core/http/current-user.decorator.js';
import { RequestLanguage } from '../../core/i18n/request-language.decorator.js';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { DayTodayQuery, DayViewsQuery, RefreshDayViewCommand, SetDayViewCommand, SwitchHueLightCommand } from './public/commands.js';

const ServiceParams = z.object({ service: SegmentSchema });
const LightParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) });

/**
 * "Tu día" for the person's own screens (docs/your-day.md): views and today's timeline from the
 * stored snapshots, the per-service switch, "Actualizar" and Hue's lights. Session only.
 */
@Controller('api/your-day')
export class YourDayController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('views')
  @Contract({
    summary: 'Each connected service’s view, from its last snapshot (state, freshness, problem, headline, sections)',
    tags: ['your-day'],
    access: 'session',
    query: TodayQuerySchema,
    response: DayViewsSchema,
    errors: [400],
  })
  list(@CurrentUser() user: AuthenticatedUser, @Query() query: { tz?: string }, @RequestLanguage() language: Language) {
    return this.queries.execute(new DayViewsQuery(user.id, query.tz, language));
  }

  @Get('today')
  @Contract({
    summary: 'Today’s items of every connected service, in time order, in the zone asked (else the last one the person used)',
    tags: ['your-day'],
    access: 'session',
    query: TodayQuerySchema,
    response: TodaySchema,
    errors: [400],
  })
  today(@CurrentUser() user: AuthenticatedUser, @Query() query: { tz?: string }, @RequestLanguage() language: Language) {
    return this.queries.execute(new DayTodayQuery(user.id, query.tz, language));
  }

  @Put('views/:service')
  @Contract({
    summary: 'Switch a service’s view on (fetched now) or off (its snapshot deleted, nothing fetched)',
    tags: ['your-day'],
    access: 'session',
    params: ServiceParams,
    body: DayViewSettingSchema,
    response: DayViewSchema,
    errors: [400, 404],
  })
  setEnabled(@CurrentUser() user: AuthenticatedUser, @Param('service') service: string, @Body() body: { enabled: boolean }) {
    return this.commands.execute(new SetDayViewCommand(user.id, service, body.enabled));
  }

  @Post('views/:service/refresh')
  @HttpCode(202)
  @Contract({
    summary: '“Actualizar”: fetch the view from the provider now (a worker does it; poll the views)',
    tags: ['your-day'],
    access: 'session',
    params: ServiceParams,
    response: DayRefreshAnswerSchema,
    errors: [404, 409, 429],
  })
  refresh(@CurrentUser() user: AuthenticatedUser, @Param('service') service: string) {
    return this.commands.execute(new RefreshDayViewCommand(user.id, service));
  }

  @Post('views/philipshue/lights/:id')
  @HttpCode(200)
  @Contract({
    summary: 'Switch a Philips Hue light on or off at the bridge; answers the view as the bridge now reports it',
    tags: ['your-day'],
    access: 'session',
    params: LightParams,
    body: HueLightSwitchSchema,
    response: DayViewSchema,
    errors: [400, 404, 409, 429, 502],
  })
  switchLight(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() body: { on: boolean }) {
    return this.commands.execute(new SwitchHueLightCommand(user.id, id, body.on));
  }
}
