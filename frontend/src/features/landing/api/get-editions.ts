import { queryOptions, useQuery } from '@tanstack/react-query';

/**
 * Subscription editions (spec section 9). Static for now: billing will replace
 * `getEditions` with a fetch of live data (remaining places, prices) and can drop
 * `initialData`. Texts are looked up in the locales under `landing.editions.<id>`.
 */
export type EditionId = 'elite' | 'prestige' | 'legacy';

export interface Edition {
  id: EditionId;
  monthlyPriceEur: number;
  /** How many members this edition is for. */
  memberLimit: number;
}

export const STATIC_EDITIONS: readonly Edition[] = [
  { id: 'elite', monthlyPriceEur: 2, memberLimit: 1_000 },
  { id: 'prestige', monthlyPriceEur: 3, memberLimit: 9_000 },
  { id: 'legacy', monthlyPriceEur: 4, memberLimit: 20_000 },
];

export async function getEditions(): Promise<readonly Edition[]> {
  return STATIC_EDITIONS;
}

export function editionsQueryOptions() {
  return queryOptions({
    queryKey: ['editions'],
    queryFn: getEditions,
    initialData: STATIC_EDITIONS,
    staleTime: Infinity,
  });
}

export function useEditions() {
  return useQuery(editionsQueryOptions());
}
