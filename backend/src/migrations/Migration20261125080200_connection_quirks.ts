import { Migration } from '@mikro-orm/migrations';

/** Battle.net's regions as catalog.defaults.ts has them today (a migration never changes after it lands). */
const BATTLENET_REGIONS = [
  { region: 'us', query: { namespace: 'profile-{region}' } },
  { region: 'eu', query: { namespace: 'profile-{region}' } },
  { region: 'kr', query: { namespace: 'profile-{region}' } },
  { region: 'tw', query: { namespace: 'profile-{region}' } },
  {
    region: 'cn',
    auth_url: 'https://oauth.battlenet.com.cn/authorize',
    token_url: 'https://oauth.battlenet.com.cn/token',
    user_url: 'https://oauth.battlenet.com.cn/userinfo',
    base_url: 'https://gateway.battlenet.com.cn',
    query: { namespace: 'profile-{region}' },
  },
];
/**
 * Issue 16 (decisions 0041, 0042): Philips Hue's bridge link (`link_style`, the sealed
 * `link_key_encrypted`), regions per service and per connection (Battle.net), the language a
 * connection was made in, and the contact module's one-mail-per-break notices. The seeded
 * philipshue and wow rows get their new quirks; the wow connections made so far were EU ones.
 */
export class Migration20261125080200_connection_quirks extends Migration {
  override name = 'Migration20261125080200_connection_quirks';

  override up(): void | Promise<void> {
    this.addSql(`create type "reconnect_notice_status" as enum ('pending', 'sent', 'failed', 'no_address');`);
    this.addSql(
      `create table "reconnect_notices" ("id" uuid not null, "break_id" uuid not null, "connection_id" uuid not null, "user_id" uuid not null, "service_name" varchar(64) not null, "language" varchar(8) not null, "status" "reconnect_notice_status" not null default 'pending', "attempts" int not null default 0, "created_at" timestamptz not null, "sent_at" timestamptz null, "last_error" varchar(500) null, primary key ("id"));`,
    );
    this.addSql(`alter table "reconnect_notices" add constraint "reconnect_notices_break_id_unique" unique ("break_id");`);
    this.addSql(`create index "reconnect_notices_user_id_index" on "reconnect_notices" ("user_id");`);
    this.addSql(`create index "reconnect_notices_status_created_at_index" on "reconnect_notices" ("status", "created_at");`);

    this.addSql(`alter table "external_services" add "regions" jsonb null, add "link_style" varchar(20) not null default 'none';`);

    this.addSql(`alter table "service_connections" add "region" varchar(8) null, add "link_key_encrypted" text null, add "language" varchar(8) null;`);

    this.addSql(
      `alter table "reconnect_notices" add constraint "reconnect_notices_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );

    this.addSql(`update "external_services" set "link_style" = 'hue' where "service_name" = 'philipshue';`);
    this.addSql(
      `update "external_services" set "regions" = '${JSON.stringify(BATTLENET_REGIONS)}'::jsonb, "base_url" = case when "base_url" = 'https://eu.api.blizzard.com' then 'https://{region}.api.blizzard.com' else "base_url" end where "service_name" = 'wow' and "regions" is null;`,
    );
    this.addSql(
      `update "service_connections" set "region" = 'eu' where "region" is null and "service_id" in (select "id" from "external_services" where "service_name" = 'wow');`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "reconnect_notices" cascade;`);

    this.addSql(`alter table "external_services" drop column "regions", drop column "link_style";`);

    this.addSql(`alter table "service_connections" drop column "region", drop column "link_key_encrypted", drop column "language";`);

    this.addSql(`drop type "reconnect_notice_status";`);
  }
}
