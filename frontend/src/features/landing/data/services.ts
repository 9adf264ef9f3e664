import type { ComponentType } from 'react';
import type { ServiceName } from '@life/contracts';
import { serviceDisplayName } from '@/lib/contract-constants';
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
 * translated: each is its catalog service's display name (decision 0023), so the landing and the
 * dashboard say the same thing. The description and the three uses live in the locales under
 * `landing.services.<id>`.
 */
export interface LandingService {
  id: string;
  /** The catalog key of the service this card advertises (what Conectar connects). */
  service: ServiceName;
  name: string;
  Illustration: ComponentType;
}

const card = (id: string, service: ServiceName, Illustration: ComponentType): LandingService => ({
  id,
  service,
  name: serviceDisplayName(service),
  Illustration,
});

export const LANDING_SERVICES: readonly LandingService[] = [
  card('spotify', 'spotify', MusicIllustration),
  card('github', 'github', CodeIllustration),
  card('microsoftcloud', 'microsoft', CloudDocsIllustration),
  card('philipshue', 'philipshue', SmartLightIllustration),
  card('notion', 'notion', NotesIllustration),
  card('youtube', 'youtube', VideoIllustration),
  card('soundcloud', 'soundcloud', WaveformIllustration),
  card('googlecalendar', 'googlecalendar', CalendarIllustration),
  card('googledrive', 'googledrive', FilesIllustration),
  card('googlefit', 'googlefit', HeartRateIllustration),
  card('fitbit', 'fitbit', WearableIllustration),
];

export const USES_PER_SERVICE = 3;
