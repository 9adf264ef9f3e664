import { afterEach, describe, expect, it } from 'vitest';
import i18n from '@/i18n/i18n';
import es from '@/i18n/locales/es.json';
import en from '@/i18n/locales/en.json';
import { catalogDescription, catalogType } from './catalog-description';

afterEach(async () => {
  await i18n.changeLanguage('es');
});

describe('catalogDescription', () => {
  const shipped = es.services.catalogDescriptions.spotify;

  it('shows Life’s own description in the language on screen', async () => {
    expect(catalogDescription({ service_name: 'spotify', description: shipped }, i18n)).toBe(shipped);
    await i18n.changeLanguage('en');
    const english = catalogDescription({ service_name: 'spotify', description: shipped }, i18n);
    expect(english).toBe(en.services.catalogDescriptions.spotify);
    expect(english).not.toBe(shipped);
  });

  it('shows a description an admin wrote as written, in every language', async () => {
    await i18n.changeLanguage('en');
    expect(catalogDescription({ service_name: 'spotify', description: 'Mi Spotify de la oficina' }, i18n)).toBe('Mi Spotify de la oficina');
    expect(catalogDescription({ service_name: 'servicio-nuevo', description: 'Algo nuevo' }, i18n)).toBe('Algo nuevo');
    expect(catalogDescription({ service_name: 'spotify', description: null }, i18n)).toBe('');
  });

  it('shows Life’s own service types in the language on screen and other types as written', async () => {
    expect(catalogType('música', i18n)).toBe('música');
    await i18n.changeLanguage('en');
    expect(catalogType('música', i18n)).toBe(en.services.catalogTypes['música']);
    expect(catalogType('música', i18n)).toBe('music');
    expect(catalogType('podcasts raros', i18n)).toBe('podcasts raros');
    expect(catalogType('', i18n)).toBe('');
  });
});
