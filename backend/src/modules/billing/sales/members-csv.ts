import type { Language, SalesMember } from '@life/contracts';
import { msg, render, type Message } from '../../../core/i18n/messages.js';
import { editionById } from '../editions.js';

/** Byte order mark: Excel reads a CSV as UTF-8 only when it starts with one. */
export const UTF8_BOM = '\uFEFF';

/**
 * Spreadsheets run a cell that starts with one of these as a formula (OWASP "CSV injection"):
 * such a cell gets a leading apostrophe, which shows it as text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field per RFC 4180: quoted when it holds a comma, a quote or a line break (quotes doubled). */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  // Excel in a locale whose list separator is `;` splits a cell there: neutralise what follows one too.
  if (typeof value === 'string') text = text.replace(/;(?=[=+\-@\t\r])/g, ";'");
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, with RFC 4180's CRLF line end. */
export const csvRecord = (fields: readonly (string | number)[]): string => `${fields.map(csvField).join(',')}\r\n`;

const STATUS_NAMES: Record<SalesMember['status'], Message> = {
  active: msg('sales.statuses.active'),
  past_due: msg('sales.statuses.pastDue'),
  cancelled: msg('sales.statuses.cancelled'),
  pending_payment: msg('sales.statuses.pendingPayment'),
  refunded: msg('sales.statuses.refunded'),
  disputed: msg('sales.statuses.disputed'),
};

/** The header record, in the reader's language. */
export function membersCsvHeader(language: Language): string {
  const columns = [
    msg('sales.csv.memberNumber'),
    msg('sales.csv.email'),
    msg('sales.csv.edition'),
    msg('sales.csv.status'),
    msg('sales.csv.monthlyPrice'),
    msg('sales.csv.since'),
    msg('sales.csv.statusSince'),
  ];
  return csvRecord(columns.map((column) => render(column, language)));
}

/** Members as CSV records: plain numbers (a dot before the cents), ISO 8601 times in UTC. */
export function membersCsvRecords(members: readonly SalesMember[], language: Language): string {
  return members
    .map((member) =>
      csvRecord([
        member.member_number,
        member.email ?? render(msg('sales.erasedAccount'), language),
        editionById(member.edition)?.name ?? member.edition,
        render(STATUS_NAMES[member.status], language),
        (member.price_cents / 100).toFixed(2),
        member.since,
        member.status_at,
      ]),
    )
    .join('');
}
