import { Migration } from '@mikro-orm/migrations';

export class Migration20261124213237_outbox extends Migration {
  override name = 'Migration20261124213237_outbox';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "outbox_messages" ("id" uuid not null, "type" varchar(120) not null, "payload" jsonb not null, "created_at" timestamptz not null, "relayed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "outbox_messages_relayed_at_created_at_index" on "outbox_messages" ("relayed_at", "created_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "outbox_messages" cascade;`);
  }
}
