import { LANGUAGES } from '@life/contracts';
import { normalizeForSearch } from '@/lib/utils';

/** The UI languages, one locale file each (Spanish first: it is the source and the default); the API answers in the same eight. */
export const LOCALE_CODES = LANGUAGES;

export type LocaleCode = (typeof LOCALE_CODES)[number];

export type CountryCode = 'ES' | 'MX' | 'US' | 'GB' | 'BR' | 'FR' | 'DE' | 'IT' | 'JP' | 'CN';

export type Names = Record<LocaleCode, string>;

export interface Country {
  code: CountryCode;
  /** The UI language the country switches to. */
  locale: LocaleCode;
  /** The country's name in every UI language. */
  name: Names;
}

/** Each UI language's name in every UI language: LANGUAGE_NAMES.ja.de is "Japanisch". */
export const LANGUAGE_NAMES: Record<LocaleCode, Names> = {
  es: { es: 'Español', en: 'Spanish', pt: 'Espanhol', fr: 'Espagnol', de: 'Spanisch', it: 'Spagnolo', ja: 'スペイン語', zh: '西班牙语' },
  en: { es: 'Inglés', en: 'English', pt: 'Inglês', fr: 'Anglais', de: 'Englisch', it: 'Inglese', ja: '英語', zh: '英语' },
  pt: { es: 'Portugués', en: 'Portuguese', pt: 'Português', fr: 'Portugais', de: 'Portugiesisch', it: 'Portoghese', ja: 'ポルトガル語', zh: '葡萄牙语' },
  fr: { es: 'Francés', en: 'French', pt: 'Francês', fr: 'Français', de: 'Französisch', it: 'Francese', ja: 'フランス語', zh: '法语' },
  de: { es: 'Alemán', en: 'German', pt: 'Alemão', fr: 'Allemand', de: 'Deutsch', it: 'Tedesco', ja: 'ドイツ語', zh: '德语' },
  it: { es: 'Italiano', en: 'Italian', pt: 'Italiano', fr: 'Italien', de: 'Italienisch', it: 'Italiano', ja: 'イタリア語', zh: '意大利语' },
  ja: { es: 'Japonés', en: 'Japanese', pt: 'Japonês', fr: 'Japonais', de: 'Japanisch', it: 'Giapponese', ja: '日本語', zh: '日语' },
  zh: { es: 'Chino', en: 'Chinese', pt: 'Chinês', fr: 'Chinois', de: 'Chinesisch', it: 'Cinese', ja: '中国語', zh: '中文' },
};

export const COUNTRIES: readonly Country[] = [
  {
    code: 'ES',
    locale: 'es',
    name: { es: 'España', en: 'Spain', pt: 'Espanha', fr: 'Espagne', de: 'Spanien', it: 'Spagna', ja: 'スペイン', zh: '西班牙' },
  },
  {
    code: 'MX',
    locale: 'es',
    name: { es: 'México', en: 'Mexico', pt: 'México', fr: 'Mexique', de: 'Mexiko', it: 'Messico', ja: 'メキシコ', zh: '墨西哥' },
  },
  {
    code: 'US',
    locale: 'en',
    name: {
      es: 'Estados Unidos',
      en: 'United States',
      pt: 'Estados Unidos',
      fr: 'États-Unis',
      de: 'Vereinigte Staaten',
      it: 'Stati Uniti',
      ja: 'アメリカ合衆国',
      zh: '美国',
    },
  },
  {
    code: 'GB',
    locale: 'en',
    name: {
      es: 'Reino Unido',
      en: 'United Kingdom',
      pt: 'Reino Unido',
      fr: 'Royaume-Uni',
      de: 'Vereinigtes Königreich',
      it: 'Regno Unito',
      ja: 'イギリス',
      zh: '英国',
    },
  },
  {
    code: 'BR',
    locale: 'pt',
    name: { es: 'Brasil', en: 'Brazil', pt: 'Brasil', fr: 'Brésil', de: 'Brasilien', it: 'Brasile', ja: 'ブラジル', zh: '巴西' },
  },
  {
    code: 'FR',
    locale: 'fr',
    name: { es: 'Francia', en: 'France', pt: 'França', fr: 'France', de: 'Frankreich', it: 'Francia', ja: 'フランス', zh: '法国' },
  },
  {
    code: 'DE',
    locale: 'de',
    name: { es: 'Alemania', en: 'Germany', pt: 'Alemanha', fr: 'Allemagne', de: 'Deutschland', it: 'Germania', ja: 'ドイツ', zh: '德国' },
  },
  {
    code: 'IT',
    locale: 'it',
    name: { es: 'Italia', en: 'Italy', pt: 'Itália', fr: 'Italie', de: 'Italien', it: 'Italia', ja: 'イタリア', zh: '意大利' },
  },
  {
    code: 'JP',
    locale: 'ja',
    name: { es: 'Japón', en: 'Japan', pt: 'Japão', fr: 'Japon', de: 'Japan', it: 'Giappone', ja: '日本', zh: '日本' },
  },
  {
    code: 'CN',
    locale: 'zh',
    name: { es: 'China', en: 'China', pt: 'China', fr: 'Chine', de: 'China', it: 'Cina', ja: '中国', zh: '中国' },
  },
];

export const DEFAULT_COUNTRY: CountryCode = 'ES';

export function isCountryCode(value: unknown): value is CountryCode {
  return typeof value === 'string' && COUNTRIES.some((country) => country.code === value);
}

export function isLocaleCode(value: unknown): value is LocaleCode {
  return typeof value === 'string' && (LOCALE_CODES as readonly string[]).includes(value);
}

export function findCountry(code: CountryCode): Country {
  const country = COUNTRIES.find((candidate) => candidate.code === code);
  if (!country) throw new Error(`Unknown country code ${code}`);
  return country;
}

/**
 * How the picker shows a country in the UI language: its name, its language's name and
 * that language's own name ("Japonés" and "日本語"), so a reader of any language can find theirs.
 */
export function countryLabels(country: Country, uiLanguage: string): { name: string; language: string; nativeLanguage: string } {
  const lang: LocaleCode = isLocaleCode(uiLanguage) ? uiLanguage : 'es';
  const names = LANGUAGE_NAMES[country.locale];
  return { name: country.name[lang], language: names[lang], nativeLanguage: names[country.locale] };
}

/**
 * Countries whose name or language name, in any UI language, contains the query,
 * ignoring case and accents. An empty query returns every country.
 */
export function filterCountries(query: string, countries: readonly Country[] = COUNTRIES): Country[] {
  const needle = normalizeForSearch(query);
  if (!needle) return [...countries];
  return countries.filter((country) =>
    [...Object.values(country.name), ...Object.values(LANGUAGE_NAMES[country.locale])].some((text) => normalizeForSearch(text).includes(needle)),
  );
}
