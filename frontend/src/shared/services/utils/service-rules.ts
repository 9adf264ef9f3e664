import type { ExternalServiceDto, UnavailableReason } from '@life/contracts';

type ServiceState = Pick<ExternalServiceDto, 'service_type' | 'connected' | 'needs_reconnect'>;

/** service_type that marks a login-type service: those are never connected from the dashboard. */
export const LOGIN_SERVICE_TYPE = 'login';

/**
 * The start-a-connection action a service offers, if any. Conectar shows only when the service is
 * not connected and its type is not login (spec section 2); a connection whose tokens stopped working
 * offers Reconectar instead (same flow).
 */
export function connectActionFor(service: ServiceState): 'connect' | 'reconnect' | null {
  if (service.connected || service.service_type === LOGIN_SERVICE_TYPE) return null;
  return service.needs_reconnect ? 'reconnect' : 'connect';
}

/**
 * Why the card's Conectar / Reconectar cannot work now (said before any click, with the button
 * disabled), or null when it can or there is no such button. From the API's `unavailable_reason`:
 * a status other than active, or nothing configured to connect with.
 */
export function connectBlockedBy(service: ServiceState & Pick<ExternalServiceDto, 'unavailable_reason'>): UnavailableReason | null {
  return connectActionFor(service) ? service.unavailable_reason : null;
}

/** Lower case, without accents, spaces or hyphens: "Google Calendar" and "googlecalendar" compare equal. */
const searchable = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase()
    .replace(/[\s_-]+/g, '');

/**
 * The dashboard's search (spec section 2: by service name, case-insensitive contains): the name a
 * person sees and the key both match ("Google Calendar", "google cal" and "googlecalendar" all find it).
 */
export function filterServices<T extends Pick<ExternalServiceDto, 'service_name'>>(
  services: readonly T[],
  query: string,
  displayName: (serviceName: string) => string = (name) => name,
): T[] {
  const needle = searchable(query);
  if (!needle) return [...services];
  return services.filter((service) => searchable(service.service_name).includes(needle) || searchable(displayName(service.service_name)).includes(needle));
}
