import { EventsHandler, QueryHandler, type IEventHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Today } from '@life/contracts';
import { ServiceConnectedEvent, ServiceDisconnectedEvent } from '../../external-services/public/events.js';
import { RateLimitService, type RateLimit } from '../../../core/rate-limit/rate-limit.service.js';
import { DaySyncService } from '../day-sync.service.js';
import { DayViewsService } from '../day-views.service.js';
import { PersonTodayQuery } from '../public/queries.js';
import { DayErasureHandler } from './erasure.handler.js';
import { DayPersonalDataHandler } from './personal-data.handler.js';

/** A service connected (again): its view is made and fetched now. */
@EventsHandler(ServiceConnectedEvent)
export class DayServiceConnectedHandler implements IEventHandler<ServiceConnectedEvent> {
  constructor(private readonly sync: DaySyncService) {}
  handle(event: ServiceConnectedEvent): Promise<void> {
    return this.sync.connected(event.userId, event.serviceName);
  }
}

/** A service disconnected: its snapshot is deleted at once. */
@EventsHandler(ServiceDisconnectedEvent)
export class DayServiceDisconnectedHandler implements IEventHandler<ServiceDisconnectedEvent> {
  constructor(private readonly sync: DaySyncService) {}
  handle(event: ServiceDisconnectedEvent): Promise<void> {
    return this.sync.disconnected(event.userId, event.serviceName);
  }
}

/** `/api/v1/me/today` for oauth-server: only the services the app's scopes name. */
@QueryHandler(PersonTodayQuery)
export class PersonTodayHandler implements IQueryHandler<PersonTodayQuery> {
  private readonly limit: RateLimit;
  constructor(
    private readonly views: DayViewsService,
    rateLimits: RateLimitService,
  ) {
    this.limit = rateLimits.create({ name: 'your-day:app-today', points: 120, durationSeconds: 60 });
  }
  async execute({ userId, timeZone, services, clientId }: PersonTodayQuery): Promise<Today> {
    await this.limit.consume(`${clientId}|${userId}`);
    return this.views.today(userId, DayViewsService.checkZone(timeZone), new Set(services));
  }
}

export const YOUR_DAY_HANDLERS = [DayServiceConnectedHandler, DayServiceDisconnectedHandler, DayErasureHandler, DayPersonalDataHandler, PersonTodayHandler];
