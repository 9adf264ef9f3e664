import type { Server } from 'node:http';

/**
 * A bench child server's life: it stops on SIGTERM, SIGINT or when the parent goes away (closing
 * its connections, exiting within 2 s whatever happens).
 */
export function stopWithParent(server: Server): void {
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
}

/** Listens on a free loopback port and tells the parent (run.ts) which; run by hand, prints it. */
export function listenForParent(server: Server, name: string): void {
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    if (process.send) process.send({ port });
    else console.log(`${name} listening on http://127.0.0.1:${port}`);
  });
}
