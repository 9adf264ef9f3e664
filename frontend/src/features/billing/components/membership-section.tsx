import { useEffect, useState } from 'react';
import type { LateRefund, Membership } from '@life/contracts';
import { BadgeCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { formatDate, formatPrice } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useLateRefund, useMembership } from '../api/get-membership';
import { MembershipSubscription } from './membership-subscription';

/** How long a return from Stripe waits (polling) for the membership to appear. */
export const CHECKOUT_CONFIRMATION_WAIT_MS = 60_000;

/** How long, back from Stripe's customer portal, the membership is asked for again (a cancellation arrives by webhook). */
export const PORTAL_RETURN_FOLLOW_MS = 30_000;

/** True for a while after the customer portal sent the member back (decision 0048). */
function usePortalFollow(portalReturned: boolean): boolean {
  const [over, setOver] = useState(false);
  useEffect(() => {
    if (!portalReturned) return;
    const timer = setTimeout(() => setOver(true), PORTAL_RETURN_FOLLOW_MS);
    return () => clearTimeout(timer);
  }, [portalReturned]);
  return portalReturned && !over;
}

const STATUS_STYLES: Record<Membership['status'], string> = {
  active: 'bg-green-50 text-green-800 border-green-200',
  past_due: 'bg-amber-50 text-amber-900 border-amber-200',
  cancelled: 'bg-muted text-muted-foreground border-border',
  pending_payment: 'bg-sky-50 text-sky-900 border-sky-200',
  refunded: 'bg-muted text-muted-foreground border-border',
  disputed: 'bg-amber-50 text-amber-900 border-amber-200',
};

/** The states that need a sentence beside the badge: what happened and what comes next. */
const EXPLAINED: ReadonlySet<Membership['status']> = new Set(['pending_payment', 'refunded', 'disputed']);

const EDITION_NAMES: Record<LateRefund['edition'], string> = { elite: 'Élite', prestige: 'Prestige', legacy: 'Legacy' };

/**
 * The person's lifetime edition, if any. Back from Stripe (`?checkout=success`) it says the
 * payment arrived and asks again every 2 s, for up to a minute, until the webhook has made it.
 * A checkout that completed after the last seat went shows its automatic refund instead.
 */
export function MembershipSection({ checkoutReturned = false, portalReturned = false }: { checkoutReturned?: boolean; portalReturned?: boolean }) {
  const { t } = useTranslation();
  const [waitOver, setWaitOver] = useState(false);
  useEffect(() => {
    if (!checkoutReturned) return;
    const timer = setTimeout(() => setWaitOver(true), CHECKOUT_CONFIRMATION_WAIT_MS);
    return () => clearTimeout(timer);
  }, [checkoutReturned]);
  const portalFollowing = usePortalFollow(portalReturned);
  const membership = useMembership({ poll: checkoutReturned && !waitOver, follow: portalFollowing });
  const lateRefund = useLateRefund();

  if (membership.data) {
    // A member's repeated payment that was given back: said under the panel.
    const repeated = lateRefund.data?.reason === 'already_member' ? lateRefund.data : null;
    return (
      <>
        <MembershipPanel membership={membership.data} />
        {repeated && <LateRefundNotice refund={repeated} />}
      </>
    );
  }
  if (lateRefund.data) return <LateRefundNotice refund={lateRefund.data} />;
  if (!checkoutReturned) return null;
  return (
    <div className="mt-8 grid gap-3">
      <Alert variant="success" data-testid="checkout-success">
        {t('billing.checkoutSuccess')}
      </Alert>
      {waitOver && (
        <Alert variant="warning" data-testid="checkout-slow">
          {t('billing.checkoutSlow')}
        </Alert>
      )}
    </div>
  );
}

function MembershipPanel({ membership }: { membership: Membership }) {
  const { t } = useTranslation();
  // Cents included: this is what the member pays.
  const price = formatPrice(membership.price_cents / 100, membership.currency, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const since = new Date(membership.since);
  return (
    <section aria-labelledby="membership-title" data-testid="membership" className="mt-8 rounded-3xl border bg-card p-6 shadow-soft sm:p-8">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p id="membership-title" className="text-sm font-medium text-muted-foreground">
            {t('billing.membership.title')}
          </p>
          <h2 className="mt-1 flex items-center gap-2 text-2xl font-semibold tracking-tight text-foreground" data-testid="membership-edition">
            <BadgeCheck aria-hidden="true" className="size-6 text-primary" />
            {membership.edition_name}
          </h2>
        </div>
        <span className="rounded-full bg-foreground px-3 py-1 text-sm font-semibold text-background" data-testid="membership-number">
          {t('billing.membership.memberNumber', { number: membership.member_number })}
        </span>
      </div>
      <dl className="mt-6 grid gap-4 border-t pt-5 sm:grid-cols-2">
        <div className="grid gap-1">
          <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{t('billing.membership.price')}</dt>
          <dd className="text-lg font-semibold text-foreground" data-testid="membership-price">
            {t('billing.membership.pricePerMonth', { amount: price })}
          </dd>
        </div>
        <div className="grid gap-1">
          <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{t('billing.membership.status')}</dt>
          <dd>
            <span
              className={cn('inline-flex rounded-full border px-2.5 py-0.5 text-sm font-medium', STATUS_STYLES[membership.status])}
              data-testid="membership-status"
              data-status={membership.status}
            >
              {t(`billing.membership.statuses.${membership.status}`)}
            </span>
          </dd>
        </div>
      </dl>
      {EXPLAINED.has(membership.status) && (
        <p className="mt-4 rounded-2xl border bg-muted/40 px-4 py-3 text-sm text-foreground" data-testid="membership-status-explanation">
          {t(`billing.membership.explanations.${membership.status}`)}
        </p>
      )}
      {!Number.isNaN(since.getTime()) && (
        <p className="mt-4 text-sm text-muted-foreground" data-testid="membership-since">
          {t('billing.membership.since', { date: formatDate(since) })}
        </p>
      )}
      <MembershipSubscription membership={membership} />
    </section>
  );
}

/** No seat was left when the payment arrived (or the person was a member already): the money goes back on its own. */
function LateRefundNotice({ refund }: { refund: LateRefund }) {
  const { t } = useTranslation();
  const amount = refund.amount_cents === null ? '' : formatPrice(refund.amount_cents / 100, 'eur', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const date = refund.refunded_at ? formatDate(new Date(refund.refunded_at)) : '';
  const keys = refund.reason === 'already_member' ? 'billing.lateRefund.alreadyMember' : 'billing.lateRefund';
  return (
    <section className="mt-8" data-testid="late-refund" data-status={refund.status} data-reason={refund.reason}>
      <Alert variant={refund.status === 'refunded' || refund.status === 'nothing_charged' ? 'info' : 'warning'}>
        <strong className="block font-semibold">{t(`${keys}.title`)}</strong>
        <span data-testid="late-refund-message">{t(`${keys}.${refund.status}`, { edition: EDITION_NAMES[refund.edition], amount, date })}</span>
      </Alert>
    </section>
  );
}
