import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '@/lib/api-client';
import { displayNameOf } from '@/shared/services/utils/service-names';
import { useDisconnectService } from '../api/disconnect-service';

export interface FinishAt {
  service: string;
  url: string;
}

/**
 * Desconectar: asks first ('¿Desconectar {service}? …'), then deletes the connection. When the
 * provider cannot be told to revoke Life's access, `finishAt` says where the person does it by hand.
 */
export function useDisconnectFlow() {
  const { t, i18n } = useTranslation();
  const disconnect = useDisconnectService();
  const [finishAt, setFinishAt] = useState<FinishAt | null>(null);

  function start(serviceName: string) {
    if (!window.confirm(t('services.confirmDisconnect', { service: displayNameOf(serviceName, i18n) }))) return;
    setFinishAt(null);
    disconnect.mutate(serviceName, {
      onSuccess: (result) => {
        if (result.finish_at) setFinishAt({ service: displayNameOf(result.service, i18n), url: result.finish_at });
      },
      onError: (error) => {
        const message = apiErrorMessage(error);
        window.alert(message ? `${t('services.errors.disconnect')}\n${message}` : t('services.errors.disconnect'));
      },
    });
  }

  return {
    start,
    /** The service being disconnected right now. */
    pending: disconnect.isPending ? disconnect.variables : null,
    finishAt,
    dismissFinishAt: () => setFinishAt(null),
  };
}
