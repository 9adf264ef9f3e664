import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@/lib/contract-constants';
import { readItem, subscribeToStorage, writeItem } from '@/lib/local-store';
import { DEFAULT_COUNTRY, findCountry, isCountryCode, isLocaleCode, type CountryCode } from './countries';
import i18n, { type UiLanguage } from './i18n';

/** The stored country (localStorage `appLanguage` holds a country code such as "BR"), default ES. */
export function getStoredCountry(): CountryCode {
  const stored = readItem(STORAGE_KEYS.appLanguage);
  return isCountryCode(stored) ? stored : DEFAULT_COUNTRY;
}

/** The UI language for a country: every country's language has a locale file. */
export function uiLanguageFor(code: CountryCode): UiLanguage {
  return findCountry(code).locale;
}

/** The language asked for last, while its locale file is still on its way, and that wait. */
let pendingLanguage: UiLanguage | undefined;
let pendingChange: Promise<void> = Promise.resolve();
/** The country whose formats (dates, prices) the UI shows. */
let shownCountry: CountryCode | undefined;

/**
 * Switches the UI to the country's language (fetching its messages first, so the
 * page never shows missing keys) and `<html lang>` with it. Resolves once applied.
 */
function applyCountry(code: CountryCode): Promise<void> {
  const language = uiLanguageFor(code);
  const regionChanged = shownCountry !== undefined && shownCountry !== code;
  shownCountry = code;
  if (pendingLanguage !== undefined && language === pendingLanguage) return pendingChange;
  if (pendingLanguage === undefined && language === i18n.language) {
    // Same language, another country (Spain and Mexico, the US and the UK): only the
    // date and price formats change, so re-render what uses them.
    if (regionChanged) i18n.emit('languageChanged', language);
    return Promise.resolve();
  }
  const settle = () => {
    if (pendingLanguage === language) pendingLanguage = undefined;
  };
  pendingLanguage = language;
  pendingChange = i18n.changeLanguage(language).then(settle, settle);
  return pendingChange;
}

/** Stores the choice (a country code, as the spec's Session `appLanguage`) and applies it at once. */
export function selectCountry(code: CountryCode): Promise<void> {
  writeItem(STORAGE_KEYS.appLanguage, code);
  return applyCountry(code);
}

let started = false;

/** The language an app asked for on this visit (`ui_locales`), while the person has chosen none. */
let requestedLanguage: UiLanguage | undefined;

/**
 * Applies the stored preference now and whenever it changes (also from another tab).
 * Resolves when the stored language is showing, so start-up can wait for it before rendering.
 */
export function startLanguageSync(): Promise<void> {
  const applied = applyCountry(getStoredCountry());
  if (!started) {
    started = true;
    // A change of session (signing out on the RP-initiated logout page, signing in in another
    // tab) must not undo the language an app asked for; a country the person picks does.
    subscribeToStorage(() => {
      if (requestedLanguage && !isCountryCode(readItem(STORAGE_KEYS.appLanguage))) return;
      void applyCountry(getStoredCountry());
    });
  }
  return applied;
}

/**
 * OpenID Connect's `ui_locales` (space-separated language tags, preferred first): the first one
 * we speak (`pt-BR` → pt), if any.
 */
export function languageFromUiLocales(uiLocales: string | null): UiLanguage | undefined {
  for (const tag of (uiLocales ?? '').slice(0, 200).split(' ')) {
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (isLocaleCode(primary)) return primary;
  }
  return undefined;
}

/**
 * An app may ask for the consent screen in a language (`ui_locales`). A person who has picked a
 * country keeps their choice; otherwise the screen switches to the app's language for this visit,
 * without storing it.
 */
export function applyRequestedLanguage(uiLocales: string | null): Promise<void> {
  const wanted = languageFromUiLocales(uiLocales);
  if (!wanted || isCountryCode(readItem(STORAGE_KEYS.appLanguage))) return Promise.resolve();
  requestedLanguage = wanted;
  if (wanted === i18n.language) return Promise.resolve();
  return i18n.changeLanguage(wanted).then(() => undefined);
}

export function useCountry(): CountryCode {
  return useSyncExternalStore(subscribeToStorage, getStoredCountry, () => DEFAULT_COUNTRY);
}
