import { z } from 'zod';

/**
 * "Tu día" (issue 19, docs/your-day.md): what each connected service brings. Workers fetch each
 * connection's view from the provider's API into a sealed snapshot; the dashboard's cards, the
 * "Tu día" page and apps (`GET /api/v1/me/today`) read the snapshots, never the provider.
 */

/** The services that have a view, in the dashboard's order. */
export const DAY_SERVICES = [
  'spotify',
  'github',
  'googlecalendar',
  'googledrive',
  'youtube',
  'googlefit',
  'fitbit',
  'notion',
  'soundcloud',
  'philipshue',
  'wow',
  'destiny2',
] as const;
export type DayService = (typeof DAY_SERVICES)[number];
export const isDayService = (name: string): name is DayService => (DAY_SERVICES as readonly string[]).includes(name);

/** What an item is; the screens pick an icon and the words from it. */
export const DAY_ITEM_KINDS = [
  'track',
  'event',
  'push',
  'pull_request',
  'issue',
  'file',
  'video',
  'steps',
  'sleep',
  'page',
  'like',
  'light',
  'character',
  'guardian',
] as const;
export type DayItemKind = (typeof DAY_ITEM_KINDS)[number];

/**
 * One thing a view shows, normalised across providers, holding only what the screens show.
 * Times are instants (ISO 8601 with offset); `date` is a calendar day without a time (all-day
 * events, a day's steps) in the provider's own day.
 */
export const DayItemSchema = z
  .object({
    /** Stable within the service (the provider's id). */
    id: z.string(),
    service: z.string(),
    kind: z.enum(DAY_ITEM_KINDS),
    /** Track, event, commit message, file, video, page or character name; a light's name. */
    title: z.string(),
    /** Artists, repository, channel, realm, room: the second line. */
    subtitle: z.string().nullable(),
    /** https link to open it at the provider, or null. */
    url: z.string().nullable(),
    /** When it happened or starts (played, pushed, edited, published, liked, fell asleep). */
    at: z.string().nullable(),
    /** When it ends (events, sleep). */
    end_at: z.string().nullable(),
    /** A calendar day (YYYY-MM-DD): all-day events, a day's steps. */
    date: z.string().nullable(),
    /** Steps, sleep minutes, a character's level, a guardian's light, a light's brightness (0-100). */
    value: z.number().nullable(),
    /** A code the screens translate: a WoW class (`warrior`…), a Destiny class (`titan`, `hunter`, `warlock`), a file's kind (`document`, `spreadsheet`, `folder`…). */
    code: z.string().nullable(),
    /** Philips Hue: the light is on. */
    on: z.boolean().nullable(),
    /** Now playing (Spotify), in progress (an event happening now). */
    live: z.boolean(),
  })
  .meta({ id: 'DayItem' });
export type DayItem = z.infer<typeof DayItemSchema>;

/** The parts of a view; the screens title each one. */
export const DAY_SECTION_KEYS = [
  'now_playing',
  'recently_played',
  'contributions',
  'open_pull_requests',
  'today',
  'tomorrow',
  'recent_files',
  'latest_videos',
  'steps_week',
  'last_sleep',
  'recent_pages',
  'likes',
  'lights',
  'characters',
  'guardians',
] as const;
export type DaySectionKey = (typeof DAY_SECTION_KEYS)[number];

export const DaySectionSchema = z.object({ key: z.enum(DAY_SECTION_KEYS), items: z.array(DayItemSchema) }).meta({ id: 'DaySection' });
export type DaySection = z.infer<typeof DaySectionSchema>;

/**
 * A view's state: `ready` (a snapshot is there), `pending` (the first fetch has not finished),
 * `off` (the person switched the view off: nothing is fetched or kept).
 */
export const DAY_VIEW_STATES = ['ready', 'pending', 'off'] as const;
/**
 * Why the last fetch did not bring a new snapshot (the last one, if any, stays on screen):
 * `provider_down` (the provider failed or did not answer), `rate_limited` (it asked us to wait),
 * `needs_reconnect` (the connection lost its access), `missing_scope` (the connection was made
 * before the view needed a permission: connect again to grant it).
 */
export const DAY_PROBLEMS = ['provider_down', 'rate_limited', 'needs_reconnect', 'missing_scope'] as const;
export type DayProblem = (typeof DAY_PROBLEMS)[number];

export const DayViewSchema = z
  .object({
    service: z.string(),
    state: z.enum(DAY_VIEW_STATES),
    /** When the snapshot on screen was fetched; null before the first one. */
    fetched_at: z.string().nullable(),
    /** When the last fetch finished, whether it brought a snapshot or a problem (what "Actualizar" waits for); null before the first. */
    checked_at: z.string().nullable(),
    problem: z.enum(DAY_PROBLEMS).nullable(),
    /** Steps today, what is playing now…: the card's one line, or null. */
    headline: DayItemSchema.nullable(),
    sections: z.array(DaySectionSchema),
  })
  .meta({ id: 'DayView' });
export type DayView = z.infer<typeof DayViewSchema>;

/** `GET /api/your-day/views`: one view per connected service that has one. */
export const DayViewsSchema = z.object({ views: z.array(DayViewSchema) }).meta({ id: 'DayViews' });
export type DayViews = z.infer<typeof DayViewsSchema>;

/** An IANA time zone name (`Europe/Madrid`), checked by the server against the runtime's list. */
export const TimeZoneSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_+\-/]+$/, 'validation.timeZone');

/** `GET /api/your-day/today?tz=` and `GET /api/v1/me/today?tz=`: `tz` defaults to the person's last known zone, else UTC. */
export const TodayQuerySchema = z.object({ tz: TimeZoneSchema.optional() });

export const TodaySchema = z
  .object({
    /** Today in `time_zone` (YYYY-MM-DD). */
    date: z.string(),
    time_zone: z.string(),
    /** Today's items of every service, in time order (all-day ones first). */
    items: z.array(DayItemSchema),
    /** Each service whose items may be in the list: how fresh its snapshot is, and why it could not be refreshed. */
    services: z.array(
      z.object({ service: z.string(), state: z.enum(DAY_VIEW_STATES), fetched_at: z.string().nullable(), problem: z.enum(DAY_PROBLEMS).nullable() }),
    ),
  })
  .meta({ id: 'Today' });
export type Today = z.infer<typeof TodaySchema>;

/** `PUT /api/your-day/views/{service}`: switch a service's view on or off. */
export const DayViewSettingSchema = z.object({ enabled: z.boolean() }).strict();

/** `POST /api/your-day/views/philipshue/lights/{id}`: switch a light. */
export const HueLightSwitchSchema = z.object({ on: z.boolean() }).strict();

/** `POST /api/your-day/views/{service}/refresh` answers 202 with this. */
export const DayRefreshAnswerSchema = z.object({ queued: z.boolean() }).meta({ id: 'DayRefreshAnswer' });
