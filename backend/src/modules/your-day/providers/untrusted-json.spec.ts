import { httpsUrl, text } from './untrusted-json.js';

describe('text from a provider', () => {
  it('drops bidirectional overrides and zero-width characters, turns control characters into spaces, and cuts long text', () => {
    expect(text('factura\u202Efdp.exe')).toBe('facturafdp.exe');
    expect(text('a\u2066b\u2069c\u200Bd')).toBe('abcd');
    expect(text('línea\nsiguiente\u0007')).toBe('línea siguiente');
    expect(text('👨‍👩‍👧 familia')).toBe('👨‍👩‍👧 familia');
    expect(text('x'.repeat(5000))).toHaveLength(300);
    expect(text(42)).toBeNull();
  });

  it('keeps only https links without credentials', () => {
    expect(httpsUrl('https://open.spotify.com/track/1')).toBe('https://open.spotify.com/track/1');
    for (const bad of ['http://example.com', 'javascript:alert(1)', 'data:text/html,x', 'https://user:pw@example.com/', 7]) expect(httpsUrl(bad)).toBeNull();
  });
});
