import { AppError } from '../../core/http/app-error.js';
import { msg, render, type Text } from '../../core/i18n/messages.js';

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

/** RFC 6750 §3: a protected resource names the problem in WWW-Authenticate. */
export function bearerChallenge(code: 'invalid_token' | 'insufficient_scope' | 'invalid_request', message: Text, scope?: string): Record<string, string> {
  const parts = [`Bearer realm="life"`, `error="${code}"`, `error_description="${render(message).replace(/["\\]/g, '')}"`];
  if (scope) parts.push(`scope="${scope}"`);
  return { 'www-authenticate': parts.join(', ') };
}

export const invalidToken = (message = msg('oauth.invalidAccessToken')) =>
  new OAuthProtocolError('invalid_token', message, 401, bearerChallenge('invalid_token', message));

export const insufficientScope = (scope: string) => {
  const message = msg('oauth.insufficientScope', { scope });
  return new OAuthProtocolError('insufficient_scope', message, 403, bearerChallenge('insufficient_scope', message, scope));
};
