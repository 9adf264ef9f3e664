import i18next from 'i18next';
import type { Language } from '@life/contracts';
import { de } from './locales/de.js';
import { en } from './locales/en.js';
import { es } from './locales/es.js';
import { fr } from './locales/fr.js';
import { it } from './locales/it.js';
import { ja } from './locales/ja.js';
import { pt } from './locales/pt.js';
import { zh } from './locales/zh.js';

/** The shape every other language's catalog must have: the Spanish catalog's ids, each with a string. */
export type Translation = { readonly [K in keyof typeof es]: { readonly [L in keyof (typeof es)[K]]: NestedStrings<(typeof es)[K][L]> } };
type NestedStrings<T> = T extends string ? string : { readonly [K in keyof T]: NestedStrings<T[K]> };

type Ids<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Ids<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every text the API answers people with, by id (`auth.inviteNotFound`): the Spanish catalog's keys. */
export type MessageId = Ids<typeof es>;
export type MessageValues = Readonly<Record<string, string | number>>;

/**
 * A text of ours, by id and with the values it is built from. It is rendered in the request's
 * language only when the answer is written, so the code never handles translated sentences.
 */
export interface Message {
  readonly id: MessageId;
  readonly values?: MessageValues;
}

/**
 * What an error or a description carries: a `Message` of ours, or a plain string that is someone
 * else's words (a library's, an identity provider's) and goes out as it is.
 */
export type Text = Message | string;

export const msg = (id: MessageId, values?: MessageValues): Message => (values ? { id, values } : { id });

export const CATALOGS: Readonly<Record<Language, Translation>> = { es, en, pt, fr, de, it, ja, zh };

const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries(Object.entries(CATALOGS).map(([language, catalog]) => [language, { translation: catalog }])),
  lng: 'es',
  fallbackLng: 'es',
  initAsync: false,
  // JSON answers, not HTML: values go in as they are.
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** A message in one language (Spanish when not said); a plain string comes back unchanged. */
export function render(text: Text, language: Language = 'es'): string {
  if (typeof text === 'string') return text;
  return i18n.t(text.id, { lng: language, replace: text.values ?? {} });
}

/** Whether a string is one of our message ids (zod issues carry the id a contract set, or zod's own text). */
export const isMessageId = (text: string): text is MessageId => /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/.test(text) && i18n.exists(text, { lng: 'es' });
