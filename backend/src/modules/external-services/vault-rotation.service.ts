import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { KeyRing } from '../../core/crypto/key-ring.js';
import {
  keyUsage,
  reencryptAll,
  SEALED_TABLES,
  staleCount,
  type Execute,
  type KeyUsage,
  type RotationResult,
  type SealedTable,
} from '../../core/crypto/sealed-columns.js';
import { RefreshLock, type HeldLock } from './refresh-lock.js';

/**
 * Key rotation inside a worker: re-seals every stored secret of every module under the ring's
 * primary key (core's engine over the app's SEALED_TABLES), holding connections' refresh locks.
 */
@Injectable()
export class VaultRotationService {
  private readonly logger = new Logger('KeyRotation');

  constructor(
    private readonly em: EntityManager,
    private readonly keyRing: KeyRing,
    private readonly lock: RefreshLock,
    @Inject(SEALED_TABLES) private readonly tables: readonly SealedTable[],
  ) {}

  private get execute(): Execute {
    const connection = this.em.fork().getConnection();
    return <T>(sql: string, params: unknown[] = []) => connection.execute(sql, params) as Promise<T>;
  }

  get primaryKeyId(): string {
    return this.keyRing.primaryId;
  }

  usage(): Promise<KeyUsage[]> {
    return keyUsage(this.execute, this.tables);
  }

  stale(): Promise<number> {
    return staleCount(this.execute, this.tables, this.keyRing.primaryId);
  }

  /**
   * A requested rotation (the `vault-keys` job): refused unless this process already encrypts
   * with the key the requester expects, then one pass over every sealed column.
   */
  async rotateTo(expectedPrimaryKeyId: string, progress?: (done: number) => Promise<void> | void): Promise<RotationResult> {
    if (expectedPrimaryKeyId !== this.primaryKeyId) {
      // A worker still on the old ENCRYPTION_KEYS would seal everything under the old key again.
      throw new Error(
        `This worker encrypts with key "${this.primaryKeyId}" but the rotation asked for "${expectedPrimaryKeyId}": deploy the new ENCRYPTION_KEYS to every process first.`,
      );
    }
    return this.reencryptAll(progress);
  }

  async reencryptAll(progress?: (done: number) => Promise<void> | void): Promise<RotationResult> {
    this.logger.log(`Re-sealing stored secrets under key ${this.keyRing.primaryId}`);
    const result = await reencryptAll(this.execute, this.tables, this.keyRing, {
      lockRows: (ids) => this.lock.acquireMany(ids),
      unlockRows: (locks) => this.lock.releaseMany(locks.values() as Iterable<HeldLock>),
      progress,
    });
    const summary = `re-sealed ${result.reencrypted}, undecryptable ${result.failed}, busy ${result.busy}, still under older keys ${result.stale}`;
    if (result.stale === 0) this.logger.log(`Key rotation done: ${summary}. Older keys can be removed from ENCRYPTION_KEYS.`);
    else this.logger.warn(`Key rotation pass finished: ${summary}.`);
    return result;
  }
}
