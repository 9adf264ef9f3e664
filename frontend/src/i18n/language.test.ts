import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { removeItems, writeItem } from '@/lib/local-store';
import { COUNTRIES } from './countries';
import es from './locales/es.json';
import i18n, { SUPPORTED_UI_LANGUAGES } from './i18n';
import { applyRequestedLanguage, getStoredCountry, languageFromUiLocales, selectCountry, startLanguageSync, uiLanguageFor } from './language';

describe('language preference', () => {
  it('defaults to Spain / Spanish when nothing (or garbage) is stored', async () => {
    expect(getStoredCountry()).toBe('ES');
    localStorage.setItem('appLanguage', 'Klingon');
    expect(getStoredCountry()).toBe('ES');
    await startLanguageSync();
    expect(i18n.language).toBe('es');
    expect(document.documentElement.lang).toBe('es');
  });

  it('stores the country code and switches to English for the US', async () => {
    await selectCountry('US');
    expect(localStorage.getItem('appLanguage')).toBe('US');
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.t('header.openMenu')).toBe('Open menu');
  });

  it.each([
    ['BR', 'pt', 'Abrir menu'],
    ['FR', 'fr', 'Ouvrir le menu'],
    ['DE', 'de', 'Menü öffnen'],
    ['IT', 'it', 'Apri menu'],
    ['JP', 'ja', 'メニューを開く'],
    ['CN', 'zh', '打开菜单'],
  ] as const)('stores %s and switches the UI and <html lang> to %s', async (country, language, openMenu) => {
    await selectCountry(country);
    expect(localStorage.getItem('appLanguage')).toBe(country);
    expect(i18n.language).toBe(language);
    expect(document.documentElement.lang).toBe(language);
    expect(i18n.t('header.openMenu')).toBe(openMenu);
  });

  it('maps every country to a language that has a locale file, and reaches all of them', () => {
    expect(uiLanguageFor('ES')).toBe('es');
    expect(uiLanguageFor('MX')).toBe('es');
    expect(uiLanguageFor('US')).toBe('en');
    expect(uiLanguageFor('GB')).toBe('en');
    expect(uiLanguageFor('BR')).toBe('pt');
    expect(uiLanguageFor('JP')).toBe('ja');
    expect(uiLanguageFor('CN')).toBe('zh');
    expect(new Set(COUNTRIES.map((country) => uiLanguageFor(country.code)))).toEqual(new Set(SUPPORTED_UI_LANGUAGES));
  });

  it('the last choice wins even while an earlier language is still loading', async () => {
    const japanese = selectCountry('JP');
    const spanish = selectCountry('ES');
    await Promise.all([japanese, spanish]);
    expect(i18n.language).toBe('es');
    expect(document.documentElement.lang).toBe('es');
  });

  it('applies the stored language at start-up (after a reload)', async () => {
    localStorage.setItem('appLanguage', 'DE');
    await startLanguageSync();
    expect(i18n.language).toBe('de');
    expect(i18n.t('countryPicker.title')).toBe('Wähle dein Land');
  });

  it('applies a preference changed in another tab', async () => {
    await startLanguageSync();
    localStorage.setItem('appLanguage', 'GB');
    window.dispatchEvent(new StorageEvent('storage', { key: 'appLanguage', newValue: 'GB' }));
    await waitFor(() => expect(i18n.language).toBe('en'));
  });

  it('falls back to Spanish for a key a locale would lack', async () => {
    await selectCountry('JP');
    i18n.addResource('es', 'translation', 'testOnly.spanishOnly', 'Solo en español');
    try {
      expect(i18n.t('testOnly.spanishOnly')).toBe('Solo en español');
    } finally {
      i18n.removeResourceBundle('es', 'translation');
      i18n.addResourceBundle('es', 'translation', es);
    }
  });

  it('reads OIDC ui_locales: the first language we speak, regional tags included', () => {
    expect(languageFromUiLocales('pt-BR en')).toBe('pt');
    expect(languageFromUiLocales('ko  zh-Hans-CN')).toBe('zh');
    expect(languageFromUiLocales('ko tlh')).toBeUndefined();
    expect(languageFromUiLocales('')).toBeUndefined();
    expect(languageFromUiLocales(null)).toBeUndefined();
  });

  it('an app’s ui_locales applies to a visitor without a choice, unstored; a chosen country wins', async () => {
    localStorage.removeItem('appLanguage');
    await i18n.changeLanguage('es');
    await applyRequestedLanguage('fr-CA');
    expect(i18n.language).toBe('fr');
    expect(localStorage.getItem('appLanguage')).toBeNull();

    await selectCountry('DE');
    await applyRequestedLanguage('ja');
    expect(i18n.language).toBe('de');
  });

  it('keeps the app’s ui_locales language when the session changes (signing out on the logout page), until a country is picked', async () => {
    await startLanguageSync();
    localStorage.removeItem('appLanguage');
    await i18n.changeLanguage('es');
    await applyRequestedLanguage('en');
    expect(i18n.language).toBe('en');
    // The storage listener switches languages synchronously when it does: none may start here.
    const change = vi.spyOn(i18n, 'changeLanguage');
    writeItem('authToken', 't');
    removeItems('authToken');
    window.dispatchEvent(new StorageEvent('storage', { key: 'authToken', newValue: null }));
    expect(change).not.toHaveBeenCalled();
    expect(i18n.language).toBe('en');
    change.mockRestore();
    await selectCountry('IT');
    expect(i18n.language).toBe('it');
  });
});
