import { queryOptions } from '@tanstack/react-query';
import { AppGrantListSchema, type AppGrant } from '@life/contracts';
import { apiRequest } from './api-client';

/**
 * The apps holding a grant from the signed-in person. Shared by the profile ('Aplicaciones con
 * acceso') and the consent screen (remembered consent), so it lives outside both features.
 */
export const APP_GRANTS_QUERY_KEY = ['me', 'apps'] as const;

/** `GET /api/users/me/apps`. `ignoreUnauthorized`: a 401 is the caller's to handle (see api-client). */
export function getAppGrants({ signal, ignoreUnauthorized = false }: { signal?: AbortSignal; ignoreUnauthorized?: boolean } = {}): Promise<AppGrant[]> {
  return apiRequest('/api/users/me/apps', { schema: AppGrantListSchema, signal, ignoreUnauthorized });
}

/** The permission texts come in the asked language, so the language is part of the key (invalidate by APP_GRANTS_QUERY_KEY). */
export function appGrantsQueryOptions(language: string) {
  return queryOptions({
    queryKey: [...APP_GRANTS_QUERY_KEY, language],
    queryFn: ({ signal }) => getAppGrants({ signal }),
  });
}
