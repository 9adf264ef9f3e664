import { createFileRoute } from '@tanstack/react-router';
import { MembershipSection } from '@/features/billing/components/membership-section';
import { PayWithStripe } from '@/features/billing/components/pay-with-stripe';
import { ProfilePage } from '@/features/profile/components/profile-page';

export interface ProfileSearch {
  /** `success` when Stripe Checkout sends the person back after paying. */
  checkout?: 'success';
}

export const Route = createFileRoute('/_authenticated/profile')({
  validateSearch: (search: Record<string, unknown>): ProfileSearch => (search.checkout === 'success' ? { checkout: 'success' } : {}),
  component: Profile,
});

/** Features do not import each other: the profile page gets billing's membership panel and 'Pagar con Stripe' here. */
function Profile() {
  // Stripe sends the person back to /profile?checkout=success.
  const checkoutReturned = Route.useSearch().checkout === 'success';
  return <ProfilePage membership={<MembershipSection checkoutReturned={checkoutReturned} />} formActions={<PayWithStripe />} />;
}
