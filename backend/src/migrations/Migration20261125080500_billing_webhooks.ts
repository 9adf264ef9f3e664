import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 17, the webhook side (docs/billing.md, decisions 0045 and 0046): a membership keeps what
 * was refunded and its latest dispute; a checkout that completed too late for a seat keeps its
 * automatic refund and the Stripe ids it undoes.
 */
export class Migration20261125080500_billing_webhooks extends Migration {
  override name = 'Migration20261125080500_billing_webhooks';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "memberships" add "refunded_at" timestamptz null, add "refunded_cents" int null, add "dispute_id" varchar(255) null, add "dispute_status" varchar(40) null, add "dispute_reason" varchar(60) null;`,
    );
    this.addSql(
      `alter table "seat_reservations" add "refund_status" varchar(20) null, add "refund_reason" varchar(20) null, add "refund_cents" int null, add "refund_id" varchar(255) null, add "refunded_at" timestamptz null, add "stripe_customer_id" varchar(255) null, add "stripe_subscription_id" varchar(255) null, add "stripe_invoice_id" varchar(255) null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `alter table "seat_reservations" drop column "refund_status", drop column "refund_reason", drop column "refund_cents", drop column "refund_id", drop column "refunded_at", drop column "stripe_customer_id", drop column "stripe_subscription_id", drop column "stripe_invoice_id";`,
    );
    this.addSql(
      `alter table "memberships" drop column "refunded_at", drop column "refunded_cents", drop column "dispute_id", drop column "dispute_status", drop column "dispute_reason";`,
    );
  }
}
