import { Migration } from '@mikro-orm/migrations';

export class Migration20261122212722_data_rights extends Migration {
  override name = 'Migration20261122212722_data_rights';

  override up(): void | Promise<void> {
    this.addSql(`create type "data_export_status" as enum ('pending', 'running', 'ready', 'failed');`);
    this.addSql(
      `create table "data_exports" ("id" uuid not null, "user_id" uuid not null, "status" "data_export_status" not null default 'pending', "created_at" timestamptz not null, "started_at" timestamptz null, "finished_at" timestamptz null, "expires_at" timestamptz null, "attempts" int not null default 0, "content" text null, "size_bytes" int null, "last_error" varchar(300) null, primary key ("id"));`,
    );
    this.addSql(`create index "data_exports_user_id_index" on "data_exports" ("user_id");`);
    this.addSql(`create index "data_exports_expires_at_index" on "data_exports" ("expires_at");`);
    this.addSql(`create index "data_exports_status_created_at_index" on "data_exports" ("status", "created_at");`);

    this.addSql(`alter table "memberships" drop constraint "memberships_user_id_foreign";`);

    this.addSql(`alter table "users" add "erasure_requested_at" timestamptz null;`);
    this.addSql(`create index "users_erasure_requested_at_index" on "users" ("erasure_requested_at") where "erasure_requested_at" is not null;`);

    this.addSql(`alter table "memberships" add "user_erased_at" timestamptz null;`);
    this.addSql(`alter table "memberships" alter column "user_id" drop not null;`);
    this.addSql(`alter table "memberships" add constraint "memberships_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete set null;`);

    this.addSql(
      `alter table "data_exports" add constraint "data_exports_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "data_exports" cascade;`);

    this.addSql(`alter table "memberships" drop constraint "memberships_user_id_foreign";`);

    this.addSql(`alter table "memberships" drop column "user_erased_at";`);
    this.addSql(`alter table "memberships" alter column "user_id" set not null;`);
    this.addSql(`alter table "memberships" add constraint "memberships_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`drop index "users_erasure_requested_at_index";`);
    this.addSql(`alter table "users" drop column "erasure_requested_at";`);

    this.addSql(`drop type "data_export_status";`);
  }
}
