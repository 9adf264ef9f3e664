import { Migration } from '@mikro-orm/migrations';

/** Decision 0034: where RP-initiated logout may send the browser back to, per client. */
export class Migration20261125070200_post_logout_redirect_uris extends Migration {
  override name = 'Migration20261125070200_post_logout_redirect_uris';

  override up(): void | Promise<void> {
    this.addSql(`alter table "oauth_clients" add "post_logout_redirect_uris" jsonb not null default '[]';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "oauth_clients" drop column "post_logout_redirect_uris";`);
  }
}
