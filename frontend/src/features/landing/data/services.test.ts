import { SERVICE_NAMES } from '@life/contracts';
import { describe, expect, it } from 'vitest';
import { serviceDisplayName } from '@/lib/contract-constants';
import { LANDING_SERVICES } from './services';

describe('the landing’s service cards', () => {
  it('advertise only services of the catalog, each under the name the dashboard shows (Microsoft Cloud is `microsoft`)', () => {
    expect(LANDING_SERVICES).toHaveLength(11);
    for (const card of LANDING_SERVICES) {
      expect(SERVICE_NAMES).toContain(card.service);
      expect(card.name).toBe(serviceDisplayName(card.service));
    }
    expect(LANDING_SERVICES.map((card) => card.name)).toEqual([
      'Spotify',
      'GitHub',
      'Microsoft Cloud',
      'Philips Hue',
      'Notion',
      'YouTube',
      'SoundCloud',
      'Google Calendar',
      'Google Drive',
      'Google Fit',
      'Fitbit',
    ]);
    expect(LANDING_SERVICES.find((card) => card.name === 'Microsoft Cloud')!.service).toBe('microsoft');
  });
});
