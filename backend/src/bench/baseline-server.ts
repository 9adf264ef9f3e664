import http from 'node:http';
import { listenForParent, stopWithParent } from './child-server.js';

/**
 * The reference server of `npm run bench`: plain node:http, no framework, one
 * fixed JSON body of the same size class as GET /api/site. It runs in its own
 * child process (like the app) so that both pay the same process overheads and
 * the load generator's process is not shared with either.
 *
 * Started by run.ts with an IPC channel: it reports `{ port }` once listening and
 * exits on SIGTERM or when the parent goes away.
 */
const body = JSON.stringify({
  company: {
    name: 'Ejemplo Vida Digital, S.L. (datos ficticios)',
    taxId: 'B00000000 (ficticio)',
    address: 'Calle Ficticia 1, 28000 Madrid, España (dirección de ejemplo)',
    email: 'privacidad@life.example',
  },
  version: '0.1.0+bench',
});
const length = Buffer.byteLength(body);

const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': length });
  res.end(body);
});
server.keepAliveTimeout = 60_000;

stopWithParent(server);

listenForParent(server, 'baseline');
