import { type BASE_SCOPES, type DayService, isDayService, isKnownScope, type Language, SERVICE_SCOPE_PREFIX, serviceDisplayName } from '@life/contracts';
import { msg, render, type Text } from '../../core/i18n/messages.js';
import { OAuthProtocolError } from './oauth.errors.js';

const DESCRIPTIONS: Record<(typeof BASE_SCOPES)[number], Text> = {
  openid: msg('oauth.scope.openid'),
  profile: msg('oauth.scope.profile'),
  email: msg('oauth.scope.email'),
  read: msg('oauth.scope.read'),
  'services:read': msg('oauth.scope.services'),
};

/** What each service's "Tu día" view shows an app, in plain words. */
const DAY_BRINGS: Record<DayService, Text> = {
  spotify: msg('yourDay.brings.spotify'),
  github: msg('yourDay.brings.github'),
  googlecalendar: msg('yourDay.brings.googlecalendar'),
  googledrive: msg('yourDay.brings.googledrive'),
  youtube: msg('yourDay.brings.youtube'),
  googlefit: msg('yourDay.brings.googlefit'),
  fitbit: msg('yourDay.brings.fitbit'),
  notion: msg('yourDay.brings.notion'),
  soundcloud: msg('yourDay.brings.soundcloud'),
  philipshue: msg('yourDay.brings.philipshue'),
  wow: msg('yourDay.brings.wow'),
  destiny2: msg('yourDay.brings.destiny2'),
};

/** What the consent screen says for one scope (an unknown one is shown as it is). */
export function describeScope(scope: string): Text {
  if (scope in DESCRIPTIONS) return DESCRIPTIONS[scope as keyof typeof DESCRIPTIONS];
  if (scope.startsWith(SERVICE_SCOPE_PREFIX)) return msg('oauth.scope.service', { service: serviceDisplayName(scope.slice(SERVICE_SCOPE_PREFIX.length)) });
  return scope;
}

/**
 * What the consent screen says for one scope, in a language. A service with a "Tu día" view says in
 * plain words what the app will see of it (`GET /api/v1/me/today`), besides using the account.
 */
export function describeScopeIn(scope: string, language: Language = 'es'): string {
  const name = scope.startsWith(SERVICE_SCOPE_PREFIX) ? scope.slice(SERVICE_SCOPE_PREFIX.length) : null;
  if (name && isDayService(name)) {
    const what = render(DAY_BRINGS[name], language);
    return render(msg('oauth.scope.serviceDay', { service: serviceDisplayName(name), what }), language);
  }
  return render(describeScope(scope), language);
}

/** Each scope with what it lets the app do, in the asked language. */
export const describeScopes = (scopes: readonly string[], language: Language = 'es') =>
  scopes.map((scope) => ({ scope, description: describeScopeIn(scope, language) }));

/** Space-separated scope string → unique list (RFC 6749 §3.3); unknown scopes are refused. */
export function parseScope(raw: string | undefined | null): string[] {
  if (raw === undefined || raw === null || raw.trim() === '') return [];
  if (raw.length > 2000) throw new OAuthProtocolError('invalid_scope', msg('oauth.scopeListTooLong'));
  const scopes = [...new Set(raw.split(' ').filter(Boolean))];
  const unknown = scopes.filter((scope) => !isKnownScope(scope));
  if (unknown.length > 0) throw new OAuthProtocolError('invalid_scope', msg('oauth.unknownScopeNamed', { scope: unknown.slice(0, 3).join(', ') }));
  return scopes;
}

/** Scopes that let an app read the person's profile through /api/v1/me. */
export const PROFILE_SCOPES = ['openid', 'profile', 'email', 'read'];
/** Scopes that let an app list the person's connected services. */
export const SERVICE_LIST_SCOPES = ['services:read', 'read'];

export const grantsUsername = (scopes: readonly string[]) => scopes.includes('profile') || scopes.includes('read');
export const grantsEmail = (scopes: readonly string[]) => scopes.includes('email');
