import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import zlib from 'node:zlib';
import { ERROR_CODES } from '../src/errors';
import { canonicalAddress, classifyAddress } from '../src/net/addresses';
import {
  checkOutboundHeaders,
  checkOutboundUrl,
  guardedFetch,
  guardedFetchImpl,
  HostLookup,
  OutboundPolicy,
  OutboundRefused,
  OutboundRequestFailed,
  ResolvedAddress,
  serviceOrigins,
} from '../src/net/outbound';

/**
 * The outbound-request guard: what it refuses (no socket needed: literals, and names answered by
 * an injected lookup), and how it connects, over real loopback sockets: to the checked address
 * only, no redirects, time-out, size limit, header values. Nothing here leaves the machine.
 */

const PUBLIC_V4 = '93.184.215.14';
const PUBLIC_V6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c';

/** A resolver answering from a table, counting the questions it was asked. */
function tableLookup(table: Record<string, string[] | string[][]>) {
  const asked: string[] = [];
  const lookup: HostLookup = async (host) => {
    const entry = table[host];
    asked.push(host);
    if (!entry) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    // A list of lists answers each question with the next list (the last one repeats).
    const answer = Array.isArray(entry[0])
      ? (entry as string[][])[Math.min(asked.filter((h) => h === host).length - 1, entry.length - 1)]
      : (entry as string[]);
    return answer.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, asked };
}

const names = tableLookup({
  'intranet.example': ['10.0.0.5'],
  'mixed.example': [PUBLIC_V4, '192.168.0.7'],
  'agent.example.com': [PUBLIC_V4, PUBLIC_V6],
  'metadata.google.internal': ['169.254.169.254'],
  '127.0.0.1.nip.io': ['127.0.0.1'],
  'mapped.example': ['::ffff:10.1.1.1'],
  'odd.example': ['not-an-address'],
  'empty.example': [],
});

async function refusal(url: string, policy: OutboundPolicy = {}): Promise<OutboundRefused> {
  const error = await checkOutboundUrl(url, { lookup: names.lookup, ...policy }).then(
    (target) => new Error(`expected ${url} to be refused, it was allowed as ${target.addresses.map((a) => a.address).join(', ')}`),
    (e: unknown) => e,
  );
  if (!(error instanceof OutboundRefused)) throw error;
  return error;
}

const addressesOf = async (url: string, policy: OutboundPolicy = {}) =>
  (await checkOutboundUrl(url, { lookup: names.lookup, ...policy })).addresses.map((a) => a.address);

describe('checkOutboundUrl: URL tricks', () => {
  // [url, the refusal without allowPrivate, with allowPrivate: the addresses allowed, or the refusal]
  const LOOPBACK = /127\.0\.0\.1.* is a loopback address$/;
  const tricks: [string, RegExp, string[] | RegExp][] = [
    ['http://2130706433/', LOOPBACK, ['127.0.0.1']],
    ['http://0x7f.1/', LOOPBACK, ['127.0.0.1']],
    ['http://017700000001/', LOOPBACK, ['127.0.0.1']],
    ['http://0x7f000001/', LOOPBACK, ['127.0.0.1']],
    ['http://0177.0.0.1/', LOOPBACK, ['127.0.0.1']],
    ['http://0x7f.0x0.0x0.0x1/', LOOPBACK, ['127.0.0.1']],
    ['http://127.1/', LOOPBACK, ['127.0.0.1']],
    ['http://%31%32%37.0.0.1/', LOOPBACK, ['127.0.0.1']],
    ['http://①②⑦.0.0.1/', LOOPBACK, ['127.0.0.1']],
    ['http:/\\127.0.0.1/', LOOPBACK, ['127.0.0.1']],
    ['http://127.0.0.1:8080/', LOOPBACK, ['127.0.0.1']],
    ['http://127.255.255.254/', /is a loopback address/, ['127.255.255.254']],
    ['http://0/', /^0\.0\.0\.0 is an unspecified/, /^0\.0\.0\.0 is an unspecified/],
    ['http://0.0.0.0/', /unspecified/, /unspecified/],
    ['http://0x0/', /unspecified/, /unspecified/],
    ['http://[::1]/', /^::1 is a loopback address$/, ['::1']],
    ['http://[::1]:8080/', /^::1 is a loopback address$/, ['::1']],
    ['http://[::]/', /^:: is the unspecified address$/, /unspecified/],
    ['http://[::ffff:127.0.0.1]/', /^::ffff:7f00:1 \(which embeds 127\.0\.0\.1\) is a loopback address$/, ['::ffff:7f00:1']],
    ['http://[::ffff:7f00:1]/', /embeds 127\.0\.0\.1\) is a loopback address/, ['::ffff:7f00:1']],
    ['http://[0:0:0:0:0:ffff:127.0.0.1]/', /embeds 127\.0\.0\.1\) is a loopback address/, ['::ffff:7f00:1']],
    ['http://[::127.0.0.1]/', /IPv4-compatible/, /IPv4-compatible/],
    ['http://[64:ff9b::7f00:1]/', /embeds 127\.0\.0\.1\) is a loopback address/, ['64:ff9b::7f00:1']],
    ['http://[2002:7f00:1::]/', /embeds 127\.0\.0\.1\) is a loopback address/, ['2002:7f00:1::']],
    ['http://[fe80::1%25eth0]/', /^not a valid URL$/, /^not a valid URL$/],
    ['http://[fe80::1]/', /link-local/, ['fe80::1']],
    ['http://[fc00::1]/', /private \(unique local\)/, ['fc00::1']],
    ['http://[fd12:3456::1]/', /private \(unique local\)/, ['fd12:3456::1']],
    ['http://10.1.2.3/', /^10\.1\.2\.3 is a private address$/, ['10.1.2.3']],
    ['http://172.16.0.1/', /private/, ['172.16.0.1']],
    ['http://172.31.255.255/', /private/, ['172.31.255.255']],
    ['http://192.168.1.1/', /private/, ['192.168.1.1']],
    ['http://100.64.0.1/', /carrier-grade NAT/, ['100.64.0.1']],
    ['http://169.254.1.1/', /link-local/, ['169.254.1.1']],
    ['http://169.254.169.254/latest/meta-data/', /^169\.254\.169\.254 is a cloud metadata address$/, /cloud metadata/],
    ['http://[::ffff:169.254.169.254]/', /embeds 169\.254\.169\.254\) is a cloud metadata address/, /cloud metadata/],
    ['http://[fd00:ec2::254]/', /^fd00:ec2::254 is a cloud metadata address$/, /cloud metadata/],
    ['http://100.100.100.200/', /cloud metadata/, /cloud metadata/],
    [
      'http://metadata.google.internal/',
      /^metadata\.google\.internal resolves to 169\.254\.169\.254, a cloud metadata address$/,
      /cloud metadata/,
    ],
    ['http://224.0.0.1/', /multicast/, /multicast/],
    ['http://[ff02::1]/', /multicast/, /multicast/],
    ['http://255.255.255.255/', /broadcast/, /broadcast/],
    ['http://240.0.0.1/', /reserved/, /reserved/],
    ['http://192.0.2.1/', /documentation/, /documentation/],
    ['http://[2001:db8::1]/', /documentation/, /documentation/],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', /Teredo/, /Teredo/],
    ['http://198.18.0.1/', /benchmarking/, /benchmarking/],
    ['http://localhost/', /^localhost resolves to 127\.0\.0\.1, a loopback address$/, ['127.0.0.1', '::1']],
    ['http://LOCALHOST./', /^localhost resolves to 127\.0\.0\.1/, ['127.0.0.1', '::1']],
    ['http://api.localhost:3000/', /^api\.localhost resolves to 127\.0\.0\.1/, ['127.0.0.1', '::1']],
    ['http://127.0.0.1.nip.io/', /^127\.0\.0\.1\.nip\.io resolves to 127\.0\.0\.1, a loopback address$/, ['127.0.0.1']],
    ['http://intranet.example/', /^intranet\.example resolves to 10\.0\.0\.5, a private address$/, ['10.0.0.5']],
    ['http://mixed.example/', /^mixed\.example resolves to 192\.168\.0\.7, a private address$/, [PUBLIC_V4, '192.168.0.7']],
    ['http://mapped.example/', /resolves to ::ffff:10\.1\.1\.1 \(which embeds 10\.1\.1\.1\), a private address/, ['::ffff:10.1.1.1']],
    [
      'http://user:pw@agent.example.com/',
      /^the URL must not contain a user name or password; send credentials in a header$/,
      /user name or password/,
    ],
    ['http://user@agent.example.com/', /user name or password/, /user name or password/],
    ['ftp://agent.example.com/', /^only http and https URLs are allowed$/, /only http and https/],
    ['file:///etc/passwd', /only http and https/, /only http and https/],
    ['gopher://agent.example.com:70/_GET', /only http and https/, /only http and https/],
    ['data:text/plain,hello', /only http and https/, /only http and https/],
    ['javascript:alert(1)', /only http and https/, /only http and https/],
    ['ws://agent.example.com/', /only http and https/, /only http and https/],
    ['http://', /^not a valid URL$/, /not a valid URL/],
    ['not a url', /^not a valid URL$/, /not a valid URL/],
    [`http://agent.example.com/${'a'.repeat(2048)}`, /longer than 2048 characters/, /longer than 2048/],
    ['http://example.invalid/', /^could not resolve example\.invalid$/, /could not resolve/],
    ['http://empty.example/', /^could not resolve empty\.example$/, /could not resolve/],
    ['http://odd.example/', /^could not resolve odd\.example$/, /could not resolve/],
  ];

  test.each(tricks)('%s is refused without allowPrivate', async (url, reason) => {
    const refused = await refusal(url);
    expect(refused.reason).toMatch(reason);
  });

  test.each(tricks)('%s with allowPrivate', async (url, _reason, withAllowPrivate) => {
    if (withAllowPrivate instanceof RegExp) expect((await refusal(url, { allowPrivate: true })).reason).toMatch(withAllowPrivate);
    else expect(await addressesOf(url, { allowPrivate: true })).toEqual(withAllowPrivate);
  });

  test('public addresses are allowed, and every address of a name is returned for the connection', async () => {
    expect(await addressesOf('https://agent.example.com/a2a')).toEqual([PUBLIC_V4, PUBLIC_V6]);
    expect(await addressesOf(`http://${PUBLIC_V4}:8080/`)).toEqual([PUBLIC_V4]);
    expect(await addressesOf(`http://[${PUBLIC_V6}]/`)).toEqual([PUBLIC_V6]);
    expect(await addressesOf('http://172.32.0.1/')).toEqual(['172.32.0.1']); // just past 172.16/12
    expect(await addressesOf('http://100.128.0.1/')).toEqual(['100.128.0.1']); // just past 100.64/10
    expect(await addressesOf(`http://[::ffff:${PUBLIC_V4}]/`)).toEqual(['::ffff:5db8:d70e']);
    expect(await addressesOf(`http://[64:ff9b::${PUBLIC_V4}]/`)).toEqual(['64:ff9b::5db8:d70e']);
    const target = await checkOutboundUrl('HTTPS://Agent.Example.COM./x?y=1', { lookup: names.lookup });
    expect(target.url.href).toBe('https://agent.example.com./x?y=1');
  });

  test('a resolver that never answers: refused after 5 s (fake clock)', async () => {
    jest.useFakeTimers();
    try {
      const pending = refusal('http://slow.example/', { lookup: () => new Promise(() => undefined) });
      await jest.advanceTimersByTimeAsync(5000);
      expect((await pending).reason).toBe('could not resolve slow.example within 5 s');
    } finally {
      jest.useRealTimers();
    }
  });

  test("a refusal is a 422 / -32602 with the issue at the caller's field", async () => {
    const refused = await refusal('http://10.0.0.1/', { field: ['input', 'pushNotificationConfig', 'url'] });
    expect(refused.code).toBe('VALIDATION_FAILED');
    expect(ERROR_CODES[refused.code]).toEqual({ http: 422, jsonRpc: -32602 });
    expect(refused.issues).toEqual([
      { path: ['input', 'pushNotificationConfig', 'url'], msg: '10.0.0.1 is a private address', type: 'outbound_address' },
    ]);
    expect(refused.kind).toBe('address');
  });
});

describe('checkOutboundUrl: the service itself', () => {
  const self = serviceOrigins({ publicUrl: 'https://labdesk.example.org', host: '0.0.0.0', port: 8080 }, ['192.168.1.20', 'fe80::1']);
  const ownNames = tableLookup({
    'labdesk.example.org': ['203.0.113.80', PUBLIC_V4],
    'alias.example': ['127.0.0.1'],
    'elsewhere.example': ['198.51.100.1', '8.8.8.8'],
  });
  const policy = (allowPrivate: boolean): OutboundPolicy => ({ self, allowPrivate, lookup: ownNames.lookup });

  test.each([
    'https://labdesk.example.org/a2a',
    'https://LABDESK.example.org./',
    'http://labdesk.example.org:443/',
    `https://${PUBLIC_V4}/`, // what PUBLIC_URL's host resolves to, on its port
    'http://localhost:8080/a2a',
    'http://127.0.0.1:8080/',
    'http://127.0.0.2:8080/', // bound to all: every loopback address
    'http://2130706433:8080/',
    'http://[::1]:8080/',
    'http://[::ffff:127.0.0.1]:8080/',
    'http://0.0.0.0:8080/',
    'http://[::]:8080/',
    'http://192.168.1.20:8080/', // an interface of this machine
    'http://[fe80::1]:8080/',
    'http://alias.example:8080/', // a name resolving to loopback
  ])('%s points at this service (refused even with allowPrivate)', async (url) => {
    for (const allowPrivate of [false, true]) {
      const refused = await checkOutboundUrl(url, policy(allowPrivate)).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(OutboundRefused);
      expect((refused as OutboundRefused).reason).toBe('the URL points at this service itself');
    }
  });

  test('other ports of the same hosts are not this service', async () => {
    expect((await checkOutboundUrl('http://localhost:9090/', policy(true))).addresses.map((a) => a.address)).toEqual(['127.0.0.1', '::1']);
    expect((await checkOutboundUrl(`http://${PUBLIC_V4}:8443/`, policy(false))).addresses).toHaveLength(1);
    expect((await refusal('http://localhost:9090/', policy(false))).reason).toMatch(/loopback/);
  });

  test('bound to one loopback address: its aliases are this service, another loopback address is not', async () => {
    const local = serviceOrigins({ publicUrl: 'http://127.0.0.1:4000', host: '127.0.0.1', port: 4000 }, ['10.9.9.9']);
    for (const url of ['http://localhost:4000/', 'http://[::1]:4000/', 'http://127.0.0.1:4000/', 'http://0x7f000001:4000/']) {
      expect((await refusal(url, { self: local, allowPrivate: true })).kind).toBe('self');
    }
    expect(await addressesOf('http://127.0.0.2:4000/', { self: local, allowPrivate: true })).toEqual(['127.0.0.2']);
    expect(await addressesOf('http://10.9.9.9:4000/', { self: local, allowPrivate: true })).toEqual(['10.9.9.9']);
  });
});

describe('address classification', () => {
  test('IPv6 spellings are read by their bytes', () => {
    expect(canonicalAddress('0:0:0:0:0:ffff:7f00:1')).toBe('127.0.0.1');
    expect(canonicalAddress('FD00:EC2:0:0:0:0:0:254')).toBe('fd00:ec2::254');
    expect(canonicalAddress('fe80::1%eth0')).toBe('fe80::1');
    expect(classifyAddress('fd00:ec2:0::254')).toEqual({ use: 'never', what: 'a cloud metadata address' });
    expect(classifyAddress('2002:0a00:0001::1')).toEqual({ use: 'local', what: 'a private address', embedded: '10.0.0.1' });
    expect(classifyAddress(`2002:5db8:d70e::1`)).toEqual({ use: 'public', what: '', embedded: PUBLIC_V4 });
    expect(classifyAddress('64:ff9b:1::1').use).toBe('local');
    expect(classifyAddress('2001:db7:ffff::1').use).toBe('public');
    expect(() => classifyAddress('localhost')).toThrow(TypeError);
  });
});

// ---- connections over loopback ----

interface Seen {
  url: string;
  host?: string;
  headers: http.IncomingHttpHeaders;
}

/** A loopback HTTP server answering with `handle`, recording every request and whether its client went away. */
async function startServer(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  at: { host?: string; port?: number } = {},
) {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const closed: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', host: req.headers.host, headers: req.headers });
    res.on('close', () => closed.push(req.url ?? ''));
    handle(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(at.port ?? 0, at.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    seen,
    closed,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

type Server = Awaited<ReturnType<typeof startServer>>;
const running: Server[] = [];
const start = async (...args: Parameters<typeof startServer>) => {
  const server = await startServer(...args);
  running.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as Error,
  );

const okText = (text: string) => (_req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(200, { 'Content-Type': 'text/plain' }).end(text);
};

describe('guardedFetch: the connection goes to the checked address', () => {
  test('DNS rebinding: the name is resolved once; the request lands on the checked address with the original Host', async () => {
    const checked = await start(okText('checked'));
    // The same port on 127.0.0.2: where a second resolution would send the request.
    const rebound = await start(okText('rebound'), { host: '127.0.0.2', port: checked.port });
    const rebinding = tableLookup({ 'rebind.test': [['127.0.0.1'], ['127.0.0.2']] });
    const target = await checkOutboundUrl(`http://rebind.test:${checked.port}/hello`, { allowPrivate: true, lookup: rebinding.lookup });
    const response = await guardedFetch(target);
    expect(await response.text()).toBe('checked');
    expect(checked.seen).toEqual([expect.objectContaining({ url: '/hello', host: `rebind.test:${checked.port}` })]);
    expect(rebound.seen).toEqual([]);
    expect(rebinding.asked).toEqual(['rebind.test']);
  });

  test('without allowPrivate, a name whose second answer is loopback is never connected to loopback', async () => {
    const local = await start(okText('should not be reached'));
    const closed = await startServer(okText('x'));
    await closed.stop();
    const rebinding = tableLookup({ 'rebind.test': [[PUBLIC_V4], ['127.0.0.1']] });
    const target = await checkOutboundUrl(`http://rebind.test:${local.port}/`, { lookup: rebinding.lookup });
    expect(target.addresses).toEqual([{ address: PUBLIC_V4, family: 4 }]);
    // Nothing may leave the machine: the socket's own lookup says where it would go, and the
    // connection is then made to a closed loopback port instead of that public address.
    const wouldConnectTo: string[] = [];
    const realConnect = net.connect;
    const connect = jest.spyOn(net, 'connect').mockImplementation(((options: net.NetConnectOpts) => {
      const { host, lookup } = options as net.TcpNetConnectOpts;
      lookup?.(host ?? '', {}, (_error, address) => wouldConnectTo.push(address as string));
      return realConnect({ host: '127.0.0.1', port: closed.port });
    }) as typeof net.connect);
    try {
      expect(await failure(guardedFetch(target))).toMatchObject({ kind: 'unreachable', reason: 'connection refused' });
    } finally {
      connect.mockRestore();
    }
    expect(wouldConnectTo).toEqual([PUBLIC_V4]);
    expect(local.seen).toEqual([]);
    expect(rebinding.asked).toEqual(['rebind.test']);
  });

  test('a closed port is "connection refused" (UNAVAILABLE, 503)', async () => {
    const gone = await startServer(okText('x'));
    await gone.stop();
    const target = await checkOutboundUrl(`http://127.0.0.1:${gone.port}/`, { allowPrivate: true });
    const error = await failure(guardedFetch(target));
    expect(error).toBeInstanceOf(OutboundRequestFailed);
    expect(error).toMatchObject({ kind: 'unreachable', reason: 'connection refused', code: 'UNAVAILABLE' });
    expect(error.message).toBe(`request to http://127.0.0.1:${gone.port} failed: connection refused`);
  });

  test('a server that closes the connection without answering: the connection was closed', async () => {
    const closing = await start((req) => req.socket.destroy());
    const target = await checkOutboundUrl(`http://127.0.0.1:${closing.port}/`, { allowPrivate: true });
    const error = await failure(guardedFetch(target));
    expect(error).toBeInstanceOf(OutboundRequestFailed);
    expect(error).toMatchObject({ kind: 'unreachable' });
    expect((error as OutboundRequestFailed).reason).toMatch(/^the connection was (reset|closed|closed by the server)$/);
  });

  test('a port fetch never uses (SMTP) fails before any connection', async () => {
    const target = await checkOutboundUrl('http://mail.example:25/', { lookup: tableLookup({ 'mail.example': [PUBLIC_V4] }).lookup });
    // Should a connection be tried after all, it must not leave the machine.
    const connect = jest.spyOn(net, 'connect').mockImplementation(() => {
      throw new Error('a connection was tried');
    });
    try {
      expect(await failure(guardedFetch(target))).toMatchObject({ kind: 'failed', reason: 'the request failed (bad port)' });
      expect(connect).not.toHaveBeenCalled();
    } finally {
      connect.mockRestore();
    }
  });

  test("TLS: the server name sent is the URL's host, not the pinned address; an untrusted certificate is named as such", async () => {
    // A self-signed certificate for pinned.test (test/fixtures/tls), which the client must not trust.
    const fixtures = path.join(__dirname, 'fixtures', 'tls');
    const credentials = {
      key: fs.readFileSync(path.join(fixtures, 'pinned-test.key')),
      cert: fs.readFileSync(path.join(fixtures, 'pinned-test.crt')),
    };
    const serverNames: string[] = [];
    const sniServer = tls.createServer({
      ...credentials,
      // Called with the name from the ClientHello, before the client judges the certificate.
      SNICallback: (name, done) => {
        serverNames.push(name);
        done(null, tls.createSecureContext(credentials));
      },
    });
    sniServer.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => sniServer.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = sniServer.address() as AddressInfo;
      const target = await checkOutboundUrl(`https://pinned.test:${port}/`, {
        allowPrivate: true,
        lookup: tableLookup({ 'pinned.test': ['127.0.0.1'] }).lookup,
      });
      const error = await failure(guardedFetch(target));
      expect(error).toMatchObject({ kind: 'tls' });
      expect((error as OutboundRequestFailed).reason).toMatch(/^TLS certificate error: self[- ]signed certificate/);
      expect(serverNames).toEqual(['pinned.test']);
    } finally {
      await new Promise((resolve) => sniServer.close(resolve));
    }
  });
});

describe('guardedFetch: redirects are not followed', () => {
  test('a 302 to the metadata address is refused and not followed', async () => {
    const redirecting = await start((_req, res) => res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' }).end());
    const target = await checkOutboundUrl(`http://127.0.0.1:${redirecting.port}/hook`, { allowPrivate: true });
    const error = await failure(guardedFetch(target));
    expect(error).toBeInstanceOf(OutboundRefused);
    expect((error as OutboundRefused).reason).toBe('the server answered with a redirect, which is not followed');
    expect(redirecting.seen).toHaveLength(1);
  });

  test('with allowPrivate, a redirect to another loopback server is still not followed (it sees no request)', async () => {
    const destination = await start(okText('followed'));
    for (const status of [301, 302, 303, 307, 308]) {
      const redirecting = await start((_req, res) => res.writeHead(status, { Location: `http://127.0.0.1:${destination.port}/` }).end());
      const target = await checkOutboundUrl(`http://127.0.0.1:${redirecting.port}/`, { allowPrivate: true });
      expect(await failure(guardedFetch(target, { method: 'POST', body: '{}' }))).toMatchObject({ kind: 'redirect' });
    }
    expect(destination.seen).toEqual([]);
  });
});

describe('guardedFetch: time and size limits', () => {
  const limits = { timeoutMs: 300, maxResponseBytes: 64 * 1024 };

  test('a server that never answers: timed out', async () => {
    const hanging = await start(() => undefined);
    const target = await checkOutboundUrl(`http://127.0.0.1:${hanging.port}/`, { allowPrivate: true });
    const error = await failure(guardedFetch(target, {}, limits));
    expect(error).toMatchObject({ kind: 'timeout', reason: 'timed out after 0.3 s', code: 'UNAVAILABLE' });
    expect(hanging.seen).toHaveLength(1);
  });

  test('a body that stops halfway: the time-out covers reading it too', async () => {
    const stalling = await start((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('first part, then nothing');
    });
    const target = await checkOutboundUrl(`http://127.0.0.1:${stalling.port}/`, { allowPrivate: true });
    const response = await guardedFetch(target, {}, limits);
    expect(response.status).toBe(200);
    expect(await failure(response.text())).toMatchObject({ kind: 'timeout' });
  });

  test('an endless body: reading stops past the limit and the connection is closed', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'x');
    let written = 0;
    const endless = await start((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const target = await checkOutboundUrl(`http://127.0.0.1:${endless.port}/`, { allowPrivate: true });
    const response = await guardedFetch(target, {}, { timeoutMs: 10_000, maxResponseBytes: 64 * 1024 });
    const error = await failure(response.arrayBuffer());
    expect(error).toMatchObject({ kind: 'too_large', reason: 'the response is larger than 65536 bytes' });
    await until(() => endless.closed.length === 1);
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  test('the limit counts decoded bytes: a small gzip of a large body is too large', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024));
    const compressed = await start((_req, res) =>
      res.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Length': bomb.length }).end(bomb),
    );
    const target = await checkOutboundUrl(`http://127.0.0.1:${compressed.port}/`, { allowPrivate: true });
    expect(bomb.length).toBeLessThan(64 * 1024);
    const response = await guardedFetch(target, {}, { timeoutMs: 10_000, maxResponseBytes: 64 * 1024 });
    expect(await failure(response.arrayBuffer())).toMatchObject({ kind: 'too_large' });
  });

  test('a declared Content-Length past the limit fails before the body is read', async () => {
    const big = await start((_req, res) => {
      res.writeHead(200, { 'Content-Length': 10 * 1024 * 1024 });
      res.write('x');
    });
    const target = await checkOutboundUrl(`http://127.0.0.1:${big.port}/`, { allowPrivate: true });
    expect(await failure(guardedFetch(target, {}, { timeoutMs: 10_000, maxResponseBytes: 1024 }))).toMatchObject({ kind: 'too_large' });
  });

  test('an answer within the limits arrives whole, with its status and headers', async () => {
    const body = 'y'.repeat(64 * 1024);
    const exact = await start((req, res) => res.writeHead(201, { 'Content-Type': 'text/plain', 'X-Answer': req.method ?? '' }).end(body));
    const target = await checkOutboundUrl(`http://127.0.0.1:${exact.port}/`, { allowPrivate: true });
    const response = await guardedFetch(target, { method: 'PUT', body: 'z' }, { timeoutMs: 10_000, maxResponseBytes: 64 * 1024 });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-answer')).toBe('PUT');
    expect(response.url).toBe(`http://127.0.0.1:${exact.port}/`);
    expect(await response.text()).toBe(body);
  });

  test('an answer without a body (204)', async () => {
    const empty = await start((_req, res) => res.writeHead(204).end());
    const target = await checkOutboundUrl(`http://127.0.0.1:${empty.port}/`, { allowPrivate: true });
    const response = await guardedFetch(target);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  test("the caller cancelling ends the request with the caller's reason", async () => {
    const hanging = await start(() => undefined);
    const target = await checkOutboundUrl(`http://127.0.0.1:${hanging.port}/`, { allowPrivate: true });
    const controller = new AbortController();
    const pending = failure(guardedFetch(target, { signal: controller.signal }));
    await until(() => hanging.seen.length === 1);
    controller.abort(new Error('caller left'));
    expect((await pending).message).toBe('caller left');
  });
});

describe('guardedFetch: header values', () => {
  test.each([
    ['a record', { Authorization: 'Bearer abc\r\nX-Injected: 1' }],
    ['a list', [['Authorization', 'Bearer abc\nX-Injected: 1']]],
    ['a trailing CR LF', { Authorization: 'Bearer abc\r\n' }],
    ['a NUL', { 'X-Api-Key': 'abc\0def' }],
  ])('a line break or NUL in %s is refused and nothing is sent', async (_form, headers) => {
    const server = await start(okText('x'));
    const target = await checkOutboundUrl(`http://127.0.0.1:${server.port}/`, { allowPrivate: true });
    const error = await failure(guardedFetch(target, { headers: headers as RequestInit['headers'] }));
    expect(error).toBeInstanceOf(OutboundRefused);
    expect(error).toMatchObject({ kind: 'header', code: 'VALIDATION_FAILED' });
    expect((error as OutboundRefused).reason).toMatch(/^the value of header (Authorization|X-Api-Key) contains a line break or NUL$/);
    expect(server.seen).toEqual([]);
  });

  test('credentials can be checked when registered, the issue at their field', () => {
    const refused = (() => {
      try {
        checkOutboundHeaders({ Authorization: 'Bearer a\r\nHost: evil' }, ['input', 'credentials']);
      } catch (error) {
        return error as OutboundRefused;
      }
    })();
    expect(refused?.issues).toEqual([
      {
        path: ['input', 'credentials', 'Authorization'],
        msg: 'the value of header Authorization contains a line break or NUL',
        type: 'outbound_header',
      },
    ]);
    expect(() => checkOutboundHeaders({ Authorization: 'Bearer a' }, ['input', 'credentials'])).not.toThrow();
  });

  test('a header name that is not a token is refused; good headers arrive as sent', async () => {
    const server = await start(okText('x'));
    const target = await checkOutboundUrl(`http://127.0.0.1:${server.port}/`, { allowPrivate: true });
    expect(await failure(guardedFetch(target, { headers: { 'Bad Name': 'v' } }))).toMatchObject({ kind: 'header' });
    await (await guardedFetch(target, { headers: { Authorization: 'Bearer abc' } })).text();
    await (await guardedFetch(target, { headers: new Headers({ 'X-Api-Key': 'k1' }) })).text();
    await (await guardedFetch(target, { headers: [['X-Api-Key', 'k2']] })).text();
    expect(server.seen.map((s) => s.headers.authorization ?? s.headers['x-api-key'])).toEqual(['Bearer abc', 'k1', 'k2']);
  });
});

describe('guardedFetchImpl: a fetch for clients that take one', () => {
  test('each URL is checked before anything is sent; allowed ones are fetched with the guard', async () => {
    const server = await start((req, res) => {
      const chunks: Buffer[] = [];
      req
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', () =>
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ got: Buffer.concat(chunks).toString() })),
        );
    });
    const strict = guardedFetchImpl({});
    expect(await failure(strict(`http://127.0.0.1:${server.port}/`))).toMatchObject({ kind: 'address' });
    expect(server.seen).toEqual([]);

    const loose = guardedFetchImpl({ allowPrivate: true });
    const answer = await loose(`http://127.0.0.1:${server.port}/rpc`, {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(await answer.json()).toEqual({ got: '{"a":1}' });
    const fromRequest = await loose(new Request(`http://127.0.0.1:${server.port}/req`, { method: 'POST', body: 'b' }));
    expect(await fromRequest.json()).toEqual({ got: 'b' });
    const fromUrl = await loose(new URL(`http://127.0.0.1:${server.port}/url`));
    expect(await fromUrl.json()).toEqual({ got: '' });
    expect(server.seen.map((s) => s.url)).toEqual(['/rpc', '/req', '/url']);
    expect(await failure(loose('http://169.254.169.254/'))).toMatchObject({ kind: 'address' });
  });
});

/** Waits for a condition an event will make true (bounded by the test's own time-out). */
async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
