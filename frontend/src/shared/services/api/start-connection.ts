import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage, apiRequest } from '@/lib/api-client';
import { leavePageFor } from '../utils/leave-page';
import { reportError } from '@/lib/report-error';

/**
 * `POST /api/external-services/{service_name}/auth` (no body, or `{ region }` for a service with
 * regions: World of Warcraft) → `{ auth_url }`. Resolves to the URL, or undefined when the answer has none.
 */
export async function requestAuthUrl(serviceName: string, region?: string): Promise<string | undefined> {
  const body = await apiRequest(
    `/api/external-services/${encodeURIComponent(serviceName)}/auth`,
    region ? { method: 'POST', body: { region } } : { method: 'POST' },
  );
  // Read loosely: a missing URL has its own alert (spec section 7), not the generic failure one.
  if (body && typeof body === 'object' && 'auth_url' in body && typeof body.auth_url === 'string' && body.auth_url) return body.auth_url;
  return undefined;
}

/**
 * Conectar / Reconectar: asks the backend for the provider's authorisation URL and sends the
 * browser there. A missing URL alerts 'No se recibió URL de autenticación'; any failure alerts
 * 'Error al conectar con el servicio' with the server's message on a second line (spec section 8).
 * `pending` is the service being started (its button shows a spinner until the page leaves).
 */
export function useStartConnection() {
  const { t } = useTranslation();
  const [pending, setPending] = useState<string | null>(null);

  async function connect(serviceName: string, region?: string): Promise<void> {
    setPending(serviceName);
    try {
      const authUrl = await requestAuthUrl(serviceName, region);
      if (!authUrl) {
        setPending(null);
        window.alert(t('services.errors.noAuthUrl'));
        return;
      }
      // The page is leaving: keep the button busy.
      leavePageFor(authUrl);
    } catch (error) {
      reportError('Error al conectar con el servicio', error);
      setPending(null);
      const message = apiErrorMessage(error);
      window.alert(message ? `${t('services.errors.connect')}\n${message}` : t('services.errors.connect'));
    }
  }

  return { connect, pending };
}
