import { DayItemSchema, DaySectionSchema, type DayItem, type DaySection } from '@life/contracts';
import { z } from 'zod';
import { type KeyRing } from '../../core/crypto/key-ring.js';

/** What a snapshot holds: the fetcher's view, checked against the contract before it is kept. */
export const SnapshotSchema = z.object({
  headline: DayItemSchema.nullable(),
  sections: z.array(DaySectionSchema).max(20),
  timeline: z.array(DayItemSchema).max(200),
});
export type Snapshot = { headline: DayItem | null; sections: DaySection[]; timeline: DayItem[] };

export const VIEWS_TABLE = 'day_views';

/** Seals a snapshot under `day_views:<row id>:view`: a ciphertext copied to another row does not open. */
export const sealSnapshot = (ring: KeyRing, rowId: string, snapshot: Snapshot): string =>
  ring.encrypt(JSON.stringify(snapshot), `${VIEWS_TABLE}:${rowId}:view`);

export function openSnapshot(ring: KeyRing, rowId: string, sealed: string): Snapshot | null {
  try {
    return JSON.parse(ring.decrypt(sealed, `${VIEWS_TABLE}:${rowId}:view`)) as Snapshot;
  } catch {
    // A key no longer in the ring: the view shows as pending until the next fetch replaces it.
    return null;
  }
}
