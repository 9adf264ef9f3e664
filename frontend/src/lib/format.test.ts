import { describe, expect, it } from 'vitest';
import i18n from '@/i18n/i18n';
import { selectCountry } from '@/i18n/language';
import { formatDate, formatDateTime, formatLocale, formatNumber, formatPrice, formatRelativeTime, formatTime } from './format';

const AT = '2026-11-20T10:30:00.000Z';
/** Intl separates some amounts with no-break spaces: compare with plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('format helpers', () => {
  it('follow Spanish by default, as Date#toLocaleString would', () => {
    expect(formatLocale()).toBe('es-ES');
    expect(formatDateTime(AT)).toBe(new Date(AT).toLocaleString('es'));
    expect(formatTime(AT)).toBe(new Date(AT).toLocaleTimeString('es'));
    expect(formatDate(AT)).toBe(new Date(AT).toLocaleDateString('es', { dateStyle: 'long' }));
    expect(plain(formatPrice(2))).toBe('2 €');
    expect(plain(formatPrice(2.5))).toBe('2,50 €');
    expect(formatNumber(20000, { useGrouping: 'always' })).toBe('20.000');
  });

  it.each([
    ['US', 'en-US', '€2', 'November 20, 2026'],
    ['GB', 'en-GB', '€2', '20 November 2026'],
    ['DE', 'de-DE', '2 €', '20. November 2026'],
    ['FR', 'fr-FR', '2 €', '20 novembre 2026'],
    ['BR', 'pt-BR', '€ 2', '20 de novembro de 2026'],
    ['IT', 'it-IT', '2 €', '20 novembre 2026'],
    ['JP', 'ja-JP', '€2', '2026年11月20日'],
    ['CN', 'zh-CN', '€2', '2026年11月20日'],
  ] as const)('follow the chosen country %s (%s)', async (country, locale, price, date) => {
    await selectCountry(country);
    expect(formatLocale()).toBe(locale);
    expect(plain(formatPrice(2, 'eur'))).toBe(price);
    expect(formatDate(AT)).toBe(date);
  });

  it('use the UI language alone when the country speaks another', async () => {
    await i18n.changeLanguage('en');
    expect(formatLocale()).toBe('en');
    expect(formatDate(new Date(AT))).toBe('November 20, 2026');
  });

  it('keep cents when asked and say relative times in the language', async () => {
    expect(plain(formatPrice(4, 'EUR', { minimumFractionDigits: 2, maximumFractionDigits: 2 }))).toBe('4,00 €');
    expect(formatRelativeTime(-5, 'minute')).toBe('hace 5 minutos');
    await selectCountry('JP');
    expect(formatRelativeTime(-5, 'minute')).toBe('5 分前');
  });

  it('show an unreadable date as it came instead of throwing', () => {
    expect(formatDateTime('not a date')).toBe('not a date');
    expect(formatDate(Number.NaN)).toBe('');
  });
});
