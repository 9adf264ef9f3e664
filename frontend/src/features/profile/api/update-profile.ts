import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UserProfileSchema, type UpdateProfile, type UserProfile } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { updateStoredUser } from '@/lib/session';
import { profileQueryOptions } from './get-profile';
import { reportError } from '@/lib/report-error';

/** `PATCH /api/users/me` with exactly `{ username }` (the e-mail is read-only). */
export function updateProfile({ username }: UpdateProfile): Promise<UserProfile> {
  return apiRequest('/api/users/me', { method: 'PATCH', body: { username }, schema: UserProfileSchema });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) => {
      // The header reads the stored user: show the new name there at once.
      updateStoredUser({ username: profile.username });
      queryClient.setQueryData(profileQueryOptions().queryKey, profile);
      // Not awaited: the save is done, the button should not wait for the refetch.
      void queryClient.invalidateQueries({ queryKey: profileQueryOptions().queryKey });
    },
    onError: (error) => {
      reportError('Error al guardar cambios', error);
    },
  });
}
