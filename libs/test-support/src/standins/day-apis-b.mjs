// What the "Tu día" views read from Fitbit, Notion, SoundCloud, Philips Hue, Battle.net (World of
// Warcraft) and Bungie (Destiny 2) (issue 19): the providers' real endpoints and answer shapes, with
// data relative to the moment of the call (today's steps, last night's sleep).
//
// The person lives in Madrid (their Fitbit profile's zone): their nights and their steps follow
// Madrid's days. Everything is a function of the request time and the account (no randomness): the
// same moment gives the same answer, and ids stay the same for a thing. The Hue bridge's lights are
// state (a switch changes them), kept per bridge: per stand-in, never shared between stand-ins.
import { createHash } from 'node:crypto';
import { HOME_ZONE, HOUR, MINUTE, dayOf, instantOf, intParam, isoSeconds, pad, plusDays } from './day-time.mjs';

/**
 * @typedef {{ endpoints?: import('./services.d.mts').ApiEndpoint[], routes?: { method: string, pattern: RegExp, handle: (call: any) => unknown }[] }} DayApis
 */

/**
 * @typedef {object} DayApiCall
 * @property {import('node:http').IncomingMessage} req
 * @property {URL} url
 * @property {RegExpExecArray} match
 * @property {import('./services.d.mts').ServiceAccount} account
 * @property {unknown} json
 * @property {(status: number, body: unknown) => void} send
 */

/* Times as the providers write them (Madrid's days and the zone arithmetic: day-time.mjs). */

/** A wall-clock time as Fitbit writes it, without an offset (`2026-11-28T07:05:00.000`). @param {string} day @param {number} minutes */
function fitbitWall(day, minutes) {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1) + minutes * MINUTE).toISOString().replace('Z', '');
}
/** A calendar day that exists (YYYY-MM-DD). @param {string} value */
const realDay = (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
/** Notion's times: UTC, rounded to the minute, with milliseconds. @param {number} ms */
const notionTime = (ms) => new Date(Math.floor(ms / MINUTE) * MINUTE).toISOString();
/** SoundCloud's times (`2026/11/28 09:12:44 +0000`). @param {number} ms */
function soundcloudTime(ms) {
  const d = new Date(Math.floor(ms / 1000) * 1000);
  return `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

/* Deterministic made-up ids. */

/** @param {string} seed */
const hex = (seed) => createHash('sha256').update(seed).digest('hex');
/** A number from a seed, in [0, modulo). @param {string} seed @param {number} modulo */
const numberOf = (seed, modulo) => Number.parseInt(hex(seed).slice(0, 12), 16) % modulo;
/** A UUID-shaped id from a seed. @param {string} seed */
function uuidOf(seed) {
  const h = hex(seed);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
/** @param {import('node:http').IncomingMessage} req @param {string} name */
const header = (req, name) => {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

/* ───────────── Fitbit (https://api.fitbit.com) ───────────── */

/** @param {string} message */
const fitbitValidation = (message) => ({ errors: [{ errorType: 'validation', fieldName: 'date', message }], success: false });

/** A whole day's steps (deterministic per person and day). @param {string} account @param {string} day */
const fullDaySteps = (account, day) => 2_500 + numberOf(`fitbit:${account}:steps:${day}`, 11_000);

/**
 * Steps on a day, as Fitbit would report them now: the whole day's for a past day, the part of
 * the day gone by for today (Madrid), none for a day to come.
 * @param {string} account @param {string} day @param {number} now
 */
function stepsOn(account, day, now) {
  const today = dayOf(now, HOME_ZONE);
  if (day > today) return 0;
  const full = fullDaySteps(account, day);
  if (day < today) return full;
  const start = instantOf(day, 0);
  const end = instantOf(plusDays(day, 1), 0);
  return Math.round((full * (now - start)) / (end - start));
}

/** Fitbit's periods for a time series ending on a day. */
const PERIOD_DAYS = /** @type {Record<string, number>} */ ({ '1d': 1, '7d': 7, '1w': 7, '30d': 30, '1m': 30 });

/** `GET /1/user/-/activities/steps/date/{date}/{period}.json`: `{"activities-steps": [{dateTime, value}]}`, oldest first, values as strings. */
const fitbitStepsRoute = {
  method: 'GET',
  pattern: /^\/1\/user\/([-A-Z0-9]{1,10})\/activities\/steps\/date\/([^/]+)\/([^/]+)\.json$/,
  handle: (/** @type {DayApiCall} */ call) => {
    const [, user, date, period] = call.match;
    if (user !== '-' && user !== call.account.id)
      return call.send(403, { errors: [{ errorType: 'insufficient_permissions', message: 'Read access is not allowed.' }], success: false });
    const now = Date.now();
    const end = date === 'today' ? dayOf(now, HOME_ZONE) : String(date);
    if (!realDay(end)) return call.send(400, fitbitValidation(`Invalid date:${date}`));
    const days = PERIOD_DAYS[String(period)];
    if (!days) return call.send(400, fitbitValidation(`Invalid period: ${period}. Allowed values: 1d, 7d, 30d, 1w, 1m.`));
    const series = [];
    for (let n = days - 1; n >= 0; n -= 1) {
      const day = plusDays(end, -n);
      series.push({ dateTime: day, value: String(stepsOn(call.account.id, day, now)) });
    }
    return call.send(200, { 'activities-steps': series });
  },
};

/** One cycle of a night, as Fitbit's stages: level and minutes. */
const NIGHT_CYCLE = /** @type {const} */ ([
  ['light', 28],
  ['deep', 52],
  ['light', 34],
  ['rem', 24],
  ['wake', 4],
]);

/**
 * The sleeps that ended on a day (Fitbit's `dateOfSleep`), as they are known now: the night before
 * it (in bed around 23:00-00:15 Madrid, 6½-8½ hours) once it has ended, and on some days a nap at
 * 15:30, once it has ended. Newest first, as Fitbit lists them.
 * @param {string} account @param {string} day @param {number} now
 */
function sleepsOn(account, day, now) {
  const logs = [];
  const seed = `fitbit:${account}:sleep:${day}`;
  const eve = plusDays(day, -1);
  // The night: minutes from the eve's midnight.
  const start = 23 * 60 + numberOf(`${seed}:start`, 75);
  const inBed = 390 + numberOf(`${seed}:length`, 120);
  if (instantOf(eve, start + inBed) <= now) {
    const data = [];
    /** @type {Record<string, { count: number, minutes: number }>} */
    const summary = { deep: { count: 0, minutes: 0 }, light: { count: 0, minutes: 0 }, rem: { count: 0, minutes: 0 }, wake: { count: 0, minutes: 0 } };
    let at = start;
    for (let step = 0; at < start + inBed; step += 1) {
      const [level, length] = NIGHT_CYCLE[step % NIGHT_CYCLE.length] ?? ['light', 30];
      const minutes = Math.min(length, start + inBed - at);
      data.push({ dateTime: fitbitWall(eve, at), level, seconds: minutes * 60 });
      const entry = summary[level];
      if (entry) {
        entry.count += 1;
        entry.minutes += minutes;
      }
      at += minutes;
    }
    const awake = summary.wake?.minutes ?? 0;
    logs.push({
      dateOfSleep: day,
      duration: inBed * MINUTE,
      efficiency: 88 + numberOf(`${seed}:efficiency`, 10),
      endTime: fitbitWall(eve, start + inBed),
      infoCode: 0,
      isMainSleep: true,
      levels: {
        data,
        shortData: [],
        summary: Object.fromEntries(
          Object.entries(summary).map(([level, { count, minutes }]) => [level, { count, minutes, thirtyDayAvgMinutes: minutes + 3 }]),
        ),
      },
      logId: 40_000_000_000 + numberOf(`${seed}:id`, 999_999_999),
      logType: 'auto_detected',
      minutesAfterWakeup: 0,
      minutesAsleep: inBed - awake,
      minutesAwake: awake,
      minutesToFallAsleep: 0,
      startTime: fitbitWall(eve, start),
      timeInBed: inBed,
      type: 'stages',
    });
  }
  // A nap on one day in three: "classic" (too short for stages), never the main sleep.
  const napStart = 15 * 60 + 30;
  const napLength = 35;
  if (numberOf(`${seed}:nap`, 3) === 0 && instantOf(day, napStart + napLength) <= now) {
    logs.unshift({
      dateOfSleep: day,
      duration: napLength * MINUTE,
      efficiency: 93,
      endTime: fitbitWall(day, napStart + napLength),
      infoCode: 0,
      isMainSleep: false,
      levels: {
        data: [
          { dateTime: fitbitWall(day, napStart), level: 'asleep', seconds: 1800 },
          { dateTime: fitbitWall(day, napStart + 30), level: 'restless', seconds: 300 },
        ],
        summary: { asleep: { count: 0, minutes: 30 }, awake: { count: 0, minutes: 0 }, restless: { count: 1, minutes: 5 } },
      },
      logId: 40_000_000_000 + numberOf(`${seed}:nap:id`, 999_999_999),
      logType: 'auto_detected',
      minutesAfterWakeup: 0,
      minutesAsleep: 30,
      minutesAwake: 5,
      minutesToFallAsleep: 0,
      startTime: fitbitWall(day, napStart),
      timeInBed: napLength,
      type: 'classic',
    });
  }
  return logs;
}

/** `GET /1.2/user/-/sleep/date/{date}.json`: `{sleep: [...], summary: {...}}`. */
const fitbitSleepRoute = {
  method: 'GET',
  pattern: /^\/1\.2\/user\/([-A-Z0-9]{1,10})\/sleep\/date\/([^/]+)\.json$/,
  handle: (/** @type {DayApiCall} */ call) => {
    const [, user, date] = call.match;
    if (user !== '-' && user !== call.account.id)
      return call.send(403, { errors: [{ errorType: 'insufficient_permissions', message: 'Read access is not allowed.' }], success: false });
    const now = Date.now();
    const day = date === 'today' ? dayOf(now, HOME_ZONE) : String(date);
    if (!realDay(day)) return call.send(400, fitbitValidation(`Invalid date:${date}`));
    const sleep = sleepsOn(call.account.id, day, now);
    const stages = /** @type {Record<string, number>} */ ({ deep: 0, light: 0, rem: 0, wake: 0 });
    for (const log of sleep) {
      if (log.type !== 'stages') continue;
      for (const [level, entry] of Object.entries(log.levels.summary))
        if (level in stages) stages[level] = (stages[level] ?? 0) + /** @type {{ minutes: number }} */ (entry).minutes;
    }
    return call.send(200, {
      sleep,
      summary: {
        ...(sleep.some((log) => log.type === 'stages') ? { stages } : {}),
        totalMinutesAsleep: sleep.reduce((sum, log) => sum + log.minutesAsleep, 0),
        totalSleepRecords: sleep.length,
        totalTimeInBed: sleep.reduce((sum, log) => sum + log.timeInBed, 0),
      },
    });
  },
};

/* ───────────── Notion (https://api.notion.com/v1, Notion-Version 2022-06-28) ───────────── */

/**
 * The pages the person shared with the connection: title parts (a second part is bold), the name
 * of the title property (`title` on a page, `Name` on a database row), and how long ago each was
 * last edited. One database, which the `page` filter leaves out.
 * @type {{ object: 'page' | 'database', parts: string[], property: string, minutesAgo: number, icon: string | null, row?: boolean }[]}
 */
const NOTION_ITEMS = [
  { object: 'page', parts: ['Lista de la compra'], property: 'title', minutesAgo: 14, icon: '🛒' },
  { object: 'page', parts: ['Ideas para el cumpleaños ', 'de Ñoño'], property: 'Name', minutesAgo: 97, icon: '🎂', row: true },
  { object: 'database', parts: ['Tareas de casa'], property: 'Name', minutesAgo: 160, icon: '✅' },
  { object: 'page', parts: ['日本語の勉強ノート'], property: 'title', minutesAgo: 5 * 60 + 7, icon: '🇯🇵' },
  { object: 'page', parts: ['Recetas de Cocina'], property: 'title', minutesAgo: 26 * 60, icon: '🍳' },
  { object: 'page', parts: ['Reforma del Salón'], property: 'Name', minutesAgo: 3 * 24 * 60 + 40, icon: null, row: true },
  { object: 'page', parts: [], property: 'title', minutesAgo: 6 * 24 * 60, icon: null },
  { object: 'page', parts: ['Viaje a Japón: itinerario'], property: 'title', minutesAgo: 9 * 24 * 60, icon: '✈️' },
  { object: 'page', parts: ['Presupuesto 2027'], property: 'title', minutesAgo: 12 * 24 * 60, icon: '📊' },
  { object: 'page', parts: ['Libros que quiero leer'], property: 'Name', minutesAgo: 15 * 24 * 60, icon: '📚', row: true },
  { object: 'page', parts: ['Notas de la reunión con Ñoño'], property: 'title', minutesAgo: 21 * 24 * 60, icon: null },
  { object: 'page', parts: ['Contraseñas NO (mover a gestor)'], property: 'title', minutesAgo: 40 * 24 * 60, icon: '🔒' },
];

/** @param {string} content @param {boolean} bold */
const richText = (content, bold) => ({
  type: 'text',
  text: { content, link: null },
  annotations: { bold, italic: false, strikethrough: false, underline: false, code: false, color: 'default' },
  plain_text: content,
  href: null,
});

/** @param {import('./services.d.mts').ServiceAccount} account @param {(typeof NOTION_ITEMS)[number]} item @param {number} now */
function notionObject(account, item, now) {
  const title = item.parts.join('');
  const id = uuidOf(`notion:${account.id}:${item.object}:${title || item.minutesAgo}`);
  const compact = id.replace(/-/g, '');
  const slug = title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const user = { object: 'user', id: account.id };
  const databaseId = uuidOf(`notion:${account.id}:database:Tareas de casa`);
  const edited = now - item.minutesAgo * MINUTE;
  const common = {
    object: item.object,
    id,
    created_time: notionTime(edited - (30 + numberOf(`notion:${id}:created`, 60 * 24 * 30)) * MINUTE),
    last_edited_time: notionTime(edited),
    created_by: user,
    last_edited_by: user,
    cover: null,
    icon: item.icon ? { type: 'emoji', emoji: item.icon } : null,
    parent: item.row ? { type: 'database_id', database_id: databaseId } : { type: 'workspace', workspace: true },
    archived: false,
    in_trash: false,
    url: `https://www.notion.so/${slug ? `${slug}-` : ''}${compact}`,
    public_url: null,
  };
  const titleText = item.parts.map((part, index) => richText(part, index > 0));
  if (item.object === 'database') {
    return {
      ...common,
      title: titleText,
      description: [],
      is_inline: false,
      properties: {
        Name: { id: 'title', name: 'Name', type: 'title', title: {} },
        Estado: { id: 'Qk%5Ez', name: 'Estado', type: 'status', status: { options: [], groups: [] } },
      },
    };
  }
  return {
    ...common,
    properties: item.row
      ? {
          Estado: { id: 'Qk%5Ez', type: 'status', status: { id: 'in-progress', name: 'En curso', color: 'blue' } },
          Fecha: { id: 'a%3Bq', type: 'date', date: null },
          Name: { id: 'title', type: 'title', title: titleText },
        }
      : { title: { id: 'title', type: 'title', title: titleText } },
  };
}

/** @param {string} message */
const notionInvalid = (message) => `body failed validation: ${message}`;

/** @param {unknown} raw */
function parsedField(raw) {
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(String(raw));
  } catch {
    return null;
  }
}

/**
 * `POST /v1/search`: pages and databases shared with the connection, filtered by object, sorted
 * by last_edited_time, paged by page_size and start_cursor (the stand-in sees nested JSON values
 * as JSON text).
 * @type {import('./services.d.mts').ApiEndpoint}
 */
const notionSearchEndpoint = {
  path: '/v1/search',
  method: 'POST',
  invalid: ({ body }) => {
    const fields = /** @type {Record<string, string>} */ (body ?? {});
    const filter = parsedField(fields.filter);
    if (filter !== undefined) {
      if (filter?.property !== 'object') return notionInvalid('body.filter.property should be `"object"`.');
      if (filter.value !== 'page' && filter.value !== 'database')
        return notionInvalid(`body.filter.value should be \`"page"\` or \`"database"\`, instead was \`${JSON.stringify(filter.value)}\`.`);
    }
    const sort = parsedField(fields.sort);
    if (sort !== undefined) {
      if (sort?.timestamp !== 'last_edited_time') return notionInvalid('body.sort.timestamp should be `"last_edited_time"`.');
      if (sort.direction !== 'ascending' && sort.direction !== 'descending')
        return notionInvalid('body.sort.direction should be `"ascending"` or `"descending"`.');
    }
    if (fields.page_size !== undefined) {
      const size = Number(fields.page_size);
      if (!Number.isInteger(size) || size < 1 || size > 100) return notionInvalid('body.page_size should be a number between 1 and 100.');
    }
    return undefined;
  },
  answer: (account, { body }) => {
    const fields = /** @type {Record<string, string>} */ (body ?? {});
    const filter = parsedField(fields.filter);
    const sort = parsedField(fields.sort);
    const query = typeof fields.query === 'string' ? fields.query.toLowerCase() : '';
    const size = fields.page_size === undefined ? 100 : Number(fields.page_size);
    const now = Date.now();
    let items = NOTION_ITEMS.filter((item) => (!filter || item.object === filter.value) && item.parts.join('').toLowerCase().includes(query)).map((item) =>
      notionObject(account, item, now),
    );
    items.sort((a, b) => Date.parse(b.last_edited_time) - Date.parse(a.last_edited_time));
    if (sort?.direction === 'ascending') items.reverse();
    const from = fields.start_cursor ? items.findIndex((item) => item.id === fields.start_cursor) : 0;
    items = items.slice(Math.max(from, 0));
    const results = items.slice(0, size);
    const next = items[size];
    return {
      object: 'list',
      results,
      next_cursor: next ? next.id : null,
      has_more: Boolean(next),
      type: 'page_or_database',
      page_or_database: {},
      request_id: uuidOf(`notion:request:${now}`),
    };
  },
};

/* ───────────── SoundCloud (https://api.soundcloud.com) ───────────── */

/**
 * The person's liked tracks, newest like first: title, artist (username, permalink), the track's
 * permalink, genre, length, and how long ago it was uploaded (the likes list says nothing of when
 * each like was made).
 * @type {[string, string, string, string, string, number, number][]}
 */
const SOUNDCLOUD_LIKES = [
  ['Verano en Cádiz', 'Ñoño Beats', 'nono-beats', 'verano-en-cadiz', 'Flamenco', 214_000, 3],
  ['夜明けのピアノ', 'Hikari 光', 'hikari-piano', 'yoake-no-piano', 'Piano', 187_000, 50],
  ['Cocina de madrugada (lo-fi)', 'Los del Salón', 'losdelsalon', 'cocina-de-madrugada-lo-fi', 'Lo-fi', 156_000, 200],
  ['Canción para Ñoño', 'María Jiménez', 'maria-jimenez-music', 'cancion-para-nono', 'Pop', 201_000, 24 * 30],
  ['Tokyo Night Drive 東京', 'Kenji', 'kenji-beats', 'tokyo-night-drive', 'Electronic', 243_000, 24 * 90],
  ['Rumba del Salón', 'Paco y Lola', 'pacoylola', 'rumba-del-salon', 'Rumba', 189_000, 24 * 400],
  ['Mañanas de domingo', 'Aurora Sánchez', 'aurora-sanchez', 'mananas-de-domingo', 'Acoustic', 176_000, 24 * 500],
  ['Lluvia en Kioto', 'Hikari 光', 'hikari-piano', 'lluvia-en-kioto', 'Ambient', 305_000, 24 * 620],
  ['Bulerías del barrio', 'Ñoño Beats', 'nono-beats', 'bulerias-del-barrio', 'Flamenco', 198_000, 24 * 700],
  ['Sunset Sessions #12', 'DJ Marisol', 'djmarisol', 'sunset-sessions-12', 'House', 3_612_000, 24 * 800],
  ['Nana para el bebé', 'María Jiménez', 'maria-jimenez-music', 'nana-para-el-bebe', 'Folk', 142_000, 24 * 900],
  ['El último tren', 'Los del Salón', 'losdelsalon', 'el-ultimo-tren', 'Indie', 231_000, 24 * 1000],
];

/** @param {(typeof SOUNDCLOUD_LIKES)[number]} like @param {number} now */
function soundcloudTrack([title, artist, artistPermalink, permalink, genre, duration, hoursAgo], now) {
  const id = 1_000_000_000 + numberOf(`soundcloud:track:${permalink}`, 999_999_999);
  const userId = 100_000_000 + numberOf(`soundcloud:user:${artistPermalink}`, 899_999_999);
  // Uploaded on the minute, so a track keeps its time for the minute.
  const created = Math.floor((now - hoursAgo * HOUR) / MINUTE) * MINUTE;
  return {
    kind: 'track',
    id,
    urn: `soundcloud:tracks:${id}`,
    created_at: soundcloudTime(created),
    duration,
    commentable: true,
    comment_count: numberOf(`soundcloud:comments:${id}`, 300),
    sharing: 'public',
    tag_list: genre.toLowerCase(),
    streamable: true,
    embeddable_by: 'all',
    purchase_url: null,
    purchase_title: null,
    genre,
    title,
    description: `${title}, de ${artist}.`,
    label_name: null,
    release: null,
    key_signature: null,
    isrc: null,
    bpm: null,
    release_year: null,
    release_month: null,
    release_day: null,
    license: 'all-rights-reserved',
    uri: `https://api.soundcloud.com/tracks/soundcloud:tracks:${id}`,
    user: {
      avatar_url: `https://i1.sndcdn.com/avatars-${hex(artistPermalink).slice(0, 16)}-large.jpg`,
      id: userId,
      urn: `soundcloud:users:${userId}`,
      kind: 'user',
      permalink_url: `https://soundcloud.com/${artistPermalink}`,
      uri: `https://api.soundcloud.com/users/soundcloud:users:${userId}`,
      username: artist,
      permalink: artistPermalink,
      followers_count: numberOf(`soundcloud:followers:${userId}`, 50_000),
    },
    permalink_url: `https://soundcloud.com/${artistPermalink}/${permalink}`,
    artwork_url: `https://i1.sndcdn.com/artworks-${hex(permalink).slice(0, 16)}-large.jpg`,
    stream_url: `https://api.soundcloud.com/tracks/soundcloud:tracks:${id}/stream`,
    download_url: null,
    waveform_url: `https://wave.sndcdn.com/${hex(`wave:${permalink}`).slice(0, 12)}_m.png`,
    available_country_codes: null,
    secret_uri: null,
    user_favorite: true,
    user_playback_count: null,
    playback_count: numberOf(`soundcloud:plays:${id}`, 2_000_000),
    download_count: 0,
    favoritings_count: numberOf(`soundcloud:likes:${id}`, 40_000),
    reposts_count: numberOf(`soundcloud:reposts:${id}`, 3_000),
    downloadable: false,
    access: 'playable',
    policy: null,
    monetization_model: null,
    metadata_artist: artist,
  };
}

/**
 * `GET /me/likes/tracks`: the tracks the person liked, newest like first; `limit` (default 50, at
 * most 200), `linked_partitioning` for `{collection, next_href}` (else the bare list), `cursor`
 * from a next_href.
 * @type {import('./services.d.mts').ApiEndpoint}
 */
const soundcloudLikesEndpoint = {
  path: '/me/likes/tracks',
  invalid: ({ url }) => {
    if (intParam(url, 'limit', 50, 1, 200) === undefined) return 'limit must be between 1 and 200';
    const cursor = url.searchParams.get('cursor');
    if (cursor !== null && !/^\d{1,3}$/.test(cursor)) return 'invalid cursor';
    return undefined;
  },
  answer: (_account, { url }) => {
    const limit = intParam(url, 'limit', 50, 1, 200) ?? 50;
    const from = Number(url.searchParams.get('cursor') ?? '0');
    const now = Date.now();
    const page = SOUNDCLOUD_LIKES.slice(from, from + limit).map((like) => soundcloudTrack(like, now));
    const partitioned = ['true', '1'].includes(url.searchParams.get('linked_partitioning') ?? '');
    if (!partitioned) return page;
    const more = from + limit < SOUNDCLOUD_LIKES.length;
    return {
      collection: page,
      next_href: more ? `https://api.soundcloud.com/me/likes/tracks?cursor=${from + limit}&limit=${limit}&linked_partitioning=true` : null,
    };
  },
};

/* ───────────── Philips Hue (https://api.meethue.com/route/clip/v2) ───────────── */

const HUE_NOT_FOUND = { errors: [{ description: 'Not Found' }], data: [] };

/**
 * The bridge's rooms, devices and lights (CLIP v2). The two lights keep the ids and names the
 * connection tests have always seen (Salón, Cocina); a third room holds only a sensor.
 */
const HUE_HOME = {
  lights: [
    {
      id: '3f4ac4e9-d67a-4dbd-8a16-5ea7e373f281',
      id_v1: '/lights/1',
      device: '6a0f9d3e-5a1c-4d2b-9e8f-1c2d3e4f5a61',
      name: 'Salón',
      archetype: 'sultan_bulb',
      product: ['LCA001', 'Hue color lamp'],
      on: true,
      brightness: 80,
    },
    {
      id: '8b1f2d8e-0c5b-4a57-9d3b-2a6f1c9e7d10',
      id_v1: '/lights/2',
      device: '7b1e0c4f-6b2d-4e3c-8f90-2d3e4f5a6b72',
      name: 'Cocina',
      archetype: 'spot_bulb',
      product: ['LTG002', 'Hue ambiance spot'],
      on: false,
      brightness: 45,
    },
  ],
  rooms: [
    {
      id: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e51',
      id_v1: '/groups/1',
      name: 'Salón',
      archetype: 'living_room',
      devices: ['6a0f9d3e-5a1c-4d2b-9e8f-1c2d3e4f5a61', '9d3a2e6b-8d4f-4a5e-b1c2-4f5a6b7c8d94'],
    },
    { id: 'd2e3f4a5-b6c7-4d8e-9f0a-1b2c3d4e5f62', id_v1: '/groups/2', name: 'Cocina', archetype: 'kitchen', devices: ['7b1e0c4f-6b2d-4e3c-8f90-2d3e4f5a6b72'] },
    {
      id: 'e3f4a5b6-c7d8-4e9f-8a1b-2c3d4e5f6a73',
      id_v1: '/groups/3',
      name: 'Habitación de Ñoño',
      archetype: 'kids_bedroom',
      devices: ['0e4b3f7c-9e5a-4b6f-a2d3-5a6b7c8d9ea5'],
    },
  ],
  /** Devices without a light: a dimmer switch in the Salón, a motion sensor in Ñoño's room. */
  others: [
    {
      id: '9d3a2e6b-8d4f-4a5e-b1c2-4f5a6b7c8d94',
      name: 'Interruptor del Salón',
      archetype: 'unknown_archetype',
      product: ['RWL022', 'Hue dimmer switch'],
      service: 'button',
    },
    {
      id: '0e4b3f7c-9e5a-4b6f-a2d3-5a6b7c8d9ea5',
      name: 'Sensor de movimiento',
      archetype: 'unknown_archetype',
      product: ['SML003', 'Hue motion sensor'],
      service: 'motion',
    },
  ],
};

/**
 * The CLIP v2 routes of one bridge, with its lights' state (what `PUT resource/light/{id}` changes).
 * @param {Map<string, unknown>} users  the bridge's application keys
 */
function hueRoutes(users) {
  /** Each light's on state and brightness, for this bridge only. */
  const state = new Map(HUE_HOME.lights.map((light) => [light.id, { on: light.on, brightness: light.brightness }]));
  /** @param {DayApiCall} call */
  const keyKnown = (call) => {
    const key = header(call.req, 'hue-application-key');
    if (key && users.has(key)) return true;
    call.send(403, { errors: [{ description: 'unauthorized user' }], data: [] });
    return false;
  };
  /** @param {(typeof HUE_HOME.lights)[number]} light */
  const lightResource = (light) => {
    const now = state.get(light.id) ?? { on: false, brightness: 0 };
    return {
      id: light.id,
      id_v1: light.id_v1,
      owner: { rid: light.device, rtype: 'device' },
      metadata: { name: light.name, archetype: light.archetype, function: 'mixed' },
      identify: {},
      on: { on: now.on },
      dimming: { brightness: now.brightness, min_dim_level: 0.2 },
      dimming_delta: {},
      color_temperature: { mirek: 366, mirek_valid: true, mirek_schema: { mirek_minimum: 153, mirek_maximum: 500 } },
      dynamics: { status: 'none', status_values: ['none', 'dynamic_palette'], speed: 0, speed_valid: false },
      alert: { action_values: ['breathe'] },
      mode: 'normal',
      type: 'light',
    };
  };
  /** @param {string} id @param {string} name @param {string} archetype @param {string[]} product @param {{ rid: string, rtype: string }[]} services */
  const device = (id, name, archetype, [modelId, productName], services) => ({
    id,
    product_data: {
      model_id: modelId,
      manufacturer_name: 'Signify Netherlands B.V.',
      product_name: productName,
      product_archetype: archetype,
      certified: true,
      software_version: '1.116.3',
    },
    metadata: { name, archetype },
    identify: {},
    services,
    type: 'device',
  });
  const devices = () => [
    ...HUE_HOME.lights.map((light) =>
      device(light.device, light.name, light.archetype, light.product, [
        { rid: light.id, rtype: 'light' },
        { rid: uuidOf(`hue:zigbee:${light.device}`), rtype: 'zigbee_connectivity' },
      ]),
    ),
    ...HUE_HOME.others.map((other) =>
      device(other.id, other.name, other.archetype, other.product, [
        { rid: uuidOf(`hue:${other.service}:${other.id}`), rtype: other.service },
        { rid: uuidOf(`hue:power:${other.id}`), rtype: 'device_power' },
      ]),
    ),
  ];
  const rooms = () =>
    HUE_HOME.rooms.map((room) => ({
      id: room.id,
      id_v1: room.id_v1,
      children: room.devices.map((rid) => ({ rid, rtype: 'device' })),
      services: [{ rid: uuidOf(`hue:grouped_light:${room.id}`), rtype: 'grouped_light' }],
      metadata: { name: room.name, archetype: room.archetype },
      type: 'room',
    }));

  return [
    {
      method: 'GET',
      pattern: /^\/route\/clip\/v2\/resource\/light$/,
      handle: (/** @type {DayApiCall} */ call) => keyKnown(call) && call.send(200, { errors: [], data: HUE_HOME.lights.map(lightResource) }),
    },
    {
      method: 'GET',
      pattern: /^\/route\/clip\/v2\/resource\/light\/([^/]+)$/,
      handle: (/** @type {DayApiCall} */ call) => {
        if (!keyKnown(call)) return undefined;
        const light = HUE_HOME.lights.find((l) => l.id === call.match[1]);
        return light ? call.send(200, { errors: [], data: [lightResource(light)] }) : call.send(404, HUE_NOT_FOUND);
      },
    },
    {
      // `{"on": {"on": true}}` and/or `{"dimming": {"brightness": 0-100}}`: the bridge answers the resource it changed.
      method: 'PUT',
      pattern: /^\/route\/clip\/v2\/resource\/light\/([^/]+)$/,
      handle: (/** @type {DayApiCall} */ call) => {
        if (!keyKnown(call)) return undefined;
        const id = call.match[1] ?? '';
        const now = state.get(id);
        if (!now) return call.send(404, HUE_NOT_FOUND);
        const body = /** @type {Record<string, any> | null} */ (call.json);
        /** @param {string} description */
        const bad = (description) => call.send(400, { errors: [{ description }], data: [] });
        if (!body || typeof body !== 'object' || Array.isArray(body)) return bad('invalid body');
        const hasOn = 'on' in body;
        const hasDimming = 'dimming' in body;
        if (!hasOn && !hasDimming) return bad('no properties to update');
        if (hasOn && typeof body.on?.on !== 'boolean') return bad('body (on.on): expected boolean');
        const brightness = body.dimming?.brightness;
        if (hasDimming && (typeof brightness !== 'number' || brightness < 0 || brightness > 100))
          return bad('body (dimming.brightness): expected number between 0 and 100');
        if (hasOn) now.on = body.on.on;
        if (hasDimming) now.brightness = brightness;
        return call.send(200, { data: [{ rid: id, rtype: 'light' }], errors: [] });
      },
    },
    {
      method: 'GET',
      pattern: /^\/route\/clip\/v2\/resource\/room$/,
      handle: (/** @type {DayApiCall} */ call) => keyKnown(call) && call.send(200, { errors: [], data: rooms() }),
    },
    {
      method: 'GET',
      pattern: /^\/route\/clip\/v2\/resource\/device$/,
      handle: (/** @type {DayApiCall} */ call) => keyKnown(call) && call.send(200, { errors: [], data: devices() }),
    },
  ];
}

/* ───────────── Battle.net: World of Warcraft's profile (https://{region}.api.blizzard.com) ───────────── */

const WOW_LOCALES = /** @type {const} */ (['en_US', 'es_MX', 'pt_BR', 'de_DE', 'en_GB', 'es_ES', 'fr_FR', 'it_IT', 'ru_RU', 'ko_KR', 'zh_TW', 'zh_CN']);

/**
 * A name in every locale Blizzard has, from the ones given (English where none is).
 * @param {string} en @param {Partial<Record<(typeof WOW_LOCALES)[number] | 'es' | 'zh', string>>} [names]
 */
function everyLocale(en, names = {}) {
  return Object.fromEntries(
    WOW_LOCALES.map((locale) => {
      const language = /** @type {'es' | 'zh' | undefined} */ (locale.startsWith('es') ? 'es' : locale.startsWith('zh') ? 'zh' : undefined);
      return [locale, names[locale] ?? (language ? names[language] : undefined) ?? en];
    }),
  );
}

const WOW_CLASSES = /** @type {Record<number, Record<string, string>>} */ ({
  3: everyLocale('Hunter', {
    es: 'Cazador',
    fr_FR: 'Chasseur',
    de_DE: 'Jäger',
    it_IT: 'Cacciatore',
    pt_BR: 'Caçador',
    ru_RU: 'Охотник',
    ko_KR: '사냥꾼',
    zh_TW: '獵人',
    zh_CN: '猎人',
  }),
  5: everyLocale('Priest', {
    es: 'Sacerdote',
    fr_FR: 'Prêtre',
    de_DE: 'Priester',
    it_IT: 'Sacerdote',
    pt_BR: 'Sacerdote',
    ru_RU: 'Жрец',
    ko_KR: '사제',
    zh_TW: '牧師',
    zh_CN: '牧师',
  }),
  6: everyLocale('Death Knight', {
    es: 'Caballero de la Muerte',
    fr_FR: 'Chevalier de la mort',
    de_DE: 'Todesritter',
    it_IT: 'Cavaliere della Morte',
    pt_BR: 'Cavaleiro da Morte',
    ru_RU: 'Рыцарь смерти',
    ko_KR: '죽음의 기사',
    zh_TW: '死亡騎士',
    zh_CN: '死亡骑士',
  }),
  7: everyLocale('Shaman', {
    es: 'Chamán',
    fr_FR: 'Chaman',
    de_DE: 'Schamane',
    it_IT: 'Sciamano',
    pt_BR: 'Xamã',
    ru_RU: 'Шаман',
    ko_KR: '주술사',
    zh_TW: '薩滿',
    zh_CN: '萨满祭司',
  }),
  8: everyLocale('Mage', { es: 'Mago', de_DE: 'Magier', it_IT: 'Mago', pt_BR: 'Mago', ru_RU: 'Маг', ko_KR: '마법사', zh_TW: '法師', zh_CN: '法师' }),
  13: everyLocale('Evoker', {
    es: 'Evocador',
    fr_FR: 'Évocateur',
    de_DE: 'Rufer',
    it_IT: 'Evocatore',
    pt_BR: 'Evocador',
    ru_RU: 'Пробудитель',
    ko_KR: '기원사',
    zh_TW: '喚能師',
    zh_CN: '唤魔师',
  }),
});
const WOW_RACES = /** @type {Record<number, Record<string, string>>} */ ({
  1: everyLocale('Human', { es: 'Humano', fr_FR: 'Humain', de_DE: 'Mensch', ko_KR: '인간', zh_TW: '人類', zh_CN: '人类' }),
  2: everyLocale('Orc', { ko_KR: '오크', zh_TW: '獸人', zh_CN: '兽人' }),
  4: everyLocale('Night Elf', {
    es: 'Elfo de la noche',
    fr_FR: 'Elfe de la nuit',
    de_DE: 'Nachtelf',
    ko_KR: '나이트 엘프',
    zh_TW: '夜精靈',
    zh_CN: '暗夜精灵',
  }),
  7: everyLocale('Gnome', { es: 'Gnomo', de_DE: 'Gnom', ko_KR: '노움', zh_TW: '地精', zh_CN: '侏儒' }),
  10: everyLocale('Blood Elf', { es: 'Elfo de sangre', fr_FR: 'Elfe de sang', de_DE: 'Blutelf', ko_KR: '블러드 엘프', zh_TW: '血精靈', zh_CN: '血精灵' }),
  52: everyLocale('Dracthyr', { ko_KR: '드랙티르', zh_TW: '半龍人', zh_CN: '龙希尔' }),
});
const WOW_FACTIONS = /** @type {Record<string, Record<string, string>>} */ ({
  HORDE: everyLocale('Horde', { fr_FR: 'Horde', ko_KR: '호드', zh_TW: '部落', zh_CN: '部落' }),
  ALLIANCE: everyLocale('Alliance', { es: 'Alianza', de_DE: 'Allianz', ko_KR: '얼라이언스', zh_TW: '聯盟', zh_CN: '联盟' }),
});
const WOW_GENDERS = /** @type {Record<string, Record<string, string>>} */ ({
  MALE: everyLocale('Male', { es: 'Hombre', fr_FR: 'Homme', de_DE: 'Männlich', ko_KR: '남성', zh_TW: '男性', zh_CN: '男性' }),
  FEMALE: everyLocale('Female', { es: 'Mujer', fr_FR: 'Femme', de_DE: 'Weiblich', ko_KR: '여성', zh_TW: '女性', zh_CN: '女性' }),
});

/**
 * Realms by region: id, slug, names. @type {Record<string, { id: number, slug: string, name: Record<string, string> }[]>}
 */
const WOW_REALMS = {
  eu: [
    { id: 1403, slug: 'draenor', name: everyLocale('Draenor', { ru_RU: 'Дренор' }) },
    { id: 1384, slug: 'los-errantes', name: everyLocale('Los Errantes') },
    { id: 1379, slug: 'sanguino', name: everyLocale('Sanguino') },
  ],
  us: [
    { id: 3676, slug: 'area-52', name: everyLocale('Area 52') },
    { id: 1428, slug: 'quelthalas', name: everyLocale("Quel'Thalas", { zh_TW: '奎爾薩拉斯' }) },
    { id: 3678, slug: 'ragnaros', name: everyLocale('Ragnaros') },
  ],
  kr: [
    { id: 205, slug: 'azshara', name: everyLocale('Azshara', { ko_KR: '아즈샤라', zh_TW: '艾薩拉', zh_CN: '艾萨拉' }) },
    { id: 210, slug: 'durotan', name: everyLocale('Durotan', { ko_KR: '듀로탄', zh_TW: '杜洛坦', zh_CN: '杜隆坦' }) },
    { id: 214, slug: 'windrunner', name: everyLocale('Windrunner', { ko_KR: '윈드러너', zh_TW: '風行者', zh_CN: '风行者' }) },
  ],
  tw: [
    { id: 963, slug: 'shadowmoon', name: everyLocale('Shadowmoon', { zh_TW: '暗影之月', zh_CN: '暗影之月', ko_KR: '어둠의 달' }) },
    { id: 964, slug: 'spirestone', name: everyLocale('Spirestone', { zh_TW: '尖石', zh_CN: '尖石' }) },
    { id: 966, slug: 'wrathbringer', name: everyLocale('Wrathbringer', { zh_TW: '憤怒使者', zh_CN: '愤怒使者' }) },
  ],
  cn: [
    { id: 4, slug: 'shadowmoon', name: everyLocale('Shadowmoon', { zh_CN: '暗影之月', zh_TW: '暗影之月' }) },
    { id: 5, slug: 'spirestone', name: everyLocale('Spirestone', { zh_CN: '尖石', zh_TW: '尖石' }) },
    { id: 6, slug: 'wrathbringer', name: everyLocale('Wrathbringer', { zh_CN: '愤怒使者', zh_TW: '憤怒使者' }) },
  ],
};

/**
 * The characters of the account's two WoW licences: name (Latin-alphabet regions, Korean, Chinese),
 * realm (index in the region's list), class, race, gender, faction, level. Thrall keeps id 7.
 * @type {{ id: number, names: Record<'latin' | 'kr' | 'zh', string>, realm: number, classId: number, raceId: number, gender: 'MALE' | 'FEMALE', faction: 'HORDE' | 'ALLIANCE', level: number, licence: number }[]}
 */
const WOW_CHARACTERS = [
  { id: 7, names: { latin: 'Thrall', kr: '스랄', zh: '索爾' }, realm: 0, classId: 7, raceId: 2, gender: 'MALE', faction: 'HORDE', level: 80, licence: 0 },
  {
    id: 201_845_113,
    names: { latin: 'Ñoño', kr: '뇨뇨', zh: '諾諾' },
    realm: 1,
    classId: 8,
    raceId: 7,
    gender: 'FEMALE',
    faction: 'ALLIANCE',
    level: 72,
    licence: 0,
  },
  {
    id: 201_845_290,
    names: { latin: 'Lúthien', kr: '루시엔', zh: '露西恩' },
    realm: 2,
    classId: 5,
    raceId: 4,
    gender: 'FEMALE',
    faction: 'ALLIANCE',
    level: 80,
    licence: 0,
  },
  {
    id: 201_846_007,
    names: { latin: 'Brasaviva', kr: '불씨', zh: '燼火' },
    realm: 1,
    classId: 13,
    raceId: 52,
    gender: 'MALE',
    faction: 'HORDE',
    level: 68,
    licence: 0,
  },
  {
    id: 187_220_415,
    names: { latin: 'Mortífero', kr: '죽음날개', zh: '亡刃' },
    realm: 0,
    classId: 6,
    raceId: 10,
    gender: 'MALE',
    faction: 'HORDE',
    level: 80,
    licence: 1,
  },
  {
    id: 187_220_981,
    names: { latin: 'Cazadorita', kr: '사냥이', zh: '獵手' },
    realm: 2,
    classId: 3,
    raceId: 1,
    gender: 'FEMALE',
    faction: 'ALLIANCE',
    level: 12,
    licence: 1,
  },
];

/** @param {string} region */
const blizzardHost = (region) => (region === 'cn' ? 'https://gateway.battlenet.com.cn' : `https://${region}.api.blizzard.com`);

/**
 * The account profile summary (`GET /profile/user/wow`, Blizzard's shape): every character of the
 * account's WoW licences with its realm, class, race, gender, faction and level. Names come in the
 * `locale` asked (a string), or, without one (or with one Blizzard does not have), as an object of
 * every locale. `region` is the stand-in's own addition (tests read which region answered).
 * @param {string} region @param {import('./services.d.mts').ServiceAccount} account @param {string | null} locale
 */
export function wowProfileSummary(region, account, locale) {
  const host = blizzardHost(region);
  const namespace = `profile-${region}`;
  const one = /** @type {readonly string[]} */ (WOW_LOCALES).includes(locale ?? '') ? /** @type {string} */ (locale) : null;
  /** @param {Record<string, string>} names */
  const name = (names) => (one ? (names[one] ?? names.en_US) : names);
  const realms = WOW_REALMS[region] ?? WOW_REALMS.eu ?? [];
  const script = region === 'kr' ? 'kr' : region === 'tw' || region === 'cn' ? 'zh' : 'latin';
  const accountId = Number.parseInt(account.id, 10) || 1;
  /** @param {(typeof WOW_CHARACTERS)[number]} c */
  const character = (c) => {
    const realm = realms[c.realm] ?? realms[0];
    const characterName = c.names[script];
    return {
      character: { href: `${host}/profile/wow/character/${realm?.slug}/${encodeURIComponent(characterName.toLowerCase())}?namespace=${namespace}` },
      protected_character: { href: `${host}/profile/user/wow/protected-character/${realm?.id}-${c.id}?namespace=${namespace}` },
      name: characterName,
      id: c.id,
      realm: {
        key: { href: `${host}/data/wow/realm/${realm?.id}?namespace=dynamic-${region}` },
        name: name(realm?.name ?? {}),
        id: realm?.id,
        slug: realm?.slug,
      },
      playable_class: {
        key: { href: `${host}/data/wow/playable-class/${c.classId}?namespace=static-${region}` },
        name: name(WOW_CLASSES[c.classId] ?? {}),
        id: c.classId,
      },
      playable_race: {
        key: { href: `${host}/data/wow/playable-race/${c.raceId}?namespace=static-${region}` },
        name: name(WOW_RACES[c.raceId] ?? {}),
        id: c.raceId,
      },
      gender: { type: c.gender, name: name(WOW_GENDERS[c.gender] ?? {}) },
      faction: { type: c.faction, name: name(WOW_FACTIONS[c.faction] ?? {}) },
      level: c.level,
    };
  };
  return {
    _links: {
      self: { href: `${host}/profile/user/wow?namespace=${namespace}` },
      user: { href: `${host}/profile/user/wow?namespace=${namespace}` },
      profile: { href: `${host}/profile/user/wow?namespace=${namespace}` },
    },
    id: accountId,
    wow_accounts: [0, 1].map((licence) => ({
      id: accountId * 10 + licence + 1,
      characters: WOW_CHARACTERS.filter((c) => c.licence === licence).map(character),
    })),
    collections: { href: `${host}/profile/user/wow/collections?namespace=${namespace}` },
    region,
  };
}

/* ───────────── Bungie: Destiny 2 (https://www.bungie.net/Platform) ───────────── */

/** @param {unknown} Response */
const bungieOk = (Response) => ({ Response, ErrorCode: 1, ThrottleSeconds: 0, ErrorStatus: 'Success', Message: 'Ok', MessageData: {} });
/** @param {number} ErrorCode @param {string} ErrorStatus @param {string} Message */
const bungieError = (ErrorCode, ErrorStatus, Message) => ({ ErrorCode, ThrottleSeconds: 0, ErrorStatus, Message, MessageData: {} });

/** The person's Destiny memberships: Steam and PlayStation, cross save onto Steam (the primary). @param {import('./services.d.mts').ServiceAccount} a */
function bungieMemberships(a) {
  const steam = `4611686018${a.id.slice(-9)}`;
  const psn = `4611686018${String(100_000_000 + numberOf(`bungie:psn:${a.id}`, 899_999_999))}`;
  const [name = a.name, code = '0'] = a.name.split('#');
  const membership = (/** @type {number} */ type, /** @type {string} */ id, /** @type {number[]} */ applicable, /** @type {string} */ icon) => ({
    LastSeenDisplayName: name,
    LastSeenDisplayNameType: type,
    iconPath: icon,
    crossSaveOverride: 3,
    applicableMembershipTypes: applicable,
    isPublic: true,
    membershipType: type,
    membershipId: id,
    displayName: name,
    bungieGlobalDisplayName: name,
    bungieGlobalDisplayNameCode: Number(code) || 0,
  });
  return {
    steam,
    psn,
    Response: {
      destinyMemberships: [
        membership(3, steam, [3, 2], '/img/theme/bungienet/icons/steamLogo.png'),
        membership(2, psn, [], '/img/theme/bungienet/icons/psnLogo.png'),
      ],
      primaryMembershipId: steam,
      marketingMembershipId: steam,
      bungieNetUser: {
        membershipId: a.id,
        uniqueName: a.name,
        displayName: a.name,
        locale: 'es',
        localeInheritDefault: true,
        isDeleted: false,
        cachedBungieGlobalDisplayName: name,
      },
    },
  };
}

/**
 * `GET /Platform/User/GetMembershipsForCurrentUser/` (the family's who-am-I, here with cross save:
 * the same bungieNetUser as before).
 * @type {import('./services.d.mts').ApiEndpoint}
 */
const bungieMembershipsEndpoint = {
  path: '/Platform/User/GetMembershipsForCurrentUser/',
  answer: (a) => bungieOk(bungieMemberships(a).Response),
};

/** The account's guardians: class, race, gender and light, and when each was last played (minutes ago). */
const GUARDIANS = /** @type {const} */ ([
  { classType: 0, classHash: 3655393761, raceType: 0, raceHash: 3887404748, genderType: 0, genderHash: 3111576190, light: 2010, playedMinutesAgo: 95 },
  { classType: 1, classHash: 671679327, raceType: 1, raceHash: 2803282938, genderType: 1, genderHash: 2204441813, light: 1998, playedMinutesAgo: 26 * 60 },
  { classType: 2, classHash: 2271682572, raceType: 2, raceHash: 898834093, genderType: 0, genderHash: 3111576190, light: 1987, playedMinutesAgo: 9 * 24 * 60 },
]);

/**
 * `GET /Platform/Destiny2/{membershipType}/Profile/{membershipId}/?components=…`: the profile of
 * the account's primary (cross save) membership; components 200 (Characters) brings each
 * character. Another membership of the account is "not found", as cross save makes it.
 */
const bungieProfileRoute = {
  method: 'GET',
  pattern: /^\/Platform\/Destiny2\/(-?\d{1,4})\/Profile\/(\d{1,20})\/?$/,
  handle: (/** @type {DayApiCall} */ call) => {
    if (!header(call.req, 'x-api-key')) return call.send(401, bungieError(2102, 'ApiKeyMissingFromRequest', 'The request is missing an API key.'));
    const [, type, id] = call.match;
    const { steam } = bungieMemberships(call.account);
    if (type !== '3' || id !== steam)
      return call.send(200, bungieError(1601, 'DestinyAccountNotFound', 'We were unable to find your Destiny account information.'));
    const components = (call.url.searchParams.get('components') ?? '').split(',').map((c) => c.trim().toLowerCase());
    const now = Date.now();
    /** @type {Record<string, unknown>} */
    const Response = { responseMintedTimestamp: new Date(now).toISOString(), secondaryComponentsMintedTimestamp: new Date(now).toISOString() };
    if (components.includes('200') || components.includes('characters')) {
      const data = Object.fromEntries(
        GUARDIANS.map((guardian, index) => {
          const characterId = `230584300${String(9_000_000_000 + numberOf(`bungie:character:${call.account.id}:${index}`, 999_999_999)).slice(-10)}`;
          // Played on the minute, so a guardian keeps its time for the minute.
          const played = Math.floor((now - guardian.playedMinutesAgo * MINUTE) / MINUTE) * MINUTE;
          return [
            characterId,
            {
              membershipId: steam,
              membershipType: 3,
              characterId,
              dateLastPlayed: isoSeconds(played),
              minutesPlayedThisSession: String(30 + index * 7),
              minutesPlayedTotal: String(12_000 + numberOf(`bungie:minutes:${characterId}`, 40_000)),
              light: guardian.light,
              stats: { 1935470627: guardian.light, 2996146975: 40 + index * 10, 392767087: 60, 1943323491: 30, 1735777505: 50, 144602215: 20, 4244567218: 70 },
              raceHash: guardian.raceHash,
              genderHash: guardian.genderHash,
              classHash: guardian.classHash,
              raceType: guardian.raceType,
              classType: guardian.classType,
              genderType: guardian.genderType,
              emblemPath: `/common/destiny2_content/icons/${hex(`emblem:${index}`).slice(0, 32)}.jpg`,
              emblemBackgroundPath: `/common/destiny2_content/icons/${hex(`emblem-bg:${index}`).slice(0, 32)}.jpg`,
              emblemHash: 1_409_726_931 + index,
              emblemColor: { red: 12, green: 34, blue: 56, alpha: 255 },
              levelProgression: {
                progressionHash: 1716568313,
                dailyProgress: 0,
                dailyLimit: 0,
                weeklyProgress: 0,
                weeklyLimit: 0,
                currentProgress: 0,
                level: 50,
                levelCap: 50,
                stepIndex: 50,
                progressToNextLevel: 0,
                nextLevelAt: 0,
              },
              baseCharacterLevel: 50,
              percentToNextLevel: 0,
            },
          ];
        }),
      );
      Response.characters = { data, privacy: 1 };
    }
    return call.send(200, bungieOk(Response));
  },
};

/**
 * The day's APIs of these providers, by stand-in family.
 * @param {{ hueUsers: Map<string, unknown> }} context  Hue's bridge users (application keys), for the CLIP v2 routes
 * @returns {Partial<Record<import('./services.d.mts').ServiceFamily, DayApis>>}
 */
export function dayApisB(context) {
  return {
    rotating: { routes: [fitbitStepsRoute, fitbitSleepRoute] },
    notion: { endpoints: [notionSearchEndpoint] },
    soundcloud: { endpoints: [soundcloudLikesEndpoint] },
    hue: { routes: hueRoutes(context.hueUsers) },
    bungie: { endpoints: [bungieMembershipsEndpoint], routes: [bungieProfileRoute] },
    // Battle.net's profile summary is served by battlenetProfileApi() in services.mjs (its route
    // comes first) with wowProfileSummary() from here.
  };
}
