import type {
  CONTACT_SUBJECTS as ContractContactSubjects,
  ROLES as ContractRoles,
  SERVICE_DISPLAY_NAMES as ContractServiceDisplayNames,
  ServiceName,
  STORAGE_KEYS as ContractStorageKeys,
} from '@life/contracts';

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

/** `SERVICE_DISPLAY_NAMES` of the contracts: the landing's cards name their services with it (decision 0023). */
export const SERVICE_DISPLAY_NAMES = {
  github: 'GitHub',
  spotify: 'Spotify',
  philipshue: 'Philips Hue',
  youtube: 'YouTube',
  googlecalendar: 'Google Calendar',
  googledrive: 'Google Drive',
  googlefit: 'Google Fit',
  soundcloud: 'SoundCloud',
  fitbit: 'Fitbit',
  notion: 'Notion',
  wow: 'World of Warcraft',
  destiny2: 'Destiny 2',
  microsoft: 'Microsoft Cloud',
  githublogin: 'GitHub',
} as const satisfies Record<ServiceName | 'githublogin', string> & typeof ContractServiceDisplayNames;

/** `serviceDisplayName` of the contracts: a service's display name, or its key when it has none. */
export function serviceDisplayName(serviceName: string): string {
  return Object.hasOwn(SERVICE_DISPLAY_NAMES, serviceName) ? SERVICE_DISPLAY_NAMES[serviceName as keyof typeof SERVICE_DISPLAY_NAMES] : serviceName;
}
