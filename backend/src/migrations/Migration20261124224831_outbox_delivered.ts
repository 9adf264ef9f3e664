import { Migration } from '@mikro-orm/migrations';

export class Migration20261124224831_outbox_delivered extends Migration {
  override name = 'Migration20261124224831_outbox_delivered';

  override up(): void | Promise<void> {
    this.addSql(`alter table "outbox_messages" add "delivered_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "outbox_messages" drop column "delivered_at";`);
  }
}
