import { findCountry } from '@/i18n/countries';
import i18n from '@/i18n/i18n';
import { getStoredCountry } from '@/i18n/language';

/**
 * Dates, times, numbers and prices in the UI language. Read at render time: components
 * that call these already re-render on a language change through `useTranslation`.
 */

/**
 * The locale to format with: the UI language, narrowed to the chosen country when it
 * speaks that language (en-GB writes 20/11/2026 where en-US writes 11/20/2026).
 */
export function formatLocale(language: string = i18n.language): string {
  const country = findCountry(getStoredCountry());
  return country.locale === language ? `${language}-${country.code}` : language;
}

type DateInput = Date | string | number;

/** What `Date#toLocaleString` shows: numeric date and time with seconds. */
const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
};
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: 'numeric', second: 'numeric' };

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>();

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>(kind: string, options: object, make: (locale: string) => T): T {
  const locale = formatLocale();
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let formatter = cache.get(key) as T | undefined;
  if (!formatter) {
    formatter = make(locale);
    cache.set(key, formatter);
  }
  return formatter;
}

function formatDateWith(value: DateInput, options: Intl.DateTimeFormatOptions): string {
  const date = value instanceof Date ? value : new Date(value);
  // An unreadable date is shown as it came rather than throwing mid-render.
  if (Number.isNaN(date.getTime())) return typeof value === 'string' ? value : '';
  return cached('date', options, (locale) => new Intl.DateTimeFormat(locale, options)).format(date);
}

/** A day, long by default: "15 de marzo de 2025", "March 15, 2025", "2025年3月15日". */
export function formatDate(value: DateInput, options: Intl.DateTimeFormatOptions = { dateStyle: 'long' }): string {
  return formatDateWith(value, options);
}

/** Date and time, numeric with seconds by default ("20/11/2026, 10:30:00"), for tables and logs. */
export function formatDateTime(value: DateInput, options: Intl.DateTimeFormatOptions = DATE_TIME): string {
  return formatDateWith(value, options);
}

/** A time of day with seconds ("10:30:00", "10:30:00 AM"). */
export function formatTime(value: DateInput, options: Intl.DateTimeFormatOptions = TIME): string {
  return formatDateWith(value, options);
}

export function formatNumber(value: number, options: Intl.NumberFormatOptions = {}): string {
  return cached('number', options, (locale) => new Intl.NumberFormat(locale, options)).format(value);
}

/**
 * A price in the UI language's style: "2 €", "€2", "2 €" (German), "€ 2" (Portuguese).
 * Whole amounts drop the decimals unless `options` asks for them.
 */
export function formatPrice(amount: number, currency = 'EUR', options: Intl.NumberFormatOptions = {}): string {
  const whole: Intl.NumberFormatOptions = Number.isInteger(amount) ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {};
  return formatNumber(amount, { style: 'currency', currency: currency.toUpperCase(), ...whole, ...options });
}

/** "hace 5 minutos", "5 minutes ago", "5 分前". */
export function formatRelativeTime(value: number, unit: Intl.RelativeTimeFormatUnit, options: Intl.RelativeTimeFormatOptions = { numeric: 'auto' }): string {
  return cached('relative', options, (locale) => new Intl.RelativeTimeFormat(locale, options)).format(value, unit);
}
