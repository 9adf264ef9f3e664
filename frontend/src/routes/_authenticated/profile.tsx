import { createFileRoute } from '@tanstack/react-router';
import { ProfilePage } from '@/features/profile/components/profile-page';

export interface ProfileSearch {
  /** `success` when Stripe Checkout sends the person back after paying. */
  checkout?: 'success';
}

export const Route = createFileRoute('/_authenticated/profile')({
  validateSearch: (search: Record<string, unknown>): ProfileSearch => (search.checkout === 'success' ? { checkout: 'success' } : {}),
  component: ProfilePage,
});
