import http from 'node:http';
import { pipeline } from 'node:stream';
import { listenForParent, stopWithParent } from './child-server.js';

/**
 * The reference of the `oauth-proxy` row: a bare node:http pass-through proxy, no framework, no
 * token check, no database. Each request goes to the upstream (the same GitHub stand-in the app's
 * proxy calls) on a keep-alive agent with the provider token put in Authorization, and the answer
 * is streamed back: the floor of "receive, call the provider, pass the answer on".
 *
 * Started by proxy-reference.scenarios.ts with an IPC channel and UPSTREAM_URL / UPSTREAM_TOKEN in
 * its environment; reports `{ port }` once listening and exits on SIGTERM or when the parent goes away.
 */
const upstream = new URL(process.env.UPSTREAM_URL ?? '');
const authorization = `Bearer ${process.env.UPSTREAM_TOKEN ?? ''}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const FORWARDED = ['accept', 'content-type', 'accept-language', 'if-none-match', 'if-modified-since'];

const server = http.createServer((req, res) => {
  const headers: http.OutgoingHttpHeaders = { 'user-agent': 'bench-proxy/1.0', authorization };
  for (const name of FORWARDED) if (req.headers[name] !== undefined) headers[name] = req.headers[name];
  const outgoing = http.request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent, timeout: 15_000 },
    (answer) => {
      // The load generator may have closed this connection meanwhile (end of the warm-up).
      if (res.destroyed) {
        answer.resume();
        return;
      }
      res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      pipeline(answer, res, () => undefined);
    },
  );
  outgoing.on('timeout', () => outgoing.destroy(new Error('upstream timeout')));
  outgoing.on('error', () => {
    if (res.destroyed) return;
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  pipeline(req, outgoing, () => undefined);
});
server.keepAliveTimeout = 60_000;

stopWithParent(server);

listenForParent(server, 'proxy reference');
