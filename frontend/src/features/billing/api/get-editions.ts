import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Editions } from '@life/contracts';
import { apiRequest } from '@/lib/api-client';
import { BILLING_QUERY_KEY } from './query-keys';

/**
 * Subscription editions (spec section 9), live from `GET /api/billing/editions` (seats left,
 * which one is on sale, whether payments are on). Until it answers, or if it cannot be reached,
 * the static list stands in. Texts are looked up in the locales under `landing.editions.<id>`.
 */
export type EditionId = 'elite' | 'prestige' | 'legacy';

export interface Edition {
  id: EditionId;
  monthlyPriceEur: number;
  /** How many members this edition is for. */
  memberLimit: number;
  /** Live data only: seats not yet sold or held by an open checkout. */
  seatsLeft?: number;
  /** Live data only: the edition sold now (the first with seats left). */
  onSale?: boolean;
}

export interface EditionsView {
  editions: readonly Edition[];
  /** Null while unknown (static stand-in). */
  paymentsEnabled: boolean | null;
  /** False for the static stand-in. */
  live: boolean;
}

export const STATIC_EDITIONS: readonly Edition[] = [
  { id: 'elite', monthlyPriceEur: 2, memberLimit: 1_000 },
  { id: 'prestige', monthlyPriceEur: 3, memberLimit: 9_000 },
  { id: 'legacy', monthlyPriceEur: 4, memberLimit: 20_000 },
];

export const STATIC_EDITIONS_VIEW: EditionsView = { editions: STATIC_EDITIONS, paymentsEnabled: null, live: false };

export function toEditionsView(answer: Editions): EditionsView {
  return {
    live: true,
    paymentsEnabled: answer.payments_enabled,
    editions: answer.editions.map((edition) => ({
      id: edition.id,
      monthlyPriceEur: edition.price_cents / 100,
      memberLimit: edition.limit,
      seatsLeft: edition.seats_left,
      onSale: edition.on_sale,
    })),
  };
}

/** Public: sent without the bearer, so a stale token cannot sign anyone out from the landing. */
export async function getEditions({ signal }: { signal?: AbortSignal } = {}): Promise<EditionsView> {
  return toEditionsView(
    await apiRequest('/api/billing/editions', { schema: () => import('./schemas').then((schemas) => schemas.EditionsSchema), auth: false, signal }),
  );
}

export function editionsQueryOptions() {
  return queryOptions({
    queryKey: [...BILLING_QUERY_KEY, 'editions'],
    queryFn: ({ signal }) => getEditions({ signal }),
    placeholderData: STATIC_EDITIONS_VIEW,
    // Seats change as people buy: refresh when the page is shown again.
    staleTime: 30_000,
  });
}

/**
 * Why a checkout cannot start now, from what the API says (never from the build's mode), or null when
 * it can (or while unknown: then the server decides). One rule for the landing's carts and the
 * profile's 'Pagar con Stripe':
 * - `paymentsOff`: `payments_enabled` is false;
 * - for one edition: `soldOut` (no seats left) or `notOnSale` (another edition is sold first);
 * - for the profile's checkout (which sells the edition on sale): `allSoldOut` when none is on sale.
 */
export type CheckoutBlock = 'paymentsOff' | 'soldOut' | 'notOnSale' | 'allSoldOut';

export function checkoutBlockFor(view: EditionsView, edition?: Edition): CheckoutBlock | null {
  if (view.paymentsEnabled === false) return 'paymentsOff';
  if (edition) {
    if (edition.seatsLeft === 0) return 'soldOut';
    if (edition.onSale === false) return 'notOnSale';
    return null;
  }
  return view.live && !view.editions.some((candidate) => candidate.onSale) ? 'allSoldOut' : null;
}

/** What each block says, beside the disabled button. */
export const CHECKOUT_BLOCK_TEXT: Record<CheckoutBlock, string> = {
  paymentsOff: 'billing.paymentsOff',
  soldOut: 'billing.soldOutNote',
  notOnSale: 'billing.notOnSale',
  allSoldOut: 'billing.noEditionOnSale',
};

/** Always has data: the live editions, else the static stand-in (`live: false`). */
export function useEditions() {
  const query = useQuery(editionsQueryOptions());
  return { ...query, data: query.data ?? STATIC_EDITIONS_VIEW };
}
