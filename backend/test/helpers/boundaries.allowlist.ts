/**
 * Today's known exceptions to the module boundaries (test/boundaries.test.ts), each with why it
 * is still here. The test fails on a new one and on one that is no longer needed: fix a crossing,
 * then delete its line. docs/architecture.md says where each is headed.
 */

const FK_REFERENCE = "em.getReference(User, id): the foreign key of a row this module writes (users' User is the schema's person)";

/** `importer -> imported`: imports of another module's internals. */
export const KNOWN_CROSSINGS: Readonly<Record<string, string>> = {
  'modules/auth/login-flow.service.ts -> modules/users/entities/user.entity.ts': 'sign-in creates the person; next: a users command',
  'modules/auth/login-flow.service.ts -> modules/users/users.service.ts': 'sign-in creates the person; next: a users command',
  'modules/auth/session.service.ts -> modules/users/entities/user.entity.ts':
    'a session authenticates to its User (role, username) in one query; next: a users query',
  'modules/billing/billing-events.service.ts -> modules/users/entities/user.entity.ts': FK_REFERENCE,
  'modules/billing/billing.service.ts -> modules/users/entities/user.entity.ts': FK_REFERENCE,
  'modules/external-services/connections.service.ts -> modules/users/entities/user.entity.ts': FK_REFERENCE,
  'modules/external-services/credentials.service.ts -> modules/users/entities/user.entity.ts': FK_REFERENCE,
  'modules/oauth-server/clients.service.ts -> modules/users/entities/user.entity.ts': FK_REFERENCE,
};

const BENCH = 'the benchmark seeds rows straight into the tables (a tool, not product code)';

/** `file -> table`: code outside the owning module that names a table in SQL. */
export const KNOWN_TABLE_CROSSINGS: Readonly<Record<string, string>> = {
  'bench/connections.scenarios.ts -> sessions': BENCH,
  'bench/connections.scenarios.ts -> service_connections': BENCH,
  'bench/connections.scenarios.ts -> external_services': BENCH,
  'bench/connections.scenarios.ts -> users': BENCH,
  'bench/oauth.scenarios.ts -> oauth_grants': BENCH,
  'bench/oauth.scenarios.ts -> oauth_tokens': BENCH,
  'modules/external-services/vault-keys.ts -> login_providers':
    "key rotation re-seals auth's provider secrets too; next: each module re-seals its own columns on a rotation command",
  'modules/oauth-server/token-store.service.ts -> users':
    'token validation joins the person (username for introspection, erasure requested) in the same statement (hot path, issue 15)',
};

/**
 * Files that may hold raw SQL strings, and how many. The rest use MikroORM's typed API
 * (entities, `em.find`, QueryBuilder), so a renamed column fails `npm run typecheck`. Kept here:
 * migrations (not scanned), statements that need PostgreSQL features the typed API lacks
 * (advisory locks, `for update skip locked`, `on conflict ... returning`, jsonb aggregates,
 * compare-and-set batches), and code not yet moved (the next step of issue 14, item 2).
 */
export const RAW_SQL_FILES: Readonly<Record<string, number>> = {
  'bench/connections.scenarios.ts': 8,
  'bench/oauth.scenarios.ts': 5,
  'core/database/migration-runner.ts': 2,
  'modules/audit/audit.service.ts': 4,
  'modules/auth/login-providers.service.ts': 1,
  'modules/billing/billing-events.service.ts': 3,
  'modules/billing/billing-privacy.service.ts': 7,
  'modules/billing/billing.service.ts': 2,
  'modules/contact/handlers/erasure.handler.ts': 1,
  'modules/audit/handlers/personal-data.handler.ts': 1,
  'modules/auth/handlers/personal-data.handler.ts': 3,
  'modules/billing/handlers/personal-data.handler.ts': 2,
  'modules/contact/handlers/personal-data.handler.ts': 1,
  'modules/data-rights/personal-data.repository.ts': 10,
  'modules/external-services/handlers/personal-data.handler.ts': 2,
  'modules/oauth-server/handlers/personal-data.handler.ts': 3,
  'modules/external-services/catalog.service.ts': 1,
  'modules/external-services/connections.service.ts': 1,
  'modules/external-services/queries/refresh-failures.handler.ts': 1,
  'modules/external-services/token-refresh.service.ts': 5,
  'modules/external-services/vault-keys.ts': 3,
  'modules/health/health.indicators.ts': 1,
  'modules/oauth-server/authorization.service.ts': 6,
  'modules/oauth-server/expired-tokens.sweeper.ts': 2,
  'modules/oauth-server/signing-keys.service.ts': 2,
  'modules/oauth-server/token-endpoint.service.ts': 3,
  'modules/oauth-server/token-store.service.ts': 11,
  'modules/users/users.service.ts': 2,
};
