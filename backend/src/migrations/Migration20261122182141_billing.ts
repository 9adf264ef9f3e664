import { Migration } from '@mikro-orm/migrations';

export class Migration20261122182141_billing extends Migration {
  override name = 'Migration20261122182141_billing';

  override up(): void | Promise<void> {
    this.addSql(`create type "reservation_status" as enum ('reserved', 'confirmed', 'released');`);
    this.addSql(`create type "membership_status" as enum ('active', 'past_due', 'cancelled');`);
    this.addSql(
      `create table "edition_stock" ("edition" varchar(20) not null, "position" smallint not null, "seat_limit" int not null, "reserved" int not null default 0, "confirmed" int not null default 0, primary key ("edition"));`,
    );

    this.addSql(
      `create table "stripe_events" ("id" varchar(255) not null, "type" varchar(100) not null, "payload" jsonb not null, "created_at" timestamptz not null, "received_at" timestamptz not null, "processed_at" timestamptz null, "attempts" int not null default 0, "last_error" varchar(500) null, primary key ("id"));`,
    );
    this.addSql(`create index "stripe_events_processed_at_received_at_index" on "stripe_events" ("processed_at", "received_at");`);

    this.addSql(
      `create table "seat_reservations" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "edition" varchar(20) not null, "price_cents" int not null, "status" "reservation_status" not null default 'reserved', "checkout_session_id" varchar(255) null, "checkout_url" varchar(2000) null, "expires_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "seat_reservations_user_id_index" on "seat_reservations" ("user_id");`);
    this.addSql(`alter table "seat_reservations" add constraint "seat_reservations_checkout_session_id_unique" unique ("checkout_session_id");`);
    this.addSql(`create index "seat_reservations_status_expires_at_index" on "seat_reservations" ("status", "expires_at");`);
    this.addSql(`create unique index "seat_reservations_one_open_per_user" on "seat_reservations" ("user_id") where "status" = 'reserved';`);

    this.addSql(
      `create table "memberships" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "edition" varchar(20) not null, "price_cents" int not null, "member_number" int not null, "status" "membership_status" not null default 'active', "status_at" timestamptz not null, "stripe_customer_id" varchar(255) null, "stripe_subscription_id" varchar(255) null, "checkout_session_id" varchar(255) not null, primary key ("id"));`,
    );
    this.addSql(`alter table "memberships" add constraint "memberships_user_id_unique" unique ("user_id");`);
    this.addSql(`alter table "memberships" add constraint "memberships_member_number_unique" unique ("member_number");`);
    this.addSql(`alter table "memberships" add constraint "memberships_stripe_subscription_id_unique" unique ("stripe_subscription_id");`);
    this.addSql(`alter table "memberships" add constraint "memberships_checkout_session_id_unique" unique ("checkout_session_id");`);

    this.addSql(
      `alter table "seat_reservations" add constraint "seat_reservations_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );

    this.addSql(`alter table "memberships" add constraint "memberships_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "edition_stock" cascade;`);
    this.addSql(`drop table if exists "stripe_events" cascade;`);
    this.addSql(`drop table if exists "seat_reservations" cascade;`);
    this.addSql(`drop table if exists "memberships" cascade;`);

    this.addSql(`drop type "reservation_status";`);
    this.addSql(`drop type "membership_status";`);
  }
}
