import { Migration } from '@mikro-orm/migrations';

export class Migration20261122210127_audit extends Migration {
  override name = 'Migration20261122210127_audit';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "audit_events" ("id" uuid not null, "at" timestamptz not null, "action" varchar(60) not null, "actor_id" uuid null, "actor_label" varchar(254) null, "target_type" varchar(40) null, "target_id" varchar(254) null, "ip" varchar(64) null, "user_agent" varchar(300) null, "details" jsonb not null, primary key ("id"));`,
    );
    this.addSql(`create index "audit_events_actor_id_at_index" on "audit_events" ("actor_id", "at");`);
    this.addSql(`create index "audit_events_action_at_index" on "audit_events" ("action", "at");`);
    this.addSql(`create index "audit_events_at_id_index" on "audit_events" ("at", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "audit_events" cascade;`);
  }
}
