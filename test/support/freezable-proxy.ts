import net from 'node:net';

/**
 * A TCP proxy on loopback in front of the test PostgreSQL. `freeze()` makes the database behave
 * as a stopped server (SIGSTOP) does for its clients: connections open and stay open, and no
 * byte reaches either side; `thaw()` delivers what was held, in order, as the server would once
 * it runs again. `holdReplies()` lets statements through but holds what the server answers, so a
 * suite can cut a connection after a statement was done and before its caller heard. `goDown()` makes it behave as a server shut down (a restart): every connection
 * is reset and new ones are refused until `comeBack()`. The shared server itself is never stopped.
 */
export class FreezableProxy {
  private frozen = false;
  private repliesHeld = false;
  private down = false;
  /** The sockets of the proxy's own clients (not those to the server). */
  private readonly clients = new Set<net.Socket>();
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
    server.on('connection', (client) => proxy.link(client, net.connect(Number(target.port || 5432), target.hostname)));
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

  holdReplies(): void {
    this.repliesHeld = true;
  }

  thaw(): void {
    this.frozen = false;
    this.repliesHeld = false;
    for (const flow of this.flows) flow();
  }

  goDown(): void {
    if (this.down) return;
    this.down = true;
    // Not listening: a new connection is refused (ECONNREFUSED), as by a stopped server.
    this.server.close();
    for (const socket of this.sockets) socket.destroy();
  }

  /**
   * `goDown` as PostgreSQL's fast shutdown does it: each client is told FATAL 57P01 ("terminating
   * connection due to administrator command") before its connection closes, so drivers drop their
   * idle connections as they do when the real server restarts.
   */
  shutDownPostgres(): void {
    for (const client of this.clients) client.write(postgresFatal('57P01', 'terminating connection due to administrator command'));
    setImmediate(() => this.goDown());
  }

  async comeBack(): Promise<void> {
    if (!this.down) return;
    this.down = false;
    this.repliesHeld = false;
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (!this.down) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private link(client: net.Socket, upstream: net.Socket): void {
    this.clients.add(client);
    client.on('close', () => this.clients.delete(client));
    this.flow(client, upstream, false);
    this.flow(upstream, client, true);
  }

  /** Bytes (and the end: null) from `from` to `to`, held while frozen (or, for the server's `replies`, while they are held). */
  private flow(from: net.Socket, to: net.Socket, replies: boolean): void {
    this.sockets.add(from);
    const held: (Buffer | null)[] = [];
    const deliver = () => {
      while (!this.frozen && !(replies && this.repliesHeld) && held.length > 0) {
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

/** A PostgreSQL ErrorResponse message of severity FATAL (protocol 3: "E", length, fields, NUL). */
function postgresFatal(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`, 'utf8');
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}
