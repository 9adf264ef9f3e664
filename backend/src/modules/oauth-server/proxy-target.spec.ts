import { rawProxyPath } from './app-api.controller.js';
import { ProxyService } from './proxy.service.js';

/** Where `/api/v1/services/{name}/proxy/{path}` goes at the provider (issue 18, point 8b). */
describe('the proxy’s target URL', () => {
  const target = (path: string, search = '') => ProxyService.target('https://api.example.com/v3', path, search).toString();

  it('keeps an encoded ? or # in the path encoded, as part of the path, and passes the real query string', () => {
    expect(target('files/a%3Fb%23c/d', '?x=1&y=%3F')).toBe('https://api.example.com/v3/files/a%3Fb%23c/d?x=1&y=%3F');
    expect(target('%3F', '')).toBe('https://api.example.com/v3/%3F');
    expect(target('repos/o/r/contents/caf%C3%A9%20menu.md', '?ref=main')).toBe('https://api.example.com/v3/repos/o/r/contents/caf%C3%A9%20menu.md?ref=main');
  });

  it('takes the path from the raw URL, before the router decodes it', () => {
    expect(rawProxyPath('/api/v1/services/github/proxy/files/a%3Fb%23c/d')).toBe('files/a%3Fb%23c/d');
    expect(rawProxyPath('/api/v1/services/github/proxy/user')).toBe('user');
    expect(rawProxyPath('/api/v1/services/github/proxy/')).toBe('');
  });

  it('still refuses paths that leave the API base, encoded or not', () => {
    for (const path of ['..%2f..%2fadmin', '..', '%2e%2e/admin', 'a/%2E%2E/%2e%2e/x', 'a%5cb', '%2fetc', 'https://evil.example/x', '/abs', '%E0%A4%A']) {
      expect(() => target(path)).toThrow(expect.objectContaining({ code: 'invalid_path', status: 400 }));
    }
  });
});
