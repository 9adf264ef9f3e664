import { importPKCS8, SignJWT } from 'jose';
import { z } from 'zod';
import { AuthError, AuthErrorCode } from './auth.errors.js';
import { msg } from '../../core/i18n/messages.js';

/** What an admin stores as Apple's app_secret (encrypted like every secret). */
const AppleSecretSchema = z.object({
  team_id: z.string().min(1).max(20),
  key_id: z.string().min(1).max(20),
  private_key: z.string().includes('PRIVATE KEY'),
});

/**
 * Apple's client_secret is a short-lived ES256 JWT signed with the team's key:
 * iss = team id, sub = services id (client_id), aud = Apple's issuer, kid = key id.
 */
export async function appleClientSecret(storedSecret: string, clientId: string, audience: string): Promise<string> {
  let parsed: z.infer<typeof AppleSecretSchema>;
  try {
    parsed = AppleSecretSchema.parse(JSON.parse(storedSecret));
  } catch {
    throw new AuthError(AuthErrorCode.ProviderUnavailable, msg('auth.appleSecretMalformed'));
  }
  const key = await importPKCS8(parsed.private_key, 'ES256');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: parsed.key_id })
    .setIssuer(parsed.team_id)
    .setSubject(clientId)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .sign(key);
}
