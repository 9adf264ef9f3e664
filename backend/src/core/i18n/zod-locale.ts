import type { Language } from '@life/contracts';
import type { z } from 'zod';
import { de, en, es, fr, it, ja, pt, zhCN } from 'zod/locales';

const ERROR_MAPS: Readonly<Record<Language, z.core.$ZodErrorMap>> = {
  es: es().localeError,
  en: en().localeError,
  pt: pt().localeError,
  fr: fr().localeError,
  de: de().localeError,
  it: it().localeError,
  ja: ja().localeError,
  zh: zhCN().localeError,
};

/**
 * Zod's own messages (too short, wrong type…) in the request's language, for one parse. Messages a
 * schema sets itself win over these and are translated from Spanish like every API text.
 */
export const zodErrorMap = (language: Language): z.core.$ZodErrorMap => ERROR_MAPS[language];
