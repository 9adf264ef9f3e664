import { Migration } from '@mikro-orm/migrations';

export class Migration20261122175530_initial extends Migration {
  override name = 'Migration20261122175530_initial';

  override up(): void | Promise<void> {
    this.addSql(`create type "service_status" as enum ('announced', 'inactive', 'active', 'maintenance');`);
    this.addSql(`create type "user_role" as enum ('user', 'admin');`);
    this.addSql(
      `create table "beta_invites" ("email" varchar(254) not null, "invited_by" varchar(254) null, "created_at" timestamptz not null, primary key ("email"));`,
    );

    this.addSql(
      `create table "external_services" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "service_name" varchar(64) not null, "service_type" varchar(40) not null, "description" text null, "status" "service_status" not null default 'announced', "scopes" varchar(1000) null, "app_id" varchar(500) null, "app_secret_encrypted" text null, "base_url" varchar(2000) null, "auth_url" varchar(2000) null, "token_url" varchar(2000) null, "redirect_url" varchar(2000) null, "user_url" varchar(2000) null, primary key ("id"));`,
    );
    this.addSql(`alter table "external_services" add constraint "external_services_service_name_unique" unique ("service_name");`);

    this.addSql(
      `create table "login_providers" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "service_name" varchar(64) not null, "service_type" varchar(40) not null default 'login', "description" text null, "app_id" varchar(500) null, "app_secret_encrypted" text null, "base_url" varchar(2000) null, "auth_url" varchar(2000) null, "token_url" varchar(2000) null, "redirect_url" varchar(2000) null, "user_url" varchar(2000) null, "scopes" varchar(1000) null, primary key ("id"));`,
    );
    this.addSql(`alter table "login_providers" add constraint "login_providers_service_name_unique" unique ("service_name");`);

    this.addSql(
      `create table "users" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "username" varchar(32) not null, "email" varchar(254) not null, "email_verified" boolean not null default false, "role" "user_role" not null default 'user', primary key ("id"));`,
    );
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`create unique index "users_username_lower_unique" on "users" (lower("username"));`);

    this.addSql(
      `create table "sessions" ("id" uuid not null, "token_hash" char(64) not null, "user_id" uuid not null, "created_at" timestamptz not null, "last_used_at" timestamptz not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, "ip" varchar(64) null, "user_agent" varchar(300) null, primary key ("id"));`,
    );
    this.addSql(`alter table "sessions" add constraint "sessions_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);

    this.addSql(
      `create table "oauth_clients" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "name" varchar(120) not null, "client_id" varchar(100) not null, "client_secret_hash" char(64) null, "redirect_uri" varchar(2000) not null, "description" text null, "owner_user_id" uuid null, "active" boolean not null default true, primary key ("id"));`,
    );
    this.addSql(`alter table "oauth_clients" add constraint "oauth_clients_client_id_unique" unique ("client_id");`);

    this.addSql(
      `create table "user_service_credentials" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "service_name" varchar(64) not null, "client_id" varchar(500) not null, "client_secret_encrypted" text not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "user_service_credentials" add constraint "user_service_credentials_user_id_service_name_unique" unique ("user_id", "service_name");`,
    );

    this.addSql(`alter table "sessions" add constraint "sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(
      `alter table "oauth_clients" add constraint "oauth_clients_owner_user_id_foreign" foreign key ("owner_user_id") references "users" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "user_service_credentials" add constraint "user_service_credentials_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "sessions" drop constraint "sessions_user_id_foreign";`);
    this.addSql(`alter table "oauth_clients" drop constraint "oauth_clients_owner_user_id_foreign";`);
    this.addSql(`alter table "user_service_credentials" drop constraint "user_service_credentials_user_id_foreign";`);

    this.addSql(`drop table if exists "beta_invites" cascade;`);
    this.addSql(`drop table if exists "external_services" cascade;`);
    this.addSql(`drop table if exists "login_providers" cascade;`);
    this.addSql(`drop table if exists "users" cascade;`);
    this.addSql(`drop table if exists "sessions" cascade;`);
    this.addSql(`drop table if exists "oauth_clients" cascade;`);
    this.addSql(`drop table if exists "user_service_credentials" cascade;`);

    this.addSql(`drop type "service_status";`);
    this.addSql(`drop type "user_role";`);
  }
}
