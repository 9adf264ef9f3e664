import { Migration } from '@mikro-orm/migrations';

export class Migration20261122184059_connections extends Migration {
  override name = 'Migration20261122184059_connections';

  override up(): void | Promise<void> {
    this.addSql(`create type "connection_status" as enum ('connected', 'needs_reconnect');`);
    this.addSql(
      `create table "service_connections" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "service_id" uuid not null, "status" "connection_status" not null default 'connected', "access_token_encrypted" text not null, "refresh_token_encrypted" text null, "scope" varchar(1000) null, "expires_at" timestamptz null, "client_source" varchar(10) not null default 'app', "account_id" varchar(255) null, "account_name" varchar(255) null, "last_refresh_at" timestamptz null, "refresh_failures" int not null default 0, "refresh_not_before" timestamptz null, "last_error" varchar(300) null, primary key ("id"));`,
    );
    this.addSql(`create index "service_connections_status_expires_at_index" on "service_connections" ("status", "expires_at");`);
    this.addSql(`alter table "service_connections" add constraint "service_connections_user_id_service_id_unique" unique ("user_id", "service_id");`);

    this.addSql(
      `alter table "external_services" add "token_auth" varchar(10) not null default 'body', add "token_body" varchar(10) not null default 'form', add "send_scope" boolean not null default true, add "pkce" boolean not null default true, add "extra_auth_params" jsonb not null, add "extra_headers" jsonb not null, add "api_key_header" varchar(64) null, add "api_key_encrypted" text null, add "api_auth_scheme" varchar(20) not null default 'Bearer', add "revoke_url" varchar(2000) null, add "revoke_style" varchar(20) not null default 'none', add "account_url" varchar(2000) null;`,
    );

    this.addSql(
      `alter table "service_connections" add constraint "service_connections_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "service_connections" add constraint "service_connections_service_id_foreign" foreign key ("service_id") references "external_services" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "service_connections" cascade;`);

    this.addSql(
      `alter table "external_services" drop column "token_auth", drop column "token_body", drop column "send_scope", drop column "pkce", drop column "extra_auth_params", drop column "extra_headers", drop column "api_key_header", drop column "api_key_encrypted", drop column "api_auth_scheme", drop column "revoke_url", drop column "revoke_style", drop column "account_url";`,
    );

    this.addSql(`drop type "connection_status";`);
  }
}
