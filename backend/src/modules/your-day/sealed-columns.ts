import type { SealedTable } from '../../core/crypto/sealed-columns.js';

/** your-day's sealed columns: each view's snapshot (the person's data from their services). */
export const YOUR_DAY_SEALED: SealedTable[] = [{ table: 'day_views', columns: [{ column: 'view_sealed', aad: 'view' }] }];
