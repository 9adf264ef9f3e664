import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DayItem } from '@life/contracts';
import { SnapshotSchema } from '../src/modules/your-day/day-snapshot.js';
import { githubView } from '../src/modules/your-day/providers/github.js';
import { googleCalendarView } from '../src/modules/your-day/providers/google-calendar.js';
import { googleDriveView } from '../src/modules/your-day/providers/google-drive.js';
import { googleFitView } from '../src/modules/your-day/providers/google-fit.js';
import { providerCall } from '../src/modules/your-day/providers/provider-call.js';
import { spotifyView } from '../src/modules/your-day/providers/spotify.js';
import { addDays, dayIn, dayRange, startOfDay } from '../src/modules/your-day/providers/time.js';
import { ProviderCallError, type ProviderRequest, type ViewFetcher } from '../src/modules/your-day/providers/types.js';
import { youtubeView } from '../src/modules/your-day/providers/youtube.js';
import { dayContext, expectValid, fakeCall, ids, ms, onTodayIn, section, titles, useDayStandIn } from './helpers/day-standin.js';

/**
 * Issue 19, "Tu día", part A: the views of Spotify, GitHub, Google Calendar, Google Drive, YouTube
 * and Google Fit, fetched from the stand-ins over HTTP with the real providerCall, normalised to
 * the contract; the provider's refusals pass through; garbage never becomes a TypeError.
 */

const ZONES = ['Asia/Tokyo', 'America/Los_Angeles'] as const;

/** Newest first (by instant). */
const byNewest = (items: DayItem[]) => [...items].sort((a, b) => ms(b.at) - ms(a.at));

describe('Spotify view (stand-in)', () => {
  const day = useDayStandIn('spotify', 'spotify');

  it('shows the track playing now as the headline and the last ten plays, newest first', async () => {
    const context = dayContext();
    const view = await spotifyView.fetch(day.call, context);
    expectValid(view, 'spotify');
    expect(view.sections.map((s) => s.key)).toEqual(['now_playing', 'recently_played']);
    const [playing] = section(view, 'now_playing');
    expect(playing).toMatchObject({ kind: 'track', live: true, end_at: null, date: null, value: null, code: null, on: null });
    expect(playing!.url).toMatch(/^https:\/\/open\.spotify\.com\/track\/[A-Za-z0-9]{22}$/);
    expect(playing!.subtitle).toBeTruthy();
    // It began within the 4 minutes it has been playing.
    expect(ms(playing!.at)).toBeLessThanOrEqual(context.now.getTime());
    expect(ms(playing!.at)).toBeGreaterThan(context.now.getTime() - 5 * 60_000);
    expect(view.headline).toEqual(playing);

    const recent = section(view, 'recently_played');
    // The stand-in holds 12 plays; the view asks for 10.
    expect(recent).toHaveLength(10);
    expect(recent).toEqual(byNewest(recent));
    expect(recent.every((i) => i.kind === 'track' && !i.live && i.at && ms(i.at) < context.now.getTime())).toBe(true);
    // Artists are joined on the second line (Elis Regina and Tom Jobim sing "Águas de Março").
    const duet = [playing!, ...recent].find((i) => i.title === 'Águas de Março');
    if (duet) expect(duet.subtitle).toBe('Elis Regina, Tom Jobim');
  });

  it.each(ZONES)('puts on the timeline only what played today in the person’s zone (%s)', async (timeZone) => {
    const context = dayContext({ timeZone });
    const view = await spotifyView.fetch(day.call, context);
    const all = [...section(view, 'now_playing'), ...section(view, 'recently_played')];
    expect(ids(view.timeline)).toEqual(ids(onTodayIn(all, context)));
    // Plays from 26 hours ago are on another day in any zone.
    expect(view.timeline.length).toBeLessThan(all.length);
  });

  it('nothing playing (204) leaves now_playing empty, makes the last play the headline, and takes today from the zone', async () => {
    // Madrid: 28 Nov 21:00. Tokyo: 29 Nov 05:00. Los Angeles: 28 Nov 12:00.
    const now = new Date('2026-11-28T20:00:00Z');
    const play = (at: string, id: string, name: string, artist: string, url?: string) => ({
      played_at: at,
      track: { id, name, artists: [{ name: artist }], ...(url ? { external_urls: { spotify: url } } : {}) },
    });
    const call = fakeCall((request) =>
      request.path === 'me/player/currently-playing'
        ? null
        : {
            items: [
              play('2026-11-28T14:30:00.000Z', 'a1', 'Hijo de la Luna', 'Mecano', 'https://open.spotify.com/track/a1'),
              play('2026-11-28T19:30:00.000Z', 'b2', '夜に駆ける', 'YOASOBI', 'javascript:alert(1)'),
              play('2026-11-28T09:00:00.000Z', 'c3', 'Ojalá', 'Silvio Rodríguez'),
              play('2026-11-27T23:30:00.000Z', 'd4', 'Corazón partío', 'Alejandro Sanz'),
              play('2026-11-27T14:00:00.000Z', 'a1', 'Hijo de la Luna', 'Mecano'),
            ],
          },
    );
    const view = await spotifyView.fetch(call, { now, timeZone: 'Europe/Madrid', language: 'es' });
    expectValid(view, 'spotify');
    expect(section(view, 'now_playing')).toEqual([]);
    // Newest first; the same track played twice is two plays with two ids.
    expect(ids(section(view, 'recently_played'))).toEqual([
      'b2@2026-11-28T19:30:00.000Z',
      'a1@2026-11-28T14:30:00.000Z',
      'c3@2026-11-28T09:00:00.000Z',
      'd4@2026-11-27T23:30:00.000Z',
      'a1@2026-11-27T14:00:00.000Z',
    ]);
    // A javascript: link is dropped.
    expect(view.headline).toMatchObject({ title: '夜に駆ける', subtitle: 'YOASOBI', live: false, url: null });
    expect(call.requests.find((r) => r.path === 'me/player/recently-played')?.query).toMatchObject({ limit: '10' });

    // 23:30 UTC on the 27th is already the 28th in Madrid; in Tokyo only 19:30 UTC is on the 29th.
    expect(titles(view.timeline)).toEqual(['夜に駆ける', 'Hijo de la Luna', 'Ojalá', 'Corazón partío']);
    const tokyo = await spotifyView.fetch(call, { now, timeZone: 'Asia/Tokyo', language: 'ja' });
    expect(titles(tokyo.timeline)).toEqual(['夜に駆ける']);
    const la = await spotifyView.fetch(call, { now, timeZone: 'America/Los_Angeles', language: 'en' });
    expect(titles(la.timeline)).toEqual(['夜に駆ける', 'Hijo de la Luna', 'Ojalá']);
  });

  it('a paused player or a podcast episode is not "playing now"', async () => {
    for (const playing of [
      { is_playing: false, currently_playing_type: 'track', item: { id: 'x', name: 'Ojalá' } },
      { is_playing: true, currently_playing_type: 'episode', item: { id: 'e', name: 'Un podcast', type: 'episode' } },
      { is_playing: true, currently_playing_type: 'ad', item: null },
    ]) {
      const call = fakeCall((request) => (request.path === 'me/player/currently-playing' ? playing : { items: [] }));
      const view = await spotifyView.fetch(call, dayContext());
      expect(section(view, 'now_playing')).toEqual([]);
      expect(view.headline).toBeNull();
    }
  });
});

describe('GitHub view (stand-in)', () => {
  const day = useDayStandIn('github', 'github');

  it('shows the latest pushes, pull requests and issues opened, and the open pull requests', async () => {
    day.standIn.reset();
    const context = dayContext();
    const view = await githubView.fetch(day.call, context);
    expectValid(view, 'github');
    expect(view.sections.map((s) => s.key)).toEqual(['contributions', 'open_pull_requests']);

    const contributions = section(view, 'contributions');
    expect(contributions).toEqual(byNewest(contributions));
    expect(contributions.map((i) => [i.kind, i.title, i.subtitle])).toEqual([
      // The head commit's first line, looked up (github.com's events no longer carry the commits).
      ['push', 'Añade la receta del cocido madrileño', 'octo-connector/recetas-de-la-abuela'],
      ['pull_request', 'Añade la traducción al japonés (日本語)', 'octo-connector/nihongo-notes'],
      ['issue', 'La agenda muestra «Sin título» en los eventos de Ñandú', 'madrid-devs/agenda-cultural'],
      // A private repository's commit cannot be read with read:user: the branch names the push.
      ['push', 'Push a borrador', 'octo-connector/privado-notas'],
      ['push', '日本語のメモを整理する', 'octo-connector/nihongo-notes'],
      ['push', 'Corrige los horarios en verano (CEST)', 'madrid-devs/agenda-cultural'],
    ]);
    expect(contributions[0]!.url).toMatch(/^https:\/\/github\.com\/octo-connector\/recetas-de-la-abuela\/commit\/[0-9a-f]{40}$/);
    expect(contributions[1]!.url).toBe('https://github.com/octo-connector/nihongo-notes/pull/12');
    expect(contributions[2]!.url).toBe('https://github.com/madrid-devs/agenda-cultural/issues/87');
    expect(view.headline).toEqual(contributions[0]);

    const open = section(view, 'open_pull_requests');
    expect(open.map((i) => [i.title, i.subtitle, i.url])).toEqual([
      ['Añade la traducción al japonés (日本語)', 'octo-connector/nihongo-notes', 'https://github.com/octo-connector/nihongo-notes/pull/12'],
      ['Corrige el cálculo de pasos en días con cambio de hora', 'madrid-devs/agenda-cultural', 'https://github.com/madrid-devs/agenda-cultural/pull/88'],
      ['Borrador: sección «Tu día» en el panel', 'octo-connector/life-dashboard', 'https://github.com/octo-connector/life-dashboard/pull/4'],
    ]);
    expect(open.every((i) => i.kind === 'pull_request' && i.at !== null)).toBe(true);

    // The events of the login `user` named, 30 of them; commit look-ups only for pushes without a message.
    const events = day.standIn.apiCalls.filter((c) => c.path.endsWith('/events'));
    expect(events).toEqual([expect.objectContaining({ path: '/users/octo-connector/events', query: { per_page: '30' }, status: 200 })]);
    expect(day.standIn.apiCalls.filter((c) => c.path.includes('/commits/')).length).toBe(4);
  });

  it('names a push in the person’s language when its commit cannot be read', async () => {
    const view = await githubView.fetch(day.call, dayContext({ language: 'ja' }));
    expect(titles(section(view, 'contributions'))).toContain('borrador へのプッシュ');
  });

  it.each(ZONES)('puts today’s contributions on the timeline in the person’s zone (%s)', async (timeZone) => {
    const context = dayContext({ timeZone });
    const view = await githubView.fetch(day.call, context);
    const contributions = section(view, 'contributions');
    expect(ids(view.timeline)).toEqual(ids(onTodayIn(contributions, context)));
    // The push of 30 hours ago is never today.
    expect(titles(view.timeline)).not.toContain('Corrige los horarios en verano (CEST)');
  });

  it('a commit look-up that is refused keeps the branch, but a rate limit stops the fetch', async () => {
    const events = [
      { id: '1', type: 'PushEvent', created_at: '2026-11-28T09:00:00Z', repo: { name: 'ana/repo' }, payload: { ref: 'refs/heads/main', head: 'a'.repeat(40) } },
      {
        id: '2',
        type: 'PushEvent',
        created_at: '2026-11-28T08:00:00Z',
        repo: { name: 'ana/repo' },
        payload: { ref: 'refs/heads/dev', commits: [{ sha: 'b'.repeat(40), message: 'Primera línea\n\nresto' }] },
      },
    ];
    const answer = (failure: ProviderCallError) => (request: ProviderRequest) => {
      if (request.path === 'user') return { login: 'ana' };
      if (request.path === 'users/ana/events') return events;
      if (request.path === 'search/issues') return { items: [] };
      throw failure;
    };
    const refused = await githubView.fetch(fakeCall(answer(new ProviderCallError('refused', 404))), dayContext({ language: 'en' }));
    expect(titles(section(refused, 'contributions'))).toEqual(['Push to main', 'Primera línea']);
    expect(section(refused, 'contributions')[1]!.url).toBe(`https://github.com/ana/repo/commit/${'b'.repeat(40)}`);
    const limited = new ProviderCallError('rate_limited', 403, 60_000);
    await expect(githubView.fetch(fakeCall(answer(limited)), dayContext())).rejects.toBe(limited);
  });
});

describe('Google Calendar view (stand-in)', () => {
  const day = useDayStandIn('google', 'googlecalendar');

  it('shows today’s and tomorrow’s events in Madrid, the call going on now as live and next', async () => {
    const context = dayContext();
    const view = await googleCalendarView.fetch(day.call, context);
    expectValid(view, 'googlecalendar', { emptyTitles: true });
    expect(view.sections.map((s) => s.key)).toEqual(['today', 'tomorrow']);
    const today = section(view, 'today');
    const tomorrow = section(view, 'tomorrow');
    const date = dayIn(context.now, 'Europe/Madrid');

    expect(titles(today)).toEqual(
      expect.arrayContaining([
        'Cumpleaños de Begoña 🎂',
        'Reunión con Ñandú',
        'Comida con Begoña',
        'Clase de japonés: 日本語の会話',
        'Observación de estrellas ✨',
      ]),
    );
    expect(titles(tomorrow)).toEqual(
      expect.arrayContaining([
        'Vacaciones en Kioto (京都)',
        'Dentista — Dra. Muñoz',
        'Revisión del presupuesto 2027',
        'Café con Zoë y François',
        'Observación de estrellas ✨',
      ]),
    );
    // Yesterday's and the day after tomorrow's are outside the window asked for.
    expect([...titles(today), ...titles(tomorrow)]).not.toContain('Partido de pádel con Íñigo');
    expect(titles(tomorrow)).not.toContain('Entrega del proyecto «Ñandú»');

    const birthday = today.find((i) => i.title === 'Cumpleaños de Begoña 🎂')!;
    expect(birthday).toMatchObject({ kind: 'event', at: null, end_at: null, date, live: false, subtitle: null });
    expect(today[0]).toBe(birthday);
    expect(tomorrow.find((i) => i.title.startsWith('Vacaciones'))).toMatchObject({ date: addDays(date, 1), at: null });
    const meeting = today.find((i) => i.title === 'Reunión con Ñandú')!;
    expect(meeting.at).toBe(new Date(startOfDay(date, 'Europe/Madrid').getTime() + 9.5 * 3_600_000).toISOString());
    expect(ms(meeting.end_at) - ms(meeting.at)).toBe(45 * 60_000);
    expect(meeting.subtitle).toBe('Sala Picasso, 3.ª planta');
    expect(meeting.url).toMatch(/^https:\/\/www\.google\.com\/calendar\/event\?eid=/);

    const live = today.filter((i) => i.live);
    expect(titles(live)).toContain('Llamada con el equipo de São Paulo');
    for (const item of today) expect(item.live).toBe(!!item.at && ms(item.at) <= context.now.getTime() && context.now.getTime() < ms(item.end_at));
    const next = today.find((i) => i.at && ms(i.end_at) > context.now.getTime());
    expect(view.headline).toEqual(next);
    expect(view.timeline).toEqual(today);

    // The same event keeps its id from one fetch to the next.
    const again = await googleCalendarView.fetch(day.call, context);
    expect(ids(section(again, 'today'))).toEqual(ids(today));
  });

  it.each(ZONES)('takes today and tomorrow from the person’s zone (%s)', async (timeZone) => {
    const context = dayContext({ timeZone });
    const view = await googleCalendarView.fetch(day.call, context);
    const date = dayIn(context.now, timeZone);
    for (const [key, which] of [
      ['today', date],
      ['tomorrow', addDays(date, 1)],
    ] as const) {
      const { start, end } = dayRange(which, timeZone);
      for (const item of section(view, key)) {
        if (item.at) expect(ms(item.at) < end.getTime() && ms(item.end_at) > start.getTime()).toBe(true);
        else expect(item.date).toBe(which);
      }
    }
    expect(view.timeline).toEqual(section(view, 'today'));
  });

  it('asks for exactly the two days of the person’s zone, and splits across midnight (Tokyo vs Los Angeles)', async () => {
    const now = new Date('2026-11-28T20:00:00Z'); // Tokyo: 29 Nov 05:00; Los Angeles: 28 Nov 12:00.
    const events = {
      items: [
        {
          id: 'e1',
          summary: 'Cena 晩ご飯',
          start: { dateTime: '2026-11-29T19:00:00+09:00' },
          end: { dateTime: '2026-11-29T20:00:00+09:00' },
          htmlLink: 'https://www.google.com/calendar/event?eid=e1',
        },
        { id: 'e2', summary: 'Vuelo a Tokio', start: { dateTime: '2026-11-28T19:30:00Z' }, end: { dateTime: '2026-11-29T07:30:00Z' } },
        { id: 'e3', start: { date: '2026-11-30' }, end: { date: '2026-12-01' } },
        { id: 'e4', status: 'cancelled', summary: 'Anulado', start: { dateTime: '2026-11-29T10:00:00+09:00' }, end: { dateTime: '2026-11-29T11:00:00+09:00' } },
      ],
    };
    const tokyo = fakeCall(() => events);
    const view = await googleCalendarView.fetch(tokyo, { now, timeZone: 'Asia/Tokyo', language: 'es' });
    expect(tokyo.requests[0]).toEqual({
      path: 'calendar/v3/calendars/primary/events',
      query: {
        timeMin: '2026-11-28T15:00:00.000Z',
        timeMax: '2026-11-30T15:00:00.000Z',
        singleEvents: 'true',
        orderBy: 'startTime',
        maxResults: '50',
        timeZone: 'Asia/Tokyo',
      },
    });
    expect(section(view, 'today').map((i) => [i.id, i.live])).toEqual([
      ['e2', true],
      ['e1', false],
    ]);
    // An event without a title stays untitled for the screen to show as such.
    expect(section(view, 'tomorrow')).toEqual([expect.objectContaining({ id: 'e3', title: '', date: '2026-11-30', at: null })]);
    expect(view.headline?.id).toBe('e2');

    const la = fakeCall(() => events);
    const laView = await googleCalendarView.fetch(la, { now, timeZone: 'America/Los_Angeles', language: 'es' });
    expect(la.requests[0]!.query).toMatchObject({ timeMin: '2026-11-28T08:00:00.000Z', timeMax: '2026-11-30T08:00:00.000Z' });
    // Tokyo's dinner on the 29th is Los Angeles' small hours of the 29th: tomorrow there.
    expect(ids(section(laView, 'today'))).toEqual(['e2']);
    expect(ids(section(laView, 'tomorrow'))).toEqual(['e1']);
    expect(ids(laView.timeline)).toEqual(['e2']);
  });
});

describe('Google Drive view (stand-in)', () => {
  const day = useDayStandIn('google', 'googledrive');

  it('shows the ten files changed last, not in the trash, with their kind and a link to open them', async () => {
    const context = dayContext();
    const view = await googleDriveView.fetch(day.call, context);
    expectValid(view, 'googledrive');
    const files = section(view, 'recent_files');
    expect(files.map((f) => [f.title, f.code])).toEqual([
      ['Reunión con Ñandú — acta', 'document'],
      ['Presupuesto 2027', 'spreadsheet'],
      ['日本語のメモ', 'document'],
      ['Fotos del viaje', 'folder'],
      ['Factura de marzo.pdf', 'pdf'],
      ['Playa de la Concha, San Sebastián.jpg', 'image'],
      ['Presentación Q3 — resultados', 'presentation'],
      ['Vídeo del cumpleaños de Begoña.mp4', 'video'],
      ['notas-viaje-京都.txt', 'file'],
      ['Recetas de la abuela', 'document'],
    ]);
    expect(files).toEqual(byNewest(files));
    expect(files[0]).toMatchObject({ kind: 'file', subtitle: null, end_at: null, date: null, live: false });
    expect(files[0]!.url).toMatch(/^https:\/\/docs\.google\.com\/document\/d\/[\w-]+\/edit/);
    expect(files[3]!.url).toMatch(/^https:\/\/drive\.google\.com\/drive\/folders\//);
    expect(view.headline).toEqual(files[0]);
  });

  it.each(ZONES)('puts the files changed today on the timeline (%s)', async (timeZone) => {
    const context = dayContext({ timeZone });
    const view = await googleDriveView.fetch(day.call, context);
    expect(ids(view.timeline)).toEqual(ids(onTodayIn(section(view, 'recent_files'), context)));
    expect(titles(view.timeline)).not.toContain('Factura de marzo.pdf');
  });
});

describe('YouTube view (stand-in)', () => {
  const day = useDayStandIn('google', 'youtube');

  it('shows the newest videos of six subscribed channels from their uploads playlists, never with search', async () => {
    day.standIn.reset();
    const context = dayContext();
    const view = await youtubeView.fetch(day.call, context);
    expectValid(view, 'youtube');
    const videos = section(view, 'latest_videos');
    expect(videos).toHaveLength(10);
    expect(videos).toEqual(byNewest(videos));
    expect(videos[0]).toMatchObject({ kind: 'video', title: 'Tortilla de patatas perfecta (con o sin cebolla)', subtitle: 'Cocina con Ñandú' });
    expect(videos.every((v) => v.url === `https://www.youtube.com/watch?v=${v.id}`)).toBe(true);
    expect(videos.find((v) => v.subtitle === '日本語の森')?.title).toBe('N3文法まとめ：〜ようにする');
    // Channels 7 and 8 are not read; "Ajedrez con Begoña" has no uploads (404) and is skipped.
    expect(videos.map((v) => v.subtitle)).not.toContain('Tecnología sin rodeos');
    expect(view.headline).toEqual(videos[0]);
    const playlistCalls = day.standIn.apiCalls.filter((c) => c.path === '/youtube/v3/playlistItems');
    expect(playlistCalls.map((c) => c.status).sort()).toEqual([200, 200, 200, 200, 200, 404]);
    expect(playlistCalls.every((c) => c.query.maxResults === '3' && c.query.part === 'snippet,contentDetails')).toBe(true);
    expect(day.standIn.userCalls.map((c) => c.path)).not.toContain('/youtube/v3/search');
  });

  it.each(ZONES)('puts the videos published today on the timeline (%s)', async (timeZone) => {
    const context = dayContext({ timeZone });
    const view = await youtubeView.fetch(day.call, context);
    expect(ids(view.timeline)).toEqual(ids(onTodayIn(section(view, 'latest_videos'), context)));
    expect(titles(view.timeline)).not.toContain('Cocido madrileño paso a paso');
  });

  it('no subscriptions: an empty view after one call', async () => {
    const call = fakeCall(() => ({ items: [] }));
    const view = await youtubeView.fetch(call, dayContext());
    expect(view).toEqual({ headline: null, sections: [{ key: 'latest_videos', items: [] }], timeline: [] });
    expect(call.requests).toHaveLength(1);
  });
});

describe('Google Fit view (stand-in)', () => {
  const day = useDayStandIn('google', 'googlefit');

  it.each(['Europe/Madrid', ...ZONES])('shows the steps of the last 7 days in the zone, today’s on the card, and last night’s sleep (%s)', async (timeZone) => {
    const context = dayContext({ timeZone });
    const view = await googleFitView.fetch(day.call, context);
    expectValid(view, 'googlefit');
    const today = dayIn(context.now, timeZone);
    const week = section(view, 'steps_week');
    expect(week.map((i) => i.date)).toEqual([6, 5, 4, 3, 2, 1, 0].map((n) => addDays(today, -n)));
    expect(week.every((i) => i.kind === 'steps' && i.title === 'Pasos' && i.at === null && typeof i.value === 'number')).toBe(true);
    // Every past day walked (3,500 to 12,499 a Madrid day, shared across the zone's days).
    for (const item of week.slice(0, 6)) expect(item.value).toBeGreaterThan(1_000);
    expect(view.headline).toEqual(week[6]);

    const [sleep] = section(view, 'last_sleep');
    expect(sleep).toMatchObject({ kind: 'sleep', title: 'Sueño', date: null });
    expect(ms(sleep!.end_at)).toBeLessThanOrEqual(context.now.getTime());
    expect(ms(sleep!.end_at)).toBeGreaterThan(context.now.getTime() - 36 * 3_600_000);
    expect(sleep!.value).toBe(Math.round((ms(sleep!.end_at) - ms(sleep!.at)) / 60_000));
    expect(sleep!.value).toBeGreaterThanOrEqual(6.5 * 60);
    expect(sleep!.value).toBeLessThanOrEqual(9.25 * 60);

    const endedToday = dayIn(new Date(sleep!.end_at!), timeZone) === today;
    expect(view.timeline).toEqual(endedToday ? [week[6], sleep] : [week[6]]);
  });

  it('gives a 25-hour day its own steps and the next day its own, and asks for sleep only (a week with Madrid’s clock change)', async () => {
    const now = new Date('2026-10-28T12:00:00Z'); // Madrid moved its clocks back on the 25th.
    const call = fakeCall((request) => {
      if (request.path === 'fitness/v1/users/me/sessions') {
        return {
          session: [
            {
              id: 'old',
              activityType: 72,
              startTimeMillis: String(Date.parse('2026-10-26T22:00:00Z')),
              endTimeMillis: String(Date.parse('2026-10-27T06:00:00Z')),
            },
            {
              id: 'night',
              activityType: 72,
              startTimeMillis: String(Date.parse('2026-10-27T22:10:00Z')),
              endTimeMillis: String(Date.parse('2026-10-28T06:40:00Z')),
            },
            {
              id: 'run',
              activityType: 8,
              startTimeMillis: String(Date.parse('2026-10-28T07:00:00Z')),
              endTimeMillis: String(Date.parse('2026-10-28T07:30:00Z')),
            },
          ],
        };
      }
      // 24-hour buckets from the window's start: the week has 169 hours, so after the change the
      // buckets begin at 23:00, and an 8th bucket of one hour ends it.
      const body = request.body as { startTimeMillis: number; endTimeMillis: number };
      const bucket = [];
      for (let from = body.startTimeMillis, n = 0; from < body.endTimeMillis; from += 86_400_000, n += 1) {
        const to = Math.min(from + 86_400_000, body.endTimeMillis);
        bucket.push({
          startTimeMillis: String(from),
          endTimeMillis: String(to),
          dataset: [{ point: [{ dataTypeName: 'com.google.step_count.delta', value: [{ intVal: 1000 + n }] }] }],
        });
      }
      return { bucket };
    });
    const view = await googleFitView.fetch(call, { now, timeZone: 'Europe/Madrid', language: 'en' });
    const [aggregate, sessions] = call.requests;
    expect(aggregate).toEqual({
      method: 'POST',
      path: 'fitness/v1/users/me/dataset:aggregate',
      body: {
        aggregateBy: [{ dataTypeName: 'com.google.step_count.delta' }],
        bucketByTime: { durationMillis: 86_400_000 },
        startTimeMillis: Date.parse('2026-10-21T22:00:00Z'),
        endTimeMillis: Date.parse('2026-10-28T23:00:00Z'),
      },
    });
    expect(sessions).toEqual({
      path: 'fitness/v1/users/me/sessions',
      query: { activityType: '72', startTime: '2026-10-26T23:00:00.000Z', endTime: '2026-10-28T12:00:00.000Z' },
    });
    expect(section(view, 'steps_week').map((i) => [i.date, i.value])).toEqual([
      ['2026-10-22', 1000],
      ['2026-10-23', 1001],
      ['2026-10-24', 1002],
      ['2026-10-25', 1003],
      ['2026-10-26', 1004],
      ['2026-10-27', 1005],
      ['2026-10-28', 1006 + 1007],
    ]);
    expect(view.headline).toMatchObject({ id: 'steps-2026-10-28', title: 'Steps', value: 2013 });
    expect(section(view, 'last_sleep')).toEqual([expect.objectContaining({ id: 'night', title: 'Sleep', value: 510, at: '2026-10-27T22:10:00.000Z' })]);
    expect(ids(view.timeline)).toEqual(['steps-2026-10-28', 'night']);
  });
});

describe('refusals and broken answers', () => {
  const fetchers: ViewFetcher[] = [spotifyView, githubView, googleCalendarView, googleDriveView, youtubeView, googleFitView];
  let server: http.Server;
  let baseUrl: string;
  let reply: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end();

  beforeAll(async () => {
    server = http.createServer((req, res) => reply(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const call = () => providerCall({ baseUrl, accessToken: 'token', scheme: 'Bearer', headers: {} });
  /** Answers `user` (GitHub's login) properly, everything else with `rest`. */
  const answering = (rest: (res: http.ServerResponse) => void) => (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.url === '/user') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ login: 'octo-connector' }));
    }
    return rest(res);
  };

  it.each(fetchers.map((f) => [f.service, f] as const))('%s: a 429 with Retry-After is rate_limited with the wait', async (_name, fetcher) => {
    reply = answering((res) => {
      res.writeHead(429, { 'retry-after': '120', 'content-type': 'application/json' });
      res.end('{"error":{"status":429,"message":"API rate limit exceeded"}}');
    });
    await expect(fetcher.fetch(call(), dayContext())).rejects.toMatchObject({ failure: 'rate_limited', status: 429, retryAfterMs: 120_000 });
  });

  it.each(fetchers.map((f) => [f.service, f] as const))('%s: a 500 is provider_down', async (_name, fetcher) => {
    reply = answering((res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<h1>Internal Server Error</h1>');
    });
    const error = await fetcher.fetch(call(), dayContext()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderCallError);
    expect(error).toMatchObject({ failure: 'provider_down', status: 500 });
  });

  it.each(fetchers.map((f) => [f.service, f] as const))(
    '%s: malformed JSON, or JSON of a wholly wrong shape, is provider_down and never a TypeError',
    async (_name, fetcher) => {
      for (const body of ['{"items": [', '"just a string"', '[1, 2, 3]', '42', 'true']) {
        reply = answering((res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(body);
        });
        const error = await fetcher.fetch(call(), dayContext()).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ProviderCallError);
        expect((error as ProviderCallError).failure).toBe('provider_down');
      }
    },
  );

  it('needs_reconnect and missing_scope pass through untouched', async () => {
    for (const failure of [new ProviderCallError('needs_reconnect', 401), new ProviderCallError('missing_scope', 403)]) {
      for (const fetcher of fetchers) {
        await expect(
          fetcher.fetch(
            fakeCall(() => {
              throw failure;
            }),
            dayContext(),
          ),
        ).rejects.toBe(failure);
      }
    }
  });

  /** Answers of the right outer shape whose fields are all wrong: every fetcher keeps the good items and drops the rest. */
  const weird = [null, 0, -1, 1e308, 'x', '', 'x'.repeat(100_000), [], {}, [null], { a: 1 }, true, 'javascript:alert(1)', '2026-13-45T99:99:99Z'];
  it.each(fetchers.map((f) => [f.service, f] as const))(
    '%s: fields of the wrong type, huge strings and bad links drop the item, never throw a TypeError',
    async (_name, fetcher) => {
      for (const value of weird) {
        const answers = (request: ProviderRequest): unknown => {
          if (request.path === 'user') return { login: 'octo' };
          if (request.path === 'users/octo/events') return [value, { id: value, type: 'PushEvent', repo: value, payload: value, created_at: value }];
          if (request.path === 'me/player/currently-playing') return { is_playing: true, item: { id: value, name: value, artists: value }, progress_ms: value };
          if (request.path === 'youtube/v3/subscriptions') return { items: [{ snippet: { resourceId: { channelId: 'UCabc' }, title: value } }] };
          if (request.path === 'youtube/v3/channels') return { items: [{ id: 'UCabc', contentDetails: { relatedPlaylists: { uploads: 'UUabc' } } }] };
          const entry = {
            id: value,
            name: value,
            title: value,
            snippet: value,
            summary: value,
            start: value,
            startTimeMillis: value,
            dataset: value,
            webViewLink: value,
          };
          return { items: [value, entry], files: [value, entry], bucket: [value, entry], session: [value, entry] };
        };
        const view = await fetcher.fetch(fakeCall(answers), dayContext());
        expect(SnapshotSchema.safeParse(view).success).toBe(true);
      }
    },
  );

  it('keeps the good items next to bad ones, cuts long titles at 300 characters and keeps only https links', async () => {
    const long = `${'ñ'.repeat(299)}😀${'a'.repeat(5000)}`;
    const call = fakeCall(() => ({
      files: [
        { id: 'ok', name: long, mimeType: 'application/pdf', modifiedTime: '2026-11-28T10:00:00.000Z', webViewLink: 'https://drive.google.com/file/d/ok/view' },
        { id: 'http', name: 'Sin cifrar', mimeType: 7, modifiedTime: 'ayer', webViewLink: 'http://drive.google.com/file/d/http/view' },
        { id: 'js', name: 'Malicioso', webViewLink: 'javascript:alert(1)' },
        { id: 'cred', name: 'Credenciales', webViewLink: 'https://user:pass@example.com/' },
        { id: 'night', name: 'Notas de madrugada', modifiedTime: '2026-11-27T23:30:00Z' },
        { id: 'yesterday', name: 'De ayer', modifiedTime: '2026-11-27T22:30:00Z' },
        { id: 42, name: null },
        { name: 'Sin id' },
        'texto suelto',
        null,
      ],
    }));
    const view = await googleDriveView.fetch(call, { now: new Date('2026-11-28T12:00:00Z'), timeZone: 'Europe/Madrid', language: 'es' });
    const files = section(view, 'recent_files');
    expect(ids(files)).toEqual(['ok', 'night', 'yesterday', 'http', 'js', 'cred']);
    // 299 ñ and then an emoji that does not fit whole: cut before it, never half a character.
    expect(files[0]!.title).toBe('ñ'.repeat(299));
    expect(files.map((f) => f.url)).toEqual(['https://drive.google.com/file/d/ok/view', null, null, null, null, null]);
    expect(files[3]).toMatchObject({ code: 'file', at: null });
    // Madrid's 28 November began at 23:00 UTC on the 27th.
    expect(ids(view.timeline)).toEqual(['ok', 'night']);
  });
});
