import { QueryBus, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { AuditEvent, AuditPage } from '@life/contracts';
import { AuditService } from '../audit.service.js';
import { AuditPageQuery } from '../public/queries.js';
import { LoginProviderNamesQuery } from '../../auth/public/queries.js';
import { CatalogNamesQuery } from '../../external-services/public/queries.js';
import { AppNamesQuery } from '../../oauth-server/public/queries.js';
import { PersonNamesQuery } from '../../users/public/queries.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The ids of one target type on the page (only well-formed UUIDs where the owner keys by UUID). */
function idsOf(items: readonly AuditEvent[], type: string, uuidOnly = true): string[] {
  const ids = items.filter((item) => item.target_type === type && item.target_id && (!uuidOnly || UUID.test(item.target_id))).map((item) => item.target_id!);
  return [...new Set(ids)];
}

/** The app a grant record names in its details (revocations keep it: the grant row is deleted). */
function grantApp(item: AuditEvent): string | undefined {
  const app = item.details.client_id;
  return typeof app === 'string' && app ? app : undefined;
}

function revokedGrantApps(items: readonly AuditEvent[]): string[] {
  return items.filter((item) => item.target_type === 'oauth_grant').flatMap((item) => grantApp(item) ?? []);
}

/**
 * The admin's audit log page. The records keep ids; each target's name is asked of the module
 * that owns it (one query per owner for the whole page), never read from its tables here.
 */
@QueryHandler(AuditPageQuery)
export class AuditPageHandler implements IQueryHandler<AuditPageQuery> {
  constructor(
    private readonly audit: AuditService,
    private readonly queries: QueryBus,
  ) {}

  async execute({ query }: AuditPageQuery): Promise<AuditPage> {
    const page = await this.audit.page(query);
    const labels = await this.labels(page.items);
    return { ...page, items: page.items.map((item) => ({ ...item, target_label: labels(item) })) };
  }

  private async labels(items: readonly AuditEvent[]): Promise<(item: AuditEvent) => string | null> {
    const [people, providers, catalog, apps] = await Promise.all([
      this.queries.execute(new PersonNamesQuery(idsOf(items, 'user'))),
      this.queries.execute(new LoginProviderNamesQuery(idsOf(items, 'login_provider'))),
      this.queries.execute(new CatalogNamesQuery({ services: idsOf(items, 'external_service'), connections: idsOf(items, 'service_connection') })),
      this.queries.execute(
        new AppNamesQuery({
          clients: [...new Set([...idsOf(items, 'oauth_client', false), ...revokedGrantApps(items)])],
          grants: idsOf(items, 'oauth_grant'),
          codes: idsOf(items, 'oauth_code'),
          families: idsOf(items, 'token_family'),
        }),
      ),
    ]);
    const byType: Record<string, Record<string, string>> = {
      user: people,
      login_provider: providers,
      external_service: catalog.services,
      service_connection: catalog.connections,
      oauth_client: apps.clients,
      oauth_grant: apps.grants,
      oauth_code: apps.codes,
      token_family: apps.families,
    };
    return (item) => {
      if (!item.target_type || !item.target_id) return null;
      const named = byType[item.target_type]?.[item.target_id];
      if (named) return named;
      // A revoked grant's row is gone; the record keeps the app's id.
      const app = item.target_type === 'oauth_grant' ? grantApp(item) : undefined;
      return (app && apps.clients[app]) ?? null;
    };
  }
}
