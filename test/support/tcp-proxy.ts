import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that a test can take down and bring back (the server stopped
 * and restarted), or have lose the connection that carries a given statement (a crash or a network
 * failure while a write commits).
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly pairs = new Set<[Socket, Socket]>();
  private cutOn: string | null = null;

  private constructor(
    private readonly target: { host: string; port: number },
    private port: number,
  ) {}

  static async start(targetUrl: string): Promise<TcpProxy> {
    const target = new URL(targetUrl);
    const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) }, 0);
    await proxy.up();
    return proxy;
  }

  /** `databaseUrl` with its host and port replaced by the proxy's. */
  url(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** Accepts connections again, on the same port. */
  async up(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => this.pipe(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Refuses new connections (ECONNREFUSED) and drops every open one, as a stopped server. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.dropAll();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * The next statement containing `text` reaches the server, and then its connection is dropped
   * before the answer comes back: the client cannot know whether it committed.
   */
  cutAfter(text: string): void {
    this.cutOn = text;
  }

  dropAll(): void {
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    this.pairs.clear();
  }

  private pipe(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      this.pairs.delete(pair);
    };
    let cut = false;
    client.on('data', (data: Buffer) => {
      upstream.write(data);
      if (this.cutOn !== null && data.includes(this.cutOn)) {
        this.cutOn = null;
        cut = true;
        // Let the statement reach the server and run; the client never hears back.
        setTimeout(drop, 200);
      }
    });
    upstream.on('data', (data: Buffer) => {
      if (!cut) client.write(data);
    });
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
  }

  async close(): Promise<void> {
    await this.down();
  }
}
