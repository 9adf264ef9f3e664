import type { JWTPayload } from 'jose';

/** The tenant of every personal Microsoft account (Outlook.com, Hotmail, Xbox...): `tid` of their tokens. */
export const MICROSOFT_CONSUMER_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

/** What Microsoft sends as `xms_edov`: a boolean, or "1"/"0", "true"/"false" in some tokens. */
const EDOV_TRUE = new Set<unknown>([true, 1, '1', 'true', 'True']);

export type MicrosoftEmailVerdict =
  /** A personal Microsoft account: its e-mail is the account's own, proved to Microsoft. */
  | 'personal'
  /** A work or school account whose tenant verified the e-mail's domain (`xms_edov` true). */
  | 'domain_verified'
  /** A work or school account and `xms_edov` false: the tenant never proved it owns the domain. */
  | 'domain_unverified'
  /** A work or school account and no `xms_edov`: the app registration does not ask for it (docs/identity.md). */
  | 'no_edov_claim'
  /** No e-mail in the ID token. */
  | 'no_email';

/**
 * Decision 0039: when a Microsoft ID token's e-mail counts as verified. Microsoft never sends
 * `email_verified`; any Entra tenant can set any address on its users, so a work account's
 * e-mail counts only with the optional claim `xms_edov` true (which Microsoft sends only next to
 * an `email` in the token); a personal account (tenant 9188040d-…) is Microsoft's own, so it counts.
 * Only claims of the verified ID token are read (userinfo cannot carry `xms_edov`).
 */
export function microsoftEmailVerdict(idToken: JWTPayload): MicrosoftEmailVerdict {
  if (typeof idToken.email !== 'string' || idToken.email === '') return 'no_email';
  if (idToken.tid === MICROSOFT_CONSUMER_TENANT) return 'personal';
  if (!('xms_edov' in idToken)) return 'no_edov_claim';
  return EDOV_TRUE.has(idToken.xms_edov) ? 'domain_verified' : 'domain_unverified';
}

export const microsoftEmailVerified = (verdict: MicrosoftEmailVerdict) => verdict === 'personal' || verdict === 'domain_verified';
