import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ContactMessageListSchema, type ContactMessageDto, type ContactMessageStatus, type ContactSubject } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';

export interface ContactMessageFilter {
  subject?: ContactSubject;
  status?: ContactMessageStatus;
}

/** `GET /api/contact-messages?subject=&status=`: the newest messages first. */
export function getContactMessages(filter: ContactMessageFilter = {}, { signal }: { signal?: AbortSignal } = {}): Promise<ContactMessageDto[]> {
  const query = new URLSearchParams();
  if (filter.subject) query.set('subject', filter.subject);
  if (filter.status) query.set('status', filter.status);
  const search = query.toString();
  return apiRequest(`/api/contact-messages${search ? `?${search}` : ''}`, { schema: ContactMessageListSchema, signal });
}

export function contactMessagesQueryOptions(filter: ContactMessageFilter = {}) {
  return queryOptions({
    queryKey: ['admin', 'contact-messages', filter.subject ?? 'all', filter.status ?? 'all'],
    queryFn: ({ signal }) => getContactMessages(filter, { signal }),
    // Keep showing the previous list while another filter loads.
    placeholderData: keepPreviousData,
  });
}

export function useContactMessages(filter: ContactMessageFilter = {}) {
  return useQuery(contactMessagesQueryOptions(filter));
}
