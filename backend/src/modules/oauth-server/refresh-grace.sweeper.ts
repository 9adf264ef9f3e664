import { Injectable, Logger } from '@nestjs/common';
import { PeriodicSweep } from '../../core/queue/periodic-sweep.js';
import { TokenStore } from './token-store.service.js';

const EVERY_MS = 30_000;

/**
 * Worker side: a spent refresh token keeps its successor pair sealed only for the grace window
 * (decision 0028); this wipes the copies whose window is over, so none outlives it by more than
 * about 30 s. A revocation wipes its family's copies at once.
 */
@Injectable()
export class RefreshGraceSweeper extends PeriodicSweep {
  protected readonly logger = new Logger('RefreshGraceSweeper');

  constructor(private readonly store: TokenStore) {
    super();
  }

  protected intervalMs(): number {
    return EVERY_MS;
  }

  protected work(): Promise<number> {
    return this.store.wipeSealedSuccessors();
  }

  protected override describe(count: number): string {
    return `Wiped ${count} sealed refresh successor pair(s) past their grace window`;
  }
}
