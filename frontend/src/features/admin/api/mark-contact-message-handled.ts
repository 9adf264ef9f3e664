import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ContactMessageSchema, type ContactMessageDto } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { contactMessagesQueryOptions } from './get-contact-messages';

/** `POST /api/contact-messages/{id}/handled` → the message with handled_at and handled_by. */
export function markContactMessageHandled({ id }: { id: string }): Promise<ContactMessageDto> {
  return apiRequest(`/api/contact-messages/${encodeURIComponent(id)}/handled`, { method: 'POST', schema: ContactMessageSchema });
}

export function useMarkContactMessageHandled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markContactMessageHandled,
    // Every filtered list may hold it: refresh them all (the prefix of their keys).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactMessagesQueryOptions().queryKey.slice(0, 2) }),
  });
}
