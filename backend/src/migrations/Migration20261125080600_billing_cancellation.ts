import { Migration } from '@mikro-orm/migrations';

/**
 * Cancelling (decision 0048, docs/billing.md): `cancel_at` is when a subscription the member
 * cancelled in Stripe's customer portal ends (the paid period's end, null when it runs on);
 * `seat_released_at` is when its end gave the seat back to the edition. A former member whose
 * seat was released may buy again, at the edition on sale then, on the same row and member number.
 */
export class Migration20261125080600_billing_cancellation extends Migration {
  override name = 'Migration20261125080600_billing_cancellation';

  override up(): void | Promise<void> {
    this.addSql(`alter table "memberships" add "cancel_at" timestamptz null, add "seat_released_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "memberships" drop column "cancel_at", drop column "seat_released_at";`);
  }
}
