import { Command, Query } from '@nestjs/cqrs';
import type { DayView, Language, Today } from '@life/contracts';
import type { SyncOutcome } from '../day-sync.service.js';

/** The person's views (their screen's zone and language remembered for the workers). Answered by your-day. */
export class DayViewsQuery extends Query<{ views: DayView[] }> {
  constructor(
    readonly userId: string,
    readonly timeZone: string | undefined,
    readonly language: Language,
  ) {
    super();
  }
}

/** The person's own timeline of today (all their services). */
export class DayTodayQuery extends Query<Today> {
  constructor(
    readonly userId: string,
    readonly timeZone: string | undefined,
    readonly language: Language,
  ) {
    super();
  }
}

/** The person's switch for one service's view. */
export class SetDayViewCommand extends Command<DayView> {
  constructor(
    readonly userId: string,
    readonly service: string,
    readonly enabled: boolean,
  ) {
    super();
  }
}

/** "Actualizar": queue a fetch now (rate-limited per person). */
export class RefreshDayViewCommand extends Command<{ queued: boolean }> {
  constructor(
    readonly userId: string,
    readonly service: string,
  ) {
    super();
  }
}

/** Switch a Philips Hue light at the bridge (rate-limited per person); answers the view as fetched right after. */
export class SwitchHueLightCommand extends Command<DayView> {
  constructor(
    readonly userId: string,
    readonly lightId: string,
    readonly on: boolean,
  ) {
    super();
  }
}

/** The `day-sync` job: fetch one view from its provider. */
export class SyncDayViewCommand extends Command<{ outcome: SyncOutcome }> {
  constructor(
    readonly userId: string,
    readonly service: string,
  ) {
    super();
  }
}

/** The sweeper's pass: queue the views that are due, delete expired snapshots; answers how many were queued. */
export class QueueDueDayViewsCommand extends Command<number> {}
