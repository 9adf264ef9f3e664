import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../entities/user.entity.js';
import { DeletePersonCommand, MarkErasureRequestedCommand } from '../public/commands.js';
import { PersonQuery, PendingErasuresQuery, type Person } from '../public/queries.js';

@CommandHandler(MarkErasureRequestedCommand)
export class MarkErasureRequestedHandler implements ICommandHandler<MarkErasureRequestedCommand> {
  constructor(private readonly em: EntityManager) {}

  async execute({ userId }: MarkErasureRequestedCommand): Promise<Date | null> {
    // The injected manager resolves to the caller's transaction when there is one.
    await this.em.nativeUpdate(User, { id: userId, erasureRequestedAt: null }, { erasureRequestedAt: new Date() });
    const user = await this.em.findOne(User, { id: userId }, { fields: ['erasureRequestedAt'], disableIdentityMap: true });
    return user?.erasureRequestedAt ?? null;
  }
}

@CommandHandler(DeletePersonCommand)
export class DeletePersonHandler implements ICommandHandler<DeletePersonCommand> {
  constructor(private readonly em: EntityManager) {}

  async execute({ userId }: DeletePersonCommand): Promise<boolean> {
    return (await this.em.nativeDelete(User, { id: userId })) > 0;
  }
}

@QueryHandler(PersonQuery)
export class PersonHandler implements IQueryHandler<PersonQuery> {
  constructor(private readonly em: EntityManager) {}

  async execute({ userId }: PersonQuery): Promise<Person | null> {
    const user = await this.em.findOne(User, { id: userId }, { fields: ['email', 'username', 'erasureRequestedAt'], disableIdentityMap: true });
    return user ? { id: user.id, email: user.email, username: user.username, erasureRequestedAt: user.erasureRequestedAt ?? null } : null;
  }
}

@QueryHandler(PendingErasuresQuery)
export class PendingErasuresHandler implements IQueryHandler<PendingErasuresQuery> {
  constructor(private readonly em: EntityManager) {}

  async execute({ olderThanMs, limit }: PendingErasuresQuery): Promise<string[]> {
    const rows = await this.em.find(
      User,
      { erasureRequestedAt: { $ne: null, $lt: new Date(Date.now() - olderThanMs) } },
      { fields: ['id'], orderBy: { erasureRequestedAt: 'asc' }, limit, disableIdentityMap: true },
    );
    return rows.map((row) => row.id);
  }
}
