import { Module } from '@nestjs/common';
import { PersonProfileHandler } from './queries/person-profile.handler.js';
import { UsersController } from './users.controller.js';
import { UsersService } from './users.service.js';

/** Profiles. */
@Module({ controllers: [UsersController], providers: [UsersService, PersonProfileHandler], exports: [UsersService] })
export class UsersModule {}
