import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';
import es from './locales/es.json';

/** Spanish is the source language; every key exists in es.json first. */
export const SOURCE_LANGUAGE = 'es';

export const resources = {
  es: { translation: es },
  en: { translation: en },
} as const;

export type UiLanguage = keyof typeof resources;

export const SUPPORTED_UI_LANGUAGES = Object.keys(resources) as UiLanguage[];

void i18n.use(initReactI18next).init({
  resources,
  lng: SOURCE_LANGUAGE,
  fallbackLng: SOURCE_LANGUAGE,
  supportedLngs: SUPPORTED_UI_LANGUAGES,
  // Resources are bundled, so init can finish synchronously before the first render.
  initAsync: false,
  interpolation: { escapeValue: false }, // React already escapes.
  returnNull: false,
});

export default i18n;
