import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { DAY_SERVICES, DayViewsSchema, type DayItem, type DayService } from '@life/contracts';
import { pollUntil } from '@life/test-support';
import { KeyRing } from '../core/crypto/key-ring.js';
import { sealSnapshot, SnapshotSchema, type Snapshot } from '../modules/your-day/day-snapshot.js';
import { insertRows, seedConnections, seedUsers, sessionFor } from './connections.scenarios.js';
import { firstMessage, memoryOf, startNodeChild, stopChild, type ManagedChild } from './processes.js';
import type { BenchContext, CustomResult, Scenario } from './scenarios.js';

/**
 * "Tu día" benchmarks (issue 19, docs/your-day.md):
 *
 * - `day-views`: the dashboard's data call, `GET /api/your-day/views`, for a person with the 12
 *   "Tu día" services connected and a ready snapshot each (sealed as the app seals them), answered
 *   from the snapshots only (no provider is called).
 * - `day-sync-10k`: 10,000 Spotify views due at once, fetched and stored by two worker processes
 *   (`worker.js`, their own queue prefix) from a Spotify stand-in in its own process; snapshots
 *   stored per second, against a plain loop making the same API calls to the same stand-in in the
 *   same run (`day-sync-ref`).
 *
 * Run directly (`node dist/bench/your-day.scenarios.js`, as day-sync-10k does in a child process)
 * this file serves the Spotify stand-in instead.
 */

export const YOUR_DAY_GROUP = 'your-day';

const SELF_JS = fileURLToPath(import.meta.url);
const here = path.dirname(SELF_JS);
const WORKER_JS = path.resolve(here, '..', 'worker.js');

const SYNC_VIEWS = 10_000;
const SYNC_WORKERS = 2;
const SYNC_DEADLINE_MS = 180_000;
const REFERENCE_DEADLINE_MS = 60_000;
/** DAY_SYNC_CONCURRENCY of each bench worker (the app's default unless BENCH_DAY_SYNC_CONCURRENCY says otherwise). */
const SYNC_CONCURRENCY = Number(process.env.BENCH_DAY_SYNC_CONCURRENCY ?? 16);
/** The worker's heap flags in production (root package.json's start:worker), as run.ts gives its own worker. */
const WORKER_NODE_OPTIONS = process.env.BENCH_WORKER_NODE_OPTIONS ?? '--max-semi-space-size=4 --max-old-space-size=160';
/** The Spotify fetcher's two calls (providers/spotify.ts), under the catalog row's base URL (…/v1). */
const SPOTIFY_CALLS = ['me/player/currently-playing?additional_types=track', 'me/player/recently-played?limit=10'];
const ZONE = 'Europe/Madrid';
const LANGUAGE = 'es';

async function serviceIds(db: pg.Client, names: readonly string[]): Promise<Map<string, string>> {
  const rows = (await db.query<{ id: string; service_name: string }>(`select id, service_name from external_services where service_name = any($1)`, [names]))
    .rows;
  const ids = new Map(rows.map((row) => [row.service_name, row.id]));
  const missing = names.filter((name) => !ids.has(name));
  if (missing.length > 0) throw new Error(`the catalog has no row for ${missing.join(', ')}`);
  return ids;
}

// ---------------------------------------------------------------------------------------------
// day-views: realistic snapshots, as the fetchers produce them (providers/*.ts: 10 items a
// section where the fetcher shows 10; a week of steps; 3 guardians, Destiny's limit per account).

const MINUTE = 60_000;

function item(fields: Pick<DayItem, 'id' | 'service' | 'kind' | 'title'> & Partial<DayItem>): DayItem {
  return { subtitle: null, url: null, at: null, end_at: null, date: null, value: null, code: null, on: null, live: false, ...fields };
}

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;
const hex = (seed: string, length: number) => Buffer.from(seed).toString('hex').padEnd(length, '0').slice(0, length);
const ago = (now: number, minutes: number) => new Date(now - minutes * MINUTE).toISOString();
const dayOf = (now: number, daysBack: number) => new Date(now - daysBack * 86_400_000).toISOString().slice(0, 10);

const TRACKS: [string, string][] = [
  ['Entre dos aguas', 'Paco de Lucía'],
  ['夜に駆ける', 'YOASOBI'],
  ['Águas de Março', 'Elis Regina, Tom Jobim'],
  ['Corazón partío', 'Alejandro Sanz'],
  ['Hijo de la Luna', 'Mecano'],
  ['Lucha de gigantes', 'Nacha Pop'],
  ['Ojalá', 'Silvio Rodríguez'],
  ['La Bikina', 'Luis Miguel'],
  ['Cucurrucucú paloma', 'Caetano Veloso'],
  ['Me quedo contigo', 'Los Chunguitos'],
  ['紅蓮華', 'LiSA'],
];
const REPOS = ['octo-connector/life', 'octo-connector/dotfiles', 'life-app/contracts', 'octo-connector/recetas'];
const COMMITS = [
  'Fix the refresh lock when two workers race for the same connection',
  'Add the Tu día timeline to the side menu',
  'Bump fastify from 5.12.7 to 5.12.8',
  'Translate the empty state into Japanese',
  'Keep the last snapshot on screen when the provider is down',
];
const MEETINGS = [
  'Daily del equipo',
  'Revisión trimestral',
  'Comida con Marta',
  'Dentista',
  'Clase de inglés',
  'Llamada con el banco',
  'Yoga',
  '1:1 con Andrés',
];
const FILES: [string, string][] = [
  ['Presupuesto 2027.xlsx', 'spreadsheet'],
  ['Acta reunión de vecinos', 'document'],
  ['Fotos vacaciones Asturias', 'folder'],
  ['Presentación Q4', 'presentation'],
  ['Factura luz noviembre.pdf', 'pdf'],
];
const VIDEOS = [
  'Cómo hacer pan de masa madre en casa',
  'The Rust borrow checker, explained',
  'Ruta por los Picos de Europa en 4K',
  'Directo: preguntas y respuestas',
];
const PAGES = ['Lista de la compra', 'Plan de viaje a Japón', 'Notas de la reunión de producto', 'Libros de 2026', 'Recetas favoritas'];
const LIKES: [string, string][] = [
  ['Sunset Lofi Mix', 'chillhop'],
  ['Flamenco Chill Session', 'rumba-sessions'],
  ['Deep House Madrid', 'dj-lavapies'],
];
const ROOMS = ['Salón', 'Cocina', 'Dormitorio', 'Despacho', 'Terraza'];
const CHARACTERS: [string, string, string][] = [
  ['Thrallita', 'Sanguino', 'shaman'],
  ['Arthasín', 'Tyrande', 'death_knight'],
  ['Jainadelmar', 'Zul’jin', 'mage'],
  ['Sylvanitas', 'Los Errantes', 'hunter'],
  ['Uthercillo', 'C’Thun', 'paladin'],
];

type Fetched = Omit<Snapshot, 'timeline'>;

function health(service: string, now: number): Fetched {
  const week = Array.from({ length: 7 }, (_, i) =>
    item({ id: `steps-${dayOf(now, 6 - i)}`, service, kind: 'steps', title: 'Pasos', date: dayOf(now, 6 - i), value: 4000 + ((i * 1733) % 9000) }),
  );
  const sleep = item({ id: `sleep-${dayOf(now, 0)}`, service, kind: 'sleep', title: 'Sueño', at: ago(now, 9 * 60), end_at: ago(now, 90), value: 412 });
  return {
    headline: week.at(-1)!,
    sections: [
      { key: 'steps_week', items: week },
      { key: 'last_sleep', items: [sleep] },
    ],
  };
}

const VIEW_BUILDERS: Record<DayService, (now: number) => Fetched> = {
  spotify(now) {
    const track = (i: number, extra: Partial<DayItem>) => {
      const [title, artists] = pick(TRACKS, i);
      const id = hex(`track:${title}`, 22);
      return item({ id, service: 'spotify', kind: 'track', title, subtitle: artists, url: `https://open.spotify.com/track/${id}`, ...extra });
    };
    const playing = track(0, { at: ago(now, 1), live: true });
    const played = Array.from({ length: 10 }, (_, i) => {
      const at = ago(now, 4 * (i + 1));
      return { ...track(i + 1, { at }), id: `${hex(`track:${pick(TRACKS, i + 1)[0]}`, 22)}@${at}` };
    });
    return {
      headline: playing,
      sections: [
        { key: 'now_playing', items: [playing] },
        { key: 'recently_played', items: played },
      ],
    };
  },
  github(now) {
    const contributions = Array.from({ length: 10 }, (_, i) => {
      const repo = pick(REPOS, i);
      const sha = hex(`sha${i}`, 40);
      return i % 3 === 2
        ? item({
            id: String(40_000_000_000 + i),
            service: 'github',
            kind: 'pull_request',
            title: pick(COMMITS, i),
            subtitle: repo,
            url: `https://github.com/${repo}/pull/${100 + i}`,
            at: ago(now, 37 * i + 5),
          })
        : item({
            id: String(40_000_000_000 + i),
            service: 'github',
            kind: 'push',
            title: pick(COMMITS, i),
            subtitle: repo,
            url: `https://github.com/${repo}/commit/${sha}`,
            at: ago(now, 37 * i + 5),
          });
    });
    const pulls = Array.from({ length: 10 }, (_, i) =>
      item({
        id: String(2_600_000_000 + i),
        service: 'github',
        kind: 'pull_request',
        title: pick(COMMITS, i + 2),
        subtitle: pick(REPOS, i + 1),
        url: `https://github.com/${pick(REPOS, i + 1)}/pull/${200 + i}`,
        at: ago(now, 180 * (i + 1)),
      }),
    );
    return {
      headline: contributions[0]!,
      sections: [
        { key: 'contributions', items: contributions },
        { key: 'open_pull_requests', items: pulls },
      ],
    };
  },
  googlecalendar(now) {
    const event = (i: number, day: number) => {
      const start = now - 4 * 60 * MINUTE + day * 86_400_000 + i * 50 * MINUTE;
      return item({
        id: `evt${hex(`${day}:${i}`, 20)}`,
        service: 'googlecalendar',
        kind: 'event',
        title: pick(MEETINGS, i + day),
        subtitle: i % 2 ? 'Sala Retiro, planta 3' : null,
        url: `https://www.google.com/calendar/event?eid=${hex(`eid${day}${i}`, 40)}`,
        at: new Date(start).toISOString(),
        end_at: new Date(start + 45 * MINUTE).toISOString(),
        live: day === 0 && start <= now && now < start + 45 * MINUTE,
      });
    };
    const today = Array.from({ length: 10 }, (_, i) => event(i, 0));
    const tomorrow = Array.from({ length: 10 }, (_, i) => event(i, 1));
    return {
      headline: today.find((e) => Date.parse(e.end_at!) > now) ?? null,
      sections: [
        { key: 'today', items: today },
        { key: 'tomorrow', items: tomorrow },
      ],
    };
  },
  googledrive(now) {
    const files = Array.from({ length: 10 }, (_, i) => {
      const [title, code] = pick(FILES, i);
      const id = hex(`file${i}`, 33);
      return item({ id, service: 'googledrive', kind: 'file', title, url: `https://docs.google.com/document/d/${id}/edit`, at: ago(now, 55 * i + 3), code });
    });
    return { headline: files[0]!, sections: [{ key: 'recent_files', items: files }] };
  },
  youtube(now) {
    const videos = Array.from({ length: 10 }, (_, i) => {
      const id = hex(`video${i}`, 11);
      return item({
        id,
        service: 'youtube',
        kind: 'video',
        title: pick(VIDEOS, i),
        subtitle: `Canal ${i + 1}`,
        url: `https://www.youtube.com/watch?v=${id}`,
        at: ago(now, 90 * i + 20),
      });
    });
    return { headline: videos[0]!, sections: [{ key: 'latest_videos', items: videos }] };
  },
  googlefit: (now) => health('googlefit', now),
  fitbit: (now) => health('fitbit', now),
  notion(now) {
    const pages = Array.from({ length: 10 }, (_, i) => {
      const id = randomUUID();
      return item({
        id,
        service: 'notion',
        kind: 'page',
        title: pick(PAGES, i),
        url: `https://www.notion.so/${pick(PAGES, i).replace(/\s+/g, '-')}-${id.replace(/-/g, '')}`,
        at: ago(now, 75 * i + 8),
      });
    });
    return { headline: pages[0]!, sections: [{ key: 'recent_pages', items: pages }] };
  },
  soundcloud(now) {
    const likes = Array.from({ length: 10 }, (_, i) => {
      const [title, user] = pick(LIKES, i);
      return item({
        id: String(1_800_000_000 + i),
        service: 'soundcloud',
        kind: 'like',
        title: `${title} #${i + 1}`,
        subtitle: user,
        url: `https://soundcloud.com/${user}/${title.toLowerCase().replace(/\s+/g, '-')}-${i + 1}`,
        at: ago(now, 300 * i + 60),
      });
    });
    return { headline: likes[0]!, sections: [{ key: 'likes', items: likes }] };
  },
  philipshue() {
    const lights = Array.from({ length: 10 }, (_, i) =>
      item({
        id: randomUUID(),
        service: 'philipshue',
        kind: 'light',
        title: `${pick(ROOMS, i)} ${Math.floor(i / ROOMS.length) + 1}`,
        subtitle: pick(ROOMS, i),
        on: i % 3 !== 0,
        value: i % 3 !== 0 ? 40 + i * 5 : 0,
      }),
    );
    const on = lights.filter((light) => light.on).length;
    return {
      headline: item({
        id: 'lights_on',
        service: 'philipshue',
        kind: 'light',
        title: `${on} de ${lights.length} luces encendidas`,
        value: on,
        code: 'lights_on',
        on: on > 0,
      }),
      sections: [{ key: 'lights', items: lights }],
    };
  },
  wow() {
    const characters = Array.from({ length: 10 }, (_, i) => {
      const [name, realm, code] = pick(CHARACTERS, i);
      const title = i < CHARACTERS.length ? name : `${name}${i}`;
      return item({
        id: `${realm.toLowerCase()}-${1000 + i}`,
        service: 'wow',
        kind: 'character',
        title,
        subtitle: realm,
        url: `https://worldofwarcraft.blizzard.com/es-es/character/eu/${realm.toLowerCase()}/${title.toLowerCase()}`,
        value: 80 - (i % 4) * 10,
        code,
      });
    });
    return { headline: characters[0]!, sections: [{ key: 'characters', items: characters }] };
  },
  destiny2(now) {
    const guardians = (['titan', 'hunter', 'warlock'] as const).map((code, i) =>
      item({ id: `230584300${i}`, service: 'destiny2', kind: 'guardian', title: code, code, value: 2010 - i * 7, at: ago(now, 1440 * i + 600) }),
    );
    return { headline: guardians[0]!, sections: [{ key: 'guardians', items: guardians }] };
  },
};

/** A snapshot as the sync job stores it: the fetcher's view, its timeline (the items of today), checked against the contract. */
function snapshotOf(service: DayService, now: number): Snapshot {
  const view = VIEW_BUILDERS[service](now);
  const today = new Date(now).toISOString().slice(0, 10);
  const timeline = view.sections
    .flatMap((section) => section.items)
    .filter((entry) => (entry.at ? entry.at.slice(0, 10) === today : entry.date === today) && entry.kind !== 'light' && entry.kind !== 'character');
  return SnapshotSchema.parse({ ...view, timeline });
}

interface ViewsState {
  token: string;
}

const VIEWS_PATH = `/api/your-day/views?tz=${ZONE}`;
const viewsHeaders = (token: string) => ({ accept: 'application/json', 'accept-language': LANGUAGE, authorization: `Bearer ${token}` });

/** GET /api/your-day/views for a person with the 12 "Tu día" services connected, each with a ready snapshot. */
export const dayViewsScenario: Scenario<ViewsState> = {
  name: 'day-views',
  description: `GET /api/your-day/views: a person with all ${DAY_SERVICES.length} "Tu día" services connected, a ready sealed snapshot each (~10 items a section)`,
  async setup(ctx) {
    const ring = KeyRing.parse(ctx.encryptionKeys);
    const services = await serviceIds(ctx.db, DAY_SERVICES);
    const [userId] = await seedUsers(ctx.db, 1);
    await seedConnections(
      ctx.db,
      ring,
      DAY_SERVICES.map((name) => ({ userId: userId!, serviceId: services.get(name)! })),
      86_400,
    );
    const now = Date.now();
    const rows = DAY_SERVICES.map((service) => {
      const id = randomUUID();
      const fetchedAt = new Date(now - 2 * MINUTE);
      return [
        id,
        userId,
        service,
        true,
        sealSnapshot(ring, id, snapshotOf(service, now)),
        fetchedAt,
        fetchedAt,
        new Date(now + 72 * 3600_000),
        0,
        // Not due during the run: no worker fetches these.
        new Date(now + 86_400_000),
        new Date(now),
        new Date(now),
      ];
    });
    await insertRows(
      ctx.db,
      'day_views',
      [
        'id',
        'user_id',
        'service_name',
        'enabled',
        'view_sealed',
        'fetched_at',
        'checked_at',
        'expires_at',
        'failures',
        'next_sync_at',
        'created_at',
        'updated_at',
      ],
      rows,
    );
    const sealedBytes = rows.reduce((sum, row) => sum + (row[4] as string).length, 0);
    // The zone and language the requests send, already remembered (a dashboard's steady state): a
    // new one would make every view due at once (DayViewsService.remember), and these point at the
    // real providers' catalog rows.
    await ctx.db.query(`insert into day_people (id, user_id, time_zone, language, updated_at) values ($1, $2, $3, $4, now())`, [
      randomUUID(),
      userId,
      ZONE,
      LANGUAGE,
    ]);
    const token = await sessionFor(ctx.db, userId!);
    // One request first: the answer is what the screens get (12 ready views).
    const response = await fetch(`${ctx.appUrl}${VIEWS_PATH}`, { headers: viewsHeaders(token) });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET ${VIEWS_PATH} answered ${response.status}: ${text.slice(0, 300)}`);
    const { views } = DayViewsSchema.parse(JSON.parse(text));
    const ready = views.filter((view) => view.state === 'ready').length;
    if (views.length !== DAY_SERVICES.length || ready !== DAY_SERVICES.length)
      throw new Error(`expected ${DAY_SERVICES.length} ready views, got ${views.length} views, ${ready} ready`);
    // Nothing may fetch these views (their catalog rows point at the real providers): none is due.
    const due = await ctx.db.query(
      `update day_views set next_sync_at = now() + interval '1 day' where user_id = $1 and next_sync_at <= now() + interval '1 hour'`,
      [userId],
    );
    if (due.rowCount) throw new Error(`the first request made ${due.rowCount} of the views due (a zone or language other than ${ZONE}, ${LANGUAGE}?)`);
    const items = views.reduce((sum, view) => sum + view.sections.reduce((n, section) => n + section.items.length, 0), 0);
    ctx.log(
      `day-views: ${views.length} ready views, ${items} items in their sections, ${(Buffer.byteLength(text) / 1024).toFixed(1)} kB answer, ${(sealedBytes / 1024).toFixed(1)} kB of sealed snapshots`,
    );
    return { token };
  },
  request: (_ctx, state) => ({ path: VIEWS_PATH, headers: viewsHeaders(state.token), expectStatus: [200] }),
};

// ---------------------------------------------------------------------------------------------
// day-sync-10k

interface SyncState {
  standIn: ManagedChild;
  baseUrl: string;
  workers: ManagedChild[];
  queuePrefix: string;
  /** The seeded views: the only Spotify views made at this instant (a cheap filter for the polls). */
  seededAt: Date;
  count: number;
  /** Kills the children if the bench exits without a teardown (its watchdog, Ctrl-C). */
  killOnExit: () => void;
}

interface StandInCalls {
  calls: number;
  failed: number;
}

const standInCalls = async (standIn: ManagedChild): Promise<StandInCalls> => {
  const answer = firstMessage<StandInCalls>(standIn, 5_000);
  standIn.process.send?.('calls');
  return answer;
};

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; clock ticks of 1/100 s, USER_HZ on x86-64 and arm64). */
function cpuSeconds(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function waitForWorkers(ctx: BenchContext, queuePrefix: string, workers: ManagedChild[], timeoutMs: number): Promise<void> {
  const redis = new Redis(ctx.redisUrl, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  try {
    await pollUntil(
      async () => {
        const keys = await redis.keys(`${queuePrefix}:workers:*`);
        return workers.every((worker) => keys.some((key) => key.endsWith(`:${worker.process.pid}`)));
      },
      `${workers.length} workers to report`,
      {
        timeoutMs,
        intervalMs: 200,
        failIf: () => {
          const exited = workers.find((worker) => worker.exited());
          return exited && `${exited.name} exited during startup\n${exited.tail()}`;
        },
      },
    );
  } finally {
    redis.disconnect();
  }
}

/**
 * The reference: the Spotify fetcher's two calls per view, made by a plain loop in this process
 * (node:http, keep-alive, as many views in flight as the two workers run jobs), each view with its
 * own never-seen token as the seeded connections have, both answers read and parsed. No queue, no
 * database, no sealing: what the stand-in and a Node client can do with the same API calls.
 */
async function referenceLoop(
  baseUrl: string,
  views: number,
  lanes: number,
): Promise<{ perSec: number; done: number; p50Ms: number; p99Ms: number; errors: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: lanes * SPOTIFY_CALLS.length });
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  if (base.hostname !== '127.0.0.1') throw new Error(`the bench only targets 127.0.0.1, not ${base.hostname}`);
  const get = (pathAndQuery: string, token: string) =>
    new Promise<unknown>((resolve, reject) => {
      const request = http.get(
        new URL(pathAndQuery, base),
        { agent, headers: { accept: 'application/json', authorization: `Bearer ${token}` } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            if (response.statusCode !== 200) return reject(new Error(`HTTP ${response.statusCode}`));
            try {
              resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
            } catch (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
            }
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.setTimeout(10_000, () => request.destroy(new Error('timeout')));
    });
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + REFERENCE_DEADLINE_MS;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < views && performance.now() < deadline) {
        next += 1;
        const token = `at_ref_${randomBytes(12).toString('base64url')}`;
        const begun = performance.now();
        try {
          await Promise.all(SPOTIFY_CALLS.map((call) => get(call, token)));
          latencies.push(performance.now() - begun);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.max(0, Math.ceil((p / 100) * latencies.length) - 1))] ?? Number.NaN;
  return { perSec: latencies.length / seconds, done: latencies.length, p50Ms: at(50), p99Ms: at(99), errors };
}

/**
 * 10,000 Spotify views become due at the same instant; two worker processes (the real `worker.js`,
 * sweeping every 500 ms, DAY_SYNC_CONCURRENCY jobs each) fetch them from a Spotify stand-in (its own
 * process, answering at once, any token accepted) and store the sealed snapshots. Measures
 * snapshots stored per second and each view's delay from "due" to "stored" (p50/p99), with the
 * plain-loop reference (`day-sync-ref`) measured just before against the same stand-in.
 */
export const daySyncScenario: Scenario<SyncState> = {
  name: 'day-sync-10k',
  description: `Background "Tu día" sync: ${SYNC_VIEWS.toLocaleString('en-US')} Spotify views due at once, ${SYNC_WORKERS} worker processes, a stand-in answering at once; vs a plain loop of the same API calls`,
  timeoutMs: REFERENCE_DEADLINE_MS + SYNC_DEADLINE_MS + 180_000,
  async setup(ctx) {
    // The stand-in in its own process (this file, run directly), so that the reference loop in this
    // process and the workers reach it the same way.
    const standIn = startNodeChild('standin-spotify', SELF_JS, [], { ...process.env, BENCH_DAY_STANDIN: '1' }, { ipc: true });
    const workers: ManagedChild[] = [];
    const queuePrefix = `${ctx.queuePrefix}-daysync`;
    const killOnExit = () => {
      for (const child of [...workers, standIn]) if (!child.exited()) child.process.kill('SIGKILL');
    };
    process.on('exit', killOnExit);
    try {
      const { row } = await firstMessage<{ row: { base_url: string; token_url: string; auth_url: string; app_id: string; app_secret: string } }>(
        standIn,
        15_000,
      );
      const ring = KeyRing.parse(ctx.encryptionKeys);
      const serviceId = (await serviceIds(ctx.db, ['spotify'])).get('spotify')!;
      await ctx.db.query(
        `update external_services set status = 'active', base_url = $1, token_url = $2, auth_url = $3, app_id = $4, app_secret_encrypted = $5, token_auth = 'basic', token_body = 'form' where id = $6`,
        [row.base_url, row.token_url, row.auth_url, row.app_id, ring.encrypt(row.app_secret, `external_services:${serviceId}:app_secret`), serviceId],
      );
      const started = Date.now();
      const users = await seedUsers(ctx.db, SYNC_VIEWS);
      await seedConnections(
        ctx.db,
        ring,
        users.map((userId) => ({ userId, serviceId })),
        86_400,
      );
      // No snapshot yet (as right after connecting), and not due until the run makes them due.
      const now = new Date();
      const later = new Date(now.getTime() + 86_400_000);
      const ids = users.map(() => randomUUID());
      await insertRows(
        ctx.db,
        'day_views',
        ['id', 'user_id', 'service_name', 'enabled', 'failures', 'next_sync_at', 'created_at', 'updated_at'],
        users.map((userId, i) => [ids[i], userId, 'spotify', true, 0, later, now, now]),
      );
      ctx.log(`day-sync-10k: seeded ${ids.length} connections and views in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      // These workers sweep every due view of the database: only the seeded ones may be (they reach
      // the stand-in; other scenarios' views point at the real providers' catalog rows).
      await ctx.db.query(
        `update day_views set next_sync_at = now() + interval '1 day' where next_sync_at <= now() + interval '1 hour' and not (service_name = 'spotify' and created_at = $1)`,
        [now],
      );
      for (let i = 0; i < SYNC_WORKERS; i += 1) {
        workers.push(
          startNodeChild(`dayworker${i + 1}`, WORKER_JS, [], {
            ...process.env,
            NODE_ENV: 'production',
            NODE_OPTIONS: WORKER_NODE_OPTIONS,
            // The stand-ins listen on loopback: production's private-address refusal (decision 0050) would refuse them.
            ALLOW_PRIVATE_SERVICE_URLS: 'true',
            APP_URL: ctx.appUrl,
            DATABASE_URL: ctx.databaseUrl,
            REDIS_URL: ctx.redisUrl,
            // Their own queues: run.ts's shared worker (which does not sweep views during the bench)
            // takes no day-sync job, so exactly these two processes do the work.
            QUEUE_PREFIX: queuePrefix,
            ENCRYPTION_KEYS: ctx.encryptionKeys,
            LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
            DAY_SYNC_SWEEP_MS: '500',
            DAY_SYNC_CONCURRENCY: String(SYNC_CONCURRENCY),
            BILLING_SWEEP_MS: '3600000',
          }),
        );
      }
      await waitForWorkers(ctx, queuePrefix, workers, 60_000);
      ctx.log(`day-sync-10k: ${SYNC_WORKERS} workers ready (DAY_SYNC_CONCURRENCY ${SYNC_CONCURRENCY})`);
      return { standIn, baseUrl: row.base_url, workers, queuePrefix, seededAt: now, count: ids.length, killOnExit };
    } catch (error) {
      await Promise.all(workers.map((worker) => stopChild(worker)));
      await stopChild(standIn);
      process.off('exit', killOnExit);
      await deleteKeys(ctx.redisUrl, queuePrefix);
      throw error;
    }
  },
  async run(ctx, state): Promise<CustomResult> {
    const { standIn, workers, seededAt, count } = state;
    const seeded = `service_name = 'spotify' and created_at = $1`;
    const lanes = SYNC_WORKERS * SYNC_CONCURRENCY;

    // The reference, first: a short warm-up of the stand-in, then as many views as the sync does.
    await referenceLoop(state.baseUrl, 1000, lanes);
    const reference = await referenceLoop(state.baseUrl, SYNC_VIEWS, lanes);
    ctx.log(`day-sync-ref: ${reference.done} views in the plain loop, ${reference.perSec.toFixed(0)}/s`);
    if (reference.done === 0) throw new Error(`the reference loop got no answer from the stand-in (${reference.errors} errors)\n${standIn.tail()}`);

    const callsBefore = await standInCalls(standIn);
    const cpuBefore = workers.map((worker) => cpuSeconds(worker.process.pid));
    const standInCpuBefore = cpuSeconds(standIn.process.pid);
    // Every view becomes due in the same statement; the workers' next sweep (500 ms) queues them.
    const due = await ctx.db.query<{ t0: Date; n: string }>(
      `with u as (update day_views set next_sync_at = now() where ${seeded} returning 1) select now() as t0, (select count(*) from u) as n`,
      [seededAt],
    );
    if (Number(due.rows[0]!.n) !== count) throw new Error(`${due.rows[0]!.n} of the ${count} seeded views were made due`);
    const t0 = due.rows[0]!.t0;
    const started = Date.now();
    let stored = 0;
    let checked = 0;
    while (Date.now() - started < SYNC_DEADLINE_MS) {
      for (const worker of workers) if (worker.exited()) throw new Error(`${worker.name} exited during the run\n${worker.tail()}`);
      const counts = (
        await ctx.db.query<{ stored: string; checked: string }>(
          `select count(*) filter (where fetched_at is not null) as stored, count(*) filter (where checked_at is not null) as checked from day_views where ${seeded}`,
          [seededAt],
        )
      ).rows[0]!;
      stored = Number(counts.stored);
      checked = Number(counts.checked);
      if (checked >= count) break;
      await sleep(200);
    }
    const cpuAfter = workers.map((worker) => cpuSeconds(worker.process.pid));
    const standInCpu = cpuSeconds(standIn.process.pid) - standInCpuBefore;
    const stats = (
      await ctx.db.query<{ p50: number; p99: number; seconds: number; bytes: number; problems: string }>(
        `select percentile_cont(0.5) within group (order by extract(epoch from checked_at - $2::timestamptz)) * 1000 as p50,
                percentile_cont(0.99) within group (order by extract(epoch from checked_at - $2::timestamptz)) * 1000 as p99,
                extract(epoch from max(checked_at) - $2::timestamptz) as seconds,
                avg(length(view_sealed)) as bytes,
                string_agg(distinct problem, ', ') as problems
           from day_views where ${seeded} and checked_at is not null`,
        [seededAt, t0],
      )
    ).rows[0]!;
    const calls = await standInCalls(standIn);
    const apiCalls = calls.calls - callsBefore.calls;
    const refused = calls.failed - callsBefore.failed;
    const failed = checked - stored;
    const seconds = Number(stats.seconds);
    const workerCpu = cpuAfter.reduce((sum, value, i) => sum + value - cpuBefore[i]!, 0);
    const workerRss = workers.map((worker) => memoryOf(worker.process.pid)?.peakRss ?? 0);
    if (stored < count) {
      throw new Error(
        `only ${stored} of ${count} views were stored within ${SYNC_DEADLINE_MS / 1000} s (${failed} failed${stats.problems ? `: ${stats.problems}` : ''})`,
      );
    }
    const perSnapshotMs = (cpu: number) => `${((cpu / stored) * 1000).toFixed(2)} ms`;
    return {
      opsPerSec: stored / seconds,
      unit: 'snapshot/s',
      p50Ms: Number(stats.p50),
      p99Ms: Number(stats.p99),
      errors: failed,
      total: stored,
      notes: [
        `${stored.toLocaleString('en-US')} of ${count.toLocaleString('en-US')} views stored in ${seconds.toFixed(1)} s by ${SYNC_WORKERS} workers (DAY_SYNC_CONCURRENCY ${SYNC_CONCURRENCY}); ` +
          `${apiCalls.toLocaleString('en-US')} API calls at the stand-in (${(apiCalls / stored).toFixed(2)} a snapshot, ${refused} refused), ` +
          `snapshots of ${Math.round(Number(stats.bytes)).toLocaleString('en-US')} bytes sealed; p50/p99 = delay from "due" to "stored".`,
        `CPU per snapshot: workers ${perSnapshotMs(workerCpu)} (both together), stand-in ${perSnapshotMs(standInCpu)}; worker peak RSS ${workerRss.map((bytes) => `${Math.round(bytes / 1024 / 1024)} MB`).join(' and ')}.`,
        `day-sync-ref: the same ${SPOTIFY_CALLS.length} API calls per view by a plain node:http loop in the bench process, ${lanes} views in flight (= ${SYNC_WORKERS} workers × ${SYNC_CONCURRENCY}), ` +
          `${reference.done.toLocaleString('en-US')} views, ${reference.errors} errors; p50/p99 = one view's two calls.`,
      ],
      reference: {
        name: 'day-sync-ref',
        opsPerSec: reference.perSec,
        unit: 'view/s',
        p50Ms: reference.p50Ms,
        p99Ms: reference.p99Ms,
        errors: reference.errors,
        total: reference.done,
      },
    };
  },
  async teardown(ctx, state) {
    await Promise.all(state.workers.map((worker) => stopChild(worker)));
    await stopChild(state.standIn);
    process.off('exit', state.killOnExit);
    await deleteKeys(ctx.redisUrl, state.queuePrefix);
  },
};

/** Run directly: the Spotify stand-in of day-sync-10k (any access token accepted), reporting its URL and call counts over IPC. */
async function serveSpotifyStandIn(): Promise<void> {
  const { startServiceStandIns } = await import('@life/test-support/standins/services');
  const standIns = await startServiceStandIns({
    families: ['spotify'],
    rowsByFamily: { spotify: ['spotify'] },
    overrides: { spotify: { acceptAnyAccessToken: true, recordCalls: false } },
  });
  const spotify = standIns.spotify!;
  let calls = 0;
  let failed = 0;
  const stop = () => {
    void standIns.close().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
  process.on('message', (message) => {
    if (message !== 'calls' || !process.send) return;
    // Every API call is recorded; count them and forget them (bounded memory).
    for (const call of spotify.userCalls) if (call.status !== 200) failed += 1;
    calls += spotify.userCalls.length;
    spotify.userCalls.length = 0;
    process.send({ calls, failed });
  });
  process.send?.({ row: standIns.rows.spotify });
}

if (process.env.BENCH_DAY_STANDIN === '1' && path.resolve(process.argv[1] ?? '') === SELF_JS) {
  serveSpotifyStandIn().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
