import { Module } from '@nestjs/common';
import { DeletePersonHandler, PersonHandler, MarkErasureRequestedHandler, PendingErasuresHandler } from './commands/erasure.handlers.js';
import { USERS_PEOPLE_HANDLERS } from './handlers/people.handlers.js';
import { UsersPersonalDataHandler } from './handlers/personal-data.handler.js';
import { PersonProfileHandler } from './queries/person-profile.handler.js';
import { UsersController } from './users.controller.js';
import { UsersService } from './users.service.js';
import { PersonNamesHandler } from './queries/person-names.handler.js';
import { PeopleMatchingEmailHandler, PersonEmailsHandler } from './queries/person-emails.handler.js';

/** People: profiles, and the account row itself (marked for erasure, then deleted last). */
@Module({
  controllers: [UsersController],
  providers: [
    UsersService,
    PersonProfileHandler,
    PersonNamesHandler,
    PersonEmailsHandler,
    PeopleMatchingEmailHandler,
    MarkErasureRequestedHandler,
    DeletePersonHandler,
    PersonHandler,
    PendingErasuresHandler,
    UsersPersonalDataHandler,
    ...USERS_PEOPLE_HANDLERS,
  ],
  exports: [UsersService],
})
export class UsersModule {}
