import { Migration } from '@mikro-orm/migrations';

/**
 * Decision 0040: a login-type catalog row (githublogin) is only the dashboard's card for a sign-in
 * provider; its OAuth app lives in the login provider row (/api/login-providers), which is what
 * signing in reads. The copy the catalog kept (client id, secret, URLs, scopes) was read by
 * nothing: it is cleared, and the catalog refuses to store one again.
 */
export class Migration20261125080100_login_rows_hold_no_app extends Migration {
  override name = 'Migration20261125080100_login_rows_hold_no_app';

  override up(): void | Promise<void> {
    this.addSql(
      `update "external_services" set "app_id" = null, "app_secret_encrypted" = null, "api_key_encrypted" = null, "scopes" = null, "base_url" = null, "auth_url" = null, "token_url" = null, "redirect_url" = null, "user_url" = null, "revoke_url" = null where "service_type" = 'login';`,
    );
  }

  override down(): void | Promise<void> {
    // The cleared credentials cannot come back; the default URLs of githublogin can.
    this.addSql(
      `update "external_services" set "scopes" = 'read:user user:email', "base_url" = 'https://github.com', "auth_url" = 'https://github.com/login/oauth/authorize', "token_url" = 'https://github.com/login/oauth/access_token', "user_url" = 'https://api.github.com/user' where "service_name" = 'githublogin' and "service_type" = 'login';`,
    );
  }
}
