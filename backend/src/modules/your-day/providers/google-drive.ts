import type { DayItem } from '@life/contracts';
import { answerObject, dayItem, httpsUrl, idOf, instant, list, onToday, record, text } from './untrusted-json.js';
import type { ViewFetcher } from './types.js';

/* Google Drive (API v3, https://www.googleapis.com/drive/v3). */

const SERVICE = 'googledrive';
const PAGE_SIZE = 10;

const KINDS: Record<string, string> = {
  'application/vnd.google-apps.document': 'document',
  'application/vnd.google-apps.spreadsheet': 'spreadsheet',
  'application/vnd.google-apps.presentation': 'presentation',
  'application/vnd.google-apps.folder': 'folder',
  'application/pdf': 'pdf',
  'application/msword': 'document',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'document',
  'application/vnd.oasis.opendocument.text': 'document',
  'application/vnd.ms-excel': 'spreadsheet',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'spreadsheet',
  'application/vnd.oasis.opendocument.spreadsheet': 'spreadsheet',
  'application/vnd.ms-powerpoint': 'presentation',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'presentation',
  'application/vnd.oasis.opendocument.presentation': 'presentation',
};

/** The file's kind, a code the screens translate: document, spreadsheet, presentation, folder, pdf, image, video or file. */
export function fileKind(mimeType: unknown): string {
  if (typeof mimeType !== 'string') return 'file';
  const found = KINDS[mimeType];
  if (found) return found;
  if (mimeType.startsWith('image/') || mimeType === 'application/vnd.google-apps.photo') return 'image';
  if (mimeType.startsWith('video/') || mimeType === 'application/vnd.google-apps.video') return 'video';
  return 'file';
}

function fileItem(value: unknown): DayItem | null {
  const file = record(value);
  const id = idOf(file?.id);
  const title = text(file?.name);
  if (!file || !id || !title || file.trashed === true) return null;
  return dayItem({
    id,
    service: SERVICE,
    kind: 'file',
    title,
    url: httpsUrl(file.webViewLink),
    at: instant(file.modifiedTime),
    code: fileKind(file.mimeType),
  });
}

/**
 * Google Drive: the files changed last (`files` by `modifiedTime desc`, not in the trash), linked
 * to open them. Scope: `drive.metadata.readonly` (`drive.file` only sees files this app made).
 */
export const googleDriveView: ViewFetcher = {
  service: SERVICE,
  // Drive's quota is 12,000 queries a minute per project (shared by every person) and per user.
  // A fetch is one call; a person's files change a few times a day, so every 15 minutes is fresh
  // enough and keeps a large crowd far from the project's limit.
  intervalMs: 15 * 60_000,
  async fetch(call, context) {
    const answer = answerObject(
      await call({
        path: 'drive/v3/files',
        query: {
          orderBy: 'modifiedTime desc',
          pageSize: String(PAGE_SIZE),
          fields: 'files(id,name,mimeType,modifiedTime,webViewLink,trashed)',
          q: 'trashed=false',
        },
      }),
    );
    const seen = new Set<string>();
    const files = list(answer.files)
      .map(fileItem)
      .filter((item): item is DayItem => item !== null && !seen.has(item.id) && !!seen.add(item.id))
      .sort((a, b) => (b.at ? Date.parse(b.at) : 0) - (a.at ? Date.parse(a.at) : 0))
      .slice(0, PAGE_SIZE);
    return {
      headline: files[0] ?? null,
      sections: [{ key: 'recent_files', items: files }],
      timeline: onToday(files, context),
    };
  },
};
