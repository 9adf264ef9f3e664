import type { FastifyRequest } from 'fastify';
import { isApiPath, isNegotiatedPage, wantsHtml } from './spa.js';

const request = (method: string, accept?: string) => ({ method, headers: accept ? { accept } : {} }) as unknown as FastifyRequest;

describe('SPA routing rules', () => {
  it('keeps API paths JSON-only', () => {
    expect(isApiPath('/api/nope')).toBe(true);
    expect(isApiPath('/api')).toBe(true);
    expect(isApiPath('/beta-invites')).toBe(true);
    expect(isApiPath('/oauth_clients/1')).toBe(true);
    expect(isApiPath('/.well-known/openid-configuration')).toBe(true);
    expect(isApiPath('/apis')).toBe(false);
    expect(isApiPath('/dashboard')).toBe(false);
  });

  it('treats the pages that are also API calls as pages', () => {
    expect(isNegotiatedPage('/oauth/authorize')).toBe(true);
    expect(isNegotiatedPage('/oauth/logout')).toBe(true);
    expect(isNegotiatedPage('/login/github/callback')).toBe(true);
    expect(isNegotiatedPage('/callback/spotify')).toBe(true);
    expect(isApiPath('/oauth/authorize')).toBe(false);
    expect(isNegotiatedPage('/callback/spotify/extra')).toBe(false);
  });

  it('recognises browser navigations', () => {
    expect(wantsHtml(request('GET', 'text/html,application/xhtml+xml,*/*;q=0.8'))).toBe(true);
    expect(wantsHtml(request('GET', 'application/json'))).toBe(false);
    expect(wantsHtml(request('GET', 'application/json, text/html'))).toBe(false);
    expect(wantsHtml(request('GET'))).toBe(false);
    expect(wantsHtml(request('POST', 'text/html'))).toBe(false);
  });
});
