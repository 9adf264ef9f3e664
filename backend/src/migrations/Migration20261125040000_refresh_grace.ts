import { Migration } from '@mikro-orm/migrations';

/** Decision 0028: a spent refresh token names its successor, and keeps that pair sealed during the grace window. */
export class Migration20261125040000_refresh_grace extends Migration {
  override name = 'Migration20261125040000_refresh_grace';

  override up(): void | Promise<void> {
    this.addSql(`alter table "oauth_tokens" add "successor_id" uuid null, add "successor_sealed" text null;`);
    this.addSql(`create index "oauth_tokens_successor_sealed_index" on "oauth_tokens" ("refresh_used_at") where "successor_sealed" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "oauth_tokens_successor_sealed_index";`);
    this.addSql(`alter table "oauth_tokens" drop column "successor_sealed", drop column "successor_id";`);
  }
}
