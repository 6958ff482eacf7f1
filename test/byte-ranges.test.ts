import fs from 'node:fs';
import http, { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { MAX_RANGE_HEADER_BYTES, parseRange, Served, ServedObject, serveObject } from '../src/http/byte-ranges';
import type { ByteRange } from '../src/blobs/blob-store';

const SIZE = 10_000;
// A prime period, so a slice taken at the wrong offset shows up as wrong bytes.
const DATA = Buffer.from(Array.from({ length: SIZE }, (_, i) => i % 251));
const ETAG = 'a1b2c3d4e5f6';
// Milliseconds on purpose: HTTP dates have whole seconds, comparisons must too.
const MODIFIED = new Date('2024-05-01T12:00:00.500Z');
const HTTP_DATE = 'Wed, 01 May 2024 12:00:00 GMT';

const opens: ByteRange[] = [];
const sources: Readable[] = [];
let outcomes: Promise<Served>[] = [];

function stored(bytes: Buffer, extra: Partial<ServedObject> = {}): ServedObject {
  return {
    size: bytes.length,
    etag: ETAG,
    lastModified: MODIFIED,
    contentType: 'application/octet-stream',
    contentDisposition: 'attachment; filename="tool.bin"',
    cacheControl: 'public, max-age=60',
    async open(range) {
      opens.push(range);
      const source = Readable.from([bytes.subarray(range.start, range.end + 1)]);
      sources.push(source);
      return source;
    },
    ...extra,
  };
}

/** A source that never ends: only the client leaving (or a bug) stops it. */
function endless(): Readable {
  const chunk = Buffer.alloc(64 * 1024, 7);
  const source = new Readable({ read: () => void source.push(chunk) });
  sources.push(source);
  return source;
}

const HUGE = 1 << 30;
const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-byte-ranges-'));
const DATA_FILE = path.join(tmpDir, 'data.bin');
fs.writeFileSync(DATA_FILE, DATA);
// Sparse: a gigabyte of zeros that takes no disk.
const HUGE_FILE = path.join(tmpDir, 'huge.bin');
fs.writeFileSync(HUGE_FILE, '');
fs.truncateSync(HUGE_FILE, HUGE);
/** How many times a local file was opened and let go of (`done`). */
const fileUse = { opened: 0, done: 0 };

/** Served from a real file, opened once per response whatever the number of ranges. */
function localFile(file: string, size: number): ServedObject {
  return stored(Buffer.alloc(0), {
    size,
    async open(range) {
      opens.push(range);
      const handle = await fs.promises.open(file, 'r');
      fileUse.opened++;
      return {
        handle,
        done: async () => {
          fileUse.done++;
          await handle.close();
        },
      };
    },
  });
}

const objects: Record<string, ServedObject> = {
  '/file': localFile(DATA_FILE, SIZE),
  '/huge-file': localFile(HUGE_FILE, HUGE),
  '/blob': stored(DATA),
  '/empty': stored(Buffer.alloc(0)),
  '/endless': stored(Buffer.alloc(0), { size: HUGE, open: async (range) => (opens.push(range), endless()) }),
  '/missing': stored(DATA, { open: () => Promise.reject(new Error('no blob at x')) }),
  '/broken': stored(DATA, {
    async open(range) {
      opens.push(range);
      const source = new Readable({ read() {} });
      source.push(DATA.subarray(0, 1000));
      setTimeout(() => source.destroy(new Error('store read failed')), 50);
      return source;
    },
  }),
};

let server: http.Server;
let port: number;
const failures: unknown[] = [];

beforeAll(async () => {
  // Room for a Range header over MAX_RANGE_HEADER_BYTES, as the app allows.
  server = http.createServer({ maxHeaderSize: 2 * MAX_RANGE_HEADER_BYTES }, (req, res) => {
    const outcome = serveObject(req, res, objects[req.url!]);
    outcomes.push(outcome);
    outcome.catch((error: unknown) => {
      failures.push(error);
      // What a caller does: answer if it still can, else the module has already cut the connection.
      if (!res.headersSent) res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ detail: 'not found' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(tmpDir, { recursive: true, force: true });
});

beforeEach(() => {
  fileUse.opened = 0;
  fileUse.done = 0;
  opens.length = 0;
  sources.length = 0;
  failures.length = 0;
  outcomes = [];
});

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** False when the connection ended before the announced body did. */
  complete: boolean;
}

/** A raw HTTP exchange (no decoding); every request offers compression, which must be declined. */
function request(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method, agent: false, headers: { 'Accept-Encoding': 'gzip, br', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', () => {}); // a cut-off body is reported through `complete`
        res.on('close', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks), complete: res.complete }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const get = (headers: Record<string, string> = {}, path = '/blob') => request(path, headers);
const lastServed = () => outcomes.at(-1)!;

async function until(condition: () => boolean, what: string) {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Splits a multipart/byteranges body strictly: each part's length comes from its Content-Range. */
function parseMultipart(reply: Reply) {
  const boundary = /^multipart\/byteranges; boundary=(\S+)$/.exec(reply.headers['content-type']!)![1];
  const body = reply.body;
  const parts: { contentType: string; range: ByteRange; total: number; bytes: Buffer }[] = [];
  let at = 0;
  for (;;) {
    const delimiter = `${at === 0 ? '' : '\r\n'}--${boundary}`;
    expect(body.subarray(at, at + delimiter.length).toString('latin1')).toBe(delimiter);
    at += delimiter.length;
    if (body.subarray(at).toString('latin1') === '--\r\n') break;
    const headEnd = body.indexOf('\r\n\r\n', at);
    const fields = Object.fromEntries(
      body
        .subarray(at + 2, headEnd)
        .toString('latin1')
        .split('\r\n')
        .map((line) => line.split(': ') as [string, string])
        .map(([name, value]) => [name.toLowerCase(), value]),
    );
    const [, start, end, total] = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(fields['content-range'])!.map(Number);
    at = headEnd + 4;
    parts.push({ contentType: fields['content-type'], range: { start, end }, total, bytes: body.subarray(at, at + end - start + 1) });
    at += end - start + 1;
  }
  return parts;
}

describe('serveObject', () => {
  test('GET without Range sends the whole object with its validators', async () => {
    const reply = await get();
    expect(reply.status).toBe(200);
    expect(reply.body.equals(DATA)).toBe(true);
    expect(reply.headers).toMatchObject({
      'content-length': String(SIZE),
      'content-type': 'application/octet-stream',
      'accept-ranges': 'bytes',
      etag: `"${ETAG}"`,
      'last-modified': HTTP_DATE,
      'cache-control': 'public, max-age=60',
      'content-disposition': 'attachment; filename="tool.bin"',
      'x-content-type-options': 'nosniff',
    });
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.headers['content-range']).toBeUndefined();
    expect(await lastServed()).toEqual({ status: 200, ranges: null });
    expect(opens).toEqual([{ start: 0, end: SIZE - 1 }]);
  });

  test('HEAD answers as GET would, without a body or a store read', async () => {
    const getHeaders = { ...(await get()).headers };
    delete getHeaders.date;
    opens.length = 0;
    const reply = await request('/blob', {}, 'HEAD');
    const headHeaders = { ...reply.headers };
    delete headHeaders.date;
    expect(reply.status).toBe(200);
    expect(headHeaders).toEqual(getHeaders);
    expect(reply.body.length).toBe(0);
    expect(opens).toEqual([]);
    expect(await lastServed()).toEqual({ status: 200, ranges: null });

    const ranged = await request('/blob', { Range: 'bytes=0-99' }, 'HEAD');
    expect(ranged.status).toBe(206);
    expect(ranged.headers).toMatchObject({ 'content-range': `bytes 0-99/${SIZE}`, 'content-length': '100' });
    expect(opens).toEqual([]);
  });

  test.each([
    ['bytes=0-99', 0, 99],
    ['bytes=1234-5678', 1234, 5678],
    ['bytes=9000-', 9000, SIZE - 1],
    ['bytes=-500', SIZE - 500, SIZE - 1],
    ['bytes=-20000', 0, SIZE - 1], // suffix longer than the object: all of it, still a 206
    ['bytes=9990-20000', 9990, SIZE - 1], // end clamped
    ['bytes=0-0', 0, 0],
  ])('%s → 206 with bytes %i-%i', async (range, start, end) => {
    const reply = await get({ Range: range });
    expect(reply.status).toBe(206);
    expect(reply.headers).toMatchObject({
      'content-range': `bytes ${start}-${end}/${SIZE}`,
      'content-length': String(end - start + 1),
      'content-type': 'application/octet-stream',
      etag: `"${ETAG}"`,
    });
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.body.equals(DATA.subarray(start, end + 1))).toBe(true);
    expect(opens).toEqual([{ start, end }]);
    expect(await lastServed()).toEqual({ status: 206, ranges: [{ start, end }] });
  });

  test('several ranges → multipart/byteranges with an exact Content-Length, parts in request order', async () => {
    const reply = await get({ Range: 'bytes=9000-9099, 0-9,-5' });
    expect(reply.status).toBe(206);
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.headers['content-range']).toBeUndefined();
    expect(Number(reply.headers['content-length'])).toBe(reply.body.length);
    const expected = [
      { start: 9000, end: 9099 },
      { start: 0, end: 9 },
      { start: SIZE - 5, end: SIZE - 1 },
    ];
    const parts = parseMultipart(reply);
    expect(parts.map((part) => part.range)).toEqual(expected);
    for (const part of parts) {
      expect(part.contentType).toBe('application/octet-stream');
      expect(part.total).toBe(SIZE);
      expect(part.bytes.equals(DATA.subarray(part.range.start, part.range.end + 1))).toBe(true);
    }
    expect(opens).toEqual(expected);
    expect(await lastServed()).toEqual({ status: 206, ranges: expected });
  });

  test('overlapping and adjacent ranges are coalesced', async () => {
    const multipart = await get({ Range: 'bytes=500-599,0-99,50-149,600-699' });
    expect(parseMultipart(multipart).map((part) => part.range)).toEqual([
      { start: 500, end: 699 },
      { start: 0, end: 149 },
    ]);
    // Ranges that merge into one are a plain single-range answer.
    const single = await get({ Range: 'bytes=0-99,100-199,50-60' });
    expect(single.headers['content-range']).toBe(`bytes 0-199/${SIZE}`);
    expect(single.body.equals(DATA.subarray(0, 200))).toBe(true);
  });

  test.each(['bytes=10000-', 'bytes=20000-30000', 'bytes=-0', 'bytes=10000-10005,-0'])('%s → 416', async (range) => {
    const reply = await get({ Range: range });
    expect(reply.status).toBe(416);
    expect(reply.headers).toMatchObject({ 'content-range': `bytes */${SIZE}`, 'content-type': 'application/json', etag: `"${ETAG}"` });
    expect(reply.headers['cache-control']).toBeUndefined();
    expect(JSON.parse(reply.body.toString())).toEqual({ detail: 'range not satisfiable' });
    expect(opens).toEqual([]);
    expect(await lastServed()).toEqual({ status: 416, ranges: null });
  });

  test.each([
    ['malformed', 'bytes=5-2'],
    ['not bytes', 'items=0-5'],
    ['garbage', 'bytes=abc'],
  ])('%s Range is ignored → 200 whole object', async (_name, range) => {
    const reply = await get({ Range: range });
    expect(reply.status).toBe(200);
    expect(reply.body.equals(DATA)).toBe(true);
  });

  test("1,000 ranges (electron-updater's most) → one multipart answer, read from one open file", async () => {
    const expected = Array.from({ length: 1000 }, (_, i) => ({ start: i * 10, end: i * 10 + 3 }));
    // electron-updater's own separator, ", ".
    const reply = await get({ Range: `bytes=${expected.map(({ start, end }) => `${start}-${end}`).join(', ')}` }, '/file');
    expect(reply.status).toBe(206);
    expect(Number(reply.headers['content-length'])).toBe(reply.body.length);
    const parts = parseMultipart(reply);
    expect(parts.map((part) => part.range)).toEqual(expected);
    for (const part of parts) expect(part.bytes.equals(DATA.subarray(part.range.start, part.range.end + 1))).toBe(true);
    expect(fileUse).toEqual({ opened: 1, done: 1 });
    expect(await lastServed()).toEqual({ status: 206, ranges: expected });
  });

  test('a single range and the whole object from a local file: the bytes, and the file let go of once', async () => {
    const range = await get({ Range: 'bytes=1234-5678' }, '/file');
    expect(range.body.equals(DATA.subarray(1234, 5679))).toBe(true);
    const whole = await get({}, '/file');
    expect(whole.body.equals(DATA)).toBe(true);
    expect(fileUse).toEqual({ opened: 2, done: 2 });
  });

  test(`a Range header longer than ${MAX_RANGE_HEADER_BYTES} bytes → 416, whatever it asks for`, async () => {
    // Empty list elements, which a parser would skip: only the size refuses it (trailing spaces would be trimmed by Node).
    const header = `bytes=0-0${','.repeat(MAX_RANGE_HEADER_BYTES)}`;
    const reply = await get({ Range: header }, '/file');
    expect(reply.status).toBe(416);
    expect(reply.headers['content-range']).toBe(`bytes */${SIZE}`);
    expect(JSON.parse(reply.body.toString())).toEqual({
      detail: `range not satisfiable: the Range header is longer than ${MAX_RANGE_HEADER_BYTES} bytes`,
    });
    expect(fileUse.opened).toBe(0);
    expect(await lastServed()).toEqual({ status: 416, ranges: null });
  });

  describe('conditional GET', () => {
    test.each([
      ['the etag', `"${ETAG}"`],
      ['a list holding the etag', `"other", "${ETAG}"`],
      ['*', '*'],
      ['the weak form of the etag', `W/"${ETAG}"`],
    ])('If-None-Match with %s → 304', async (_name, value) => {
      const reply = await get({ 'If-None-Match': value, Range: 'bytes=0-9' });
      expect(reply.status).toBe(304);
      expect(reply.body.length).toBe(0);
      expect(reply.headers).toMatchObject({ etag: `"${ETAG}"`, 'last-modified': HTTP_DATE, 'cache-control': 'public, max-age=60' });
      expect(reply.headers['content-range']).toBeUndefined();
      expect(opens).toEqual([]);
      expect(await lastServed()).toEqual({ status: 304, ranges: null });
    });

    test('Cache-Control: no-cache beside a validator (fetch adds it to every conditional request) still → 304', async () => {
      expect((await get({ 'If-None-Match': `"${ETAG}"`, 'Cache-Control': 'no-cache' })).status).toBe(304);
      expect((await get({ 'If-Modified-Since': HTTP_DATE, 'Cache-Control': 'max-age=0, no-cache' })).status).toBe(304);
    });

    test('If-None-Match with another etag → 200', async () => {
      const reply = await get({ 'If-None-Match': '"other"' });
      expect(reply.status).toBe(200);
      expect(reply.body.equals(DATA)).toBe(true);
    });

    test('If-Modified-Since compares whole seconds, and only without If-None-Match', async () => {
      expect((await get({ 'If-Modified-Since': HTTP_DATE })).status).toBe(304);
      expect((await get({ 'If-Modified-Since': 'Thu, 02 May 2024 00:00:00 GMT' })).status).toBe(304);
      expect((await get({ 'If-Modified-Since': 'Wed, 01 May 2024 11:59:59 GMT' })).status).toBe(200);
      expect((await get({ 'If-Modified-Since': 'not a date' })).status).toBe(200);
      expect((await get({ 'If-Modified-Since': HTTP_DATE, 'If-None-Match': '"other"' })).status).toBe(200);
    });
  });

  describe('If-Range', () => {
    test.each([
      ['the same etag', `"${ETAG}"`, 206],
      ['the same date', HTTP_DATE, 206],
      ['another etag', '"other"', 200],
      ['the weak etag', `W/"${ETAG}"`, 200],
      ['an older date', 'Tue, 30 Apr 2024 12:00:00 GMT', 200],
      ['a later date', 'Thu, 02 May 2024 12:00:00 GMT', 200],
    ])('with %s (%s) → %i', async (_name, value, status) => {
      const reply = await get({ Range: 'bytes=100-199', 'If-Range': value });
      expect(reply.status).toBe(status);
      expect(reply.body.equals(status === 206 ? DATA.subarray(100, 200) : DATA)).toBe(true);
    });
  });

  test('a zero-size object: 200 with no body and no store read; any Range is unsatisfiable', async () => {
    const whole = await get({}, '/empty');
    expect(whole.status).toBe(200);
    expect(whole.headers['content-length']).toBe('0');
    expect(whole.body.length).toBe(0);
    for (const range of ['bytes=0-0', 'bytes=0-', 'bytes=-5']) {
      const reply = await get({ Range: range }, '/empty');
      expect(reply.status).toBe(416);
      expect(reply.headers['content-range']).toBe('bytes */0');
    }
    expect(opens).toEqual([]);
  });

  describe('streaming', () => {
    /** Reads the first chunk of the response, then hangs up. */
    function abortAfterFirstChunk(headers: Record<string, string> = {}, from = '/endless') {
      return new Promise<number>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path: from, agent: false, headers }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve(res.statusCode!);
          });
        });
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      });
    }

    test('a client that hangs up destroys the source, and serving ends normally', async () => {
      expect(await abortAfterFirstChunk()).toBe(200);
      await until(() => sources[0]?.destroyed === true, 'the source to be destroyed');
      expect(await lastServed()).toEqual({ status: 200, ranges: null });
      expect(failures).toEqual([]);
    });

    test('a client that hangs up mid-multipart: the open part is destroyed, the next never opened', async () => {
      expect(await abortAfterFirstChunk({ Range: `bytes=0-${HUGE / 2},${HUGE - 10}-` })).toBe(206);
      await until(() => sources[0]?.destroyed === true, 'the source to be destroyed');
      expect(await lastServed()).toEqual({
        status: 206,
        ranges: [
          { start: 0, end: HUGE / 2 },
          { start: HUGE - 10, end: HUGE - 1 },
        ],
      });
      expect(opens).toHaveLength(1);
      expect(failures).toEqual([]);
    });

    test('a client that hangs up mid-multipart from a local file: serving ends normally, the file let go of once', async () => {
      expect(await abortAfterFirstChunk({ Range: `bytes=0-${HUGE / 2},${HUGE - 10}-` }, '/huge-file')).toBe(206);
      expect(await lastServed()).toEqual({
        status: 206,
        ranges: [
          { start: 0, end: HUGE / 2 },
          { start: HUGE - 10, end: HUGE - 1 },
        ],
      });
      expect(fileUse).toEqual({ opened: 1, done: 1 });
      expect(failures).toEqual([]);
    });

    test('a source that fails after the headers cuts the connection (no error document in the body)', async () => {
      const reply = await get({}, '/broken');
      expect(reply.status).toBe(200);
      expect(reply.complete).toBe(false);
      expect(reply.body.equals(DATA.subarray(0, reply.body.length))).toBe(true);
      await expect(lastServed()).rejects.toThrow('store read failed');
    });

    test('an open that fails before the headers is left to the caller, with nothing written', async () => {
      const reply = await get({}, '/missing');
      expect(reply.status).toBe(404);
      expect(JSON.parse(reply.body.toString())).toEqual({ detail: 'not found' });
      expect(reply.headers.etag).toBeUndefined();
      await expect(lastServed()).rejects.toThrow('no blob at x');
    });
  });
});

describe('parseRange', () => {
  test.each<[string | undefined, ReturnType<typeof parseRange>]>([
    [undefined, null],
    ['bytes=0-0', [{ start: 0, end: 0 }]],
    ['bytes=0-', [{ start: 0, end: 99 }]],
    ['bytes=-1', [{ start: 99, end: 99 }]],
    ['bytes=-100', [{ start: 0, end: 99 }]],
    ['bytes=50-1000', [{ start: 50, end: 99 }]],
    ['bytes=0-99999999999999999999999', [{ start: 0, end: 99 }]],
    ['BYTES=1-2', [{ start: 1, end: 2 }]],
    [
      ' bytes = 1-2 ,  5-6 ',
      [
        { start: 1, end: 2 },
        { start: 5, end: 6 },
      ],
    ],
    [
      'bytes=1-2,,5-6,',
      [
        { start: 1, end: 2 },
        { start: 5, end: 6 },
      ],
    ],
    ['bytes=200-300,0-9', [{ start: 0, end: 9 }]], // the unsatisfiable one is dropped
    [
      'bytes=30-39,0-9,10-19',
      [
        { start: 30, end: 39 },
        { start: 0, end: 19 },
      ],
    ],
    ['bytes=0-50,10-20', [{ start: 0, end: 50 }]],
    ['bytes=5-2', null],
    ['bytes=0-9,5-2', null],
    ['bytes=', null],
    ['bytes=-', null],
    ['bytes=1-2-3', null],
    ['bytes=a-b', null],
    ['bytes=+1-2', null],
    ['bytes=1 - 2', null],
    ['bytes 0-1', null],
    ['items=0-1', null],
    ['bytes=100-', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    ['bytes=100-200,-0', 'unsatisfiable'],
  ])('%j of 100 bytes → %j', (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });

  test(`no limit on the number of ranges; a header longer than ${MAX_RANGE_HEADER_BYTES} bytes is too long`, () => {
    const ranges = (count: number) => `bytes=${Array.from({ length: count }, (_, i) => `${i * 10}-${i * 10 + 1}`).join(',')}`;
    expect(parseRange(ranges(2000), HUGE)).toHaveLength(2000);
    const longest = `bytes=0-1${','.repeat(MAX_RANGE_HEADER_BYTES - 'bytes=0-1'.length)}`;
    expect(parseRange(longest, HUGE)).toEqual([{ start: 0, end: 1 }]);
    expect(parseRange(`${longest},`, HUGE)).toBe('too long');
  });

  test("electron-updater's 1,000 ranges of a 10 GB file fit the bound", () => {
    // Its worst case: 1,000 ranges near the end of the file, `start-end, ` each.
    const size = 10_000_000_000;
    const header = `bytes=${Array.from({ length: 1000 }, (_, i) => `${size - 40_000 + i * 40}-${size - 40_000 + i * 40 + 19}`).join(', ')}`;
    expect(header.length).toBeGreaterThan(22_000);
    expect(parseRange(header, size)).toHaveLength(1000);
  });

  test('nothing is satisfiable in an empty object', () => {
    expect(parseRange('bytes=0-0', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=-5', 0)).toBe('unsatisfiable');
  });
});
