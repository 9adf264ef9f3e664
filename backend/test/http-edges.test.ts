import net from 'node:net';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Requests Node or the router refuse before our code runs still get our JSON error shape
 * (`{error, message}`), and an API call with no credentials gets RFC 6750 §3.1's bare challenge.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** One raw HTTP/1.1 request over a socket (fetch refuses to send some of these). */
function raw(t: TestApp, request: string): Promise<{ status: number; headers: string; body: string }> {
  const { port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(request));
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        headers: head,
        body: Buffer.from(rest.join('\r\n\r\n'), 'latin1').toString('utf8'),
      });
    });
  });
}

describe('HTTP edges before our code runs (real server)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ role: 'web' });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers broken percent-encoding in a path with our 400 JSON, in the request’s language', async () => {
    for (const path of ['/api/users/%E0%A4%A', '/api/v1/me/%ZZ', '/oauth/%']) {
      const response = await t.fetch(path, { headers: { accept: 'application/json', 'accept-language': 'es' } });
      const body = (await response.json()) as Json;
      expect([path, response.status, body.error]).toEqual([path, 400, 'bad_request']);
      expect(body.message).toBe('No se pudo leer la petición.');
      expect(Object.keys(body).sort()).toEqual(['error', 'message', 'requestId']);
    }
  });

  it('answers headers or a query string too large to read with a 431 JSON error, not Node’s bare line', async () => {
    const answer = await raw(t, `GET /api/health?q=${'%C3%B1'.repeat(4_000)} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.headers).toMatch(/content-type: application\/json/i);
    const body = JSON.parse(answer.body) as Json;
    expect(body.error).toBe('request_header_fields_too_large');
    expect(typeof body.message).toBe('string');
  });

  it('answers a request Node cannot parse (a broken header, raw non-ASCII in the path) with a 400 JSON error', async () => {
    for (const request of [
      `GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\nConnection: close\r\n\r\n`,
      `GET /api/usuarios/ñandú HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    ]) {
      const answer = await raw(t, request);
      expect(answer.status).toBe(400);
      expect(answer.headers).toMatch(/content-type: application\/json/i);
      expect((JSON.parse(answer.body) as Json).error).toBe('bad_request');
    }
  });

  it('challenges an API call without credentials with no error code (RFC 6750 §3.1), and a bad token with invalid_token', async () => {
    const none = await t.fetch('/api/v1/me');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).not.toMatch(/error=/);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer realm="[^"]+"/);
    const bad = await t.fetch('/api/v1/me', { headers: { authorization: 'Bearer not-a-token' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });
});
