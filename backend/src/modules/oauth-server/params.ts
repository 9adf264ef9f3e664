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
