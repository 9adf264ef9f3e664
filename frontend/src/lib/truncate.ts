/** Descriptions in tables and cards are cut to this many characters (spec section 9). */
export const DESCRIPTION_MAX_LENGTH = 40;
/** Client IDs in the applications table are cut shorter (spec section 9). */
export const CLIENT_ID_MAX_LENGTH = 24;

export const ELLIPSIS = '…';

/**
 * Keeps the first `max` characters and adds an ellipsis when the text is longer.
 * Counts code points, so an emoji or other astral character is never split in half;
 * spaces left before the ellipsis are dropped ("Hola mundo…", not "Hola mundo …").
 */
export function truncate(text: string, max: number = DESCRIPTION_MAX_LENGTH): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, max).join('').trimEnd()}${ELLIPSIS}`;
}
