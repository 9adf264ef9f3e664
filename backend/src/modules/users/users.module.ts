import { Module } from '@nestjs/common';
import { DeletePersonHandler, ErasurePersonHandler, MarkErasureRequestedHandler, PendingErasuresHandler } from './commands/erasure.handlers.js';
import { PersonProfileHandler } from './queries/person-profile.handler.js';
import { UsersController } from './users.controller.js';
import { UsersService } from './users.service.js';

/** People: profiles, and the account row itself (marked for erasure, then deleted last). */
@Module({
  controllers: [UsersController],
  providers: [UsersService, PersonProfileHandler, MarkErasureRequestedHandler, DeletePersonHandler, ErasurePersonHandler, PendingErasuresHandler],
  exports: [UsersService],
})
export class UsersModule {}
