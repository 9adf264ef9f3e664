import { requestUrl, retryAfterMs } from './provider-call.js';
import { ProviderCallError } from './types.js';

describe('a view request stays under the API base', () => {
  const base = 'https://www.bungie.net/Platform';

  it('builds the URL under the base, with the query and the connection’s defaults (the call’s own win)', () => {
    const url = requestUrl(base, { path: 'Destiny2/3/Profile/4611/', query: { components: '200' } }, { components: '100', locale: 'es' });
    expect(url.href).toBe('https://www.bungie.net/Platform/Destiny2/3/Profile/4611/?components=200&locale=es');
  });

  it.each([
    '/etc/passwd',
    'https://evil.example/x',
    '//evil.example/x',
    '\\\\evil.example\\steal',
    'a\\..\\..\\x',
    'Destiny2/%2e%2e/%2e%2e/x',
    'Destiny2/%2E%2E/x',
    'a/%2fb',
    '../x',
    'a/./b',
    'a?b=1',
    'a#b',
  ])('refuses %s', (path) => {
    expect(() => requestUrl(base, { path })).toThrow(ProviderCallError);
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates, and caps what it reads', () => {
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs(new Date(Date.now() + 30_000).toUTCString(), Date.now())).toBeGreaterThan(25_000);
    expect(retryAfterMs('999999999')).toBe(6 * 3600_000);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });
});
