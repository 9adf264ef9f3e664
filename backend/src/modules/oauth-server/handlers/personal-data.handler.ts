import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { EntityManager } from '@mikro-orm/postgresql';
import { iso, isoOr, strings, text } from '../../../core/database/row-values.js';
import { CollectingPersonalDataEvent } from '../../data-rights/public/events.js';
import type { OAuthServerDb } from '../entities/index.js';

/** 'Descargar mis datos', the authorization server's part: app grants, app tokens (never a hash), apps they own. */
@EventsHandler(CollectingPersonalDataEvent)
export class AppsPersonalDataHandler implements IEventHandler<CollectingPersonalDataEvent> {
  constructor(private readonly em: EntityManager) {}

  async handle(event: CollectingPersonalDataEvent): Promise<void> {
    const db = this.em.getKysely<OAuthServerDb>();
    const [grants, tokens, owned] = await Promise.all([
      db
        .selectFrom('oauth_grants as g')
        .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
        .select(['c.client_id', 'c.name', 'g.scopes', 'g.created_at', 'g.updated_at', 'g.revoked_at'])
        .where('g.user_id', '=', event.userId)
        .orderBy('g.created_at')
        .execute(),
      db
        .selectFrom('oauth_tokens as t')
        .innerJoin('oauth_clients as c', 'c.id', 't.client_id')
        .select(['c.client_id', 't.scopes', 't.created_at', 't.access_expires_at', 't.refresh_expires_at', 't.revoked_at', 't.revoked_reason'])
        .where('t.user_id', '=', event.userId)
        .orderBy('t.created_at')
        .execute(),
      db
        .selectFrom('oauth_clients')
        .select(['name', 'client_id', 'redirect_uris', 'active', 'created_at'])
        // Apps an admin registered, and apps the person registered on their profile (decision 0037).
        .where((eb) => eb.or([eb('owner_user_id', '=', event.userId), eb('developer_id', '=', event.userId)]))
        .orderBy('created_at')
        .execute(),
    ]);
    // Timestamps come back as the driver's strings (MikroORM's type parsers), jsonb as parsed arrays.
    event.parts.app_grants = grants.map((row) => ({
      client_id: String(row.client_id),
      client_name: String(row.name),
      scopes: strings(row.scopes),
      granted_at: isoOr(row.created_at),
      updated_at: isoOr(row.updated_at),
      revoked_at: iso(row.revoked_at),
    }));
    event.parts.app_tokens = tokens.map((row) => ({
      client_id: String(row.client_id),
      scopes: strings(row.scopes),
      issued_at: isoOr(row.created_at),
      access_expires_at: iso(row.access_expires_at),
      refresh_expires_at: iso(row.refresh_expires_at),
      revoked_at: iso(row.revoked_at),
      revoked_reason: text(row.revoked_reason),
    }));
    event.parts.apps_owned = owned.map((row) => ({
      name: String(row.name),
      client_id: String(row.client_id),
      redirect_uris: strings(row.redirect_uris),
      active: row.active === true,
      created_at: isoOr(row.created_at),
    }));
  }
}
