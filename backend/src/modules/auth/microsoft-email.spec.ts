import { MICROSOFT_CONSUMER_TENANT, microsoftEmailVerdict, microsoftEmailVerified } from './microsoft-email.js';

const WORK_TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';

describe('microsoftEmailVerdict (decision 0039)', () => {
  it.each([
    ['a personal account with an e-mail', { tid: MICROSOFT_CONSUMER_TENANT, email: 'ana@outlook.com' }, 'personal', true],
    [
      'a personal account, xms_edov false (the tenant rule does not apply to Microsoft itself)',
      { tid: MICROSOFT_CONSUMER_TENANT, email: 'a@outlook.com', xms_edov: false },
      'personal',
      true,
    ],
    ['a work account with xms_edov true', { tid: WORK_TENANT, email: 'bo@contoso.com', xms_edov: true }, 'domain_verified', true],
    ['a work account with xms_edov "1"', { tid: WORK_TENANT, email: 'bo@contoso.com', xms_edov: '1' }, 'domain_verified', true],
    ['a work account with xms_edov "true"', { tid: WORK_TENANT, email: 'bo@contoso.com', xms_edov: 'true' }, 'domain_verified', true],
    ['a work account with xms_edov false', { tid: WORK_TENANT, email: 'ceo@victim.com', xms_edov: false }, 'domain_unverified', false],
    ['a work account with xms_edov "0"', { tid: WORK_TENANT, email: 'ceo@victim.com', xms_edov: '0' }, 'domain_unverified', false],
    ['a work account without xms_edov', { tid: WORK_TENANT, email: 'bo@contoso.com' }, 'no_edov_claim', false],
    [
      'a work account with email_verified true but no xms_edov (Microsoft never sends it: not trusted)',
      { tid: WORK_TENANT, email: 'bo@contoso.com', email_verified: true },
      'no_edov_claim',
      false,
    ],
    ['no e-mail', { tid: MICROSOFT_CONSUMER_TENANT, xms_edov: true }, 'no_email', false],
  ])('%s', (_name, claims, verdict, verified) => {
    expect(microsoftEmailVerdict(claims)).toBe(verdict);
    expect(microsoftEmailVerified(microsoftEmailVerdict(claims))).toBe(verified);
  });
});
