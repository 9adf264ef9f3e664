import { normalizeForSearch } from '@/lib/utils';

/** UI locales a country maps to. Only some have a locale file yet (see SUPPORTED_UI_LANGUAGES). */
export type LocaleCode = 'es' | 'en' | 'pt' | 'fr' | 'de' | 'it' | 'ja' | 'zh';

export type CountryCode = 'ES' | 'MX' | 'US' | 'GB' | 'BR' | 'FR' | 'DE' | 'IT' | 'JP' | 'CN';

export interface Country {
  code: CountryCode;
  locale: LocaleCode;
  /** Names in Spanish and English: the picker searches both, whatever the UI language. */
  name: { es: string; en: string };
  language: { es: string; en: string };
}

export const COUNTRIES: readonly Country[] = [
  { code: 'ES', locale: 'es', name: { es: 'España', en: 'Spain' }, language: { es: 'Español', en: 'Spanish' } },
  { code: 'MX', locale: 'es', name: { es: 'México', en: 'Mexico' }, language: { es: 'Español', en: 'Spanish' } },
  {
    code: 'US',
    locale: 'en',
    name: { es: 'Estados Unidos', en: 'United States' },
    language: { es: 'Inglés', en: 'English' },
  },
  {
    code: 'GB',
    locale: 'en',
    name: { es: 'Reino Unido', en: 'United Kingdom' },
    language: { es: 'Inglés', en: 'English' },
  },
  { code: 'BR', locale: 'pt', name: { es: 'Brasil', en: 'Brazil' }, language: { es: 'Portugués', en: 'Portuguese' } },
  { code: 'FR', locale: 'fr', name: { es: 'Francia', en: 'France' }, language: { es: 'Francés', en: 'French' } },
  { code: 'DE', locale: 'de', name: { es: 'Alemania', en: 'Germany' }, language: { es: 'Alemán', en: 'German' } },
  { code: 'IT', locale: 'it', name: { es: 'Italia', en: 'Italy' }, language: { es: 'Italiano', en: 'Italian' } },
  { code: 'JP', locale: 'ja', name: { es: 'Japón', en: 'Japan' }, language: { es: 'Japonés', en: 'Japanese' } },
  { code: 'CN', locale: 'zh', name: { es: 'China', en: 'China' }, language: { es: 'Chino', en: 'Chinese' } },
];

export const DEFAULT_COUNTRY: CountryCode = 'ES';

export function isCountryCode(value: unknown): value is CountryCode {
  return typeof value === 'string' && COUNTRIES.some((country) => country.code === value);
}

export function findCountry(code: CountryCode): Country {
  const country = COUNTRIES.find((candidate) => candidate.code === code);
  if (!country) throw new Error(`Unknown country code ${code}`);
  return country;
}

/**
 * Countries whose name or language name (Spanish or English) contains the query,
 * ignoring case and accents. An empty query returns every country.
 */
export function filterCountries(query: string, countries: readonly Country[] = COUNTRIES): Country[] {
  const needle = normalizeForSearch(query);
  if (!needle) return [...countries];
  return countries.filter((country) =>
    [country.name.es, country.name.en, country.language.es, country.language.en].some((text) => normalizeForSearch(text).includes(needle)),
  );
}
