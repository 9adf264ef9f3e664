import { describe, expect, it } from 'vitest';
import { COUNTRIES, countryLabels, filterCountries, findCountry, isCountryCode, LANGUAGE_NAMES, LOCALE_CODES } from './countries';

const codes = (query: string) => filterCountries(query).map((country) => country.code);

describe('filterCountries', () => {
  it('offers exactly the ten countries of the spec when the query is empty', () => {
    expect(codes('')).toEqual(['ES', 'MX', 'US', 'GB', 'BR', 'FR', 'DE', 'IT', 'JP', 'CN']);
    expect(codes('   ')).toHaveLength(COUNTRIES.length);
  });

  it('finds Brasil by its language, in Spanish or English ("port")', () => {
    expect(codes('port')).toEqual(['BR']);
    expect(codes('Portuguese')).toEqual(['BR']);
  });

  it('matches country names ignoring case and accents', () => {
    expect(codes('japón')).toEqual(['JP']);
    expect(codes('JAPON')).toEqual(['JP']);
    expect(codes('mexico')).toEqual(['MX']);
  });

  it('finds every country that speaks a language', () => {
    expect(codes('inglés')).toEqual(['US', 'GB']);
    expect(codes('ingles')).toEqual(['US', 'GB']);
    expect(codes('español')).toEqual(['ES', 'MX']);
  });

  it('matches English country names too', () => {
    expect(codes('germany')).toEqual(['DE']);
    expect(codes('united')).toEqual(['US', 'GB']);
  });

  it('returns nothing when no name matches', () => {
    expect(codes('narnia')).toEqual([]);
  });
});

describe('isCountryCode', () => {
  it('accepts only the known upper-case codes', () => {
    expect(isCountryCode('BR')).toBe(true);
    expect(isCountryCode('br')).toBe(false);
    expect(isCountryCode('pt')).toBe(false);
    expect(isCountryCode(null)).toBe(false);
  });
});

describe('every UI language', () => {
  it('finds a country by its name or language in any of the eight languages', () => {
    expect(codes('deutsch')).toEqual(['DE']);
    expect(codes('Allemagne')).toEqual(['DE']);
    expect(codes('日本')).toEqual(['JP']);
    expect(codes('中文')).toEqual(['CN']);
    expect(codes('Regno Unito')).toEqual(['GB']);
  });

  it('labels a country in the UI language, with its language in that language and in its own', () => {
    const japan = findCountry('JP');
    expect(countryLabels(japan, 'es')).toEqual({ name: 'Japón', language: 'Japonés', nativeLanguage: '日本語' });
    expect(countryLabels(japan, 'de')).toEqual({ name: 'Japan', language: 'Japanisch', nativeLanguage: '日本語' });
    expect(countryLabels(findCountry('BR'), 'ja')).toEqual({ name: 'ブラジル', language: 'ポルトガル語', nativeLanguage: 'Português' });
    // An unknown UI language reads as Spanish.
    expect(countryLabels(findCountry('US'), 'xx').name).toBe('Estados Unidos');
  });

  it('has a name for every country and language in every UI language', () => {
    for (const country of COUNTRIES) {
      for (const code of LOCALE_CODES) {
        expect(country.name[code], `${country.code} in ${code}`).toBeTruthy();
        expect(LANGUAGE_NAMES[country.locale][code], `${country.locale} in ${code}`).toBeTruthy();
      }
    }
  });
});
