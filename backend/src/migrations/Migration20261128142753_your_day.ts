import { Migration } from '@mikro-orm/migrations';

/** The catalog's scopes before and after "Tu día", for rows still on the default. */
const SCOPE_CHANGES: [string, string, string][] = [
  ['spotify', 'user-read-email user-read-private', 'user-read-email user-read-private user-read-currently-playing user-read-recently-played'],
  ['googledrive', 'openid email https://www.googleapis.com/auth/drive.file', 'openid email https://www.googleapis.com/auth/drive.metadata.readonly'],
  [
    'googlefit',
    'openid email https://www.googleapis.com/auth/fitness.activity.read',
    'openid email https://www.googleapis.com/auth/fitness.activity.read https://www.googleapis.com/auth/fitness.sleep.read',
  ],
];

export class Migration20261128142753_your_day extends Migration {
  override name = 'Migration20261128142753_your_day';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "day_views" ("id" uuid not null, "user_id" uuid not null, "service_name" varchar(64) not null, "enabled" boolean not null default true, "view_sealed" text null, "fetched_at" timestamptz null, "checked_at" timestamptz null, "expires_at" timestamptz null, "problem" varchar(32) null, "failures" int not null default 0, "next_sync_at" timestamptz not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "day_views_due_index" on "day_views" ("enabled", "next_sync_at");`);
    this.addSql(`alter table "day_views" add constraint "day_views_user_service_unique" unique ("user_id", "service_name");`);

    this.addSql(
      `create table "day_people" ("id" uuid not null, "user_id" uuid not null, "time_zone" varchar(64) not null, "language" varchar(8) not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "day_people" add constraint "day_people_user_id_unique" unique ("user_id");`);

    this.addSql(`alter table "day_views" add constraint "day_views_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`alter table "day_people" add constraint "day_people_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);

    // "Tu día" reads what these rows' old scopes did not allow (docs/your-day.md). Rows an admin
    // changed are left as they are; connections made before ask again when the person reconnects.
    for (const [service, before, after] of SCOPE_CHANGES) {
      this.addSql(`update "external_services" set "scopes" = '${after}' where "service_name" = '${service}' and "scopes" = '${before}';`);
    }
  }

  override down(): void | Promise<void> {
    for (const [service, before, after] of SCOPE_CHANGES) {
      this.addSql(`update "external_services" set "scopes" = '${before}' where "service_name" = '${service}' and "scopes" = '${after}';`);
    }
    this.addSql(`drop table if exists "day_views" cascade;`);
    this.addSql(`drop table if exists "day_people" cascade;`);
  }
}
