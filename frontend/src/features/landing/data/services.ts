import type { ComponentType } from 'react';
import {
  CalendarIllustration,
  CloudDocsIllustration,
  CodeIllustration,
  FilesIllustration,
  HeartRateIllustration,
  MusicIllustration,
  NotesIllustration,
  SmartLightIllustration,
  VideoIllustration,
  WaveformIllustration,
  WearableIllustration,
} from '../assets/service-illustrations';

/**
 * The eleven landing service cards (spec section 3). Names are brand names and are not
 * translated; the description and the three uses live in the locales under
 * `landing.services.<id>`.
 */
export interface LandingService {
  id: string;
  name: string;
  Illustration: ComponentType;
}

export const LANDING_SERVICES: readonly LandingService[] = [
  { id: 'spotify', name: 'Spotify', Illustration: MusicIllustration },
  { id: 'github', name: 'GitHub', Illustration: CodeIllustration },
  { id: 'microsoftcloud', name: 'Microsoft Cloud', Illustration: CloudDocsIllustration },
  { id: 'philipshue', name: 'Philips Hue', Illustration: SmartLightIllustration },
  { id: 'notion', name: 'Notion', Illustration: NotesIllustration },
  { id: 'youtube', name: 'YouTube', Illustration: VideoIllustration },
  { id: 'soundcloud', name: 'SoundCloud', Illustration: WaveformIllustration },
  { id: 'googlecalendar', name: 'Google Calendar', Illustration: CalendarIllustration },
  { id: 'googledrive', name: 'Google Drive', Illustration: FilesIllustration },
  { id: 'googlefit', name: 'Google Fit', Illustration: HeartRateIllustration },
  { id: 'fitbit', name: 'Fitbit', Illustration: WearableIllustration },
];

export const USES_PER_SERVICE = 3;
