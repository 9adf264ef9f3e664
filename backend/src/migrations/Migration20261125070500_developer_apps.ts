import { Migration } from '@mikro-orm/migrations';

/**
 * Decision 0037: apps people register on their profile. `developer_id` names the person (null: the
 * company's own app; the person's apps go with their account), with the app's logo and policy
 * links, whether the company checked it (its own apps are, from the start) and whether an admin
 * suspended it.
 */
export class Migration20261125070500_developer_apps extends Migration {
  override name = 'Migration20261125070500_developer_apps';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "oauth_clients" add "developer_id" uuid null, add "logo_uri" varchar(2000) null, add "policy_uri" varchar(2000) null, add "tos_uri" varchar(2000) null, add "verified" boolean not null default true, add "suspended" boolean not null default false;`,
    );
    this.addSql(
      `alter table "oauth_clients" add constraint "oauth_clients_developer_id_foreign" foreign key ("developer_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(`create index "oauth_clients_developer_id_index" on "oauth_clients" ("developer_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "oauth_clients" drop constraint "oauth_clients_developer_id_foreign";`);
    this.addSql(`drop index "oauth_clients_developer_id_index";`);
    this.addSql(
      `alter table "oauth_clients" drop column "developer_id", drop column "logo_uri", drop column "policy_uri", drop column "tos_uri", drop column "verified", drop column "suspended";`,
    );
  }
}
