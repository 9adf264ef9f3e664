import type { ExternalService, ServiceRegion, ServiceRegions } from './entities/external-service.entity.js';

type RegionalFields = Pick<ExternalService, 'authUrl' | 'tokenUrl' | 'userUrl' | 'baseUrl'> & { regions?: ServiceRegions | null };

const fill = (value: string | null | undefined, region: string) => (value ? value.replaceAll('{region}', region) : value);

/** Whether a service asks the person to pick a region when connecting (decision 0042). */
export const hasRegions = (service: { regions?: ServiceRegions | null }): boolean => Array.isArray(service.regions) && service.regions.length > 0;

/** The regions a person may pick, in the catalog's order (empty: the service has none). */
export const regionsOf = (service: { regions?: ServiceRegions | null }): string[] => (hasRegions(service) ? service.regions!.map((r) => r.region) : []);

/** The picked region's entry; a connection made before regions existed (region null) reads the first. */
function regionEntry(service: { regions?: ServiceRegions | null }, region: string | null | undefined): ServiceRegion | undefined {
  if (!hasRegions(service)) return undefined;
  return service.regions!.find((r) => r.region === region) ?? service.regions![0];
}

/**
 * The row as one region sees it: the region's own URLs where it has them (Battle.net China), else
 * the row's, with `{region}` replaced by the region. A row without regions comes back as it is.
 */
export function inRegion<T extends RegionalFields>(service: T, region: string | null | undefined): T {
  const own = regionEntry(service, region);
  if (!own) return service;
  return {
    ...service,
    authUrl: fill(own.auth_url ?? service.authUrl, own.region),
    tokenUrl: fill(own.token_url ?? service.tokenUrl, own.region),
    userUrl: fill(own.user_url ?? service.userUrl, own.region),
    baseUrl: fill(own.base_url ?? service.baseUrl, own.region),
  };
}

/** The query parameters a region adds to API calls that do not carry them (Battle.net: namespace=profile-{region}). */
export function regionQuery(service: { regions?: ServiceRegions | null }, region: string | null | undefined): Record<string, string> {
  const own = regionEntry(service, region);
  if (!own) return {};
  return Object.fromEntries(Object.entries(own.query ?? {}).map(([key, value]) => [key, value.replaceAll('{region}', own.region)]));
}
