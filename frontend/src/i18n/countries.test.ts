import { describe, expect, it } from 'vitest';
import { COUNTRIES, filterCountries, isCountryCode } from './countries';

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
