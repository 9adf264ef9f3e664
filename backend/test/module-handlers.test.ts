import { MikroOrmModule } from '@mikro-orm/nestjs';
import { EntityManager, MikroORM, RequestContext } from '@mikro-orm/postgresql';
import { CommandBus, CqrsModule, QueryBus } from '@nestjs/cqrs';
import { Test, type TestingModule } from '@nestjs/testing';
import { APP_CONFIG, type AppConfig } from '../src/config/config.js';
import { appOrmConfig } from '../src/database.js';
import { BetaInvitesService } from '../src/modules/auth/beta-invites.service.js';
import { AUTH_ADMIN_HANDLERS } from '../src/modules/auth/handlers/admin.handlers.js';
import { LoginProviderCheckService } from '../src/modules/auth/login-provider-check.service.js';
import { InviteToBetaCommand, ListBetaInvitesQuery, WithdrawBetaInviteCommand } from '../src/modules/auth/public/commands.js';
import { DeletePersonHandler, MarkErasureRequestedHandler, PendingErasuresHandler, PersonHandler } from '../src/modules/users/commands/erasure.handlers.js';
import { DeletePersonCommand, MarkErasureRequestedCommand } from '../src/modules/users/public/commands.js';
import { PendingErasuresQuery, PersonQuery } from '../src/modules/users/public/queries.js';
import { LoginProvidersService } from '../src/modules/auth/login-providers.service.js';
import { KeyRing } from '../src/core/crypto/key-ring.js';
import { seedUsers } from './helpers/seed.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

/**
 * Command and query handlers tested at module level: a Nest testing module with only
 * @nestjs/cqrs, MikroORM on a fresh real database and the handlers under test (no HTTP, no
 * Redis), dispatched through the real buses as other modules dispatch them.
 */
describe('module handlers on the real database (@nestjs/testing)', () => {
  let db: TestDatabase;
  let moduleRef: TestingModule;
  let commands: CommandBus;
  let queries: QueryBus;
  let em: EntityManager;
  const inContext = <T>(work: () => Promise<T>) => RequestContext.create(em, work);

  beforeAll(async () => {
    db = await createTestDatabase();
    moduleRef = await Test.createTestingModule({
      imports: [MikroOrmModule.forRoot({ ...appOrmConfig(db.url), registerRequestContext: false }), CqrsModule.forRoot()],
      providers: [
        { provide: APP_CONFIG, useValue: { betaMode: true } as Partial<AppConfig> },
        { provide: KeyRing, useValue: {} },
        { provide: LoginProvidersService, useValue: {} },
        // The configuration check's handler is among auth's admin handlers; nothing here calls it.
        { provide: LoginProviderCheckService, useValue: {} },
        BetaInvitesService,
        ...AUTH_ADMIN_HANDLERS,
        MarkErasureRequestedHandler,
        DeletePersonHandler,
        PersonHandler,
        PendingErasuresHandler,
      ],
    }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    await moduleRef.get(MikroORM).migrator.up();
    commands = moduleRef.get(CommandBus);
    queries = moduleRef.get(QueryBus);
    em = moduleRef.get(EntityManager);
  });

  afterAll(async () => {
    await moduleRef?.close();
    await db?.drop();
  });

  describe('auth: beta invitations', () => {
    it('invites once, refuses a second invitation of the same e-mail with 409, lists and withdraws', async () => {
      const invite = await inContext(() => commands.execute(new InviteToBetaCommand('ñandú@example.com', 'admin@example.com')));
      expect(invite).toMatchObject({ email: 'ñandú@example.com', invited_by: 'admin@example.com' });
      await expect(inContext(() => commands.execute(new InviteToBetaCommand('ñandú@example.com', null)))).rejects.toMatchObject({
        status: 409,
        code: 'already_invited',
      });
      expect((await inContext(() => queries.execute(new ListBetaInvitesQuery()))).map((entry) => entry.email)).toEqual(['ñandú@example.com']);
      await inContext(() => commands.execute(new WithdrawBetaInviteCommand('ÑANDÚ@example.com ')));
      expect(await inContext(() => queries.execute(new ListBetaInvitesQuery()))).toEqual([]);
      await expect(inContext(() => commands.execute(new WithdrawBetaInviteCommand('ñandú@example.com')))).rejects.toMatchObject({ status: 404 });
    });
  });

  describe('users: the erasure mark and the last step', () => {
    it('marks once (a second request keeps the first time), inside the caller’s transaction', async () => {
      const [person] = await seedUsers(db, 1);
      const first = await inContext(() => em.transactional(() => commands.execute(new MarkErasureRequestedCommand(person!.id))));
      expect(first).toBeInstanceOf(Date);
      const again = await inContext(() => commands.execute(new MarkErasureRequestedCommand(person!.id)));
      expect(again?.getTime()).toBe(first!.getTime());
      expect(await inContext(() => queries.execute(new PersonQuery(person!.id)))).toMatchObject({ id: person!.id, erasureRequestedAt: first });
      expect(await inContext(() => queries.execute(new PendingErasuresQuery(0)))).toContain(person!.id);
      expect(await inContext(() => queries.execute(new PendingErasuresQuery(3_600_000)))).not.toContain(person!.id);
    });

    it('a rolled-back transaction leaves no mark: the command joined it', async () => {
      const [person] = await seedUsers(db, 1);
      await expect(
        inContext(() =>
          em.transactional(async () => {
            await commands.execute(new MarkErasureRequestedCommand(person!.id));
            throw new Error('the rest of the request failed');
          }),
        ),
      ).rejects.toThrow('the rest of the request failed');
      expect((await db.query('select erasure_requested_at from users where id = $1', [person!.id])).rows[0]).toEqual({ erasure_requested_at: null });
    });

    it('deletes the row last, once; an unknown id is no error', async () => {
      const [person] = await seedUsers(db, 1);
      expect(await inContext(() => commands.execute(new DeletePersonCommand(person!.id)))).toBe(true);
      expect(await inContext(() => commands.execute(new DeletePersonCommand(person!.id)))).toBe(false);
      expect(await inContext(() => queries.execute(new PersonQuery(person!.id)))).toBeNull();
      expect(await inContext(() => commands.execute(new MarkErasureRequestedCommand(person!.id)))).toBeNull();
    });
  });
});
