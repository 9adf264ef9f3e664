import type { DayService } from '@life/contracts';
import { destiny2View } from './destiny2.js';
import { fitbitView } from './fitbit.js';
import { githubView } from './github.js';
import { googleCalendarView } from './google-calendar.js';
import { googleDriveView } from './google-drive.js';
import { googleFitView } from './google-fit.js';
import { notionView } from './notion.js';
import { philipsHueView } from './philips-hue.js';
import { soundcloudView } from './soundcloud.js';
import { spotifyView } from './spotify.js';
import type { ViewFetcher } from './types.js';
import { wowView } from './wow.js';
import { youtubeView } from './youtube.js';

/** Each service's view fetcher (docs/your-day.md lists what each reads). */
export const VIEW_FETCHERS: Record<DayService, ViewFetcher> = {
  spotify: spotifyView,
  github: githubView,
  googlecalendar: googleCalendarView,
  googledrive: googleDriveView,
  youtube: youtubeView,
  googlefit: googleFitView,
  fitbit: fitbitView,
  notion: notionView,
  soundcloud: soundcloudView,
  philipshue: philipsHueView,
  wow: wowView,
  destiny2: destiny2View,
};
