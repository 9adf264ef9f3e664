/**
 * Today's known exceptions to the module boundaries (test/boundaries.test.ts), each with why it
 * is still here. The test fails on a new one and on one that is no longer needed: fix a crossing,
 * then delete its line. docs/architecture.md says where each is headed.
 */

/** `importer -> imported`: imports of another module's internals. */
export const KNOWN_CROSSINGS: Readonly<Record<string, string>> = {};

const BENCH = 'the benchmark seeds rows straight into the tables (a tool, not product code)';

/** `file -> table`: code outside the owning module that names a table in SQL. */
export const KNOWN_TABLE_CROSSINGS: Readonly<Record<string, string>> = {
  'bench/connections.scenarios.ts -> sessions': BENCH,
  'bench/connections.scenarios.ts -> service_connections': BENCH,
  'bench/connections.scenarios.ts -> external_services': BENCH,
  'bench/connections.scenarios.ts -> users': BENCH,
  'bench/oauth.scenarios.ts -> oauth_grants': BENCH,
  'bench/oauth.scenarios.ts -> oauth_tokens': BENCH,
  'bench/oauth.scenarios.ts -> external_services': BENCH,
  'bench/your-day.scenarios.ts -> external_services': BENCH,
  'bench/your-day.scenarios.ts -> day_people': BENCH,
  'bench/your-day.scenarios.ts -> day_views': BENCH,
};

/**
 * Files that may hold raw SQL strings, and how many: the short list of decision 0015. Every other
 * statement uses MikroORM's typed API (`em.find`, `em.nativeUpdate`...) or Kysely typed from the
 * entities (`em.getKysely<ModuleDb>()`, the module's Db type in its entities/index.ts), so a
 * renamed column fails `npm run typecheck`. Migrations are not scanned.
 */
export const RAW_SQL_FILES: Readonly<Record<string, number>> = {
  // Tools, not product code: the benchmark seeds its rows.
  'bench/connections.scenarios.ts': 8,
  'bench/oauth.scenarios.ts': 6,
  'bench/your-day.scenarios.ts': 8,
  // Advisory locks around the migrations of several processes starting at once.
  'core/database/migration-runner.ts': 2,
  // Key rotation: statements built over every module's sealed tables and columns.
  'core/crypto/sealed-columns.ts': 3,
  // A search of stored Stripe payloads with jsonb path operators.
  'modules/billing/billing-privacy.service.ts': 1,
  // The health probe's `select 1`.
  'modules/health/health.indicators.ts': 1,
  // Decision 0037: a per-person advisory lock, so two creations at once cannot both pass the app limit.
  'modules/oauth-server/developer-apps.service.ts': 1,
  // The token hot path: one statement per check; issue 15 reworks it for speed.
  'modules/oauth-server/token-store.service.ts': 5,
};
