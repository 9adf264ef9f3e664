import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { render } from '../i18n/messages.js';
import { checkAuthorizationEndpoint, checkHttps, classifyTokenAnswer, issuerMatches, oauthErrorOf, probe } from './config-check.js';

describe('configuration check pieces (decision 0044)', () => {
  let server: http.Server;
  let url: string;
  let requests: string[];

  beforeAll(async () => {
    requests = [];
    server = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      if (req.url?.startsWith('/moved')) {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return res.end();
      }
      if (req.url?.startsWith('/huge')) {
        // Chunked (no Content-Length), far past what a check reads.
        res.writeHead(400, { 'content-type': 'application/json' });
        res.write('{"error":"invalid_grant","pad":"');
        for (let i = 0; i < 40; i += 1) res.write('x'.repeat(16 * 1024));
        return res.end('"}');
      }
      if (req.url?.startsWith('/missing')) {
        res.writeHead(404);
        return res.end('not here');
      }
      res.writeHead(400, { 'content-type': 'text/html' });
      res.end('<h1>invalid_request</h1>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses a private or loopback address without sending anything when private URLs are not allowed (production)', async () => {
    const before = requests.length;
    const answer = await probe(`${url}/authorize`, { method: 'GET' }, false);
    expect(answer).toEqual({ kind: 'failed', message: { id: 'configCheck.privateAddress', values: { url: `${url}/authorize` } } });
    expect(requests.length).toBe(before);
    // Allowed (development, tests, ALLOW_PRIVATE_SERVICE_URLS=true): the request is made.
    expect(await probe(`${url}/authorize`, { method: 'GET' }, true)).toMatchObject({ kind: 'answered', status: 400 });
    expect(requests.length).toBe(before + 1);
  });

  it('does not follow redirects (a 3xx is an answer, not a way to reach another address)', async () => {
    expect(await probe(`${url}/moved`, { method: 'GET' }, true)).toMatchObject({ kind: 'answered', status: 302 });
  });

  it('stops reading a chunked answer past its size limit (no Content-Length to trust)', async () => {
    const answer = await probe(`${url}/huge`, { method: 'POST' }, true);
    expect(answer).toEqual({ kind: 'answered', status: 400, body: undefined });
  });

  it('refuses what is not an http(s) URL', async () => {
    expect(await probe('file:///etc/passwd', { method: 'GET' }, true)).toMatchObject({ kind: 'failed', message: { id: 'configCheck.invalidUrl' } });
  });

  it('an authorization endpoint answering 4xx is there; a 404 is named', async () => {
    expect(await checkAuthorizationEndpoint(`${url}/authorize`, 'client-1', true)).toMatchObject({ id: 'authorization_endpoint', ok: true });
    expect(requests.at(-1)).toBe('GET /authorize?client_id=client-1');
    const missing = await checkAuthorizationEndpoint(`${url}/missing`, 'client-1', true);
    expect(missing.ok).toBe(false);
    expect(render(missing.message)).toContain('404');
  });

  it('reads the token endpoint’s answer: invalid_grant means the client was accepted, invalid_client that it was not', () => {
    expect(classifyTokenAnswer('invalid_grant', 400, 'https://life.example/cb').ok).toBe(true);
    expect(classifyTokenAnswer('bad_verification_code', 200, 'https://life.example/cb').ok).toBe(true);
    for (const code of ['invalid_client', 'unauthorized_client', 'incorrect_client_credentials']) {
      expect(classifyTokenAnswer(code, 400, 'https://life.example/cb')).toMatchObject({ ok: false, message: { id: 'configCheck.tokenClientRefused' } });
    }
    expect(classifyTokenAnswer(undefined, 401, 'x')).toMatchObject({
      ok: false,
      message: { id: 'configCheck.tokenClientRefused', values: { code: 'HTTP 401' } },
    });
    expect(classifyTokenAnswer('redirect_uri_mismatch', 400, 'https://life.example/cb')).toMatchObject({
      ok: false,
      message: { id: 'configCheck.tokenRedirectRefused', values: { uri: 'https://life.example/cb' } },
    });
    expect(classifyTokenAnswer('invalid_request', 400, 'x')).toMatchObject({ ok: false, message: { id: 'configCheck.tokenUnexpected' } });
    expect(oauthErrorOf({ errors: [{ errorType: 'invalid_grant' }] })).toBe('invalid_grant');
    expect(oauthErrorOf({ error: 'invalid_grant<script>' })).toBe('invalid_grantscript');
  });

  it('matches issuers: equal, or Microsoft’s {tenantid} template for a tenant or common', () => {
    expect(issuerMatches('https://accounts.google.com', 'https://accounts.google.com/')).toBe(true);
    const microsoft = 'https://login.microsoftonline.com/{tenantid}/v2.0';
    expect(issuerMatches(microsoft, 'https://login.microsoftonline.com/common/v2.0')).toBe(true);
    expect(issuerMatches(microsoft, 'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0')).toBe(true);
    expect(issuerMatches(microsoft, 'https://evil.example/common/v2.0')).toBe(false);
    expect(issuerMatches('https://appleid.apple.com', 'https://accounts.google.com')).toBe(false);
  });

  it('https: required in production, allowed with a note elsewhere', () => {
    const fields = { auth_url: 'https://p.example/a', redirect_uri: 'http://127.0.0.1:3000/callback/x' };
    expect(checkHttps(fields, true)).toMatchObject({ ok: false, message: { id: 'configCheck.httpsRequired', values: { fields: 'redirect_uri' } } });
    expect(checkHttps(fields, false)).toMatchObject({ ok: true, message: { id: 'configCheck.httpAllowed' } });
    expect(checkHttps({ auth_url: 'https://p.example/a' }, true)).toMatchObject({ ok: true, message: { id: 'configCheck.httpsOk' } });
  });
});
