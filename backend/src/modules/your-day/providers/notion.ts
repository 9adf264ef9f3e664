import type { DayItem } from '@life/contracts';
import { answerObject, dayItem, httpsUrl, idOf, inLanguage, instant, list, onToday, record, text } from './untrusted-json.js';
import { ProviderCallError, type ViewFetcher } from './types.js';

/* Notion (API, https://api.notion.com/v1; the Notion-Version header comes with the credentials). */

const SERVICE = 'notion';
const SHOWN = 10;

const UNTITLED: Record<string, string> & { en: string } = {
  en: 'Untitled',
  es: 'Sin título',
  de: 'Ohne Titel',
  fr: 'Sans titre',
  it: 'Senza titolo',
  pt: 'Sem título',
  ja: '無題',
  zh: '无标题',
};

/** A page's title: the plain text of its one `title` property (`title` on a page, `Name`… on a database row). */
function pageTitle(properties: unknown): string | null {
  const all = record(properties);
  if (!all) return null;
  for (const value of Object.values(all).slice(0, 200)) {
    const property = record(value);
    if (property?.type !== 'title') continue;
    const plain = list(property.title)
      .slice(0, 100)
      .map((part) => {
        const piece = record(part);
        return typeof piece?.plain_text === 'string' ? piece.plain_text.slice(0, 2000) : '';
      })
      .join('');
    return text(plain);
  }
  return null;
}

function pageItem(value: unknown, language: string): DayItem | null {
  const page = record(value);
  if (page?.object !== 'page' || page.archived === true || page.in_trash === true) return null;
  const id = idOf(page.id);
  const at = instant(page.last_edited_time);
  if (!id || !at) return null;
  return dayItem({
    id,
    service: SERVICE,
    kind: 'page',
    title: pageTitle(page.properties) || inLanguage(UNTITLED, language),
    url: httpsUrl(page.url),
    at,
  });
}

/**
 * Notion: the pages the person shared with Life, most recently edited first (`POST search`,
 * pages only, sorted by `last_edited_time`). Notion has no scopes: the person picks the pages
 * when connecting, and search only finds those.
 */
export const notionView: ViewFetcher = {
  service: SERVICE,
  // Notion allows an average of three requests a second per connection (bursts allowed, 429 with
  // Retry-After beyond). A fetch is one call, so the limit is far; edits are what the view shows,
  // and a page edited a few minutes ago can wait: every 10 minutes.
  intervalMs: 10 * 60_000,
  async fetch(call, context) {
    const answer = answerObject(
      await call({
        method: 'POST',
        path: 'search',
        body: {
          sort: { direction: 'descending', timestamp: 'last_edited_time' },
          filter: { property: 'object', value: 'page' },
          page_size: SHOWN,
        },
      }),
    );
    if (!Array.isArray(answer.results)) throw new ProviderCallError('provider_down', 200, null, 'unexpected answer');

    const seen = new Set<string>();
    const pages: DayItem[] = [];
    for (const value of answer.results.slice(0, 100)) {
      const item = pageItem(value, context.language);
      if (!item || seen.has(item.id)) continue;
      seen.add(item.id);
      pages.push(item);
    }
    pages.sort((a, b) => Date.parse(b.at!) - Date.parse(a.at!));
    const recent = pages.slice(0, SHOWN);

    return {
      headline: recent[0] ?? null,
      sections: [{ key: 'recent_pages', items: recent }],
      timeline: onToday(recent, context),
    };
  },
};
