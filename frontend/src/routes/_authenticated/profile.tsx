import { createFileRoute } from '@tanstack/react-router';
import { MembershipSection } from '@/features/billing/components/membership-section';
import { PayWithStripe } from '@/features/billing/components/pay-with-stripe';
import { ProfilePage } from '@/features/profile/components/profile-page';

export interface ProfileSearch {
  /** `success` when Stripe Checkout sends the person back after paying. */
  checkout?: 'success';
  /** `return` when Stripe's customer portal sends the member back (decision 0048). */
  portal?: 'return';
}

export const Route = createFileRoute('/_authenticated/profile')({
  validateSearch: (search: Record<string, unknown>): ProfileSearch => ({
    ...(search.checkout === 'success' ? { checkout: 'success' } : {}),
    ...(search.portal === 'return' ? { portal: 'return' } : {}),
  }),
  component: Profile,
});

/** Features do not import each other: the profile page gets billing's membership panel and 'Pagar con Stripe' here. */
function Profile() {
  // Stripe sends the person back to /profile?checkout=success.
  const search = Route.useSearch();
  const checkoutReturned = search.checkout === 'success';
  // Back from Stripe's customer portal: what the member changed there arrives by webhook shortly.
  const portalReturned = search.portal === 'return';
  return <ProfilePage membership={<MembershipSection checkoutReturned={checkoutReturned} portalReturned={portalReturned} />} formActions={<PayWithStripe />} />;
}
