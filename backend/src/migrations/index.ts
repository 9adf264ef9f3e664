import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261128142753_your_day } from './Migration20261128142753_your_day.js';
import { Migration20261125080200_connection_quirks } from './Migration20261125080200_connection_quirks.js';
import { Migration20261125070200_post_logout_redirect_uris } from './Migration20261125070200_post_logout_redirect_uris.js';
import { Migration20261125070500_developer_apps } from './Migration20261125070500_developer_apps.js';
import { Migration20261125080000_billing_states } from './Migration20261125080000_billing_states.js';
import { Migration20261125080100_login_rows_hold_no_app } from './Migration20261125080100_login_rows_hold_no_app.js';
import { Migration20261125080500_billing_webhooks } from './Migration20261125080500_billing_webhooks.js';
import { Migration20261125080600_billing_cancellation } from './Migration20261125080600_billing_cancellation.js';
import { Migration20261125040850_keys_and_exports } from './Migration20261125040850_keys_and_exports.js';
import { Migration20261124224831_outbox_delivered } from './Migration20261124224831_outbox_delivered.js';
import { Migration20261125040000_refresh_grace } from './Migration20261125040000_refresh_grace.js';
import { Migration20261124213237_outbox } from './Migration20261124213237_outbox.js';
import { Migration20261122212722_data_rights } from './Migration20261122212722_data_rights.js';
import { Migration20261122210127_audit } from './Migration20261122210127_audit.js';
import { Migration20261122202124_oauth_server } from './Migration20261122202124_oauth_server.js';
import { Migration20261122184059_connections } from './Migration20261122184059_connections.js';
import { Migration20261125070300_par_and_dpop } from './Migration20261125070300_par_and_dpop.js';
import { Migration20261122182427_contact } from './Migration20261122182427_contact.js';
import { Migration20261122182141_billing } from './Migration20261122182141_billing.js';
import { Migration20261122180338_identities } from './Migration20261122180338_identities.js';
import { Migration20261122175530_initial } from './Migration20261122175530_initial.js';

/** Every migration, oldest first. `npm run migration:create -w backend -- <name>` appends to this list. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261122175530_initial', class: Migration20261122175530_initial },
  { name: 'Migration20261122180338_identities', class: Migration20261122180338_identities },
  { name: 'Migration20261122182141_billing', class: Migration20261122182141_billing },
  { name: 'Migration20261122182427_contact', class: Migration20261122182427_contact },
  { name: 'Migration20261122184059_connections', class: Migration20261122184059_connections },
  { name: 'Migration20261122202124_oauth_server', class: Migration20261122202124_oauth_server },
  { name: 'Migration20261122210127_audit', class: Migration20261122210127_audit },
  { name: 'Migration20261122212722_data_rights', class: Migration20261122212722_data_rights },
  { name: 'Migration20261124213237_outbox', class: Migration20261124213237_outbox },
  { name: 'Migration20261124224831_outbox_delivered', class: Migration20261124224831_outbox_delivered },
  { name: 'Migration20261125040000_refresh_grace', class: Migration20261125040000_refresh_grace },
  { name: 'Migration20261125040850_keys_and_exports', class: Migration20261125040850_keys_and_exports },
  { name: 'Migration20261125070200_post_logout_redirect_uris', class: Migration20261125070200_post_logout_redirect_uris },
  { name: 'Migration20261125070300_par_and_dpop', class: Migration20261125070300_par_and_dpop },
  { name: 'Migration20261125070500_developer_apps', class: Migration20261125070500_developer_apps },
  { name: 'Migration20261125080000_billing_states', class: Migration20261125080000_billing_states },
  { name: 'Migration20261125080100_login_rows_hold_no_app', class: Migration20261125080100_login_rows_hold_no_app },
  { name: 'Migration20261125080200_connection_quirks', class: Migration20261125080200_connection_quirks },
  { name: 'Migration20261125080500_billing_webhooks', class: Migration20261125080500_billing_webhooks },
  { name: 'Migration20261125080600_billing_cancellation', class: Migration20261125080600_billing_cancellation },
  { name: 'Migration20261128142753_your_day', class: Migration20261128142753_your_day },
];
