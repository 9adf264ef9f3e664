import type { i18n as I18n } from 'i18next';
import { serviceDisplayName } from '@/lib/contract-constants';

/**
 * The name a person sees for a service (decision 0023): the brand name Life ships for its catalog
 * keys (the landing's names too), with a translated name where one is needed (githublogin, the
 * sign-in with GitHub: `services.names.<key>`); a service an admin added or renamed, by its key.
 * The key stays where the spec shows it: URLs (/callback/{service}), API paths and app scopes.
 */
export function displayNameOf(serviceName: string, i18n: Pick<I18n, 't' | 'exists'>): string {
  const key = `services.names.${serviceName}`;
  return i18n.exists(key) ? i18n.t(key) : serviceDisplayName(serviceName);
}
