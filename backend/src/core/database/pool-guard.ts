/** The parts of a `pg` pool and its clients that the guard touches. */
interface GuardedClient {
  release(error?: Error | boolean): void;
  once(event: 'end', listener: () => void): unknown;
  off(event: 'end', listener: () => void): unknown;
}

interface GuardedPool {
  connect(...args: unknown[]): Promise<GuardedClient> | undefined;
}

/**
 * Gives a pooled connection back to the pool when PostgreSQL drops it while it is checked out.
 *
 * Kysely (under MikroORM) releases a transaction's connection only after a successful COMMIT or
 * ROLLBACK (kysely-org/kysely#1990). When the server goes away mid-transaction, the ROLLBACK fails
 * too, and the dead connection would stay checked out forever: each such transaction costs the
 * pool one of its slots until the process restarts, and `pool.end()` at shutdown never returns.
 * Here a checked-out connection that ends is released with an error (the pool discards it), and
 * a later release by its holder does nothing.
 */
export function releaseDroppedConnections(pool: GuardedPool): void {
  const connect = pool.connect.bind(pool);
  pool.connect = (...args: unknown[]) => {
    // The callback form (pool.query) releases on its own; only the promise form is guarded.
    if (args.length > 0) return connect(...args);
    return connect(...args)?.then((client) => {
      const release = client.release.bind(client);
      let released = false;
      const onEnd = () => {
        if (released) return;
        released = true;
        release(new Error('connection lost while checked out'));
      };
      client.once('end', onEnd);
      client.release = (error?: Error | boolean) => {
        client.off('end', onEnd);
        if (released) return;
        released = true;
        release(error);
      };
      return client;
    });
  };
}
