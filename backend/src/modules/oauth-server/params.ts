import { OAuthProtocolError } from './oauth.errors.js';
import { msg } from '../../core/i18n/messages.js';

const MAX_PARAM = 4096;

/**
 * OAuth parameters from a query or form body: each at most once (RFC 6749 §3.1), strings,
 * bounded, printable. Unknown parameters are ignored, as the RFC asks.
 */
export function readParams(source: unknown, names: readonly string[]): Record<string, string | undefined> {
  const input = source && typeof source === 'object' ? (source as Record<string, unknown>) : {};
  const out: Record<string, string | undefined> = {};
  for (const name of names) {
    const value = input[name];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) throw new OAuthProtocolError('invalid_request', msg('oauth.paramRepeated', { param: name }));
    if (typeof value !== 'string') throw new OAuthProtocolError('invalid_request', msg('oauth.paramNotText', { param: name }));
    if (value.length > MAX_PARAM) throw new OAuthProtocolError('invalid_request', msg('oauth.paramTooLong', { param: name }));
    // RFC 6749 Appendix A: VSCHAR / NQSCHAR; anything below space is a sign of tampering.
    // eslint-disable-next-line no-control-regex -- looking for exactly these characters
    if (/[\u0000-\u001f\u007f]/.test(value)) throw new OAuthProtocolError('invalid_request', msg('oauth.paramBadCharacters', { param: name }));
    out[name] = value === '' ? undefined : value;
  }
  return out;
}

/** `Authorization: Basic` per RFC 6749 §2.3.1: both parts form-urlencoded before base64. */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = header && /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    const form = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
    return { id: form(decoded.slice(0, colon)), secret: form(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

/**
 * The character rules of RFC 6749 Appendix A (and RFC 7636 §4.1 for PKCE), the same ones
 * @node-oauth/oauth2-server applies (through @node-oauth/formats) once it runs: checked first, so
 * a request the library would refuse halfway is refused before anything is stored, with our
 * localised message instead of the library's English or a 500.
 */
const FORMATS = {
  /** state, code, tokens, client credentials, nonce: printable ASCII, space included. */
  vschar: /^[\x20-\x7e]+$/,
  /** scope: printable ASCII without `"` and `\`. */
  nqschar: /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/,
  /** code_challenge and code_verifier: 43 to 128 unreserved characters. */
  pkce: /^[A-Za-z0-9._~-]{43,128}$/,
  /** A URI (RFC 3986): ASCII, no spaces, a scheme. */
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:[\x21-\x7e]*$/,
} as const;
export type ParamFormat = keyof typeof FORMATS;

/** Each present parameter in its format, or a 400: `invalid_scope` for scope, `invalid_request` otherwise. */
export function checkFormats(p: Record<string, string | undefined>, formats: Readonly<Record<string, ParamFormat>>): void {
  for (const [name, format] of Object.entries(formats)) {
    const value = p[name];
    if (value === undefined || FORMATS[format].test(value)) continue;
    // Outside printable ASCII: the characters are the problem; otherwise the value's shape is.
    const text = /[^\x20-\x7e]/.test(value) ? msg('oauth.paramBadCharacters', { param: name }) : msg('oauth.paramInvalid', { param: name });
    throw new OAuthProtocolError(name === 'scope' ? 'invalid_scope' : 'invalid_request', text);
  }
}

/** How a client authenticated to a token-side endpoint: at most one method (RFC 6749 §2.3). */
export interface ClientCredentials {
  id?: string;
  secret?: string;
  /** client_secret_basic: a failure answers with a `WWW-Authenticate: Basic` challenge (§5.2). */
  basic: boolean;
}

/**
 * RFC 6749 §2.3: "The client MUST NOT use more than one authentication method in each request."
 * Basic credentials and a client_secret in the body are two; a client_id in the body next to Basic
 * credentials is not another method (§4.1.3 lets a client send it) but must name the same client.
 * An Authorization header that is not Basic credentials is a failed authentication.
 */
export function clientCredentials(authorization: string | undefined, body: Record<string, string | undefined>): ClientCredentials {
  const basic = basicCredentials(authorization);
  if (authorization && !basic) throw new OAuthProtocolError('invalid_client', msg('oauth.invalidClient'), 401, { 'www-authenticate': 'Basic realm="life"' });
  if (!basic) return { id: body.client_id, secret: body.client_secret, basic: false };
  if (body.client_secret || (body.client_id && body.client_id !== basic.id)) {
    throw new OAuthProtocolError('invalid_request', msg('oauth.multipleClientAuth'));
  }
  return { id: basic.id, secret: basic.secret, basic: true };
}
