/** Reading loose SQL rows (`execute()` results) into the JSON a person is handed, without surprises. */

export type Row = Record<string, unknown>;

/** A timestamp as ISO 8601, or null. */
export const iso = (value: unknown): string | null =>
  value instanceof Date ? value.toISOString() : typeof value === 'string' ? new Date(value).toISOString() : null;
/** A timestamp that must be there, as ISO 8601 ('' if it is not). */
export const isoOr = (value: unknown): string => iso(value) ?? '';
export const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
export const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
