import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@life/contracts';
import { readItem, subscribeToStorage, writeItem } from '@/lib/local-store';
import { DEFAULT_COUNTRY, findCountry, isCountryCode, type CountryCode } from './countries';
import i18n, { SOURCE_LANGUAGE, SUPPORTED_UI_LANGUAGES, type UiLanguage } from './i18n';

/** The stored country (localStorage `appLanguage` holds a country code such as "BR"), default ES. */
export function getStoredCountry(): CountryCode {
  const stored = readItem(STORAGE_KEYS.appLanguage);
  return isCountryCode(stored) ? stored : DEFAULT_COUNTRY;
}

/** The UI language for a country: its own when a locale file exists, otherwise Spanish. */
export function uiLanguageFor(code: CountryCode): UiLanguage {
  const locale = findCountry(code).locale;
  return (SUPPORTED_UI_LANGUAGES as string[]).includes(locale) ? (locale as UiLanguage) : SOURCE_LANGUAGE;
}

function applyCountry(code: CountryCode): void {
  const language = uiLanguageFor(code);
  document.documentElement.lang = language;
  if (i18n.language !== language) void i18n.changeLanguage(language);
}

export function selectCountry(code: CountryCode): void {
  writeItem(STORAGE_KEYS.appLanguage, code);
  applyCountry(code);
}

let started = false;

/** Applies the stored preference now and whenever it changes (also from another tab). */
export function startLanguageSync(): void {
  applyCountry(getStoredCountry());
  if (started) return;
  started = true;
  subscribeToStorage(() => applyCountry(getStoredCountry()));
}

export function useCountry(): CountryCode {
  return useSyncExternalStore(subscribeToStorage, getStoredCountry, () => DEFAULT_COUNTRY);
}
