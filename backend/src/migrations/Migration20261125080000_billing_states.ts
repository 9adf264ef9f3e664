import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 17's shared states (docs/billing.md): a membership can wait for a payment that settles
 * later (`pending_payment`), be refunded (`refunded`) or disputed (`disputed`); a webhook event
 * that can never apply is kept with the time it gave up (`failed_at`) until an admin retries it or
 * dismisses it (`dismissed_at`). Needs attention: failed, not processed, not dismissed.
 */
export class Migration20261125080000_billing_states extends Migration {
  override name = 'Migration20261125080000_billing_states';

  override up(): void | Promise<void> {
    this.addSql(`alter type "membership_status" add value if not exists 'pending_payment';`);
    this.addSql(`alter type "membership_status" add value if not exists 'refunded';`);
    this.addSql(`alter type "membership_status" add value if not exists 'disputed';`);
    this.addSql(`alter table "stripe_events" add "failed_at" timestamptz null, add "dismissed_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    // Postgres cannot drop an enum value; the added ones stay (unused) after a rollback.
    this.addSql(`alter table "stripe_events" drop column "failed_at", drop column "dismissed_at";`);
  }
}
