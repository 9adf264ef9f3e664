import type { EditionId } from '@life/contracts';

/** Spec section 9: the three limited lifetime editions, in sale order. */
export const EDITIONS: readonly { id: EditionId; name: string; priceCents: number }[] = [
  { id: 'elite', name: 'Élite', priceCents: 200 },
  { id: 'prestige', name: 'Prestige', priceCents: 300 },
  { id: 'legacy', name: 'Legacy', priceCents: 400 },
];

export const editionById = (id: string) => EDITIONS.find((edition) => edition.id === id);
