import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { RotationResult } from '../../../core/crypto/sealed-columns.js';
import { QueueDueRefreshesCommand, RefreshConnectionCommand, RotateVaultKeysCommand } from '../public/commands.js';
import { TokenRefreshService, type RefreshOutcome } from '../token-refresh.service.js';
import { VaultRotationService } from '../vault-rotation.service.js';

@CommandHandler(RefreshConnectionCommand)
export class RefreshConnectionHandler implements ICommandHandler<RefreshConnectionCommand> {
  constructor(private readonly refresher: TokenRefreshService) {}
  async execute({ connectionId }: RefreshConnectionCommand): Promise<{ outcome: RefreshOutcome }> {
    return { outcome: await this.refresher.refresh(connectionId) };
  }
}

@CommandHandler(QueueDueRefreshesCommand)
export class QueueDueRefreshesHandler implements ICommandHandler<QueueDueRefreshesCommand> {
  constructor(private readonly refresher: TokenRefreshService) {}
  execute(): Promise<number> {
    return this.refresher.sweep();
  }
}

@CommandHandler(RotateVaultKeysCommand)
export class RotateVaultKeysHandler implements ICommandHandler<RotateVaultKeysCommand> {
  constructor(private readonly rotation: VaultRotationService) {}
  execute({ primaryKeyId, progress }: RotateVaultKeysCommand): Promise<RotationResult> {
    return this.rotation.rotateTo(primaryKeyId, progress);
  }
}

/** The queue processors' and the sweeper's handlers (worker roles, where those run). */
export const WORKER_HANDLERS = [RefreshConnectionHandler, QueueDueRefreshesHandler, RotateVaultKeysHandler];
