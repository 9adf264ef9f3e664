// What the "Tu día" views read from Google (Calendar, Drive, YouTube, Fit), GitHub and Spotify
// (issue 19): the providers' real endpoints and answer shapes, with data relative to the moment of
// the call (today's events, today's steps).
//
// The person lives in Madrid: their calendar, their nights and their steps follow Madrid's days.
// Everything is a function of the request time (no randomness): the same moment gives the same
// answer, and ids stay the same for a thing all day.
import { createHash } from 'node:crypto';
import { DAY, HOME_ZONE, HOUR, MINUTE, dayOf, instantOf, intParam, isoSeconds, offsetAt, pad, plusDays, wallClock } from './day-time.mjs';

/**
 * @typedef {{ endpoints?: import('./services.d.mts').ApiEndpoint[], routes?: { method: string, pattern: RegExp, handle: (call: any) => unknown }[] }} DayApis
 */

/**
 * @typedef {object} DayApiCall
 * @property {URL} url
 * @property {RegExpExecArray} match
 * @property {import('./services.d.mts').ServiceAccount} account
 * @property {(status: number, body: unknown) => void} send
 */

/* Times as Google writes them (Madrid's days and the zone arithmetic: day-time.mjs). */

/** RFC 3339 with the zone's offset, as Google writes times (`2026-11-28T09:30:00+01:00`). @param {number} ms @param {string} zone */
function rfc3339(ms, zone) {
  const w = wallClock(ms, zone);
  const offset = Math.round(offsetAt(ms, zone) / MINUTE);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/* Deterministic made-up ids. */

/** @param {string} seed */
const hex = (seed) => createHash('sha1').update(seed).digest('hex');
/** A number from a seed, in [0, modulo). @param {string} seed @param {number} modulo */
const numberOf = (seed, modulo) => Number.parseInt(hex(seed).slice(0, 12), 16) % modulo;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const URL_SAFE = `${BASE62}-_`;
/** @param {string} seed @param {number} length @param {string} [alphabet] */
function idFrom(seed, length, alphabet = BASE62) {
  const bytes = createHash('sha256').update(seed).digest();
  let id = '';
  for (let i = 0; i < length; i += 1) id += alphabet[(bytes[i % bytes.length] ?? 0) % alphabet.length];
  return id;
}

/** @param {import('./services.d.mts').ServiceAccount} account */
const gmailOf = (account) => `${account.name.toLowerCase().replace(/\s+/g, '.')}@gmail.example`;

/* ───────────────────────────── Google Calendar ───────────────────────────── */

/**
 * The person's calendar around a moment: timed events at Madrid wall-clock times (minutes after
 * midnight) and all-day ones, from yesterday to the day after tomorrow, plus the call going on now.
 * @param {number} now
 */
function calendarEvents(now) {
  const today = dayOf(now, HOME_ZONE);
  /** @type {{ key: string, summary: string, location?: string, start: number, end: number } [] } */
  const timed = [];
  /** @type {{ key: string, summary: string, first: string, endExclusive: string }[]} */
  const allDay = [];
  /** @param {number} offset @param {number} from @param {number} to @param {string} summary @param {string} [location] */
  const add = (offset, from, to, summary, location) => {
    const day = plusDays(today, offset);
    timed.push({ key: `${day}-${from}`, summary, location, start: instantOf(day, from), end: instantOf(day, to) });
  };
  add(-1, 18 * 60, 19 * 60, 'Partido de pádel con Íñigo', 'Club de Pádel Chamartín');
  add(0, 9 * 60 + 30, 10 * 60 + 15, 'Reunión con Ñandú', 'Sala Picasso, 3.ª planta');
  add(0, 13 * 60 + 30, 14 * 60 + 30, 'Comida con Begoña', 'Casa Lucio, Cava Baja 35, Madrid');
  add(0, 19 * 60, 20 * 60 + 30, 'Clase de japonés: 日本語の会話', 'Academia Sakura');
  // Across midnight: it is both today's and tomorrow's.
  add(0, 23 * 60 + 30, 24 * 60 + 30, 'Observación de estrellas ✨', 'Observatorio de Yebes');
  add(1, 8 * 60, 8 * 60 + 30, 'Dentista — Dra. Muñoz');
  add(1, 11 * 60, 12 * 60, 'Revisión del presupuesto 2027', 'Meet');
  add(1, 16 * 60, 17 * 60, 'Café con Zoë y François');
  add(2, 10 * 60, 11 * 60, 'Entrega del proyecto «Ñandú»');
  allDay.push({ key: `${today}-cumple`, summary: 'Cumpleaños de Begoña 🎂', first: today, endExclusive: plusDays(today, 1) });
  allDay.push({ key: `${plusDays(today, 1)}-kioto`, summary: 'Vacaciones en Kioto (京都)', first: plusDays(today, 1), endExclusive: plusDays(today, 4) });
  // The call going on now: it began 20 minutes ago (on a five-minute mark) and lasts an hour.
  const liveStart = Math.floor((now - 20 * MINUTE) / (5 * MINUTE)) * 5 * MINUTE;
  timed.push({
    key: `live-${today}`,
    summary: 'Llamada con el equipo de São Paulo',
    location: 'https://meet.google.com/abc-defg-hij',
    start: liveStart,
    end: liveStart + HOUR,
  });
  return { timed, allDay };
}

/** @type {import('./services.d.mts').ApiEndpoint} */
const calendarEventsEndpoint = {
  path: '/calendar/v3/calendars/primary/events',
  invalid: ({ url }) => {
    const p = url.searchParams;
    if (p.get('orderBy') === 'startTime' && p.get('singleEvents') !== 'true') return 'The requested ordering is not available for the particular query.';
    if (intParam(url, 'maxResults', 250, 1, 2500) === undefined) return 'Invalid value for: maxResults';
    for (const name of ['timeMin', 'timeMax']) {
      const value = p.get(name);
      if (value !== null && (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(Date.parse(value)))) return `Bad Request: ${name}`;
    }
    const zone = p.get('timeZone');
    if (zone !== null) {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
      } catch {
        return 'Invalid time zone definition for start time.';
      }
    }
    return undefined;
  },
  answer: (account, { url }) => {
    const now = Date.now();
    const p = url.searchParams;
    const zone = p.get('timeZone') ?? HOME_ZONE;
    // timeMin bounds an event's end, timeMax its start (both exclusive), as Google reads them.
    const timeMin = p.has('timeMin') ? Date.parse(String(p.get('timeMin'))) : Number.NEGATIVE_INFINITY;
    const timeMax = p.has('timeMax') ? Date.parse(String(p.get('timeMax'))) : Number.POSITIVE_INFINITY;
    const maxResults = intParam(url, 'maxResults', 250, 1, 2500) ?? 250;
    const email = gmailOf(account);
    const { timed, allDay } = calendarEvents(now);
    /** @param {string} key @param {string} summary @param {string | undefined} location @param {Record<string, string>} start @param {Record<string, string>} end */
    const resource = (key, summary, location, start, end) => {
      const id = hex(`${account.id}:${key}`).slice(0, 26);
      const created = instantOf(plusDays(dayOf(now, HOME_ZONE), -numberOf(key, 20) - 1), 10 * 60);
      return {
        kind: 'calendar#event',
        etag: `"${3_400_000_000_000_000 + numberOf(key, 1_000_000)}"`,
        id,
        status: 'confirmed',
        htmlLink: `https://www.google.com/calendar/event?eid=${Buffer.from(`${id} ${email}`).toString('base64url')}`,
        created: new Date(created).toISOString(),
        updated: new Date(created + HOUR).toISOString(),
        summary,
        ...(location ? { location } : {}),
        creator: { email, self: true },
        organizer: { email, self: true },
        start,
        end,
        iCalUID: `${id}@google.com`,
        sequence: 0,
        reminders: { useDefault: true },
        eventType: 'default',
      };
    };
    /** @type {{ sortKey: number, event: ReturnType<typeof resource> }[]} */
    const found = [];
    for (const e of timed) {
      if (e.end <= timeMin || e.start >= timeMax) continue;
      found.push({
        sortKey: e.start,
        event: resource(
          e.key,
          e.summary,
          e.location,
          { dateTime: rfc3339(e.start, zone), timeZone: HOME_ZONE },
          { dateTime: rfc3339(e.end, zone), timeZone: HOME_ZONE },
        ),
      });
    }
    for (const e of allDay) {
      // An all-day event spans its days in the calendar's own zone.
      const start = instantOf(e.first, 0);
      const end = instantOf(e.endExclusive, 0);
      if (end <= timeMin || start >= timeMax) continue;
      found.push({ sortKey: start, event: resource(e.key, e.summary, undefined, { date: e.first }, { date: e.endExclusive }) });
    }
    found.sort((a, b) => a.sortKey - b.sortKey);
    const items = found.slice(0, maxResults).map((f) => f.event);
    return {
      kind: 'calendar#events',
      etag: `"p3${hex(`${account.id}:${dayOf(now, HOME_ZONE)}`).slice(0, 14)}"`,
      summary: email,
      description: '',
      updated: new Date(now - 5 * MINUTE).toISOString(),
      timeZone: zone,
      accessRole: 'owner',
      defaultReminders: [{ method: 'popup', minutes: 10 }],
      ...(found.length > maxResults ? { nextPageToken: Buffer.from(`page:${maxResults}`).toString('base64url') } : {}),
      items,
    };
  },
};

/* ───────────────────────────── Google Drive ───────────────────────────── */

const GOOGLE_APPS = 'application/vnd.google-apps.';
/** The person's files: name, type, how long ago they changed (minutes), and whether they are in the trash. */
const DRIVE_FILES = /** @type {const} */ ([
  ['Reunión con Ñandú — acta', `${GOOGLE_APPS}document`, 25, false],
  ['Borrador antiguo del acta', `${GOOGLE_APPS}document`, 40, true],
  ['Presupuesto 2027', `${GOOGLE_APPS}spreadsheet`, 2 * 60, false],
  ['日本語のメモ', `${GOOGLE_APPS}document`, 5 * 60, false],
  ['Fotos del viaje', `${GOOGLE_APPS}folder`, 9 * 60, false],
  ['Factura de marzo.pdf', 'application/pdf', 27 * 60, false],
  ['Playa de la Concha, San Sebastián.jpg', 'image/jpeg', 2 * 24 * 60, false],
  ['Presentación Q3 — resultados', `${GOOGLE_APPS}presentation`, 3 * 24 * 60 + 90, false],
  ['Vídeo del cumpleaños de Begoña.mp4', 'video/mp4', 4 * 24 * 60, false],
  ['notas-viaje-京都.txt', 'text/plain', 6 * 24 * 60, false],
  ['Recetas de la abuela', `${GOOGLE_APPS}document`, 10 * 24 * 60, false],
  ['Inventario del trastero.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 12 * 24 * 60, false],
]);
const DRIVE_FIELDS = new Set(['kind', 'id', 'name', 'mimeType', 'modifiedTime', 'createdTime', 'webViewLink', 'iconLink', 'trashed', 'size', 'starred']);

/** @param {string} id @param {string} mimeType */
function webViewLink(id, mimeType) {
  if (mimeType === `${GOOGLE_APPS}document`) return `https://docs.google.com/document/d/${id}/edit?usp=drivesdk`;
  if (mimeType === `${GOOGLE_APPS}spreadsheet`) return `https://docs.google.com/spreadsheets/d/${id}/edit?usp=drivesdk`;
  if (mimeType === `${GOOGLE_APPS}presentation`) return `https://docs.google.com/presentation/d/${id}/edit?usp=drivesdk`;
  if (mimeType === `${GOOGLE_APPS}folder`) return `https://drive.google.com/drive/folders/${id}`;
  return `https://drive.google.com/file/d/${id}/view?usp=drivesdk`;
}

/** `files(id,name)` and the like: which file fields were asked for, or null for Drive's default ones. @param {string | null} fields */
function fileFields(fields) {
  if (fields === null) return null;
  const match = /(?:^|,)\s*files\(([^)]*)\)/.exec(fields);
  if (!match) return fields.split(',').some((f) => f.trim() === 'files' || f.trim() === '*') ? [...DRIVE_FIELDS] : [];
  return (match[1] ?? '').split(',').map((f) => f.trim());
}

/** @type {import('./services.d.mts').ApiEndpoint} */
const driveFilesEndpoint = {
  path: '/drive/v3/files',
  invalid: ({ url }) => {
    const p = url.searchParams;
    if (intParam(url, 'pageSize', 100, 1, 1000) === undefined) return 'Invalid value for: pageSize';
    const q = p.get('q');
    if (q !== null && !/^\s*trashed\s*=\s*(false|true)\s*$/.test(q)) return 'Invalid Value';
    const orderBy = p.get('orderBy');
    if (orderBy !== null && !/^(modifiedTime|name|createdTime)( desc)?$/.test(orderBy)) return 'Invalid Value';
    const wanted = fileFields(p.get('fields'));
    const unknown = wanted?.find((f) => !DRIVE_FIELDS.has(f));
    if (unknown !== undefined) return `Invalid field selection ${unknown}`;
    return undefined;
  },
  answer: (account, { url }) => {
    const now = Date.now();
    const p = url.searchParams;
    const trashed = /trashed\s*=\s*(false|true)/.exec(p.get('q') ?? '')?.[1];
    let files = DRIVE_FILES.map(([name, mimeType, minutesAgo, inTrash]) => {
      const id = `1${idFrom(`${account.id}:drive:${name}`, 32, URL_SAFE)}`;
      const modified = now - minutesAgo * MINUTE;
      /** @type {Record<string, unknown>} */
      const file = {
        kind: 'drive#file',
        id,
        name,
        mimeType,
        modifiedTime: new Date(Math.floor(modified / 1000) * 1000).toISOString(),
        createdTime: new Date(modified - 30 * DAY).toISOString(),
        webViewLink: webViewLink(id, mimeType),
        iconLink: `https://drive-thirdparty.googleusercontent.com/16/type/${mimeType}`,
        trashed: inTrash,
        starred: false,
      };
      if (!mimeType.startsWith(GOOGLE_APPS)) file.size = String(20_000 + numberOf(name, 4_000_000));
      return file;
    });
    if (trashed !== undefined) files = files.filter((f) => f.trashed === (trashed === 'true'));
    const orderBy = p.get('orderBy');
    if (orderBy?.startsWith('modifiedTime')) files.sort((a, b) => String(a.modifiedTime).localeCompare(String(b.modifiedTime)));
    if (orderBy?.startsWith('name')) files.sort((a, b) => String(a.name).localeCompare(String(b.name)));
    if (orderBy?.endsWith(' desc')) files.reverse();
    const pageSize = intParam(url, 'pageSize', 100, 1, 1000) ?? 100;
    const page = files.slice(0, pageSize);
    // Without `fields`, Drive answers kind, id, name and mimeType of each file.
    const wanted = fileFields(p.get('fields')) ?? ['kind', 'id', 'name', 'mimeType'];
    return {
      // Drive leaves `kind` out when `fields` does not ask for it; the stand-in always says it.
      kind: 'drive#fileList',
      incompleteSearch: false,
      ...(files.length > pageSize ? { nextPageToken: Buffer.from(`drive:${pageSize}`).toString('base64url') } : {}),
      files: page.map((file) => Object.fromEntries(wanted.filter((f) => f in file).map((f) => [f, file[f]]))),
    };
  },
};

/* ───────────────────────────── YouTube ───────────────────────────── */

/** The channels the person subscribes to, and a few of each one's uploads (title, hours ago). */
const YOUTUBE_CHANNELS = [
  {
    title: 'Cocina con Ñandú',
    uploads: [
      ['Tortilla de patatas perfecta (con o sin cebolla)', 2],
      ['Cocido madrileño paso a paso', 50],
      ['Churros caseros en 15 minutos', 170],
    ],
  },
  {
    title: '日本語の森',
    uploads: [
      ['N3文法まとめ：〜ようにする', 6],
      ['敬語の使い方【ビジネス日本語】', 80],
    ],
  },
  {
    title: 'Historia de España en 10 minutos',
    uploads: [
      ['La Reconquista, explicada sin mitos', 30],
      ['¿Quién fue realmente el Cid Campeador?', 200],
    ],
  },
  // A channel that never uploaded: its uploads playlist does not exist.
  { title: 'Ajedrez con Begoña', uploads: [] },
  { title: 'Música en directo — Sala Apolo', uploads: [['Rosalía — Malamente (en directo, Barcelona)', 14]] },
  {
    title: 'Ciencia para todos',
    uploads: [
      ['¿Por qué el cielo es azul? Óptica para curiosos', 20],
      ['Agujeros negros: lo que sabemos en 2026', 120],
    ],
  },
  { title: 'Viajes por Japón 🇯🇵', uploads: [['Kioto en otoño: 紅葉 y templos', 300]] },
  { title: 'Tecnología sin rodeos', uploads: [['Probamos el nuevo portátil: ¿vale lo que cuesta?', 9]] },
];

/** @param {number} index */
const channelIdOf = (index) => `UC${idFrom(`youtube-channel:${index}`, 22, URL_SAFE)}`;
/** @param {string} channelId */
const uploadsOf = (channelId) => `UU${channelId.slice(2)}`;
/** @param {string} seed */
const thumbnails = (seed) => ({
  default: { url: `https://i.ytimg.com/vi/${seed}/default.jpg`, width: 120, height: 90 },
  medium: { url: `https://i.ytimg.com/vi/${seed}/mqdefault.jpg`, width: 320, height: 180 },
  high: { url: `https://i.ytimg.com/vi/${seed}/hqdefault.jpg`, width: 480, height: 360 },
});
/** @param {string} reason @param {string} message */
const googleError = (reason, message, code = 404) => ({
  error: { code, message, errors: [{ message, domain: 'youtube.playlistItem', reason, location: 'playlistId', locationType: 'parameter' }] },
});

/** @type {import('./services.d.mts').ApiEndpoint} */
const youtubeSubscriptionsEndpoint = {
  path: '/youtube/v3/subscriptions',
  // One filter is required: mine=true, channelId or id (else YouTube answers 400).
  invalid: ({ url }) => {
    if (!['mine', 'channelId', 'id', 'myRecentSubscribers', 'mySubscribers'].some((name) => url.searchParams.has(name)))
      return 'No filter selected. Expected one of: mySubscribers, myRecentSubscribers, mine, id, channelId';
    if (!url.searchParams.get('part')) return 'Required parameter: part';
    if (intParam(url, 'maxResults', 5, 0, 50) === undefined) return 'Invalid value for: maxResults';
    return undefined;
  },
  answer: (account, { url }) => {
    const maxResults = intParam(url, 'maxResults', 5, 0, 50) ?? 5;
    const items = YOUTUBE_CHANNELS.map((channel, index) => {
      const channelId = channelIdOf(index);
      return {
        kind: 'youtube#subscription',
        etag: idFrom(`etag:sub:${account.id}:${index}`, 27, URL_SAFE),
        id: idFrom(`sub:${account.id}:${index}`, 43, URL_SAFE),
        snippet: {
          publishedAt: new Date(Date.UTC(2021 + (index % 4), index % 12, 3 + index, 18, 0, 0)).toISOString(),
          title: channel.title,
          description: '',
          resourceId: { kind: 'youtube#channel', channelId },
          channelId: `UC${account.id}`,
          thumbnails: thumbnails(channelId),
        },
      };
    });
    const page = items.slice(0, maxResults);
    return {
      kind: 'youtube#subscriptionListResponse',
      etag: idFrom(`etag:subs:${account.id}`, 27, URL_SAFE),
      ...(items.length > maxResults ? { nextPageToken: 'CAoQAA' } : {}),
      pageInfo: { totalResults: items.length, resultsPerPage: maxResults },
      items: page,
    };
  },
};

/** @type {import('./services.d.mts').ApiEndpoint} */
const youtubeChannelsEndpoint = {
  path: '/youtube/v3/channels',
  answer: (account, { url }) => {
    const parts = (url.searchParams.get('part') ?? 'snippet').split(',');
    /** @param {string} id @param {string} title */
    const channel = (id, title) => ({
      kind: 'youtube#channel',
      etag: idFrom(`etag:channel:${id}`, 27, URL_SAFE),
      id,
      ...(parts.includes('snippet') ? { snippet: { title } } : {}),
      ...(parts.includes('contentDetails') ? { contentDetails: { relatedPlaylists: { likes: '', uploads: uploadsOf(id) } } } : {}),
    });
    const ids = url.searchParams.get('id');
    // Without `id`: the person's own channel (`mine=true`), the catalog row's who-am-I.
    const items = ids
      ? ids
          .split(',')
          .map((id) => YOUTUBE_CHANNELS.findIndex((_, index) => channelIdOf(index) === id.trim()))
          .filter((index) => index >= 0)
          .map((index) => channel(channelIdOf(index), YOUTUBE_CHANNELS[index]?.title ?? ''))
      : [channel(`UC${account.id}`, `${account.name} channel`)];
    return {
      kind: 'youtube#channelListResponse',
      etag: idFrom(`etag:channels:${ids}`, 27, URL_SAFE),
      pageInfo: { totalResults: items.length, resultsPerPage: 5 },
      items,
    };
  },
};

const youtubePlaylistItemsRoute = {
  method: 'GET',
  pattern: /^\/youtube\/v3\/playlistItems$/,
  handle: (/** @type {DayApiCall} */ call) => {
    const p = call.url.searchParams;
    const playlistId = p.get('playlistId');
    if (!p.get('part')) return call.send(400, googleError('required', 'Required parameter: part', 400));
    if (!playlistId && !p.get('id')) return call.send(400, googleError('missingRequiredParameter', 'No filter selected. Expected one of: id, playlistId', 400));
    const maxResults = intParam(call.url, 'maxResults', 5, 0, 50);
    if (maxResults === undefined) return call.send(400, googleError('invalidParameter', 'Invalid value for: maxResults', 400));
    const index = YOUTUBE_CHANNELS.findIndex((_, i) => uploadsOf(channelIdOf(i)) === playlistId);
    const channel = YOUTUBE_CHANNELS[index];
    if (!channel || channel.uploads.length === 0)
      return call.send(404, googleError('playlistNotFound', "The playlist identified with the request's <code>playlistId</code> parameter cannot be found."));
    const parts = String(p.get('part')).split(',');
    const channelId = channelIdOf(index);
    const now = Date.now();
    const items = channel.uploads.map(([title, hoursAgo], position) => {
      const videoId = idFrom(`video:${channelId}:${title}`, 11, URL_SAFE);
      // Published on the hour, so a video keeps its time for the hour.
      const published = isoSeconds(Math.floor((now - Number(hoursAgo) * HOUR) / HOUR) * HOUR);
      return {
        kind: 'youtube#playlistItem',
        etag: idFrom(`etag:item:${videoId}`, 27, URL_SAFE),
        id: idFrom(`item:${playlistId}:${videoId}`, 48, URL_SAFE),
        ...(parts.includes('snippet')
          ? {
              snippet: {
                publishedAt: published,
                channelId,
                title,
                description: `${title}\n\nSuscríbete para no perderte nada.`,
                thumbnails: thumbnails(videoId),
                channelTitle: channel.title,
                playlistId,
                position,
                resourceId: { kind: 'youtube#video', videoId },
                videoOwnerChannelTitle: channel.title,
                videoOwnerChannelId: channelId,
              },
            }
          : {}),
        ...(parts.includes('contentDetails') ? { contentDetails: { videoId, videoPublishedAt: published } } : {}),
      };
    });
    return call.send(200, {
      kind: 'youtube#playlistItemListResponse',
      etag: idFrom(`etag:items:${playlistId}`, 27, URL_SAFE),
      pageInfo: { totalResults: items.length, resultsPerPage: maxResults },
      items: items.slice(0, maxResults),
    });
  },
};

/* ───────────────────────────── Google Fit ───────────────────────────── */

const STEP_COUNT = 'com.google.step_count.delta';

/** A whole day's steps (Madrid's day), the same all day: 3,500 to 12,499. @param {string} account @param {string} day */
const stepsOfDay = (account, day) => 3_500 + numberOf(`${account}:steps:${day}`, 9_000);

/** @type {import('./services.d.mts').ApiEndpoint} */
const fitAggregateEndpoint = {
  path: '/fitness/v1/users/me/dataset:aggregate',
  method: 'POST',
  // A JSON body with aggregateBy and the time window in milliseconds (the stand-in sees nested
  // values as JSON text).
  invalid: ({ body }) => {
    const fields = /** @type {Record<string, string> | undefined} */ (body);
    let aggregateBy;
    try {
      aggregateBy = JSON.parse(fields?.aggregateBy ?? 'null');
    } catch {
      aggregateBy = null;
    }
    if (!Array.isArray(aggregateBy) || aggregateBy.length === 0) return 'aggregateBy must contain at least one data type or data source.';
    if (!fields?.startTimeMillis || !fields?.endTimeMillis) return 'startTimeMillis and endTimeMillis are required.';
    const start = Number(fields.startTimeMillis);
    const end = Number(fields.endTimeMillis);
    if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) return 'endTimeMillis must be after startTimeMillis.';
    let bucketByTime;
    try {
      bucketByTime = JSON.parse(fields.bucketByTime ?? 'null');
    } catch {
      return 'Invalid JSON payload received. Unknown name "bucketByTime".';
    }
    const duration = Number(bucketByTime?.durationMillis ?? end - start);
    if (!Number.isFinite(duration) || duration <= 0) return 'bucketByTime.durationMillis must be positive.';
    if ((end - start) / duration > 1000) return 'Too many buckets: more than 1000.';
    return undefined;
  },
  // Buckets of `bucketByTime.durationMillis` from the window's start (one bucket without it);
  // each bucket's steps are its share of its Madrid day's steps, none after the moment of the call.
  answer: (account, { body }) => {
    const fields = /** @type {Record<string, string>} */ (body);
    const now = Date.now();
    const start = Number(fields.startTimeMillis);
    const end = Number(fields.endTimeMillis);
    const aggregateBy = /** @type {{ dataTypeName?: string }[]} */ (JSON.parse(fields.aggregateBy ?? '[]'));
    const bucketByTime = JSON.parse(fields.bucketByTime ?? 'null');
    const duration = Number(bucketByTime?.durationMillis ?? end - start);
    const bucket = [];
    for (let from = start; from < end; from += duration) {
      const to = Math.min(from + duration, end);
      const dataset = aggregateBy.map(({ dataTypeName = STEP_COUNT }) => {
        const dataSourceId = `derived:${dataTypeName}:com.google.android.gms:aggregated`;
        let steps = 0;
        // Walk the bucket day by day (Madrid's days): each day's steps spread evenly over it.
        for (let t = from; t < Math.min(to, now);) {
          const day = dayOf(t, HOME_ZONE);
          const dayStart = instantOf(day, 0);
          const dayEnd = instantOf(plusDays(day, 1), 0);
          const until = Math.min(to, now, dayEnd);
          steps += (stepsOfDay(account.id, day) * (until - t)) / (dayEnd - dayStart);
          t = until;
        }
        const point =
          dataTypeName === STEP_COUNT && Math.round(steps) > 0
            ? [
                {
                  startTimeNanos: `${from}000000`,
                  endTimeNanos: `${to}000000`,
                  dataTypeName,
                  originDataSourceId: 'raw:com.google.step_count.delta:com.google.android.gms:stand-in:pixel:step_counter',
                  value: [{ intVal: Math.round(steps), mapVal: [] }],
                },
              ]
            : [];
        return { dataSourceId, point };
      });
      bucket.push({ startTimeMillis: String(from), endTimeMillis: String(to), dataset });
    }
    return { bucket };
  },
};

/**
 * The person's sessions: a night's sleep ending each morning (Madrid), a run on some mornings.
 * @param {string} account @param {number} from @param {number} to
 */
function fitSessions(account, from, to) {
  const today = dayOf(to, HOME_ZONE);
  const sessions = [];
  for (let n = 0; n <= 30; n += 1) {
    const wakeDay = plusDays(today, -n);
    if (instantOf(wakeDay, 24 * 60) < from) break;
    const asleep = instantOf(plusDays(wakeDay, -1), 23 * 60 + numberOf(`${account}:asleep:${wakeDay}`, 75));
    const awake = instantOf(wakeDay, 6 * 60 + 45 + numberOf(`${account}:awake:${wakeDay}`, 90));
    sessions.push({
      id: `${asleep}-sleep-${wakeDay}`,
      name: 'Sueño',
      description: '',
      startTimeMillis: String(asleep),
      endTimeMillis: String(awake),
      modifiedTimeMillis: String(awake + 2 * MINUTE),
      application: { packageName: 'com.google.android.apps.fitness', version: '', detailsUrl: '' },
      activityType: 72,
    });
    if (numberOf(`${account}:run:${wakeDay}`, 2) === 0) {
      const run = instantOf(wakeDay, 19 * 60);
      sessions.push({
        id: `${run}-run-${wakeDay}`,
        name: 'Carrera por el Retiro',
        description: '5 km a ritmo suave',
        startTimeMillis: String(run),
        endTimeMillis: String(run + 32 * MINUTE),
        modifiedTimeMillis: String(run + 35 * MINUTE),
        application: { packageName: 'com.google.android.apps.fitness', version: '', detailsUrl: '' },
        activityType: 8,
        activeTimeMillis: String(31 * MINUTE),
      });
    }
  }
  return sessions;
}

/** @type {import('./services.d.mts').ApiEndpoint} */
const fitSessionsEndpoint = {
  path: '/fitness/v1/users/me/sessions',
  invalid: ({ url }) => {
    for (const name of ['startTime', 'endTime']) {
      const value = url.searchParams.get(name);
      if (value !== null && (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(Date.parse(value)))) return `Invalid value at '${name}': "${value}"`;
    }
    if (url.searchParams.getAll('activityType').some((type) => !/^\d+$/.test(type))) return "Invalid value at 'activityType'";
    return undefined;
  },
  // Sessions that ended between startTime and endTime (the last 7 days by default), never one
  // still going on; only the activity types asked for.
  answer: (account, { url }) => {
    const now = Date.now();
    const p = url.searchParams;
    const to = Math.min(p.has('endTime') ? Date.parse(String(p.get('endTime'))) : now, now);
    const from = p.has('startTime') ? Date.parse(String(p.get('startTime'))) : to - 7 * DAY;
    const types = p.getAll('activityType').map(Number);
    const session = fitSessions(account.id, from, now)
      .filter((s) => Number(s.endTimeMillis) >= from && Number(s.endTimeMillis) <= to)
      .filter((s) => types.length === 0 || types.includes(s.activityType))
      .sort((a, b) => Number(a.startTimeMillis) - Number(b.startTimeMillis));
    return { session, deletedSession: [], hasMoreData: false };
  },
};

/* ───────────────────────────── GitHub ───────────────────────────── */

/**
 * The person's activity: what they did how many minutes ago. Pushes name their head commit (its
 * message, known to the commits route); `private` repositories' commits cannot be read.
 */
const GITHUB_ACTIVITY = [
  {
    type: 'PushEvent',
    minutesAgo: 35,
    repo: 'recetas-de-la-abuela',
    ref: 'main',
    message: 'Añade la receta del cocido madrileño\n\nCon garbanzos de Fuentesaúco y «pelotas».',
  },
  { type: 'PullRequestEvent', minutesAgo: 2 * 60, repo: 'nihongo-notes', action: 'opened', number: 12, title: 'Añade la traducción al japonés (日本語)' },
  { type: 'IssueCommentEvent', minutesAgo: 3 * 60, repo: 'madrid-devs/agenda-cultural', number: 80, title: '¿Horario de verano?' },
  {
    type: 'IssuesEvent',
    minutesAgo: 5 * 60,
    repo: 'madrid-devs/agenda-cultural',
    action: 'opened',
    number: 87,
    title: 'La agenda muestra «Sin título» en los eventos de Ñandú',
  },
  { type: 'PushEvent', minutesAgo: 7 * 60, repo: 'privado-notas', ref: 'borrador', message: 'Notas privadas', private: true },
  { type: 'WatchEvent', minutesAgo: 10 * 60, repo: 'nodejs/node' },
  { type: 'PushEvent', minutesAgo: 20 * 60, repo: 'nihongo-notes', ref: 'main', message: '日本語のメモを整理する' },
  { type: 'PullRequestEvent', minutesAgo: 26 * 60, repo: 'recetas-de-la-abuela', action: 'closed', number: 9, title: 'Corrige las cantidades del gazpacho' },
  { type: 'PushEvent', minutesAgo: 30 * 60, repo: 'madrid-devs/agenda-cultural', ref: 'fix/horarios', message: 'Corrige los horarios en verano (CEST)' },
  { type: 'CreateEvent', minutesAgo: 50 * 60, repo: 'nihongo-notes' },
];

/** The open pull requests the person wrote: repository, number, title, hours since the last change, draft. */
const GITHUB_OPEN_PULLS = /** @type {const} */ ([
  ['nihongo-notes', 12, 'Añade la traducción al japonés (日本語)', 2, false],
  ['madrid-devs/agenda-cultural', 88, 'Corrige el cálculo de pasos en días con cambio de hora', 30, false],
  ['life-dashboard', 4, 'Borrador: sección «Tu día» en el panel', 4 * 24, true],
]);

/** `owner/name`: the person's own repositories are under their login. @param {string} login @param {string} repo */
const fullName = (login, repo) => (repo.includes('/') ? repo : `${login}/${repo}`);
/** @param {string} login @param {string} repo @param {string} message */
const commitSha = (login, repo, message) => hex(`${fullName(login, repo)}:${message}`);
/** @param {string} name */
const repoId = (name) => 100_000_000 + numberOf(`repo:${name}`, 800_000_000);
/** @param {import('./services.d.mts').ServiceAccount} account */
const githubUserId = (account) => Number.parseInt(account.id.replace(/\D/g, '') || '1', 10);
/** @param {import('./services.d.mts').ServiceAccount} account */
const githubActor = (account) => ({
  id: githubUserId(account),
  login: account.name,
  display_login: account.name,
  gravatar_id: '',
  url: `https://api.github.com/users/${account.name}`,
  avatar_url: `https://avatars.githubusercontent.com/u/${githubUserId(account)}?`,
});
/** @param {string} message @param {number} status */
const githubError = (message, status) => ({ message, documentation_url: 'https://docs.github.com/rest', status: String(status) });

/** @param {import('./services.d.mts').ServiceAccount} account @param {number} now */
function githubEvents(account, now) {
  const login = account.name;
  const dayNumber = Math.floor(now / DAY);
  return GITHUB_ACTIVITY.map((a, index) => {
    const name = fullName(login, a.repo);
    const created = now - a.minutesAgo * MINUTE;
    /** @type {Record<string, unknown>} */
    let payload = {};
    if (a.type === 'PushEvent') {
      // github.com's events no longer list the commits: the head names the last one.
      payload = {
        repository_id: repoId(name),
        push_id: 25_000_000_000 + dayNumber * 100 + index,
        ref: `refs/heads/${a.ref}`,
        head: commitSha(login, a.repo, a.message ?? ''),
        before: hex(`${name}:before:${a.message}`),
      };
    } else if (a.type === 'PullRequestEvent') {
      payload = {
        action: a.action,
        number: a.number,
        pull_request: {
          url: `https://api.github.com/repos/${name}/pulls/${a.number}`,
          id: 2_900_000_000 + numberOf(`${name}#${a.number}`, 90_000_000),
          html_url: `https://github.com/${name}/pull/${a.number}`,
          number: a.number,
          state: a.action === 'closed' ? 'closed' : 'open',
          title: a.title,
          user: { login, id: githubUserId(account) },
          created_at: isoSeconds(created),
          updated_at: isoSeconds(created),
          head: { ref: 'traduccion-ja', sha: hex(`${name}:head:${a.number}`) },
          base: { ref: 'main', sha: hex(`${name}:base:${a.number}`) },
        },
      };
    } else if (a.type === 'IssuesEvent' || a.type === 'IssueCommentEvent') {
      const issue = {
        url: `https://api.github.com/repos/${name}/issues/${a.number}`,
        html_url: `https://github.com/${name}/issues/${a.number}`,
        id: 3_600_000_000 + numberOf(`${name}#${a.number}`, 90_000_000),
        number: a.number,
        title: a.title,
        user: { login, id: githubUserId(account) },
        state: 'open',
        created_at: isoSeconds(created),
        updated_at: isoSeconds(created),
      };
      payload =
        a.type === 'IssuesEvent'
          ? { action: a.action, issue }
          : { action: 'created', issue, comment: { id: 2_500_000_000 + index, body: 'Creo que falta el cambio de hora. 🕐', user: { login } } };
    } else if (a.type === 'WatchEvent') {
      payload = { action: 'started' };
    } else if (a.type === 'CreateEvent') {
      payload = { ref: null, ref_type: 'repository', master_branch: 'main', description: 'Apuntes de japonés 日本語', pusher_type: 'user' };
    }
    return {
      // Stable for the day: the same thing keeps its id.
      id: String(52_000_000_000 + dayNumber * 100 + index),
      type: a.type,
      actor: githubActor(account),
      repo: { id: repoId(name), name, url: `https://api.github.com/repos/${name}` },
      payload,
      public: !a.private,
      created_at: isoSeconds(created),
    };
  });
}

/** @type {import('./services.d.mts').ApiEndpoint} */
const githubSearchIssuesEndpoint = {
  path: '/search/issues',
  invalid: ({ url }) => {
    if (!url.searchParams.get('q')) return 'Validation Failed';
    if (intParam(url, 'per_page', 30, 1, 100) === undefined) return 'Validation Failed';
    return undefined;
  },
  // Understands is:pr / is:issue, is:open / is:closed and author:{login}: the person's open pull requests.
  answer: (account, { url }) => {
    const now = Date.now();
    const terms = String(url.searchParams.get('q')).split(/\s+/);
    const login = account.name;
    const author = terms.find((t) => t.startsWith('author:'))?.slice('author:'.length);
    const matches =
      !terms.includes('is:issue') &&
      !terms.includes('is:closed') &&
      !terms.includes('is:merged') &&
      (author === undefined || author.toLowerCase() === login.toLowerCase());
    const perPage = intParam(url, 'per_page', 30, 1, 100) ?? 30;
    const items = (matches ? GITHUB_OPEN_PULLS : []).map(([repo, number, title, hoursAgo, draft]) => {
      const name = fullName(login, repo);
      const updated = now - hoursAgo * HOUR;
      return {
        url: `https://api.github.com/repos/${name}/issues/${number}`,
        repository_url: `https://api.github.com/repos/${name}`,
        html_url: `https://github.com/${name}/pull/${number}`,
        id: 2_900_000_000 + numberOf(`${name}#${number}`, 90_000_000),
        node_id: `PR_kwDO${idFrom(`${name}#${number}`, 14)}`,
        number,
        title,
        user: { login, id: githubUserId(account), type: 'User' },
        labels: [],
        state: 'open',
        locked: false,
        assignee: null,
        assignees: [],
        comments: numberOf(title, 5),
        created_at: isoSeconds(updated - 2 * DAY),
        updated_at: isoSeconds(updated),
        closed_at: null,
        author_association: repo.includes('/') ? 'CONTRIBUTOR' : 'OWNER',
        draft,
        pull_request: {
          url: `https://api.github.com/repos/${name}/pulls/${number}`,
          html_url: `https://github.com/${name}/pull/${number}`,
          diff_url: `https://github.com/${name}/pull/${number}.diff`,
          patch_url: `https://github.com/${name}/pull/${number}.patch`,
          merged_at: null,
        },
        body: 'Descripción en la PR. ¡Gracias por revisar!',
        score: 1,
      };
    });
    if (url.searchParams.get('sort') === 'updated') items.sort((a, b) => b.updated_at.localeCompare(a.updated_at));
    if (url.searchParams.get('order') === 'asc') items.reverse();
    return { total_count: items.length, incomplete_results: false, items: items.slice(0, perPage) };
  },
};

const githubRoutes = [
  {
    method: 'GET',
    pattern: /^\/users\/([^/]+)\/events$/,
    handle: (/** @type {DayApiCall} */ call) => {
      // Only the person exists on this GitHub.
      if (decodeURIComponent(call.match[1] ?? '').toLowerCase() !== call.account.name.toLowerCase()) return call.send(404, githubError('Not Found', 404));
      const perPage = intParam(call.url, 'per_page', 30, 1, 100);
      const page = intParam(call.url, 'page', 1, 1, 10);
      if (perPage === undefined || page === undefined) return call.send(422, githubError('Validation Failed', 422));
      const events = githubEvents(call.account, Date.now());
      return call.send(200, events.slice((page - 1) * perPage, page * perPage));
    },
  },
  {
    method: 'GET',
    pattern: /^\/repos\/([^/]+)\/([^/]+)\/commits\/([^/]+)$/,
    handle: (/** @type {DayApiCall} */ call) => {
      const [, owner = '', repoName = '', ref = ''] = call.match;
      const login = call.account.name;
      const name = `${decodeURIComponent(owner)}/${decodeURIComponent(repoName)}`;
      const pushes = GITHUB_ACTIVITY.filter((a) => a.type === 'PushEvent' && fullName(login, a.repo) === name);
      // A private repository is not there for a token without the `repo` scope.
      if (pushes.length === 0 || pushes.some((a) => a.private)) return call.send(404, githubError('Not Found', 404));
      const push = pushes.find((a) => commitSha(login, a.repo, a.message ?? '') === ref);
      if (!push) return call.send(422, githubError(`No commit found for SHA: ${ref}`, 422));
      const sha = commitSha(login, push.repo, push.message ?? '');
      const date = isoSeconds(Date.now() - push.minutesAgo * MINUTE - 2 * MINUTE);
      const author = { name: 'Octo Conector', email: `${login}@users.noreply.github.com`, date };
      return call.send(200, {
        sha,
        node_id: `C_kwDO${idFrom(sha, 20)}`,
        commit: {
          author,
          committer: author,
          message: push.message,
          tree: { sha: hex(`${sha}:tree`), url: `https://api.github.com/repos/${name}/git/trees/${hex(`${sha}:tree`)}` },
          url: `https://api.github.com/repos/${name}/git/commits/${sha}`,
          comment_count: 0,
          verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
        },
        url: `https://api.github.com/repos/${name}/commits/${sha}`,
        html_url: `https://github.com/${name}/commit/${sha}`,
        comments_url: `https://api.github.com/repos/${name}/commits/${sha}/comments`,
        author: githubActor(call.account),
        committer: githubActor(call.account),
        parents: [{ sha: hex(`${name}:before:${push.message}`), url: `https://api.github.com/repos/${name}/commits/${hex(`${name}:before:${push.message}`)}` }],
        stats: { total: 14, additions: 12, deletions: 2 },
        files: [],
      });
    },
  },
];

/* ───────────────────────────── Spotify ───────────────────────────── */

/** Tracks: name, artists, album, length in seconds (every one longer than the 4-minute slot it plays in). */
const SPOTIFY_TRACKS = /** @type {const} */ ([
  ['Malamente - Cap.1: Augurio', ['Rosalía'], 'El Mal Querer', 250],
  ['Entre dos aguas', ['Paco de Lucía'], 'Fuente y caudal', 365],
  ['夜に駆ける', ['YOASOBI'], 'THE BOOK', 261],
  ['Águas de Março', ['Elis Regina', 'Tom Jobim'], 'Elis & Tom', 318],
  ['Corazón partío', ['Alejandro Sanz'], 'Más', 349],
  ['紅蓮華', ['LiSA'], 'LEO-NiNE', 243],
  ['Hijo de la Luna', ['Mecano'], 'Entre el cielo y el suelo', 258],
  ['Lucha de gigantes', ['Nacha Pop'], 'El momento', 262],
  ['Ojalá', ['Silvio Rodríguez'], 'Al final de este viaje...', 242],
  ['La Bikina', ['Luis Miguel'], 'Mis boleros favoritos', 248],
  ['Me quedo contigo', ['Los Chunguitos'], 'Me quedo contigo', 287],
  ['Cucurrucucú paloma', ['Caetano Veloso'], 'Fina Estampa', 366],
]);
const SLOT = 4 * MINUTE;

/** @param {number} index */
function spotifyTrack(index) {
  const [name, artists, album, seconds] = SPOTIFY_TRACKS[index % SPOTIFY_TRACKS.length] ?? SPOTIFY_TRACKS[0];
  const id = idFrom(`spotify:track:${name}`, 22);
  const albumId = idFrom(`spotify:album:${album}`, 22);
  const artistObjects = artists.map((artist) => {
    const artistId = idFrom(`spotify:artist:${artist}`, 22);
    return {
      external_urls: { spotify: `https://open.spotify.com/artist/${artistId}` },
      href: `https://api.spotify.com/v1/artists/${artistId}`,
      id: artistId,
      name: artist,
      type: 'artist',
      uri: `spotify:artist:${artistId}`,
    };
  });
  return {
    album: {
      album_type: 'album',
      total_tracks: 10 + (index % 5),
      external_urls: { spotify: `https://open.spotify.com/album/${albumId}` },
      href: `https://api.spotify.com/v1/albums/${albumId}`,
      id: albumId,
      images: [
        { url: `https://i.scdn.co/image/ab67616d0000b273${hex(albumId).slice(0, 24)}`, height: 640, width: 640 },
        { url: `https://i.scdn.co/image/ab67616d00001e02${hex(albumId).slice(0, 24)}`, height: 300, width: 300 },
      ],
      name: album,
      release_date: `${1975 + numberOf(album, 50)}-01-01`,
      release_date_precision: 'year',
      type: 'album',
      uri: `spotify:album:${albumId}`,
      artists: artistObjects,
    },
    artists: artistObjects,
    disc_number: 1,
    duration_ms: seconds * 1000,
    explicit: false,
    external_ids: { isrc: `ES${idFrom(`isrc:${name}`, 10).toUpperCase()}` },
    external_urls: { spotify: `https://open.spotify.com/track/${id}` },
    href: `https://api.spotify.com/v1/tracks/${id}`,
    id,
    is_local: false,
    name,
    popularity: 40 + numberOf(name, 55),
    preview_url: null,
    track_number: 1 + (index % 9),
    type: 'track',
    uri: `spotify:track:${id}`,
  };
}

/** The track in a 4-minute slot (slots since the epoch). @param {number} slot */
const trackInSlot = (slot) => numberOf(`slot:${slot}`, SPOTIFY_TRACKS.length);
const PLAYLIST = { name: 'Canciones para un domingo ☀️', id: '37i9dQZF1DX5Ejj0EkURtP' };
const spotifyContext = {
  type: 'playlist',
  href: `https://api.spotify.com/v1/playlists/${PLAYLIST.id}`,
  external_urls: { spotify: `https://open.spotify.com/playlist/${PLAYLIST.id}` },
  uri: `spotify:playlist:${PLAYLIST.id}`,
};

/**
 * The plays before a moment, newest first: this session (the last four slots), this morning's
 * (three hours ago), last evening's (20 hours ago) and the day before's (26 hours ago).
 * @param {number} now
 */
function spotifyPlays(now) {
  const current = Math.floor(now / SLOT);
  const slots = [1, 2, 3, 4, 45, 46, 47, 300, 301, 390, 391, 392].map((back) => current - back);
  return slots.map((slot) => ({
    track: spotifyTrack(trackInSlot(slot)),
    played_at: new Date((slot + 1) * SLOT - 1000 - numberOf(`end:${slot}`, 20_000)).toISOString(),
    context: spotifyContext,
  }));
}

/** @type {import('./services.d.mts').ApiEndpoint[]} */
const spotifyEndpoints = [
  {
    path: '/v1/me/player/currently-playing',
    invalid: ({ url }) => {
      const types = url.searchParams.get('additional_types');
      if (types !== null && !types.split(',').every((t) => t === 'track' || t === 'episode')) return 'Invalid additional_types';
      return undefined;
    },
    // Always playing: this slot's track, the progress since the slot began.
    answer: () => {
      const now = Date.now();
      const slot = Math.floor(now / SLOT);
      return {
        timestamp: slot * SLOT,
        context: spotifyContext,
        progress_ms: now - slot * SLOT,
        item: spotifyTrack(trackInSlot(slot)),
        currently_playing_type: 'track',
        actions: { disallows: { resuming: true } },
        is_playing: true,
      };
    },
  },
  {
    path: '/v1/me/player/recently-played',
    invalid: ({ url }) => {
      if (intParam(url, 'limit', 20, 1, 50) === undefined) return 'Invalid limit';
      if (url.searchParams.has('after') && url.searchParams.has('before')) return 'Only one of after and before may be specified';
      return undefined;
    },
    answer: (_account, { url }) => {
      const limit = intParam(url, 'limit', 20, 1, 50) ?? 20;
      const after = Number(url.searchParams.get('after') ?? Number.NEGATIVE_INFINITY);
      const before = Number(url.searchParams.get('before') ?? Number.POSITIVE_INFINITY);
      const plays = spotifyPlays(Date.now()).filter((play) => Date.parse(play.played_at) > after && Date.parse(play.played_at) < before);
      const items = plays.slice(0, limit);
      const oldest = items.at(-1);
      const newest = items[0];
      return {
        items,
        next:
          oldest && plays.length > limit ? `https://api.spotify.com/v1/me/player/recently-played?before=${Date.parse(oldest.played_at)}&limit=${limit}` : null,
        cursors: newest && oldest ? { after: String(Date.parse(newest.played_at)), before: String(Date.parse(oldest.played_at)) } : null,
        limit,
        href: `https://api.spotify.com/v1/me/player/recently-played?limit=${limit}`,
      };
    },
  },
];

/**
 * The endpoints the views of part A read, per stand-in family. Endpoints whose path a family
 * already serves (Drive's files, YouTube's subscriptions and channels, Fit's aggregate) take that
 * endpoint's place and keep its behaviour for the calls it answered before.
 * @returns {Partial<Record<import('./services.d.mts').ServiceFamily, DayApis>>}
 */
export function dayApisA() {
  return {
    google: {
      endpoints: [calendarEventsEndpoint, driveFilesEndpoint, youtubeSubscriptionsEndpoint, youtubeChannelsEndpoint, fitAggregateEndpoint, fitSessionsEndpoint],
      routes: [youtubePlaylistItemsRoute],
    },
    github: { endpoints: [githubSearchIssuesEndpoint], routes: githubRoutes },
    spotify: { endpoints: spotifyEndpoints },
  };
}
