import { Migration } from '@mikro-orm/migrations';

export class Migration20261122202124_oauth_server extends Migration {
  override name = 'Migration20261122202124_oauth_server';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "oauth_signing_keys" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "kid" varchar(64) not null, "alg" varchar(10) not null, "public_jwk" jsonb not null, "private_jwk_sealed" text not null, "active" boolean not null default true, "retired_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`alter table "oauth_signing_keys" add constraint "oauth_signing_keys_kid_unique" unique ("kid");`);

    this.addSql(
      `create table "oauth_grants" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "client_id" uuid not null, "scopes" jsonb not null, "revoked_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`alter table "oauth_grants" add constraint "oauth_grants_user_id_client_id_unique" unique ("user_id", "client_id");`);

    this.addSql(
      `create table "oauth_tokens" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "access_token_hash" char(64) not null, "refresh_token_hash" char(64) null, "access_expires_at" timestamptz not null, "refresh_expires_at" timestamptz null, "client_id" uuid not null, "user_id" uuid null, "grant_id" uuid null, "code_id" uuid null, "family_id" uuid not null, "scopes" jsonb not null, "refresh_used_at" timestamptz null, "revoked_at" timestamptz null, "revoked_reason" varchar(30) null, primary key ("id"));`,
    );
    this.addSql(`alter table "oauth_tokens" add constraint "oauth_tokens_access_token_hash_unique" unique ("access_token_hash");`);
    this.addSql(`alter table "oauth_tokens" add constraint "oauth_tokens_refresh_token_hash_unique" unique ("refresh_token_hash");`);
    this.addSql(`create index "oauth_tokens_code_id_index" on "oauth_tokens" ("code_id");`);
    this.addSql(`create index "oauth_tokens_grant_id_index" on "oauth_tokens" ("grant_id");`);
    this.addSql(`create index "oauth_tokens_family_id_index" on "oauth_tokens" ("family_id");`);

    this.addSql(
      `create table "oauth_codes" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "code_hash" char(64) not null, "client_id" uuid not null, "user_id" uuid not null, "grant_id" uuid not null, "redirect_uri" varchar(2000) not null, "scopes" jsonb not null, "code_challenge" varchar(128) null, "code_challenge_method" varchar(10) null, "nonce" varchar(500) null, "auth_time" timestamptz not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "replayed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`alter table "oauth_codes" add constraint "oauth_codes_code_hash_unique" unique ("code_hash");`);
    this.addSql(`create index "oauth_codes_expires_at_index" on "oauth_codes" ("expires_at");`);

    this.addSql(`alter table "oauth_clients" drop column "redirect_uri";`);
    this.addSql(
      `alter table "oauth_clients" add "client_type" varchar(20) not null default 'confidential', add "redirect_uris" jsonb not null, add "allowed_scopes" jsonb not null;`,
    );

    this.addSql(
      `alter table "oauth_grants" add constraint "oauth_grants_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "oauth_grants" add constraint "oauth_grants_client_id_foreign" foreign key ("client_id") references "oauth_clients" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "oauth_tokens" add constraint "oauth_tokens_client_id_foreign" foreign key ("client_id") references "oauth_clients" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "oauth_tokens" add constraint "oauth_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "oauth_tokens" add constraint "oauth_tokens_grant_id_foreign" foreign key ("grant_id") references "oauth_grants" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "oauth_codes" add constraint "oauth_codes_client_id_foreign" foreign key ("client_id") references "oauth_clients" ("id") on delete cascade;`,
    );
    this.addSql(`alter table "oauth_codes" add constraint "oauth_codes_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
    this.addSql(
      `alter table "oauth_codes" add constraint "oauth_codes_grant_id_foreign" foreign key ("grant_id") references "oauth_grants" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "oauth_tokens" drop constraint "oauth_tokens_grant_id_foreign";`);
    this.addSql(`alter table "oauth_codes" drop constraint "oauth_codes_grant_id_foreign";`);

    this.addSql(`drop table if exists "oauth_signing_keys" cascade;`);
    this.addSql(`drop table if exists "oauth_grants" cascade;`);
    this.addSql(`drop table if exists "oauth_tokens" cascade;`);
    this.addSql(`drop table if exists "oauth_codes" cascade;`);

    this.addSql(`alter table "oauth_clients" drop column "client_type", drop column "redirect_uris", drop column "allowed_scopes";`);
    this.addSql(`alter table "oauth_clients" add "redirect_uri" varchar(2000) not null;`);
  }
}
