import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LOCALE_CODES, type LocaleCode } from './countries';
// Only the parts of Spanish the landing page and the header show (Vite's named JSON imports keep
// the rest out of the bundle); `loadAllSpanish` adds the rest for every other page. Issue 15.
import { app, billing, common, countryPicker, footer, header, landing, loginDialog, loginError, notFound, sideMenu } from './locales/es.json';

/** Spanish is the source language; every key exists in es.json first. */
export const SOURCE_LANGUAGE = 'es';

export type UiLanguage = LocaleCode;

export const SUPPORTED_UI_LANGUAGES: readonly UiLanguage[] = LOCALE_CODES;

/** What the landing page (and its header and footer, dialogs included) needs of Spanish. */
const FIRST_PAINT_SPANISH = { app, billing, common, countryPicker, footer, header, landing, loginDialog, loginError, notFound, sideMenu };

/** All of es.json, as its own module (the query gives it its own chunk). */
const loadSpanish = (): Promise<{ default: ResourceKey }> => import('./locales/es.json?all');

let allSpanish: Promise<void> | undefined;

/**
 * Adds the rest of Spanish (the source, and every language's fallback) to what is bundled. The
 * root route awaits it before any page other than `/`, the admin panel with its code, and the
 * header asks for it when the page is idle. Resolves at once once done.
 */
export function loadAllSpanish(): Promise<void> {
  allSpanish ??= loadSpanish().then(
    (module) => {
      i18n.addResourceBundle(SOURCE_LANGUAGE, 'translation', module.default, true, false);
    },
    (error: unknown) => {
      allSpanish = undefined;
      throw error;
    },
  );
  return allSpanish;
}

/**
 * The landing page's Spanish is bundled (it is the default and the fallback for any missing
 * key); every other language is its own chunk, fetched the first time someone switches to it.
 */
const LOADERS: Record<Exclude<UiLanguage, typeof SOURCE_LANGUAGE>, () => Promise<{ default: ResourceKey }>> = {
  en: () => import('./locales/en.json'),
  pt: () => import('./locales/pt.json'),
  fr: () => import('./locales/fr.json'),
  de: () => import('./locales/de.json'),
  it: () => import('./locales/it.json'),
  ja: () => import('./locales/ja.json'),
  zh: () => import('./locales/zh.json'),
};

/** Loads the messages of one language (Spanish included) as a plain object. */
export async function loadMessages(language: UiLanguage): Promise<ResourceKey> {
  return language === SOURCE_LANGUAGE ? (await loadSpanish()).default : (await LOADERS[language]()).default;
}

/** An i18next backend reading the locale chunks above, so `changeLanguage` waits for them. */
const localeChunks: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init() {},
  read(language, _namespace, callback) {
    if (!(SUPPORTED_UI_LANGUAGES as readonly string[]).includes(language)) {
      callback(new Error(`No locale file for ${language}`), false);
      return;
    }
    loadMessages(language as UiLanguage).then(
      (messages) => callback(null, messages),
      (error: unknown) => callback(error instanceof Error ? error : String(error), false),
    );
  },
};

void i18n
  .use(localeChunks)
  .use(initReactI18next)
  .init({
    resources: { [SOURCE_LANGUAGE]: { translation: FIRST_PAINT_SPANISH } },
    // Spanish is in the bundle; the backend fetches the other languages.
    partialBundledLanguages: true,
    lng: SOURCE_LANGUAGE,
    fallbackLng: SOURCE_LANGUAGE,
    supportedLngs: SUPPORTED_UI_LANGUAGES,
    load: 'languageOnly',
    // Spanish is bundled, so init finishes synchronously before the first render.
    initAsync: false,
    interpolation: { escapeValue: false }, // React already escapes.
    returnNull: false,
  });

/** `<html lang>` always names the language the UI is showing. */
function setDocumentLanguage(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

setDocumentLanguage(i18n.language);
i18n.on('languageChanged', setDocumentLanguage);

export default i18n;
