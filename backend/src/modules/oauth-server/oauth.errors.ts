import { AppError } from '../../core/http/app-error.js';
import { msg, type Text } from '../../core/i18n/messages.js';

/** RFC 6749 / 7009 / 7662 / 6750 error codes this server answers with. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'server_error'
  | 'invalid_dpop_proof'
  | 'invalid_request_uri'
  // OpenID Connect Core §3.1.2.6 and §6.
  | 'login_required'
  | 'consent_required'
  | 'interaction_required'
  | 'request_not_supported'
  | 'request_uri_not_supported';

/**
 * A protocol error. The filter answers `{ error, error_description, message }`: the RFC's
 * fields for OAuth clients plus our usual `message`.
 */
export class OAuthProtocolError extends AppError {
  constructor(
    code: OAuthErrorCode,
    message: Text,
    status = code === 'invalid_client' || code === 'invalid_token' ? 401 : 400,
    headers?: Record<string, string>,
  ) {
    super(status, code, message, undefined, headers);
  }
}

/** The proof algorithms this server accepts (RFC 9449 `dpop_signing_alg_values_supported`). */
export const DPOP_SIGNING_ALGS = ['ES256', 'Ed25519', 'EdDSA', 'PS256', 'RS256'] as const;

const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

/**
 * RFC 6750 §3: a protected resource names the problem in WWW-Authenticate. A header is ASCII
 * (RFC 9110 §5.5; error_description is limited to %x20-21 / %x23-5B / %x5D-7E by RFC 6750 §3),
 * so it carries the error code and, for insufficient_scope, the scope; the sentence, in the
 * person's language, is in the JSON body (`message`, `error_description`).
 */
export function bearerChallenge(code: 'invalid_token' | 'insufficient_scope' | 'invalid_request', scope?: string): Record<string, string> {
  return { 'www-authenticate': challenge('Bearer', code, scope) };
}

/** RFC 9449 §7.1: the DPoP scheme's challenge, with the accepted algorithms. */
export function dpopChallenge(code: string, scope?: string): Record<string, string> {
  return { 'www-authenticate': `${challenge('DPoP', code, scope)}, algs="${DPOP_SIGNING_ALGS.join(' ')}"` };
}

function challenge(scheme: 'Bearer' | 'DPoP', code: string, scope?: string): string {
  const parts = [`${scheme} realm="life"`, `error="${code}"`];
  if (scope && SCOPE_TOKEN.test(scope)) parts.push(`scope="${scope}"`);
  return parts.join(', ');
}

export const invalidToken = (message = msg('oauth.invalidAccessToken')) =>
  new OAuthProtocolError('invalid_token', message, 401, bearerChallenge('invalid_token'));

/**
 * No credentials at all (or another scheme): RFC 6750 §3.1 says the challenge carries no error
 * code; both schemes the resource accepts are offered (RFC 9449 §7.1).
 */
export const missingToken = () =>
  new OAuthProtocolError('invalid_token', msg('oauth.appTokenMissing'), 401, {
    'www-authenticate': `Bearer realm="life", DPoP realm="life", algs="${DPOP_SIGNING_ALGS.join(' ')}"`,
  });

/** The token lacks `scope`: challenged in the scheme the token was presented with (DPoP for a bound token). */
export const insufficientScope = (scope: string, token?: { dpopJkt?: string | null }) => {
  const message = msg('oauth.insufficientScope', { scope });
  const headers = token?.dpopJkt ? dpopChallenge('insufficient_scope', scope) : bearerChallenge('insufficient_scope', scope);
  return new OAuthProtocolError('insufficient_scope', message, 403, headers);
};
