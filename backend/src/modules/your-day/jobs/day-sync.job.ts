/** Queue of views due a fetch from their provider (the day_views row is the source of truth). */
export const DAY_SYNC_QUEUE = 'day-sync';
export const SYNC_VIEW = 'sync';

export interface DaySyncJob {
  userId: string;
  service: string;
}

/** One waiting job per view: a second enqueue while one waits or runs is a no-op. BullMQ refuses ':' in custom ids. */
export const daySyncJobId = (userId: string, service: string) => `day-${userId}-${service}`;
