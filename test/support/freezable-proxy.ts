import net from 'node:net';

/**
 * A TCP proxy on loopback in front of the test PostgreSQL. `freeze()` makes the database behave
 * as a stopped server (SIGSTOP) does for its clients: connections open and stay open, and no
 * byte reaches either side; `thaw()` delivers what was held, in order, as the server would once
 * it runs again. `goDown()` makes it behave as a server shut down (a restart): every connection
 * is reset and new ones are refused until `comeBack()`. The shared server itself is never stopped.
 */
export class FreezableProxy {
  private frozen = false;
  private down = false;
  /** Each direction of each connection: delivers what it holds, unless frozen. */
  private readonly flows = new Set<() => void>();
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  /** A proxy to the server of `databaseUrl`. */
  static async start(databaseUrl: string): Promise<FreezableProxy> {
    const target = new URL(databaseUrl);
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new FreezableProxy(server, (server.address() as net.AddressInfo).port);
    server.on('connection', (client) => {
      if (proxy.down) return void client.destroy();
      proxy.link(client, net.connect(Number(target.port || 5432), target.hostname));
    });
    return proxy;
  }

  /** `databaseUrl` with this proxy as its server. */
  urlFor(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  freeze(): void {
    this.frozen = true;
  }

  thaw(): void {
    this.frozen = false;
    for (const flow of this.flows) flow();
  }

  goDown(): void {
    this.down = true;
    for (const socket of this.sockets) socket.destroy();
  }

  comeBack(): void {
    this.down = false;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private link(client: net.Socket, upstream: net.Socket): void {
    this.flow(client, upstream);
    this.flow(upstream, client);
  }

  /** Bytes (and the end: null) from `from` to `to`, held while frozen. */
  private flow(from: net.Socket, to: net.Socket): void {
    this.sockets.add(from);
    const held: (Buffer | null)[] = [];
    const deliver = () => {
      while (!this.frozen && held.length > 0) {
        const chunk = held.shift()!;
        if (to.destroyed) continue;
        if (chunk === null) to.end();
        else to.write(chunk);
      }
    };
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      held.push(null);
      deliver();
    };
    this.flows.add(deliver);
    from.on('data', (chunk: Buffer) => {
      held.push(chunk);
      deliver();
    });
    from.on('end', end);
    from.on('error', () => undefined); // a reset: 'close' follows
    from.on('close', () => {
      end();
      this.sockets.delete(from);
      if (held.length === 0) this.flows.delete(deliver);
    });
  }
}
