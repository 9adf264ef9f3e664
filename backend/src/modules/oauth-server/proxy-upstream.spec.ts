import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { callUpstream } from './proxy.service.js';

/** A provider on loopback: echoes what it got, or answers a body larger than the proxy takes. */
async function provider(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const block = Buffer.alloc(1024 * 1024, 1);
        for (let i = 0; i < 11; i += 1) res.write(block);
        res.end();
        return;
      }
      res.writeHead(req.url === '/missing' ? 404 : 201, { 'content-type': 'application/json', etag: '"v1"', link: '<a>; rel="next"' });
      res.end(JSON.stringify({ method: req.method, url: req.url, authorization: req.headers.authorization, body: Buffer.concat(chunks).toString() }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('the proxy’s upstream call (node:http, keep-alive)', () => {
  let upstream: Awaited<ReturnType<typeof provider>>;
  beforeAll(async () => {
    upstream = await provider();
  });
  afterAll(() => upstream.close());

  it('sends the method, headers and body, and passes the status, headers and body back', async () => {
    const answer = await callUpstream(
      new URL(`${upstream.url}/items?page=2`),
      'POST',
      { authorization: 'Bearer t0k', 'content-type': 'application/json' },
      Buffer.from('{"a":1}'),
    );
    if (typeof answer === 'string') throw new Error(answer);
    expect(answer.status).toBe(201);
    expect(answer.headers.etag).toBe('"v1"');
    expect(JSON.parse(answer.body!.toString())).toEqual({ method: 'POST', url: '/items?page=2', authorization: 'Bearer t0k', body: '{"a":1}' });
  });

  it('passes an error status through with its body', async () => {
    const answer = await callUpstream(new URL(`${upstream.url}/missing`), 'GET', {}, undefined);
    if (typeof answer === 'string') throw new Error(answer);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body!.toString())).toMatchObject({ method: 'GET', url: '/missing' });
  });

  it('stops reading an answer larger than 10 MB', async () => {
    const answer = await callUpstream(new URL(`${upstream.url}/huge`), 'GET', {}, undefined);
    if (typeof answer === 'string') throw new Error(answer);
    expect(answer.body).toBeNull();
    // The connection it dropped does not break the next call.
    const next = await callUpstream(new URL(`${upstream.url}/after`), 'GET', {}, undefined);
    expect(typeof next === 'string' ? next : next.status).toBe(201);
  });

  it('says unreachable when nothing listens, and for a header value Node refuses', async () => {
    const closed = await provider();
    await closed.close();
    expect(await callUpstream(new URL(`${closed.url}/user`), 'GET', {}, undefined)).toBe('unreachable');
    expect(await callUpstream(new URL(`${upstream.url}/user`), 'GET', { 'x-bad': 'a\r\nb' }, undefined)).toBe('unreachable');
  });
});
