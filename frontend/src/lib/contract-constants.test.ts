import * as contracts from '@life/contracts';
import { describe, expect, it } from 'vitest';
import { CONTACT_SUBJECTS, ROLES, SERVICE_DISPLAY_NAMES, serviceDisplayName, STORAGE_KEYS } from './contract-constants';

describe('contract constants kept out of zod modules', () => {
  it('equal the contracts', () => {
    expect(STORAGE_KEYS).toEqual(contracts.STORAGE_KEYS);
    expect(ROLES).toEqual(contracts.ROLES);
    expect(CONTACT_SUBJECTS).toEqual(contracts.CONTACT_SUBJECTS);
    expect(SERVICE_DISPLAY_NAMES).toEqual(contracts.SERVICE_DISPLAY_NAMES);
    for (const name of [...contracts.SERVICE_NAMES, 'githublogin', 'my-own-service']) expect(serviceDisplayName(name)).toBe(contracts.serviceDisplayName(name));
  });
});
