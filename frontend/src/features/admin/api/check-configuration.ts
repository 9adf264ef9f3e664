import { useMutation } from '@tanstack/react-query';
import { ConfigurationCheckSchema, type ConfigurationCheck } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { reportError } from '@/lib/report-error';

/** What is checked: a login provider (`/api/login-providers`) or a catalog service (`/api/external-services`). */
export type SetupTarget = { kind: 'login-provider' | 'service'; id: string };

/**
 * `POST /api/login-providers/{id}/check` or `POST /api/external-services/{id}/check` (decision 0044):
 * the saved configuration checked without starting a sign-in, in the language on screen.
 */
export function checkConfiguration({ kind, id }: SetupTarget): Promise<ConfigurationCheck> {
  const base = kind === 'login-provider' ? '/api/login-providers' : '/api/external-services';
  return apiRequest(`${base}/${encodeURIComponent(id)}/check`, { method: 'POST', schema: ConfigurationCheckSchema });
}

export function useCheckConfiguration() {
  return useMutation({
    mutationFn: checkConfiguration,
    onError: (error) => {
      reportError('Error comprobando la configuración', error);
    },
  });
}
