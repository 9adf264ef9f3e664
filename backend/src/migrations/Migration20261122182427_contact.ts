import { Migration } from '@mikro-orm/migrations';

export class Migration20261122182427_contact extends Migration {
  override name = 'Migration20261122182427_contact';

  override up(): void | Promise<void> {
    this.addSql(`create type "contact_subject" as enum ('general', 'privacy', 'billing', 'other');`);
    this.addSql(`create type "contact_message_status" as enum ('received', 'sent', 'failed');`);
    this.addSql(
      `create table "contact_messages" ("id" uuid not null, "name" varchar(100) not null, "email" varchar(254) not null, "subject" "contact_subject" not null, "message" text not null, "user_id" uuid null, "ip_hash" char(64) null, "created_at" timestamptz not null, "status" "contact_message_status" not null default 'received', "attempts" int not null default 0, "sent_at" timestamptz null, "last_error" varchar(500) null, "handled_at" timestamptz null, "handled_by" varchar(254) null, primary key ("id"));`,
    );
    this.addSql(`create index "contact_messages_user_id_index" on "contact_messages" ("user_id");`);
    this.addSql(`create index "contact_messages_status_created_at_index" on "contact_messages" ("status", "created_at");`);
    this.addSql(`create index "contact_messages_created_at_index" on "contact_messages" ("created_at");`);

    this.addSql(
      `alter table "contact_messages" add constraint "contact_messages_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete set null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "contact_messages" cascade;`);

    this.addSql(`drop type "contact_subject";`);
    this.addSql(`drop type "contact_message_status";`);
  }
}
