import { CORE_ENTITIES } from './core/database/core-entities.js';
import { AUDIT_ENTITIES } from './modules/audit/entities/index.js';
import { AUTH_ENTITIES } from './modules/auth/entities/index.js';
import { BILLING_ENTITIES } from './modules/billing/entities/index.js';
import { CONTACT_ENTITIES } from './modules/contact/entities/index.js';
import { DATA_RIGHTS_ENTITIES } from './modules/data-rights/entities/index.js';
import { EXTERNAL_SERVICES_ENTITIES } from './modules/external-services/entities/index.js';
import { OAUTH_SERVER_ENTITIES } from './modules/oauth-server/entities/index.js';
import { USERS_ENTITIES } from './modules/users/entities/index.js';
import { YOUR_DAY_ENTITIES } from './modules/your-day/entities/index.js';

/**
 * Every module's tables, composed here at the top (core imports no module). Listed explicitly,
 * no folder scanning, so the build output is all that runs. `test/boundaries.test.ts` maps each
 * table to the module listed here and fails when code outside that module names it.
 */
export const MODULE_ENTITIES = {
  audit: AUDIT_ENTITIES,
  auth: AUTH_ENTITIES,
  billing: BILLING_ENTITIES,
  contact: CONTACT_ENTITIES,
  'data-rights': DATA_RIGHTS_ENTITIES,
  'external-services': EXTERNAL_SERVICES_ENTITIES,
  'oauth-server': OAUTH_SERVER_ENTITIES,
  users: USERS_ENTITIES,
  'your-day': YOUR_DAY_ENTITIES,
} as const;

export const ENTITIES = [...CORE_ENTITIES, ...Object.values(MODULE_ENTITIES).flat()];
