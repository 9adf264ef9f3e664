import { Migration } from '@mikro-orm/migrations';

/**
 * Decisions 0035 and 0036: a client may require pushed authorization requests (RFC 9126), and a
 * token row remembers the RFC 7638 thumbprint of the DPoP key it is bound to (RFC 9449, `cnf.jkt`),
 * and a code the key that must redeem it (`dpop_jkt`, RFC 9449 §10).
 */
export class Migration20261125070300_par_and_dpop extends Migration {
  override name = 'Migration20261125070300_par_and_dpop';

  override up(): void | Promise<void> {
    this.addSql(`alter table "oauth_clients" add "require_pushed_authorization_requests" boolean not null default false;`);
    this.addSql(`alter table "oauth_tokens" add "dpop_jkt" varchar(64) null;`);
    this.addSql(`alter table "oauth_codes" add "dpop_jkt" varchar(64) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "oauth_codes" drop column "dpop_jkt";`);
    this.addSql(`alter table "oauth_tokens" drop column "dpop_jkt";`);
    this.addSql(`alter table "oauth_clients" drop column "require_pushed_authorization_requests";`);
  }
}
