import type { Language } from '@life/contracts';
import { de } from './catalogs/de.js';
import { en } from './catalogs/en.js';
import { fr } from './catalogs/fr.js';
import { it } from './catalogs/it.js';
import { ja } from './catalogs/ja.js';
import { pt } from './catalogs/pt.js';
import { zh } from './catalogs/zh.js';

/**
 * One language's translations of the API's Spanish texts, keyed by the Spanish text itself (as
 * gettext keys by msgid). A text built from parts uses `{0}`, `{1}`… where the code puts a value,
 * numbered in the order they appear in Spanish; a translation may put them in any order.
 */
export type Catalog = Readonly<Record<string, string>>;

export const CATALOGS: Readonly<Record<Exclude<Language, 'es'>, Catalog>> = { en, pt, fr, de, it, ja, zh };

const PLACEHOLDER = /\{(\d+)\}/g;

interface Pattern {
  template: string;
  regex: RegExp;
}

/** `Falta {0}.` → /^Falta (.+?)\.$/s: how a finished Spanish text is recognised as that template. */
export function templatePattern(template: string): RegExp {
  const parts = template.split(/\{\d+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('(.+?)')}$`, 's');
}

/** The templates (keys with placeholders), longest first so the most specific one wins. */
const PATTERNS: readonly Pattern[] = Object.keys(en)
  .filter((key) => /\{\d+\}/.test(key))
  .sort((a, b) => b.length - a.length)
  .map((template) => ({ template, regex: templatePattern(template) }));

/**
 * A Spanish text of the API in the asked language. Exact texts are looked up; texts built from a
 * template are recognised by its pattern and rebuilt with the same values. Anything not in the
 * catalogs (a name an admin typed, a provider's own words) comes back as it was.
 */
export function translate(text: string, language: Language): string {
  if (language === 'es' || text === '') return text;
  const catalog = CATALOGS[language];
  const exact = catalog[text];
  if (exact !== undefined) return exact;
  for (const pattern of PATTERNS) {
    const match = pattern.regex.exec(text);
    const target = match ? catalog[pattern.template] : undefined;
    if (match && target !== undefined) return target.replace(PLACEHOLDER, (_, index: string) => match[Number(index) + 1] ?? '');
  }
  return text;
}
