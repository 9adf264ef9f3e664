import { Inject, Injectable } from '@nestjs/common';
import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import type { BetaInviteDto } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { AuthError, AuthErrorCode } from './auth.errors.js';
import { BetaInvite } from './entities/beta-invite.entity.js';
import { msg } from '../../core/i18n/messages.js';

const toDto = (invite: BetaInvite): BetaInviteDto => ({
  email: invite.email,
  invited_by: invite.invitedBy ?? null,
  created_at: invite.createdAt.toISOString(),
});

@Injectable()
export class BetaInvitesService {
  constructor(
    private readonly em: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get betaMode(): boolean {
    return this.config.betaMode;
  }

  async list(): Promise<BetaInviteDto[]> {
    const invites = await this.em.find(BetaInvite, {}, { orderBy: { createdAt: 'desc', email: 'asc' } });
    return invites.map(toDto);
  }

  /** `email` is already normalised by the contract (trimmed, lower-cased). */
  async invite(email: string, invitedBy: string | null): Promise<BetaInviteDto> {
    const invite = this.em.create(BetaInvite, { email, invitedBy });
    try {
      await this.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new AuthError(AuthErrorCode.AlreadyInvited, `${email} ya tiene invitación.`);
      throw error;
    }
    return toDto(invite);
  }

  async remove(email: string): Promise<void> {
    const deleted = await this.em.nativeDelete(BetaInvite, { email: email.trim().toLowerCase() });
    if (deleted === 0) throw new AuthError(AuthErrorCode.InviteNotFound, msg('auth.inviteNotFound', { email }));
  }

  async isInvited(email: string): Promise<boolean> {
    return (await this.em.count(BetaInvite, { email: email.toLowerCase() })) > 0;
  }
}
