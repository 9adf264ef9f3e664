import { securityHeaders } from './security-headers.js';

describe('securityHeaders (computed once, as helmet would write them)', () => {
  it('over http: a strict CSP that nobody may frame, no HSTS', () => {
    const { default: headers, framedBySelf } = securityHeaders('http://127.0.0.1:3000');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['strict-transport-security']).toBeUndefined();
    expect(framedBySelf['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(framedBySelf['x-frame-options']).toBe('SAMEORIGIN');
    // Decision 0037: the consent page shows an app's logo from its own https server; no other page does.
    expect(framedBySelf['content-security-policy']).toContain("img-src 'self' data: https:");
    expect(headers['content-security-policy']).toContain("img-src 'self' data:;");
  });

  it('over https: HSTS for a year with subdomains, and insecure requests upgraded', () => {
    const { default: headers } = securityHeaders('https://life.example');
    expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(headers['content-security-policy']).toContain('upgrade-insecure-requests');
  });

  it('is frozen: a handler cannot change what every other answer sends', () => {
    const { default: headers } = securityHeaders('http://127.0.0.1:3000');
    expect(Object.isFrozen(headers)).toBe(true);
  });
});
