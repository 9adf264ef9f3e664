import { isLanguage, LANGUAGES, SOURCE_LANGUAGE, type Language } from '@life/contracts';
import Negotiator from 'negotiator';

/** Longer Accept-Language headers are cut here before parsing (a browser sends a few dozen bytes). */
const MAX_HEADER_LENGTH = 512;

/**
 * The language to answer in: the best of our eight for the request's `Accept-Language`
 * (q-values and regional variants understood: `pt-BR` → pt, `zh-CN` → zh), else Spanish.
 * The SPA sends the language on screen; other clients get Spanish unless they ask.
 */
export function negotiateLanguage(acceptLanguage: string | string[] | undefined): Language {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  if (!header) return SOURCE_LANGUAGE;
  const chosen = new Negotiator({ headers: { 'accept-language': header.slice(0, MAX_HEADER_LENGTH) } }).language([...LANGUAGES]);
  return isLanguage(chosen) ? chosen : SOURCE_LANGUAGE;
}

/** The language of one request (Fastify's or Node's request: both carry `headers`). */
export function requestLanguage(request: { headers?: Record<string, string | string[] | undefined> } | undefined): Language {
  return negotiateLanguage(request?.headers?.['accept-language']);
}
