/**
 * The languages Life speaks, Spanish first (the source and the default). The SPA's locale files
 * and the API's message catalogs cover exactly these; the SPA sends the one on screen as
 * `Accept-Language` so the API answers in it.
 */
export const LANGUAGES = ['es', 'en', 'pt', 'fr', 'de', 'it', 'ja', 'zh'] as const;

export type Language = (typeof LANGUAGES)[number];

export const SOURCE_LANGUAGE: Language = 'es';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
