import { afterEach, describe, expect, it } from 'vitest';
import i18n from '@/i18n/i18n';
import { dayItem } from '../test/fixtures';
import { codeLabel, formatAgo, formatDayHeading, formatDuration, headlineText, inTimeOrder } from './day-items';

const NOW = new Date(2026, 10, 28, 12, 0).getTime();
const ago = (ms: number) => new Date(NOW - ms).toISOString();

afterEach(async () => {
  await i18n.changeLanguage('es');
});

describe('formatAgo', () => {
  it('says how long ago, in the language on screen', async () => {
    expect(formatAgo(ago(10_000), NOW)).toBe('ahora');
    expect(formatAgo(ago(3 * 60_000), NOW)).toBe('hace 3 min');
    expect(formatAgo(ago(2 * 3_600_000), NOW)).toBe('hace 2 h');
    expect(formatAgo(ago(26 * 3_600_000), NOW)).toBe('ayer');
    // A clock a little ahead of the server's is "now", never "in 2 min".
    expect(formatAgo(ago(-120_000), NOW)).toBe('ahora');
    await i18n.changeLanguage('en');
    expect(formatAgo(ago(3 * 60_000), NOW)).toBe('3 min. ago');
  });
});

describe('formatDuration', () => {
  it('writes minutes as hours and minutes', () => {
    expect(formatDuration(452)).toBe('7 h 32 min');
    expect(formatDuration(480)).toBe('8 h');
    expect(formatDuration(25)).toBe('25 min');
  });
});

describe('formatDayHeading', () => {
  it('names the calendar day as it is, whatever the browser’s zone', async () => {
    expect(formatDayHeading('2026-11-28')).toBe('sábado, 28 de noviembre');
    await i18n.changeLanguage('en');
    expect(formatDayHeading('2026-11-28')).toBe('Saturday, November 28');
  });
});

describe('headlineText', () => {
  const t = i18n.t.bind(i18n);
  it('says what is playing, the steps (singular and plural), the sleep and a light', () => {
    expect(headlineText(t, dayItem({ live: true, title: 'Heroes' }))).toBe('Sonando ahora: Heroes');
    expect(headlineText(t, dayItem({ live: false, title: 'Heroes' }))).toBe('Lo último que sonó: Heroes');
    expect(headlineText(t, dayItem({ kind: 'steps', title: 'Pasos', value: 12345 }))).toBe('12.345 pasos hoy');
    expect(headlineText(t, dayItem({ kind: 'steps', title: 'Pasos', value: 1 }))).toBe('1 paso hoy');
    expect(headlineText(t, dayItem({ kind: 'sleep', title: 'Sueño', value: 452 }))).toBe('Dormiste 7 h 32 min');
    expect(headlineText(t, dayItem({ kind: 'light', title: 'Lámpara', on: true }))).toBe('Lámpara: encendida');
    expect(headlineText(t, dayItem({ kind: 'light', code: 'lights_on', title: '1 de 2 luces encendidas', value: 1, on: true }))).toBe(
      '1 de 2 luces encendidas',
    );
    expect(headlineText(t, dayItem({ kind: 'guardian', title: 'Aurora', code: 'hunter', value: 1800 }))).toBe('Cazador · luz 1800');
  });
});

describe('codeLabel', () => {
  const t = i18n.t.bind(i18n);
  it('translates a class whatever its spelling, and shows an unknown code readably', () => {
    expect(codeLabel(t, 'wowClasses', 'death_knight')).toBe('Caballero de la Muerte');
    expect(codeLabel(t, 'wowClasses', 'Death-Knight')).toBe('Caballero de la Muerte');
    expect(codeLabel(t, 'destinyClasses', 'warlock')).toBe('Hechicero');
    expect(codeLabel(t, 'fileKinds', 'sound_file')).toBe('Sound file');
    expect(codeLabel(t, 'fileKinds', null)).toBeNull();
  });
});

describe('inTimeOrder', () => {
  it('puts all-day items first, then by time; equal times keep their order', () => {
    const items = [
      dayItem({ id: 'b', at: '2026-11-28T10:00:00+01:00' }),
      dayItem({ id: 'a', at: null, date: '2026-11-28' }),
      dayItem({ id: 'c', at: '2026-11-28T08:00:00Z' }),
      dayItem({ id: 'd', at: '2026-11-28T09:00:00Z' }),
      dayItem({ id: 'e', at: null, date: '2026-11-28' }),
    ];
    expect(inTimeOrder(items).map((item) => item.id)).toEqual(['a', 'e', 'c', 'b', 'd']);
  });
});
