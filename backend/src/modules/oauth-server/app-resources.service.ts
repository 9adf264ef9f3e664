import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { serviceScope, type AppMeSchema, type AppServicesSchema } from '@life/contracts';
import type { z } from 'zod';

type AppMe = z.infer<typeof AppMeSchema>;
type AppServices = z.infer<typeof AppServicesSchema>;
import { PersonConnectionsQuery } from '../external-services/public/queries.js';
import { PersonProfileQuery } from '../users/public/queries.js';
import { insufficientScope, invalidToken } from './oauth.errors.js';
import { grantsEmail, grantsUsername, PROFILE_SCOPES, SERVICE_LIST_SCOPES } from './scopes.js';
import type { AccessTokenInfo } from './token-store.service.js';
import { msg } from '../../core/i18n/messages.js';

/** What `/api/v1` tells an app about the person, as far as the token's scopes allow. */
@Injectable()
export class AppResourcesService {
  constructor(private readonly queries: QueryBus) {}

  async me(token: AccessTokenInfo): Promise<AppMe> {
    const userId = personOf(token);
    if (!token.scopes.some((scope) => PROFILE_SCOPES.includes(scope))) throw insufficientScope('profile', token);
    const person = grantsUsername(token.scopes) || grantsEmail(token.scopes) ? await this.queries.execute(new PersonProfileQuery(userId)) : null;
    return {
      sub: userId,
      ...(grantsUsername(token.scopes) ? { username: person?.username } : {}),
      ...(grantsEmail(token.scopes) ? { email: person?.email } : {}),
    };
  }

  async services(token: AccessTokenInfo): Promise<AppServices> {
    const userId = personOf(token);
    if (!token.scopes.some((scope) => SERVICE_LIST_SCOPES.includes(scope))) throw insufficientScope('services:read', token);
    const connections = await this.queries.execute(new PersonConnectionsQuery(userId));
    return connections.map((connection) => ({
      service_name: connection.service_name,
      status: connection.status,
      connected_at: connection.connected_at ? connection.connected_at.toISOString() : null,
      proxy_allowed: token.scopes.includes(serviceScope(connection.service_name)),
    }));
  }
}

function personOf(token: AccessTokenInfo): string {
  if (!token.userId) throw invalidToken(msg('oauth.appTokenNotPerson'));
  return token.userId;
}
