import { Migration } from '@mikro-orm/migrations';

export class Migration20261122180338_identities extends Migration {
  override name = 'Migration20261122180338_identities';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "user_identities" ("id" uuid not null, "provider" varchar(64) not null, "subject" varchar(255) not null, "user_id" uuid not null, "email" varchar(254) null, "created_at" timestamptz not null, "last_login_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "user_identities_user_id_index" on "user_identities" ("user_id");`);
    this.addSql(`alter table "user_identities" add constraint "user_identities_provider_subject_unique" unique ("provider", "subject");`);

    this.addSql(
      `alter table "user_identities" add constraint "user_identities_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "user_identities" cascade;`);
  }
}
