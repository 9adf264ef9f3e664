import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BetaInviteSchema, type BetaInviteDto } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { betaInvitesQueryOptions } from './get-beta-invites';

/** `POST /beta-invites` `{ email }` → 201 with the invitation (400 invalid e-mail, 409 already invited). */
export function createBetaInvite({ email }: { email: string }): Promise<BetaInviteDto> {
  return apiRequest('/beta-invites', { method: 'POST', body: { email }, schema: BetaInviteSchema });
}

export function useCreateBetaInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBetaInvite,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: betaInvitesQueryOptions().queryKey }),
  });
}
