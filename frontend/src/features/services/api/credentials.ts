import { UserCredentialSchema } from '@life/contracts';
import { ApiError, apiRequest } from '@/lib/api-client';
import { reportError } from '@/lib/report-error';

export interface CredentialValues {
  client_id: string;
  client_secret: string;
}

/**
 * `GET /api/external-services-user/{service_name}`: this person's own client credentials
 * (the secret comes back masked). A 404 means none are stored: empty values.
 */
export async function getCredentials(serviceName: string, { signal }: { signal?: AbortSignal } = {}): Promise<CredentialValues> {
  try {
    const credential = await apiRequest(`/api/external-services-user/${encodeURIComponent(serviceName)}`, { schema: UserCredentialSchema, signal });
    return { client_id: credential.client_id, client_secret: credential.client_secret };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { client_id: '', client_secret: '' };
    throw error;
  }
}

/**
 * `POST /api/external-services-user` { service_name, client_id, client_secret }. The answer is not
 * read and a failure is not handled (spec sections 5 and 8): it is only logged. A masked secret
 * sent back means "unchanged".
 */
export async function saveCredentials(input: { service_name: string } & CredentialValues): Promise<void> {
  try {
    await apiRequest('/api/external-services-user', { method: 'POST', body: input });
  } catch (error) {
    reportError('Error guardando credenciales', error);
  }
}
