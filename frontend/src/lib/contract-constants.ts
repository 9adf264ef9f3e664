import type { CONTACT_SUBJECTS as ContractContactSubjects, ROLES as ContractRoles, STORAGE_KEYS as ContractStorageKeys } from '@life/contracts';

/*
 * The few `@life/contracts` constants every page needs before its first paint. In the contracts
 * they share a module with zod schemas, and a module travels whole: importing one of them put those
 * schemas (and zod, 25 kB gzipped) in the landing page's first JavaScript. These copies have the
 * contracts' types (`satisfies`), and contract-constants.test.ts checks they equal the originals.
 * Everything else (and code that loads later) imports from `@life/contracts` as usual. Issue 15.
 */

/** Local storage keys used by the SPA (`STORAGE_KEYS` of the contracts). */
export const STORAGE_KEYS = { authToken: 'authToken', user: 'user', appLanguage: 'appLanguage' } as const satisfies typeof ContractStorageKeys;

/** `ROLES` of the contracts. */
export const ROLES = ['user', 'admin'] as const satisfies typeof ContractRoles;

/** `CONTACT_SUBJECTS` of the contracts (the contact route's `?subject=`). */
export const CONTACT_SUBJECTS = ['general', 'privacy', 'billing', 'other'] as const satisfies typeof ContractContactSubjects;
