import { useMutation } from '@tanstack/react-query';
import { ContactAcceptedSchema, type ContactAccepted, type ContactMessageSubmission } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';

/**
 * `POST /api/contact` → 202 `{ status: 'received' }`. The bearer token goes along when there
 * is one, so the message is linked to the signed-in account (the endpoint itself is public).
 */
export function sendContactMessage(message: ContactMessageSubmission): Promise<ContactAccepted> {
  return apiRequest('/api/contact', { method: 'POST', body: message, schema: ContactAcceptedSchema });
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
