import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { destiny2View } from '../src/modules/your-day/providers/destiny2.js';
import { fitbitView } from '../src/modules/your-day/providers/fitbit.js';
import { notionView } from '../src/modules/your-day/providers/notion.js';
import { philipsHueView, switchHueLight } from '../src/modules/your-day/providers/philips-hue.js';
import { providerCall } from '../src/modules/your-day/providers/provider-call.js';
import { soundcloudView } from '../src/modules/your-day/providers/soundcloud.js';
import { addDays, dayIn } from '../src/modules/your-day/providers/time.js';
import { ProviderCallError, type FetchedView, type ViewContext, type ViewFetcher } from '../src/modules/your-day/providers/types.js';
import { wowView } from '../src/modules/your-day/providers/wow.js';
import { dayContext, expectValid, fakeCall, ids, ms, onTodayIn, section, titles, useDayStandIn, wallIn, type DayStandIn } from './helpers/day-standin.js';

/**
 * Issue 19, "Tu día", part B: the views of Fitbit, Notion, SoundCloud, Philips Hue (and its light
 * switch), World of Warcraft and Destiny 2, fetched from the stand-ins over HTTP with the real
 * providerCall and normalised to the contract; the providers' own ways of refusing (Bungie's
 * ErrorCode and ThrottleSeconds, CLIP v2's errors) become ProviderCallErrors; garbage never
 * becomes a TypeError.
 */

const ZONES = ['Asia/Tokyo', 'America/Los_Angeles'] as const;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * 20:00 UTC three days ago: a fixed past moment whose day differs by zone (Tokyo is already on the
 * next day, Los Angeles is at noon), and whose days the stand-ins hold whole (no day still going on).
 */
const pastMoment = () => new Date(Math.floor(Date.now() / DAY) * DAY - 3 * DAY + 20 * HOUR);

/** The stand-in's own JSON for a path under the connection's API base (to compare the view with). */
async function raw<T>(day: DayStandIn, path: string): Promise<T> {
  const response = await fetch(`${day.credentials.baseUrl}/${path}`, {
    headers: { ...day.credentials.headers, authorization: `${day.credentials.scheme} ${day.credentials.accessToken}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/* ───────────── Fitbit ───────────── */

describe('Fitbit view (stand-in)', () => {
  const day = useDayStandIn('rotating', 'fitbit');

  it.each(ZONES)('reads 7 days of steps and last night’s sleep for the person’s own day (%s)', async (timeZone) => {
    const context = dayContext({ now: pastMoment(), timeZone, language: 'es' });
    const today = dayIn(context.now, timeZone);
    day.standIn.reset();
    const view = await fitbitView.fetch(day.call, context);
    expectValid(view, 'fitbit');

    // Explicit dates, never Fitbit's "today" (the Fitbit profile's day, Madrid here).
    expect(day.standIn.apiCalls.map((c) => c.path).sort()).toEqual([
      `/1.2/user/-/sleep/date/${today}.json`,
      `/1/user/-/activities/steps/date/${today}/7d.json`,
    ]);
    expect(view.sections.map((s) => s.key)).toEqual(['steps_week', 'last_sleep']);

    const week = section(view, 'steps_week');
    expect(week.map((i) => i.date)).toEqual([6, 5, 4, 3, 2, 1, 0].map((n) => addDays(today, -n)));
    const stand = await raw<{ 'activities-steps': { value: string }[] }>(day, `1/user/-/activities/steps/date/${today}/7d.json`);
    expect(week.map((i) => i.value)).toEqual(stand['activities-steps'].map((e) => Number(e.value)));
    for (const item of week)
      expect(item).toMatchObject({ id: `steps-${item.date}`, kind: 'steps', title: 'Pasos', at: null, end_at: null, url: null, on: null, live: false });
    // Whole past days: a person walks more than 2,500 steps a day here.
    expect(week.every((i) => i.value! >= 2_500)).toBe(true);
    expect(view.headline).toEqual(week[6]);

    const [sleep] = section(view, 'last_sleep');
    const { sleep: logs } = await raw<{ sleep: { logId: number; isMainSleep: boolean; startTime: string; endTime: string; minutesAsleep: number }[] }>(
      day,
      `1.2/user/-/sleep/date/${today}.json`,
    );
    const main = logs.find((log) => log.isMainSleep)!;
    expect(sleep).toMatchObject({ id: String(main.logId), kind: 'sleep', title: 'Sueño', value: main.minutesAsleep, date: null, url: null });
    // Fitbit's wall clock (no offset) read in the person's zone.
    expect(wallIn(sleep!.at!, timeZone)).toBe(main.startTime.slice(0, 19));
    expect(wallIn(sleep!.end_at!, timeZone)).toBe(main.endTime.slice(0, 19));
    expect(dayIn(new Date(sleep!.end_at!), timeZone)).toBe(today);
    expect(ms(sleep!.end_at) - ms(sleep!.at)).toBeGreaterThan(sleep!.value! * 60_000 - 1);

    expect(view.timeline).toEqual([week[6], sleep]);
  });

  it('the same night is a different instant in Tokyo and in Los Angeles (its wall clock is the person’s)', async () => {
    const now = pastMoment();
    const tokyo = await fitbitView.fetch(day.call, dayContext({ now, timeZone: 'Asia/Tokyo' }));
    const angeles = await fitbitView.fetch(day.call, dayContext({ now, timeZone: 'America/Los_Angeles' }));
    // Tokyo is already on the next day: its week ends a day later.
    expect(section(tokyo, 'steps_week')[6]!.date).toBe(addDays(section(angeles, 'steps_week')[6]!.date!, 1));
    const [sleepTokyo] = section(tokyo, 'last_sleep');
    const [sleepAngeles] = section(angeles, 'last_sleep');
    expect(sleepTokyo!.id).not.toBe(sleepAngeles!.id);
    expect(new Date(sleepTokyo!.end_at!).getTime()).toBeLessThan(now.getTime() + DAY);
  });

  it('today (the real now, Madrid): today’s steps so far are the headline and the first item of the timeline', async () => {
    const context = dayContext();
    const view = await fitbitView.fetch(day.call, context);
    expectValid(view, 'fitbit');
    const week = section(view, 'steps_week');
    expect(week[6]!.date).toBe(dayIn(context.now, 'Europe/Madrid'));
    expect(view.headline).toEqual(week[6]);
    expect(view.timeline[0]).toEqual(week[6]);
    // Part of a day is at most a whole one.
    expect(week[6]!.value!).toBeLessThanOrEqual(13_500);
  });

  it('takes the main sleep over a nap, skips broken entries, and reads local times across a clock change', async () => {
    // Madrid's clocks go back at 03:00 on 25 Oct 2026: 23:30 → 07:30 is 9 hours.
    const now = new Date('2026-10-25T12:00:00Z');
    const call = fakeCall((request) =>
      request.path.includes('steps')
        ? {
            'activities-steps': [
              { dateTime: '2026-10-19', value: '8412' },
              { dateTime: '2026-10-20', value: 'mucho' },
              { dateTime: '2026-10-21', value: -5 },
              { dateTime: '2026-10-25', value: 10234 },
              { dateTime: '2026-10-10', value: '9999' },
              null,
              'x',
            ],
          }
        : {
            sleep: [
              { logId: 2, isMainSleep: false, startTime: '2026-10-25T10:00:00.000', endTime: '2026-10-25T10:40:00.000', minutesAsleep: 38 },
              { logId: 1, isMainSleep: true, startTime: '2026-10-24T23:30:00.000', endTime: '2026-10-25T07:30:00.000', minutesAsleep: 505 },
              { logId: 3, isMainSleep: true, startTime: '2026-10-24T23:30:00.000', endTime: '2026-10-24T22:00:00.000', minutesAsleep: 5 },
              { logId: 4, isMainSleep: true, startTime: 'anoche', endTime: '2026-10-25T07:00:00.000' },
              { logId: {}, startTime: '2026-10-24T23:00:00.000', endTime: '2026-10-25T07:00:00.000' },
            ],
          },
    );
    const view = await fitbitView.fetch(call, { now, timeZone: 'Europe/Madrid', language: 'en' });
    expectValid(view, 'fitbit');
    expect(call.requests.map((r) => r.path)).toEqual(['1/user/-/activities/steps/date/2026-10-25/7d.json', '1.2/user/-/sleep/date/2026-10-25.json']);
    expect(section(view, 'steps_week').map((i) => [i.date, i.value])).toEqual([
      ['2026-10-19', 8412],
      ['2026-10-20', 0],
      ['2026-10-21', 0],
      ['2026-10-22', 0],
      ['2026-10-23', 0],
      ['2026-10-24', 0],
      ['2026-10-25', 10234],
    ]);
    expect(view.headline).toMatchObject({ title: 'Steps', value: 10234, date: '2026-10-25' });
    expect(section(view, 'last_sleep')).toEqual([
      expect.objectContaining({ id: '1', title: 'Sleep', at: '2026-10-24T21:30:00.000Z', end_at: '2026-10-25T06:30:00.000Z', value: 505 }),
    ]);
  });

  it('an answer that is not Fitbit’s is provider_down; no sleep yet is an empty last_sleep, not an error', async () => {
    const wrong = fakeCall(() => ({ 'activities-heart': [] }));
    await expect(fitbitView.fetch(wrong, dayContext())).rejects.toMatchObject({ failure: 'provider_down', status: 200 });
    const noSleep = fakeCall((r) => (r.path.includes('steps') ? { 'activities-steps': [] } : { sleep: [], summary: { totalSleepRecords: 0 } }));
    const view = await fitbitView.fetch(noSleep, dayContext());
    expect(section(view, 'last_sleep')).toEqual([]);
    expect(section(view, 'steps_week').every((i) => i.value === 0)).toBe(true);
    expect(view.timeline).toHaveLength(1);
  });
});

/* ───────────── Notion ───────────── */

describe('Notion view (stand-in)', () => {
  const day = useDayStandIn('notion', 'notion');

  it('lists the 10 pages edited last, newest first, titled from their title property, linked to Notion', async () => {
    const context = dayContext();
    const view = await notionView.fetch(day.call, context);
    expectValid(view, 'notion');
    expect(view.sections.map((s) => s.key)).toEqual(['recent_pages']);
    const pages = section(view, 'recent_pages');
    // The stand-in shares 11 pages and a database: a page filter and page_size 10.
    expect(pages).toHaveLength(10);
    expect(titles(pages)).not.toContain('Tareas de casa');
    expect(titles(pages).slice(0, 4)).toEqual(['Lista de la compra', 'Ideas para el cumpleaños de Ñoño', '日本語の勉強ノート', 'Recetas de Cocina']);
    // A page without a title reads as Notion shows it, in the person's language.
    expect(titles(pages)).toContain('Sin título');
    expect([...pages].sort((a, b) => ms(b.at) - ms(a.at))).toEqual(pages);
    for (const page of pages) {
      expect(page).toMatchObject({ kind: 'page', subtitle: null, end_at: null, date: null, value: null, code: null, on: null, live: false });
      expect(page.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(page.url).toMatch(/^https:\/\/www\.notion\.so\/([A-Za-z0-9-]+-)?[0-9a-f]{32}$/);
    }
    expect(view.headline).toEqual(pages[0]);
    // Edited 14 minutes ago (Notion rounds to the minute).
    expect(context.now.getTime() - ms(pages[0]!.at)).toBeGreaterThanOrEqual(14 * 60_000);
    expect(context.now.getTime() - ms(pages[0]!.at)).toBeLessThan(16 * 60_000);
    expect(day.standIn.userCalls.at(-1)).toMatchObject({ path: '/v1/search', status: 200, headers: { 'Notion-Version': '2022-06-28' } });

    const english = await notionView.fetch(day.call, dayContext({ language: 'en' }));
    expect(titles(section(english, 'recent_pages'))).toContain('Untitled');
  });

  it.each(ZONES)('puts on the timeline the pages edited today in the person’s zone (%s)', async (timeZone) => {
    const context = dayContext({ timeZone });
    const view = await notionView.fetch(day.call, context);
    const pages = section(view, 'recent_pages');
    expect(ids(view.timeline)).toEqual(ids(onTodayIn(pages, context)));
    // Pages edited more than a day ago are never today's.
    const older = pages.filter((p) => context.now.getTime() - ms(p.at) > 25 * HOUR);
    expect(older.length).toBeGreaterThan(0);
    expect(view.timeline.filter((p) => older.includes(p))).toEqual([]);
  });

  it('skips databases, pages in the trash and broken entries, cuts long titles and keeps only https links', async () => {
    const now = new Date('2026-11-28T10:00:00Z');
    const page = (id: string, title: unknown, edited: string, extra: Record<string, unknown> = {}) => ({
      object: 'page',
      id,
      last_edited_time: edited,
      url: `https://www.notion.so/${id}`,
      properties: { Estado: { type: 'status', status: { name: 'x' } }, Nombre: { type: 'title', title } },
      ...extra,
    });
    const call = fakeCall(() => ({
      object: 'list',
      results: [
        page('p1', [{ plain_text: 'Plan ' }, { plain_text: 'semanal' }], '2026-11-28T09:00:00.000Z'),
        page('p2', [{ plain_text: 'ñ'.repeat(5000) }], '2026-11-28T08:00:00.000Z', { url: 'javascript:alert(1)' }),
        page('p3', [{ plain_text: 'En la papelera' }], '2026-11-28T09:30:00.000Z', { in_trash: true }),
        { object: 'database', id: 'd1', last_edited_time: '2026-11-28T09:40:00.000Z', title: [{ plain_text: 'Base' }] },
        page('p4', [{ plain_text: 'Sin fecha' }], 'ayer'),
        page('p1', [{ plain_text: 'Duplicada' }], '2026-11-28T07:00:00.000Z'),
        page('p5', 'no es una lista', '2026-11-27T07:00:00.000Z', { url: 'http://www.notion.so/p5' }),
        null,
        42,
      ],
    }));
    const view = await notionView.fetch(call, { now, timeZone: 'Europe/Madrid', language: 'es' });
    expectValid(view, 'notion');
    expect(call.requests).toEqual([
      {
        method: 'POST',
        path: 'search',
        body: { sort: { direction: 'descending', timestamp: 'last_edited_time' }, filter: { property: 'object', value: 'page' }, page_size: 10 },
      },
    ]);
    const pages = section(view, 'recent_pages');
    expect(ids(pages)).toEqual(['p1', 'p2', 'p5']);
    expect(pages[0]).toMatchObject({ title: 'Plan semanal', url: 'https://www.notion.so/p1', at: '2026-11-28T09:00:00.000Z' });
    expect(pages[1]).toMatchObject({ title: 'ñ'.repeat(300), url: null });
    expect(pages[2]).toMatchObject({ title: 'Sin título', url: null });
    expect(ids(view.timeline)).toEqual(['p1', 'p2']);
    await expect(
      notionView.fetch(
        fakeCall(() => ({ object: 'list' })),
        dayContext(),
      ),
    ).rejects.toMatchObject({ failure: 'provider_down' });
  });
});

/* ───────────── SoundCloud ───────────── */

describe('SoundCloud view (stand-in)', () => {
  const day = useDayStandIn('soundcloud', 'soundcloud');

  it('lists the 10 latest likes with their artist and link, in SoundCloud’s order, with `Authorization: OAuth`', async () => {
    const context = dayContext();
    const view = await soundcloudView.fetch(day.call, context);
    expectValid(view, 'soundcloud');
    expect(view.sections.map((s) => s.key)).toEqual(['likes']);
    const likes = section(view, 'likes');
    expect(likes).toHaveLength(10);
    expect(titles(likes).slice(0, 3)).toEqual(['Verano en Cádiz', '夜明けのピアノ', 'Cocina de madrugada (lo-fi)']);
    expect(likes[0]).toMatchObject({
      kind: 'like',
      subtitle: 'Ñoño Beats',
      url: 'https://soundcloud.com/nono-beats/verano-en-cadiz',
      end_at: null,
      date: null,
      value: null,
      code: null,
      on: null,
      live: false,
    });
    expect(likes.every((l) => /^\d+$/.test(l.id))).toBe(true);
    // `2026/11/28 09:12:00 +0000` read as an instant: the track went up 3 hours ago.
    expect(Math.abs(context.now.getTime() - 3 * HOUR - ms(likes[0]!.at))).toBeLessThan(2 * 60_000);
    expect(view.headline).toEqual(likes[0]);
    // `me/likes/tracks` does not say when each like was made: nothing goes on today's timeline.
    expect(view.timeline).toEqual([]);
    expect(day.standIn.userCalls.at(-1)).toMatchObject({ path: '/me/likes/tracks', scheme: 'OAuth', status: 200 });
  });

  it.each(ZONES)('with the like’s own time (a like with its track), puts today’s likes on the timeline (%s)', async (timeZone) => {
    const now = new Date('2026-11-28T20:00:00Z');
    const call = fakeCall(() => ({
      collection: [
        {
          kind: 'like',
          created_at: '2026/11/28 19:30:00 +0000',
          track: { kind: 'track', id: 11, title: 'Hoy tarde', user: { username: 'Ñoño' }, created_at: '2020/01/01 00:00:00 +0000' },
        },
        { kind: 'like', created_at: '2026-11-28T10:00:00Z', track: { kind: 'track', id: 12, title: 'Hoy mañana', permalink_url: 'http://soundcloud.com/x' } },
        { kind: 'like', created_at: '2026/11/27 12:00:00 +0000', track: { kind: 'track', id: 13, title: 'Ayer' } },
        { kind: 'playlist', id: 14, title: 'Una lista' },
        { kind: 'track', id: 15, title: 'Sin fecha de like', created_at: '2026/11/28 19:00:00 +0000' },
        { kind: 'like', track: { kind: 'track', id: {}, title: 'Sin id' } },
      ],
      next_href: null,
    }));
    const context: ViewContext = { now, timeZone, language: 'es' };
    const view = await soundcloudView.fetch(call, context);
    expectValid(view, 'soundcloud');
    expect(call.requests).toEqual([{ path: 'me/likes/tracks', query: { limit: '10', linked_partitioning: 'true' } }]);
    const likes = section(view, 'likes');
    expect(ids(likes)).toEqual(['11', '12', '13', '15']);
    expect(likes[0]).toMatchObject({ at: '2026-11-28T19:30:00.000Z', subtitle: 'Ñoño', url: null });
    expect(likes[1]).toMatchObject({ url: null });
    // Tokyo is on 29 Nov (05:00): 19:30 UTC is its 04:30, 10:00 UTC was the 28th. Los Angeles is on
    // 28 Nov (12:00): both are its morning. 27 Nov is no one's today.
    const expected = timeZone === 'Asia/Tokyo' ? ['11'] : ['11', '12'];
    expect(ids(view.timeline)).toEqual(expected);
    expect(ids(view.timeline)).toEqual(ids(onTodayIn(likes.slice(0, 3), context)));
  });

  it('the bare list (without linked_partitioning) is read too; anything else is provider_down', async () => {
    const bare = await soundcloudView.fetch(
      fakeCall(() => [{ kind: 'track', id: 1, title: 'Suelta' }]),
      dayContext(),
    );
    expect(titles(section(bare, 'likes'))).toEqual(['Suelta']);
    await expect(
      soundcloudView.fetch(
        fakeCall(() => ({ tracks: [] })),
        dayContext(),
      ),
    ).rejects.toMatchObject({ failure: 'provider_down', status: 200 });
  });
});

/* ───────────── Philips Hue ───────────── */

describe('Philips Hue view and light switch (stand-in)', () => {
  const SALON = '3f4ac4e9-d67a-4dbd-8a16-5ea7e373f281';
  const COCINA = '8b1f2d8e-0c5b-4a57-9d3b-2a6f1c9e7d10';
  // Two bridges (two stand-ins), each with its own lights.
  const day = useDayStandIn('hue', 'philipshue');
  const other = useDayStandIn('hue', 'philipshue');

  it('lists every light with its room (through its device), state and brightness, and says how many are on', async () => {
    day.standIn.reset();
    const view = await philipsHueView.fetch(day.call, dayContext());
    expectValid(view, 'philipshue');
    expect(view.sections.map((s) => s.key)).toEqual(['lights']);
    expect(day.standIn.apiCalls.map((c) => `${c.method} ${c.path} ${c.status}`).sort()).toEqual([
      'GET /route/clip/v2/resource/light 200',
      'GET /route/clip/v2/resource/room 200',
    ]);
    const lights = section(view, 'lights');
    // By room: Cocina before Salón.
    expect(lights).toEqual([
      {
        id: COCINA,
        service: 'philipshue',
        kind: 'light',
        title: 'Cocina',
        subtitle: 'Cocina',
        url: null,
        at: null,
        end_at: null,
        date: null,
        value: 0,
        code: null,
        on: false,
        live: false,
      },
      {
        id: SALON,
        service: 'philipshue',
        kind: 'light',
        title: 'Salón',
        subtitle: 'Salón',
        url: null,
        at: null,
        end_at: null,
        date: null,
        value: 80,
        code: null,
        on: true,
        live: false,
      },
    ]);
    expect(view.headline).toMatchObject({ id: 'lights_on', kind: 'light', code: 'lights_on', title: '1 de 2 luces encendidas', value: 1, on: true });
    expect(view.timeline).toEqual([]);
    const english = await philipsHueView.fetch(day.call, dayContext({ language: 'en-GB' }));
    expect(english.headline!.title).toBe('1 of 2 lights on');
  });

  it('switches a light through CLIP v2; a fetch right after shows the bridge’s new state, on this bridge only', async () => {
    day.standIn.reset();
    await switchHueLight(day.call, SALON, false);
    expect(day.standIn.apiCalls).toEqual([expect.objectContaining({ method: 'PUT', path: `/route/clip/v2/resource/light/${SALON}`, status: 200 })]);
    let view = await philipsHueView.fetch(day.call, dayContext());
    expect(section(view, 'lights').find((l) => l.id === SALON)).toMatchObject({ on: false, value: 0 });
    expect(view.headline).toMatchObject({ title: '0 de 2 luces encendidas', value: 0, on: false });

    // Another bridge (another stand-in) keeps its own lights.
    const elsewhere = await philipsHueView.fetch(other.call, dayContext());
    expect(section(elsewhere, 'lights').find((l) => l.id === SALON)).toMatchObject({ on: true, value: 80 });

    // On again: the bridge kept its brightness.
    await switchHueLight(day.call, SALON, true);
    await switchHueLight(day.call, COCINA, true);
    view = await philipsHueView.fetch(day.call, dayContext());
    expect(section(view, 'lights').map((l) => [l.title, l.on, l.value])).toEqual([
      ['Cocina', true, 45],
      ['Salón', true, 80],
    ]);
    expect(view.headline).toMatchObject({ title: '2 de 2 luces encendidas', value: 2, on: true });
  });

  it('an unknown light is refused with 404 by the bridge; an id that cannot be a light never reaches it', async () => {
    day.standIn.reset();
    const unknown = await switchHueLight(day.call, '00000000-0000-4000-a000-000000000000', false).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ProviderCallError);
    expect(unknown).toMatchObject({ failure: 'refused', status: 404 });
    expect(day.standIn.apiCalls.map((c) => c.status)).toEqual([404]);
    for (const id of ['..', '../room', 'a/b', '', 'x'.repeat(65), 'light?on=1']) {
      await expect(switchHueLight(day.call, id, true)).rejects.toMatchObject({ failure: 'refused', status: 404 });
    }
    expect(day.standIn.apiCalls).toHaveLength(1);
  });

  it('without the bridge’s application key the bridge refuses (403): missing_scope, never a view', async () => {
    const keyless = providerCall({ ...day.credentials, headers: {} });
    await expect(philipsHueView.fetch(keyless, dayContext())).rejects.toMatchObject({ failure: 'missing_scope', status: 403 });
    await expect(switchHueLight(keyless, SALON, false)).rejects.toMatchObject({ failure: 'missing_scope' });
  });

  it('CLIP v2 errors in a 2xx answer (207) refuse the switch; rooms may name lights directly; broken lights are skipped', async () => {
    const refused = fakeCall(() => ({ data: [], errors: [{ description: 'device (light) has communication issues, command (on) may not have effect' }] }));
    const error = await switchHueLight(refused, SALON, true).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderCallError);
    expect(error).toMatchObject({ failure: 'refused', status: 207 });
    expect((error as Error).message).toContain('communication issues');
    expect(refused.requests).toEqual([{ method: 'PUT', path: `route/clip/v2/resource/light/${SALON}`, body: { on: { on: true } } }]);

    const call = fakeCall((request) =>
      request.path.endsWith('room')
        ? {
            errors: [],
            data: [
              { type: 'room', metadata: { name: 'Dormitorio' }, children: [{ rid: 'dev-1', rtype: 'device' }, { rid: 'l-3', rtype: 'light' }, null] },
              { type: 'room', metadata: { name: 42 }, children: [{ rid: 'dev-2', rtype: 'device' }] },
              null,
            ],
          }
        : {
            errors: [],
            data: [
              {
                type: 'light',
                id: 'l-1',
                owner: { rid: 'dev-1', rtype: 'device' },
                metadata: { name: 'Mesilla' },
                on: { on: true },
                dimming: { brightness: 33.6 },
              },
              { type: 'light', id: 'l-2', owner: { rid: 'dev-2', rtype: 'device' }, metadata: { name: 'Enchufe' }, on: { on: false } },
              { type: 'light', id: 'l-3', metadata: { name: 'Techo' }, on: { on: false }, dimming: { brightness: 70 } },
              { type: 'light', id: 'l-4', metadata: { name: 'Sin estado' }, dimming: { brightness: 70 } },
              { type: 'light', id: 'l-5', metadata: { name: 'Rara' }, on: { on: true }, dimming: { brightness: 900 } },
              { type: 'grouped_light', id: 'g-1', on: { on: true } },
              'x',
            ],
          },
    );
    const view = await philipsHueView.fetch(call, dayContext({ language: 'xx-!!' }));
    expectValid(view, 'philipshue');
    expect(section(view, 'lights').map((l) => [l.id, l.subtitle, l.on, l.value])).toEqual([
      ['l-1', 'Dormitorio', true, 34],
      ['l-3', 'Dormitorio', false, 0],
      ['l-2', null, false, null],
      ['l-5', null, true, null],
    ]);
    expect(view.headline).toMatchObject({ title: '2 of 4 lights on', value: 2 });
    await expect(
      philipsHueView.fetch(
        fakeCall(() => ({ errors: [{ description: 'x' }] })),
        dayContext(),
      ),
    ).rejects.toMatchObject({ failure: 'provider_down' });
  });
});

/* ───────────── World of Warcraft ───────────── */

describe('World of Warcraft view (stand-in)', () => {
  const day = useDayStandIn('battlenet', 'wow');

  it('lists the characters of every WoW licence, highest level first, realm names in the person’s locale', async () => {
    day.standIn.reset();
    const view = await wowView.fetch(day.call, dayContext({ language: 'es' }));
    expectValid(view, 'wow');
    expect(day.standIn.apiCalls.at(-1)).toMatchObject({ path: '/eu/profile/user/wow', query: { namespace: 'profile-eu', locale: 'es_ES' }, status: 200 });
    expect(view.sections.map((s) => s.key)).toEqual(['characters']);
    const characters = section(view, 'characters');
    expect(characters.map((c) => [c.title, c.subtitle, c.value, c.code])).toEqual([
      ['Lúthien', 'Sanguino', 80, 'priest'],
      ['Mortífero', 'Draenor', 80, 'death_knight'],
      ['Thrall', 'Draenor', 80, 'shaman'],
      ['Ñoño', 'Los Errantes', 72, 'mage'],
      ['Brasaviva', 'Los Errantes', 68, 'evoker'],
      ['Cazadorita', 'Sanguino', 12, 'hunter'],
    ]);
    const thrall = characters.find((c) => c.title === 'Thrall')!;
    expect(thrall).toEqual({
      id: '1403-7',
      service: 'wow',
      kind: 'character',
      title: 'Thrall',
      subtitle: 'Draenor',
      url: 'https://worldofwarcraft.blizzard.com/es-es/character/eu/draenor/thrall',
      at: null,
      end_at: null,
      date: null,
      value: 80,
      code: 'shaman',
      on: null,
      live: false,
    });
    expect(characters.find((c) => c.title === 'Ñoño')!.url).toBe('https://worldofwarcraft.blizzard.com/es-es/character/eu/los-errantes/%C3%B1o%C3%B1o');
    expect(view.headline).toEqual(characters[0]);
    expect(view.timeline).toEqual([]);
  });

  it('in Korea, in Korean: the region’s realms, its armory, and ko_KR (Japanese has no Blizzard locale: English)', async () => {
    const korea = providerCall({ ...day.credentials, baseUrl: day.credentials.baseUrl.replace(/\/eu$/, '/kr'), query: { namespace: 'profile-kr' } });
    const view = await wowView.fetch(korea, dayContext({ language: 'ko' }));
    expectValid(view, 'wow');
    const thrall = section(view, 'characters').find((c) => c.id === '205-7')!;
    expect(thrall).toMatchObject({
      title: '스랄',
      subtitle: '아즈샤라',
      url: `https://worldofwarcraft.blizzard.com/ko-kr/character/kr/azshara/${encodeURIComponent('스랄')}`,
    });
    await wowView.fetch(korea, dayContext({ language: 'ja' }));
    expect(day.standIn.apiCalls.at(-1)).toMatchObject({ path: '/kr/profile/user/wow', query: { namespace: 'profile-kr', locale: 'en_US' } });
  });

  it('reads names sent in every locale (no locale honoured), unknown classes as no code, and skips broken characters', async () => {
    const call = fakeCall(() => ({
      _links: { self: { href: 'https://us.api.blizzard.com/profile/user/wow?namespace=profile-us' } },
      wow_accounts: [
        {
          characters: [
            {
              id: 1,
              name: 'Àlex',
              level: 70,
              realm: { id: 9, slug: 'quelthalas', name: { en_US: "Quel'Thalas", es_MX: "Quel'Thalas (MX)" } },
              playable_class: { id: 99 },
            },
            { id: 2, name: 'Sinrealm', level: 60, realm: { slug: 'Bad Slug!', name: 5 }, playable_class: { id: 11 } },
            { id: 3, name: 'Nivelazo', level: 99_999, realm: {}, playable_class: { id: 1 } },
            { id: 4, name: 5, level: 10 },
            { name: 'Sinid', level: 10 },
            null,
          ],
        },
        'x',
      ],
    }));
    const view = await wowView.fetch(call, dayContext({ language: 'es-MX' }));
    expectValid(view, 'wow');
    expect(call.requests).toEqual([{ path: 'profile/user/wow', query: { locale: 'es_MX' } }]);
    expect(section(view, 'characters')).toEqual([
      expect.objectContaining({
        id: '9-1',
        title: 'Àlex',
        subtitle: "Quel'Thalas (MX)",
        code: null,
        url: 'https://worldofwarcraft.blizzard.com/es-mx/character/us/quelthalas/%C3%A0lex',
      }),
      expect.objectContaining({ id: '2', title: 'Sinrealm', subtitle: null, code: 'druid', url: null }),
    ]);
    await expect(
      wowView.fetch(
        fakeCall(() => ({ code: 404 })),
        dayContext(),
      ),
    ).rejects.toMatchObject({ failure: 'provider_down' });
  });
});

/* ───────────── Destiny 2 ───────────── */

describe('Destiny 2 view (stand-in)', () => {
  const day = useDayStandIn('bungie', 'destiny2');

  it('reads the primary (cross save) membership’s guardians: class, light, last played first', async () => {
    day.standIn.reset();
    const context = dayContext();
    const view = await destiny2View.fetch(day.call, context);
    expectValid(view, 'destiny2');
    const memberships = (await raw<{ Response: { primaryMembershipId: string } }>(day, 'User/GetMembershipsForCurrentUser/')).Response;
    expect(day.standIn.apiCalls.at(-1)).toMatchObject({
      path: `/Platform/Destiny2/3/Profile/${memberships.primaryMembershipId}/`,
      query: { components: '200' },
      status: 200,
    });
    expect(view.sections.map((s) => s.key)).toEqual(['guardians']);
    const guardians = section(view, 'guardians');
    expect(guardians.map((g) => [g.code, g.value, g.title])).toEqual([
      ['titan', 2010, 'Guardian'],
      ['hunter', 1998, 'Guardian'],
      ['warlock', 1987, 'Guardian'],
    ]);
    for (const guardian of guardians) {
      expect(guardian).toMatchObject({ kind: 'guardian', subtitle: null, url: null, end_at: null, date: null, on: null, live: false });
      expect(guardian.id).toMatch(/^\d{19}$/);
    }
    // Played 95 minutes ago (on the minute).
    expect(Math.abs(context.now.getTime() - 95 * 60_000 - ms(guardians[0]!.at))).toBeLessThan(2 * 60_000);
    expect(view.headline).toEqual(guardians[0]);
  });

  it.each(ZONES)('puts on the timeline the guardians played today in the person’s zone (%s)', async (timeZone) => {
    const context = dayContext({ timeZone });
    const view = await destiny2View.fetch(day.call, context);
    const guardians = section(view, 'guardians');
    expect(ids(view.timeline)).toEqual(ids(onTodayIn(guardians, context)));
    // Nine days ago is never today.
    expect(view.timeline.length).toBeLessThan(guardians.length);
  });

  it('picks the membership every platform saves to without a primary; no Destiny account is an empty view', async () => {
    const ok = (Response: unknown) => ({ Response, ErrorCode: 1, ThrottleSeconds: 0, ErrorStatus: 'Success', Message: 'Ok', MessageData: {} });
    const call = fakeCall((request) =>
      request.path.startsWith('User/')
        ? ok({
            destinyMemberships: [
              { membershipType: 1, membershipId: '111', displayName: 'Xbox', crossSaveOverride: 2 },
              { membershipType: 2, membershipId: '222', displayName: 'PSN', bungieGlobalDisplayName: 'Ñoño', crossSaveOverride: 2 },
            ],
          })
        : ok({
            characters: {
              data: {
                a: { characterId: '2305843009000000001', classType: 3, light: 1900, dateLastPlayed: '2026-11-28T09:00:00Z' },
                b: { characterId: 'no-es-un-id', classType: 0, light: 1 },
                c: { characterId: '2305843009000000002', classType: 1, light: -5, dateLastPlayed: 'nunca' },
              },
            },
          }),
    );
    const view = await destiny2View.fetch(call, { now: new Date('2026-11-28T12:00:00Z'), timeZone: 'Europe/Madrid', language: 'es' });
    expectValid(view, 'destiny2');
    expect(call.requests[1]).toEqual({ path: 'Destiny2/2/Profile/222/', query: { components: '200' } });
    expect(section(view, 'guardians')).toEqual([
      expect.objectContaining({ id: '2305843009000000001', title: 'Ñoño', code: null, value: 1900, at: '2026-11-28T09:00:00.000Z' }),
      expect.objectContaining({ id: '2305843009000000002', code: 'hunter', value: null, at: null }),
    ]);
    expect(ids(view.timeline)).toEqual(['2305843009000000001']);

    const none = fakeCall(() => ok({ destinyMemberships: [], bungieNetUser: { displayName: 'x' } }));
    expect(await destiny2View.fetch(none, dayContext())).toEqual({ headline: null, sections: [{ key: 'guardians', items: [] }], timeline: [] });
    expect(none.requests).toHaveLength(1);
  });
});

describe('Destiny 2: Bungie’s HTTP 200 errors and ThrottleSeconds (a real HTTP server)', () => {
  let server: http.Server;
  let baseUrl: string;
  /** What the profile call answers (the memberships call always succeeds). */
  let profileAnswer: unknown;
  const memberships = {
    Response: {
      destinyMemberships: [{ membershipType: 3, membershipId: '4611686018400000001', displayName: 'G' }],
      primaryMembershipId: '4611686018400000001',
    },
    ErrorCode: 1,
    ThrottleSeconds: 0,
    ErrorStatus: 'Success',
    Message: 'Ok',
    MessageData: {},
  };
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.url?.startsWith('/Platform/User/') ? memberships : profileAnswer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/Platform`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const call = () => providerCall({ baseUrl, accessToken: 'token', scheme: 'Bearer', headers: { 'X-API-Key': 'key' } });
  const bungie = (ErrorCode: number, ErrorStatus: string, ThrottleSeconds = 0) => ({
    ErrorCode,
    ThrottleSeconds,
    ErrorStatus,
    Message: ErrorStatus,
    MessageData: {},
  });

  it.each([
    [
      'PerEndpointRequestThrottleExceeded with ThrottleSeconds',
      bungie(51, 'PerEndpointRequestThrottleExceeded', 30),
      { failure: 'rate_limited', status: 200, retryAfterMs: 30_000 },
    ],
    [
      'ThrottleLimitExceededMomentarily without a wait',
      bungie(36, 'ThrottleLimitExceededMomentarily'),
      { failure: 'rate_limited', status: 200, retryAfterMs: null },
    ],
    ['a successful answer that asks to wait', { ...memberships, ThrottleSeconds: 5 }, { failure: 'rate_limited', retryAfterMs: 5_000 }],
    ['SystemDisabled (maintenance)', bungie(5, 'SystemDisabled'), { failure: 'provider_down', status: 200 }],
    ['WebAuthRequired', bungie(99, 'WebAuthRequired'), { failure: 'needs_reconnect', status: 200 }],
    ['AccessTokenHasExpired', bungie(2111, 'AccessTokenHasExpired'), { failure: 'needs_reconnect' }],
    ['AccessNotPermittedByApplicationScope', bungie(2108, 'AccessNotPermittedByApplicationScope'), { failure: 'missing_scope' }],
    ['ApiInvalidOrExpiredKey (our key, not the person’s grant)', bungie(2101, 'ApiInvalidOrExpiredKey'), { failure: 'refused' }],
    ['DestinyAccountNotFound', bungie(1601, 'DestinyAccountNotFound'), { failure: 'provider_down' }],
    ['an answer without ErrorCode', { Response: {} }, { failure: 'provider_down', status: 200 }],
  ])('%s', async (_name, answer, expected) => {
    profileAnswer = answer;
    const error = await destiny2View.fetch(call(), dayContext()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderCallError);
    expect(error).toMatchObject(expected);
  });
});

/* ───────────── All six: garbage never becomes a TypeError ───────────── */

const FETCHERS: ViewFetcher[] = [fitbitView, notionView, soundcloudView, philipsHueView, wowView, destiny2View];

const huge = 'x'.repeat(100_000);
const GARBAGE: [string, unknown][] = [
  ['null', null],
  ['a string', 'not json'],
  ['a number', 42],
  ['an empty list', []],
  ['an empty object', {}],
  ['a list of junk', [null, 1, 'x', [], {}]],
  [
    'right keys, wrong types',
    {
      data: 'x',
      errors: 'x',
      results: 'x',
      collection: 5,
      sleep: {},
      'activities-steps': 'x',
      wow_accounts: {},
      ErrorCode: '1',
      Response: [],
    },
  ],
  [
    'right shapes, broken items',
    {
      errors: [null, 5],
      data: [
        null,
        1,
        { id: {}, metadata: [], on: 'yes' },
        { id: huge, metadata: { name: huge }, on: { on: true }, owner: 5 },
        { type: 'room', children: 'x', metadata: { name: huge } },
      ],
      results: [
        null,
        { object: 'page', id: 5, properties: { t: { type: 'title', title: [null, { plain_text: 7 }] } }, last_edited_time: 'yesterday' },
        { object: 'page', id: 'p', properties: [], last_edited_time: '2026-11-28T10:00:00Z', url: { href: 'x' } },
        { object: 'page', id: 'q', properties: { t: { type: 'title', title: Array(5000).fill({ plain_text: huge }) } }, last_edited_time: '9999-99-99' },
      ],
      collection: [null, { id: null, title: {} }, { track: 'x' }, { kind: 'like', created_at: 5, track: { id: 1, title: huge, user: [], permalink_url: 7 } }],
      'activities-steps': [null, { dateTime: 5, value: '-3' }, { dateTime: '2026-13-01', value: '1e9' }, { dateTime: huge, value: huge }],
      sleep: [
        null,
        { logId: {}, startTime: 'x' },
        { logId: 1, startTime: '2026-11-27T23:00:00.000', endTime: '2026-11-27T22:00:00.000' },
        { logId: 2, startTime: '2026-02-30T23:00:00.000', endTime: '2026-03-01T07:00:00.000' },
      ],
      _links: { self: { href: 'not a url' } },
      wow_accounts: [
        null,
        {
          characters: [
            null,
            { id: 1, name: 5, level: '80' },
            { id: 2, name: huge, level: 1e9 },
            { id: 3, name: 'Ok', level: 3, realm: { name: { en_US: 7 } }, character: { href: huge } },
          ],
        },
      ],
      ErrorCode: 1,
      ThrottleSeconds: 'x',
      Response: {
        destinyMemberships: [null, { membershipType: '3', membershipId: 5 }, { membershipType: 3, membershipId: '1' }],
        characters: { data: { a: null, b: { characterId: 'x' }, c: { characterId: '1', classType: {}, light: 'max', dateLastPlayed: 7 } } },
      },
    },
  ],
];

describe('garbage from any provider', () => {
  it.each(FETCHERS.flatMap((fetcher) => GARBAGE.map(([name, answer]) => [fetcher.service, name, fetcher, answer] as const)))(
    '%s: %s is a valid view or a ProviderCallError, never a TypeError',
    async (service, _name, fetcher, answer) => {
      let view: FetchedView | undefined;
      try {
        view = await fetcher.fetch(
          fakeCall(() => answer),
          dayContext(),
        );
      } catch (error) {
        expect(error).toBeInstanceOf(ProviderCallError);
        return;
      }
      expectValid(view, service);
    },
  );

  it('a ProviderCallError from the call passes through unchanged', async () => {
    for (const fetcher of FETCHERS) {
      const refusal = new ProviderCallError('rate_limited', 429, 7_000);
      await expect(fetcher.fetch(() => Promise.reject(refusal), dayContext())).rejects.toBe(refusal);
    }
  });

  it('every fetcher waits at least 5 minutes between scheduled fetches', () => {
    expect(Object.fromEntries(FETCHERS.map((f) => [f.service, f.intervalMs / 60_000]))).toEqual({
      fitbit: 10,
      notion: 10,
      soundcloud: 30,
      philipshue: 5,
      wow: 60,
      destiny2: 30,
    });
  });
});
