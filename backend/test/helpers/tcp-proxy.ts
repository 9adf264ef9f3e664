import net from 'node:net';

/**
 * What the proxy does with a new connection: pass it through to the real server, reset it at
 * once (a stopped server: the client's connect fails), or accept it and never answer (a server
 * that hangs, or a network that drops packets).
 */
export type ProxyMode = 'forward' | 'refuse' | 'hold';

interface Pair {
  client: net.Socket;
  upstream?: net.Socket;
}

/**
 * A TCP proxy on loopback in front of a real server (PostgreSQL, Redis), so a test can play that
 * server going away and coming back without touching the server itself, which other test runs
 * share: `stop()` cuts every open connection and refuses new ones, `hang()` cuts them and
 * leaves new ones unanswered, `resume()` forwards again.
 */
export class TcpProxy {
  private readonly pairs = new Set<Pair>();
  private mode: ProxyMode = 'forward';
  /** Connections forwarded since the proxy started (to see that a client did come back). */
  forwarded = 0;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
    readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const proxy = new TcpProxy(server, (server.address() as net.AddressInfo).port, target);
    server.on('connection', (client) => proxy.accept(client));
    return proxy;
  }

  /** `url` with its host and port replaced by the proxy's (user, password, database and options kept). */
  proxied(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  /** Connections open through the proxy right now (held ones included). */
  get open(): number {
    return this.pairs.size;
  }

  private accept(client: net.Socket): void {
    client.on('error', () => undefined);
    if (this.mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = { client };
    this.pairs.add(pair);
    client.once('close', () => this.drop(pair));
    if (this.mode === 'hold') {
      // Accepted, read and never answered.
      client.resume();
      return;
    }
    this.forwarded += 1;
    const upstream = net.connect(this.target.port, this.target.host);
    pair.upstream = upstream;
    upstream.on('error', () => undefined);
    upstream.once('close', () => this.drop(pair));
    client.pipe(upstream);
    upstream.pipe(client);
  }

  private drop(pair: Pair): void {
    this.pairs.delete(pair);
    pair.client.destroy();
    pair.upstream?.destroy();
  }

  /** Closes every connection that is open now, from both ends, as a server that dies would. */
  cut(): void {
    for (const pair of [...this.pairs]) this.drop(pair);
  }

  /** The server "stops": open connections are cut and new ones fail at once. */
  stop(): void {
    this.mode = 'refuse';
    this.cut();
  }

  /** The server "hangs": open connections are cut and new ones are accepted but never answered. */
  hang(): void {
    this.mode = 'hold';
    this.cut();
  }

  /** The server is back: new connections reach it again (held ones are closed so their clients retry). */
  resume(): void {
    this.mode = 'forward';
    for (const pair of [...this.pairs]) if (!pair.upstream) this.drop(pair);
  }

  async close(): Promise<void> {
    this.mode = 'refuse';
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
