import { describe, expect, it } from 'vitest';
import es from './locales/es.json';
import en from './locales/en.json';
import i18n from './i18n';
import { getStoredCountry, selectCountry, startLanguageSync, uiLanguageFor } from './language';

function keyPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix ? `${prefix}.${key}` : key));
}

describe('language preference', () => {
  it('defaults to Spain / Spanish when nothing (or garbage) is stored', () => {
    expect(getStoredCountry()).toBe('ES');
    localStorage.setItem('appLanguage', 'Klingon');
    expect(getStoredCountry()).toBe('ES');
    startLanguageSync();
    expect(i18n.language).toBe('es');
    expect(document.documentElement.lang).toBe('es');
  });

  it('stores the country code and switches to English for the US', () => {
    selectCountry('US');
    expect(localStorage.getItem('appLanguage')).toBe('US');
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.t('header.openMenu')).toBe('Open menu');
  });

  it('stores BR but keeps Spanish while there is no Portuguese locale', () => {
    selectCountry('US');
    selectCountry('BR');
    expect(localStorage.getItem('appLanguage')).toBe('BR');
    expect(i18n.language).toBe('es');
    expect(document.documentElement.lang).toBe('es');
  });

  it('maps countries to the locales that exist', () => {
    expect(uiLanguageFor('MX')).toBe('es');
    expect(uiLanguageFor('GB')).toBe('en');
    expect(uiLanguageFor('JP')).toBe('es');
  });

  it('applies a preference changed in another tab', () => {
    startLanguageSync();
    localStorage.setItem('appLanguage', 'GB');
    window.dispatchEvent(new StorageEvent('storage', { key: 'appLanguage', newValue: 'GB' }));
    expect(i18n.language).toBe('en');
  });
});

describe('locales', () => {
  it('en.json has exactly the keys of es.json (Spanish is the source)', () => {
    expect(keyPaths(en).sort()).toEqual(keyPaths(es).sort());
  });
});
