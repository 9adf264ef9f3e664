import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { DayView, Today } from '@life/contracts';
import { RateLimitService, type RateLimit } from '../../../core/rate-limit/rate-limit.service.js';
import { DaySyncService, type SyncOutcome } from '../day-sync.service.js';
import { DayViewsService } from '../day-views.service.js';
import {
  DayTodayQuery,
  DayViewsQuery,
  QueueDueDayViewsCommand,
  RefreshDayViewCommand,
  SetDayViewCommand,
  SwitchHueLightCommand,
  SyncDayViewCommand,
} from '../public/commands.js';

@QueryHandler(DayViewsQuery)
export class DayViewsHandler implements IQueryHandler<DayViewsQuery> {
  constructor(private readonly views: DayViewsService) {}
  async execute({ userId, timeZone, language }: DayViewsQuery): Promise<{ views: DayView[] }> {
    await this.views.remember(userId, DayViewsService.checkZone(timeZone), language);
    return { views: await this.views.views(userId) };
  }
}

@QueryHandler(DayTodayQuery)
export class DayTodayHandler implements IQueryHandler<DayTodayQuery> {
  constructor(private readonly views: DayViewsService) {}
  async execute({ userId, timeZone, language }: DayTodayQuery): Promise<Today> {
    const zone = DayViewsService.checkZone(timeZone);
    await this.views.remember(userId, zone, language);
    return this.views.today(userId, zone);
  }
}

@CommandHandler(SetDayViewCommand)
export class SetDayViewHandler implements ICommandHandler<SetDayViewCommand> {
  private readonly limit: RateLimit;
  constructor(
    private readonly views: DayViewsService,
    rateLimits: RateLimitService,
  ) {
    // Switching on fetches at once: not a way around Actualizar's limits.
    this.limit = rateLimits.create({ name: 'your-day:switch', points: 30, durationSeconds: 60 });
  }
  async execute({ userId, service, enabled }: SetDayViewCommand): Promise<DayView> {
    await this.limit.consume(userId);
    return this.views.setEnabled(userId, service, enabled);
  }
}

@CommandHandler(RefreshDayViewCommand)
export class RefreshDayViewHandler implements ICommandHandler<RefreshDayViewCommand> {
  private readonly limit: RateLimit;
  constructor(
    private readonly views: DayViewsService,
    rateLimits: RateLimitService,
  ) {
    // "Actualizar" asks the provider: a person may ask often, but the provider's limits are the app's.
    this.limit = rateLimits.create({ name: 'your-day:refresh', points: 20, durationSeconds: 60 });
  }
  async execute({ userId, service }: RefreshDayViewCommand): Promise<{ queued: boolean }> {
    await this.limit.consume(userId);
    return this.views.refresh(userId, service);
  }
}

@CommandHandler(SwitchHueLightCommand)
export class SwitchHueLightHandler implements ICommandHandler<SwitchHueLightCommand> {
  private readonly limit: RateLimit;
  constructor(
    private readonly views: DayViewsService,
    private readonly sync: DaySyncService,
    rateLimits: RateLimitService,
  ) {
    // Each switch is a write and a read of the whole view at the provider, inside the request.
    this.limit = rateLimits.create({ name: 'your-day:lights', points: 30, durationSeconds: 60 });
  }
  async execute({ userId, lightId, on }: SwitchHueLightCommand): Promise<DayView> {
    await this.limit.consume(userId);
    await this.sync.switchLight(userId, lightId, on);
    return this.views.view(userId, 'philipshue');
  }
}

@CommandHandler(SyncDayViewCommand)
export class SyncDayViewHandler implements ICommandHandler<SyncDayViewCommand> {
  constructor(private readonly sync: DaySyncService) {}
  async execute({ userId, service }: SyncDayViewCommand): Promise<{ outcome: SyncOutcome }> {
    return { outcome: await this.sync.sync(userId, service) };
  }
}

@CommandHandler(QueueDueDayViewsCommand)
export class QueueDueDayViewsHandler implements ICommandHandler<QueueDueDayViewsCommand> {
  constructor(private readonly sync: DaySyncService) {}
  execute(): Promise<number> {
    return this.sync.queueDue();
  }
}

export const DAY_VIEW_HANDLERS = [
  QueueDueDayViewsHandler,
  DayViewsHandler,
  DayTodayHandler,
  SetDayViewHandler,
  RefreshDayViewHandler,
  SwitchHueLightHandler,
  SyncDayViewHandler,
];
