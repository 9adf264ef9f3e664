import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ContractGuard } from '../../core/http/contract.guard.js';
import { UsersModule } from '../users/users.module.js';
import { AuthGuard } from './auth.guard.js';
import { BetaInvitesService } from './beta-invites.service.js';
import { DevIdpService } from './dev-idp/dev-idp.service.js';
import { LoginFlowService } from './login-flow.service.js';
import { LoginController } from './login.controller.js';
import { LoginProviderCheckService } from './login-provider-check.service.js';
import { LoginProvidersService } from './login-providers.service.js';
import { LoginStateStore } from './login-state.store.js';
import { AUTH_ADMIN_HANDLERS } from './handlers/admin.handlers.js';
import { AUTH_SIGN_IN_HANDLERS } from './handlers/sign-in.handlers.js';
import { AuthErasureHandler } from './handlers/erasure.handler.js';
import { AuthPersonalDataHandler } from './handlers/personal-data.handler.js';
import { OidcVerifier } from './oidc-verifier.js';
import { SignInProvidersHandler, SessionPersonHandler, SessionStartHandler } from './queries/session-start.handler.js';
import { SessionService } from './session.service.js';
import { SessionStrategy } from './session.strategy.js';
import { PersonChangedHandler } from './handlers/person-changed.handler.js';
import { LoginProviderNamesHandler } from './queries/login-provider-names.handler.js';

/** Sign-in, sessions, roles, beta invitations and the login provider configuration. */
@Module({
  imports: [UsersModule],
  controllers: [LoginController],
  providers: [
    SessionService,
    SessionStrategy,
    LoginProvidersService,
    LoginProviderCheckService,
    BetaInvitesService,
    LoginStateStore,
    OidcVerifier,
    DevIdpService,
    LoginFlowService,
    SessionStartHandler,
    SessionPersonHandler,
    SignInProvidersHandler,
    LoginProviderNamesHandler,
    AuthErasureHandler,
    PersonChangedHandler,
    ...AUTH_ADMIN_HANDLERS,
    ...AUTH_SIGN_IN_HANDLERS,
    AuthPersonalDataHandler,
    // Global guards run in this order: the session and role first, then the request's contract
    // (core's ContractGuard), so an anonymous caller learns nothing from a 400.
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_GUARD, useClass: ContractGuard },
  ],
  exports: [SessionService, BetaInvitesService, LoginProvidersService],
})
export class AuthModule {}
