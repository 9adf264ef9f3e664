import type { Language } from '@life/contracts';
import type { z } from 'zod';
import { de, en, es, fr, it, ja, pt, zhCN } from 'zod/locales';
import { isMessageId, msg, type MessageValues, type Text } from './messages.js';

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
 * schema sets itself are message ids (`validation.*`) and win over these.
 */
export const zodErrorMap = (language: Language): z.core.$ZodErrorMap => ERROR_MAPS[language];

/**
 * The text of one zod issue: a schema's message id with the values the issue carries (a length's
 * `minimum` or `maximum`, a refinement's `params`), or zod's own words as they came.
 */
export function issueText(issue: z.core.$ZodIssue): Text {
  if (!isMessageId(issue.message)) return issue.message;
  const values: Record<string, string | number> = {};
  const bounds = issue as { minimum?: unknown; maximum?: unknown };
  for (const key of ['minimum', 'maximum'] as const) {
    const value = bounds[key];
    if (typeof value === 'number' || typeof value === 'bigint') values[key] = Number(value);
  }
  if (issue.code === 'custom') {
    for (const [key, value] of Object.entries(issue.params ?? {})) if (typeof value === 'string' || typeof value === 'number') values[key] = value;
  }
  return msg(issue.message, values as MessageValues);
}
