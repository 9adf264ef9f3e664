import { describe, expect, it } from 'vitest';
import { LOCALE_CODES } from './countries';

/** Every locale file, read as it is on disk (not through the lazy loaders). */
const files = import.meta.glob<Record<string, unknown>>('./locales/*.json', { eager: true, import: 'default' });
const locales = Object.fromEntries(Object.entries(files).map(([path, messages]) => [path.replace(/^.*\/(\w+)\.json$/, '$1'), messages]));
const es = locales.es!;

/** "a.b.0" → its string, for every leaf (array items included). */
function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  if (value === null || typeof value !== 'object') return new Map([[prefix, value]]);
  return new Map(Object.entries(value).flatMap(([key, child]) => [...leaves(child, prefix ? `${prefix}.${key}` : key)]));
}

/** What a translation must keep: {{interpolations}} and the <tags/> Trans fills in. */
function placeholders(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  return [...text.matchAll(/\{\{\s*[\w.]+\s*\}\}|<\/?\w+\s*\/?>/g)].map(([match]) => match.replace(/\s+/g, '')).sort();
}

const source = leaves(es);
const others = LOCALE_CODES.filter((code) => code !== 'es');

describe('locale files', () => {
  it('exist for exactly the UI languages', () => {
    expect(Object.keys(locales).sort()).toEqual([...LOCALE_CODES].sort());
  });

  describe.each(others)('%s.json', (code) => {
    const messages = leaves(locales[code]);

    it('has every key of es.json (Spanish is the source)', () => {
      const missing = [...source.keys()].filter((key) => !messages.has(key));
      expect(missing, `${code}.json lacks keys that es.json has`).toEqual([]);
    });

    it('has no key that es.json lacks', () => {
      const extra = [...messages.keys()].filter((key) => !source.has(key));
      expect(extra, `${code}.json has keys es.json does not`).toEqual([]);
    });

    it('keeps the placeholders and tags of every Spanish string', () => {
      const different = [...source]
        .filter(([key, text]) => messages.has(key) && placeholders(text).join(' ') !== placeholders(messages.get(key)).join(' '))
        .map(([key, text]) => ({ key, es: placeholders(text), [code]: placeholders(messages.get(key)) }));
      expect(different, `${code}.json strings whose {{placeholders}} or <tags> differ from Spanish`).toEqual([]);
    });

    it('has a non-empty string for every key', () => {
      const empty = [...messages].filter(([, text]) => typeof text !== 'string' || text.trim() === '').map(([key]) => key);
      expect(empty).toEqual([]);
    });
  });

  it('the placeholder check sees a missing or renamed placeholder', () => {
    expect(placeholders('Hola, {{name}}: <strong>{{client_name}}</strong> <company/>')).toEqual(
      ['{{client_name}}', '{{name}}', '</strong>', '<company/>', '<strong>'].sort(),
    );
    expect(placeholders('Hello, {{nombre}}')).not.toEqual(placeholders('Hola, {{name}}'));
  });
});
