import { Migration } from '@mikro-orm/migrations';

/** Issue 21, points 2 and 6 (decision 0030): signing keys activate after they are published; one open export per person. */
export class Migration20261125040850_keys_and_exports extends Migration {
  override name = 'Migration20261125040850_keys_and_exports';

  override up(): void | Promise<void> {
    // Keys made before this migration signed from their creation.
    this.addSql(`alter table "oauth_signing_keys" add "activates_at" timestamptz null;`);
    this.addSql(`update "oauth_signing_keys" set "activates_at" = "created_at";`);
    this.addSql(`alter table "oauth_signing_keys" alter column "activates_at" set not null;`);

    // Duplicates left by concurrent requests before this migration: the newest open export of a person stays open.
    this.addSql(
      `update "data_exports" set "status" = 'failed', "finished_at" = now(), "last_error" = 'A newer request for the same person was kept.' where "status" in ('pending', 'running') and "id" not in (select distinct on ("user_id") "id" from "data_exports" where "status" in ('pending', 'running') order by "user_id", "created_at" desc, "id");`,
    );
    this.addSql(`create unique index "data_exports_one_open_per_user" on "data_exports" ("user_id") where "status" in ('pending', 'running');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "data_exports_one_open_per_user";`);
    this.addSql(`alter table "oauth_signing_keys" drop column "activates_at";`);
  }
}
