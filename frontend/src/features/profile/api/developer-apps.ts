import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DeveloperAppListSchema,
  DeveloperAppSchema,
  DeveloperAppWithSecretSchema,
  type CreateDeveloperApp,
  type DeveloperApp,
  type DeveloperAppList,
  type DeveloperAppWithSecret,
  type UpdateDeveloperApp,
} from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { reportError } from '@/lib/report-error';

const BASE = '/api/users/me/developer-apps';
const path = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

/** 'Mis aplicaciones' (decision 0037): the apps this person registered, and how many they may have. */
export function developerAppsQueryOptions() {
  return queryOptions({
    queryKey: ['me', 'developer-apps'] as const,
    queryFn: ({ signal }): Promise<DeveloperAppList> => apiRequest(BASE, { schema: DeveloperAppListSchema, signal }),
  });
}

export function useDeveloperApps() {
  return useQuery(developerAppsQueryOptions());
}

/** Each change refetches the list rather than feeding it the answer, so a secret never sits in the query cache. */
function useListMutation<TVariables, TResult>(mutationFn: (variables: TVariables) => Promise<TResult>, what: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onError: (error) => {
      reportError(what, error);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: developerAppsQueryOptions().queryKey }),
  });
}

/** `POST` → 201 with the secret, the only time it is shown (null for public apps). */
export const useCreateDeveloperApp = () =>
  useListMutation(
    (fields: CreateDeveloperApp): Promise<DeveloperAppWithSecret> => apiRequest(BASE, { method: 'POST', body: fields, schema: DeveloperAppWithSecretSchema }),
    'Error creando la aplicación',
  );

export const useUpdateDeveloperApp = () =>
  useListMutation(
    ({ id, fields }: { id: string; fields: UpdateDeveloperApp }): Promise<DeveloperApp> =>
      apiRequest(path(id), { method: 'PUT', body: fields, schema: DeveloperAppSchema }),
    'Error guardando la aplicación',
  );

/** A new secret, shown once; the old one stops working at once. */
export const useRotateDeveloperAppSecret = () =>
  useListMutation(
    ({ id }: { id: string }): Promise<DeveloperAppWithSecret> => apiRequest(`${path(id)}/secret`, { method: 'POST', schema: DeveloperAppWithSecretSchema }),
    'Error regenerando el secreto',
  );

export const useDeleteDeveloperApp = () =>
  useListMutation(async ({ id }: { id: string }): Promise<void> => {
    await apiRequest(path(id), { method: 'DELETE' });
  }, 'Error eliminando la aplicación');
