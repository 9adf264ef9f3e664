import { CATALOG_FAMILY_ROWS, startServiceStandIns, type ServiceFamily, type ServiceStandIn } from '@life/test-support/standins/services';
import { providerCall, type CallCredentials } from '../../src/modules/your-day/providers/provider-call.js';
import type { ProviderCall, ViewContext } from '../../src/modules/your-day/providers/types.js';

export interface DayStandIn {
  standIn: ServiceStandIn;
  credentials: CallCredentials;
  /** A ProviderCall on a live token of the stand-in, as the sync job builds it. */
  call: ProviderCall;
  close(): Promise<void>;
}

/**
 * One service's stand-in (its family's, serving every catalog row of the family) and a ProviderCall
 * with a token it accepts, the row's API base, scheme and headers: what the sync job passes a view
 * fetcher. Hue's bridge is linked first (its application key travels as hue-application-key);
 * Battle.net's region is `eu`.
 */
export async function startDayStandIn(family: ServiceFamily, serviceName: string): Promise<DayStandIn> {
  const standIns = await startServiceStandIns({
    families: [family],
    rowsByFamily: CATALOG_FAMILY_ROWS,
    overrides: { [family]: { acceptAnyAccessToken: true } },
  });
  const standIn = standIns[family]!;
  const row = standIns.rows[serviceName];
  if (!row) throw new Error(`the ${family} stand-in serves no ${serviceName} row`);
  const accessToken = `day-token-${serviceName}`;
  const headers: Record<string, string> = { ...row.extra_headers };
  if (row.api_key_header) headers[row.api_key_header] = row.api_key;
  let baseUrl = row.base_url;
  let query: Record<string, string> | undefined;
  if (family === 'battlenet') {
    baseUrl = baseUrl.replace('{region}', 'eu');
    query = { namespace: 'profile-eu' };
  }
  if (family === 'hue') {
    const auth = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
    await fetch(`${standIn.url}/route/api/0/config`, { method: 'PUT', headers: auth, body: JSON.stringify({ linkbutton: true }) });
    const linked = (await (
      await fetch(`${standIn.url}/route/api`, { method: 'POST', headers: auth, body: JSON.stringify({ devicetype: 'life#test' }) })
    ).json()) as {
      success?: { username: string };
    }[];
    headers['hue-application-key'] = linked[0]!.success!.username;
  }
  const credentials: CallCredentials = { baseUrl, accessToken, scheme: family === 'soundcloud' ? 'OAuth' : 'Bearer', headers, query };
  return { standIn, credentials, call: providerCall(credentials), close: () => standIns.close() };
}

/** A fetcher's context: now, in Madrid, in Spanish unless told. */
export const dayContext = (overrides: Partial<ViewContext> = {}): ViewContext => ({ now: new Date(), timeZone: 'Europe/Madrid', language: 'es', ...overrides });
