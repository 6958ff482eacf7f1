import { randomBytes } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fresh from 'fresh';
import type { ByteRange } from '../blobs/blob-store';
import { rangeNotSatisfiable } from '../errors';
import { writeError } from './answers';

/**
 * Serving one stored object the way a static file server or CDN does (RFC 9110): validators,
 * conditional requests, single and multipart byte ranges, for release downloads and signed blob
 * URLs. Bytes go out exactly as stored: never a Content-Encoding, so ranges address stored bytes.
 */

export interface ServedObject {
  size: number;
  /** Strong validator, e.g. the SHA-256 hex; sent quoted as the ETag. */
  etag: string;
  lastModified: Date;
  contentType: string;
  /** e.g. `attachment; filename="x.dmg"`; omitted when undefined. */
  contentDisposition?: string;
  /** Cache-Control value; omitted when undefined. */
  cacheControl?: string;
  /**
   * Opens bytes start..end inclusive: a stream, or an open local file (copied without
   * allocating per chunk, and every range of a multipart answer read from it). Called only for
   * GET with a non-empty body; a stream is opened once per range.
   */
  open(range: ByteRange): Promise<Readable | LocalFile>;
}

/** An open local file: ranges are read from it by position, then `done` is called once (e.g. to close it). */
export interface LocalFile {
  handle: FileHandle;
  done(): Promise<void>;
}

const isLocalFile = (source: Readable | LocalFile): source is LocalFile => 'handle' in source;

/** What was served, for counting: status and the ranges sent (null = whole object or no body). */
export interface Served {
  status: number;
  ranges: ByteRange[] | null;
}

/**
 * A longer Range header is refused (416). The bound is on size, not on the number of ranges:
 * electron-updater's differential download asks for up to 1,000 ranges at once, each
 * `start-end, `, at most 23 bytes for a file under 10 GB, so 1,000 ranges take about 23 KB.
 * 32 KiB admits them for any file under 10^13 bytes; the server's request headers may total
 * MAX_REQUEST_HEADER_BYTES so such a header reaches us at all.
 */
export const MAX_RANGE_HEADER_BYTES = 32 * 1024;

/**
 * Answers GET or HEAD for `object`. Nothing is written before the first `open` succeeds, so a
 * failure there rejects with the response untouched (the caller maps it). Once the headers are
 * out, a failing source destroys the connection: the client sees a truncated transfer, never an
 * error document inside the bytes. A client that leaves early is not an error: the source is
 * destroyed and the promise resolves.
 */
export async function serveObject(req: IncomingMessage, res: ServerResponse, object: ServedObject): Promise<Served> {
  const headers = objectHeaders(object);

  // Conditionals first (RFC 9110 §13.2.2): a client with a fresh copy needs no range of it.
  if (notModified(req, object)) {
    res.writeHead(304, headers).end();
    return { status: 304, ranges: null };
  }

  const ranges = requestedRanges(req, object);
  if (ranges === 'unsatisfiable' || ranges === 'too long') {
    const refusal =
      ranges === 'too long'
        ? rangeNotSatisfiable(object.size, `range not satisfiable: the Range header is longer than ${MAX_RANGE_HEADER_BYTES} bytes`)
        : rangeNotSatisfiable(object.size);
    delete headers['Cache-Control'];
    // Answered here rather than thrown: the validators go with it, and callers count what was served.
    writeError(req, res, refusal, headers);
    return { status: res.statusCode, ranges: null };
  }

  if (object.contentDisposition !== undefined) headers['Content-Disposition'] = object.contentDisposition;
  const withBody = req.method !== 'HEAD';
  if (ranges !== null && ranges.length > 1) return sendMultipart(res, object, headers, ranges, withBody);
  return sendSingle(res, object, headers, ranges?.[0], withBody);
}

/** What every answer but the 416 carries. */
function objectHeaders(object: Omit<ServedObject, 'open'>): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {
    'Accept-Ranges': 'bytes',
    ETag: `"${object.etag}"`,
    'Last-Modified': object.lastModified.toUTCString(),
    'X-Content-Type-Options': 'nosniff',
  };
  // Cache-Control goes on what caches may keep (200, 206, 304), not on the 416.
  if (object.cacheControl !== undefined) headers['Cache-Control'] = object.cacheControl;
  return headers;
}

/** The ranges the request asks for (null: the whole object), unless If-Range says its copy is of other bytes. */
const requestedRanges = (req: IncomingMessage, object: Omit<ServedObject, 'open'>) =>
  rangeStillValid(req, object) ? parseRange(req.headers.range, object.size) : null;

/**
 * Answers GET or HEAD for `object` by handing the bytes to the proxy in front: an empty 200
 * with the object's headers and `header` (e.g. `X-Accel-Redirect`), which the proxy replaces
 * with the file it names, answering Range and If-Range itself. Such proxies copy only some of
 * the headers (nginx keeps Content-Type, Content-Disposition and Cache-Control, not the
 * validators; docs/operations.md has the lines that keep them). A client whose copy is current
 * still gets its 304 here. Resolves with what the proxy will send, as far as the request says
 * (for counting), since the bytes never pass through here.
 */
export function handOff(req: IncomingMessage, res: ServerResponse, object: Omit<ServedObject, 'open'>, header: [string, string]): Served {
  const headers = objectHeaders(object);
  if (notModified(req, object)) {
    res.writeHead(304, headers).end();
    return { status: 304, ranges: null };
  }
  headers['Content-Type'] = object.contentType;
  if (object.contentDisposition !== undefined) headers['Content-Disposition'] = object.contentDisposition;
  headers[header[0]] = header[1];
  // Empty, so a proxy that ignores the header sends a visibly empty file rather than waiting for bytes.
  headers['Content-Length'] = 0;
  res.writeHead(200, headers).end();
  const ranges = requestedRanges(req, object);
  if (ranges === 'unsatisfiable' || ranges === 'too long') return { status: 416, ranges: null };
  return ranges === null ? { status: 200, ranges: null } : { status: 206, ranges };
}

/** The whole object (200) or one range of it (206). */
async function sendSingle(
  res: ServerResponse,
  object: ServedObject,
  headers: OutgoingHttpHeaders,
  range: ByteRange | undefined,
  withBody: boolean,
): Promise<Served> {
  const status = range ? 206 : 200;
  const bytes = range ?? { start: 0, end: object.size - 1 };
  headers['Content-Type'] = object.contentType;
  headers['Content-Length'] = lengthOf(bytes);
  if (range) headers['Content-Range'] = contentRange(range, object.size);
  if (!withBody || object.size === 0) {
    res.writeHead(status, headers).end();
    return { status, ranges: null };
  }
  const source = await object.open(bytes);
  res.writeHead(status, headers);
  await afterHeaders(res, async () => {
    if (!isLocalFile(source)) return pipeInto(res, source);
    if (await copyFile(res, source, [bytes])) res.end();
  });
  return { status, ranges: range ? [range] : null };
}

/**
 * Several ranges as `multipart/byteranges` (RFC 9110 §14.6), in request order: from one open
 * local file, or one stream (store read) per part.
 */
async function sendMultipart(
  res: ServerResponse,
  object: ServedObject,
  headers: OutgoingHttpHeaders,
  ranges: ByteRange[],
  withBody: boolean,
): Promise<Served> {
  // Random, so it cannot occur in the bytes it separates.
  const boundary = randomBytes(16).toString('hex');
  const partHeads = ranges.map(
    (range, i) =>
      `${i === 0 ? '' : '\r\n'}--${boundary}\r\nContent-Type: ${object.contentType}\r\nContent-Range: ${contentRange(range, object.size)}\r\n\r\n`,
  );
  const tail = `\r\n--${boundary}--\r\n`;
  headers['Content-Type'] = `multipart/byteranges; boundary=${boundary}`;
  // Exact up front: clients and proxies see a complete transfer, and a short one as broken.
  headers['Content-Length'] = ranges.reduce(
    (sum, range, i) => sum + Buffer.byteLength(partHeads[i]) + lengthOf(range),
    Buffer.byteLength(tail),
  );
  if (!withBody) {
    res.writeHead(206, headers).end();
    return { status: 206, ranges: null };
  }
  const first = await object.open(ranges[0]);
  res.writeHead(206, headers);
  await afterHeaders(res, async () => {
    if (isLocalFile(first)) {
      if (await copyFile(res, first, ranges, partHeads)) res.end(tail);
      return;
    }
    for (const [i, range] of ranges.entries()) {
      const source = i === 0 ? first : await object.open(range);
      if (isLocalFile(source)) throw new Error('open gave a stream, then a local file');
      res.write(partHeads[i]);
      if (!(await copyPart(res, source))) return;
    }
    res.end(tail);
  });
  return { status: 206, ranges };
}

/** Once the headers are out an error cannot be answered: cutting the connection marks the body incomplete. */
async function afterHeaders(res: ServerResponse, send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch (error) {
    res.destroy();
    throw error;
  }
}

/**
 * Pipes `source` into the response with backpressure and ends it. Resolves false when the
 * client has left (the source is destroyed, there is nothing more to send); rejects when the
 * source fails.
 */
async function pipeInto(res: ServerResponse, source: Readable): Promise<boolean> {
  if (res.destroyed) {
    source.destroy();
    return false;
  }
  let clientLeft = false;
  // Registered before pipeline's own listeners, so the source is still intact here only if the
  // client closed first (a failing source is destroyed before pipeline closes the response).
  const onClose = () => void (clientLeft = !source.destroyed);
  res.once('close', onClose);
  try {
    await pipeline(source, res);
    return true;
  } catch (error) {
    if (clientLeft) return false;
    throw error;
  } finally {
    res.off('close', onClose);
  }
}

/**
 * Copies one multipart part, leaving the response open for the next. A plain loop rather than
 * `pipeline(…, { end: false })`, which leaves its listeners on the response after every part.
 * Resolves false when the client has left; rejects when the source fails.
 */
async function copyPart(res: ServerResponse, source: Readable): Promise<boolean> {
  let clientLeft = res.destroyed;
  const onClose = () => {
    clientLeft = true;
    source.destroy();
  };
  res.once('close', onClose);
  try {
    for await (const chunk of source) {
      if (clientLeft) break;
      if (!res.write(chunk)) await drainOrClose(res);
    }
  } catch (error) {
    if (!clientLeft) throw error;
  } finally {
    res.off('close', onClose);
  }
  if (clientLeft) source.destroy();
  return !clientLeft;
}

/** Resolves on 'drain', or on 'close', or at once when the response is closed already (a write after its close returns false). */
const drainOrClose = (res: ServerResponse) =>
  new Promise<void>((resolve) => {
    if (res.destroyed) return resolve();
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });

/** Read size for local files, and how many buffers one response cycles through at most. */
const FILE_CHUNK = 1024 * 1024;
const FILE_BUFFERS = 4;
/** Buffers no response is using, kept for the next ones (at most 64 MiB). */
const spareBuffers: Buffer[] = [];
const SPARE_BUFFERS_KEPT = 64;
const giveBack = (buffer: Buffer) => void (spareBuffers.length < SPARE_BUFFERS_KEPT && spareBuffers.push(buffer));

/**
 * Copies `ranges` of a local file into the response, each after its part head when given,
 * through a few 1 MiB buffers, reused once the socket has taken them and shared between
 * responses. A read stream allocates a new buffer per chunk, and on a heap the size of this
 * service's, the garbage collection such churn triggers halves a 1 GiB download's throughput.
 * A part head goes out with its part's first bytes, in one write to the socket. Calls
 * `file.done()` at the end; false when the client left.
 */
async function copyFile(res: ServerResponse, file: LocalFile, ranges: ByteRange[], heads?: string[]): Promise<boolean> {
  const free: Buffer[] = [];
  let owned = 0;
  let finished = false;
  let wake: (() => void) | undefined;
  // One write callback per buffer, not per write.
  const releases = new Map<Buffer, () => void>();
  const releaseOf = (buffer: Buffer) => {
    let release = releases.get(buffer);
    if (!release) {
      release = () => {
        if (finished) giveBack(buffer);
        else free.push(buffer);
        wake?.();
      };
      releases.set(buffer, release);
    }
    return release;
  };
  const onClose = () => wake?.();
  res.on('close', onClose);
  try {
    for (let i = 0; i < ranges.length; i++) {
      const { start, end } = ranges[i];
      for (let position = start; position <= end;) {
        if (free.length === 0 && owned < FILE_BUFFERS) {
          free.push(spareBuffers.pop() ?? Buffer.allocUnsafeSlow(FILE_CHUNK));
          owned++;
        }
        while (free.length === 0 && !res.destroyed) await new Promise<void>((resolve) => (wake = resolve));
        if (res.destroyed) return false;
        const buffer = free.pop()!;
        const { bytesRead } = await file.handle.read(buffer, 0, Math.min(buffer.length, end - position + 1), position);
        if (bytesRead === 0) throw new Error('the file is shorter than its recorded size');
        // The client may have left during the read.
        if (res.destroyed) return false;
        if (heads && position === start) res.write(heads[i]);
        position += bytesRead;
        if (!res.write(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead), releaseOf(buffer))) await drainOrClose(res);
      }
    }
    return !res.destroyed;
  } finally {
    finished = true;
    free.forEach(giveBack);
    res.off('close', onClose);
    await file.done();
  }
}

/**
 * Parses a Range header against `size` (RFC 9110 §14.1.2): null = ignore the header (absent, not
 * bytes=, malformed) → serve 200; 'unsatisfiable' → 416; 'too long' (over
 * MAX_RANGE_HEADER_BYTES) → 416; else the ranges, in request order, with overlapping and
 * adjacent ones coalesced. Hand-written on purpose, rather than `range-parser` 1.3.0 (Express's,
 * already installed), which breaks RFC 9110 in cases the tests cover: it answers a suffix
 * longer than the object (`bytes=-500` of 100 bytes) as unsatisfiable instead of the whole
 * object, turns an invalid spec (`5-2`) into an unsatisfiable range instead of ignoring the
 * header, refuses empty list elements and accepts spaces inside a spec (`1 - 2`). Speed does not
 * decide it either way (`npm run bench:ranges-parse`; docs/performance.md, "Range header parsing").
 */
export function parseRange(header: string | undefined, size: number): ByteRange[] | 'unsatisfiable' | 'too long' | null {
  if (header === undefined) return null;
  if (header.length > MAX_RANGE_HEADER_BYTES) return 'too long';
  const match = /^\s*bytes\s*=(.*)$/i.exec(header);
  if (!match) return null;
  const ranges: ByteRange[] = [];
  let listed = 0;
  // Empty list elements are allowed (RFC 9110 §5.6.1).
  for (const element of match[1].split(',')) {
    const spec = element.trim();
    if (spec === '') continue;
    listed++;
    const parts = SPEC.exec(spec);
    if (!parts || (parts[1] === '' && parts[2] === '')) return null;
    const [, first, last] = parts;
    if (first === '') {
      // The last N bytes; none for N = 0 or an empty object.
      const length = Number(last);
      if (length > 0 && size > 0) ranges.push({ start: Math.max(0, size - length), end: size - 1 });
      continue;
    }
    const start = Number(first);
    const end = last === '' ? Infinity : Number(last);
    // One invalid range spec (e.g. 5-2) makes the whole header invalid, hence ignored (§14.1.1).
    if (end < start) return null;
    if (start < size) ranges.push({ start, end: Math.min(end, size - 1) });
  }
  if (listed === 0) return null;
  return ranges.length === 0 ? 'unsatisfiable' : coalesce(ranges);
}

const SPEC = /^(\d*)-(\d*)$/;

/**
 * Merges overlapping or adjacent ranges (RFC 9110 §14.6 allows it); a merged range takes the
 * place of its earliest member. Ranges already in ascending order without overlaps (what
 * electron-updater sends) come back as they are, without sorting.
 */
function coalesce(ranges: ByteRange[]): ByteRange[] {
  let ascending = true;
  for (let i = 1; i < ranges.length && ascending; i++) ascending = ranges[i].start > ranges[i - 1].end + 1;
  if (ascending) return ranges;
  const byStart = ranges.map((range, order) => ({ ...range, order })).sort((a, b) => a.start - b.start);
  const merged: typeof byStart = [];
  for (const range of byStart) {
    const previous = merged.at(-1);
    if (previous && range.start <= previous.end + 1) {
      previous.end = Math.max(previous.end, range.end);
      previous.order = Math.min(previous.order, range.order);
    } else {
      merged.push(range);
    }
  }
  return merged.sort((a, b) => a.order - b.order).map(({ start, end }) => ({ start, end }));
}

/**
 * Whether the client's copy is current, so the answer is 304: If-None-Match (weak comparison,
 * `*`), else If-Modified-Since at the second precision of HTTP dates, as `fresh` (Express's)
 * decides it. Only those two headers are given to it: `fresh` also calls every request with
 * `Cache-Control: no-cache` stale, and fetch (browsers, Node) adds that header to any request
 * that carries a conditional header of its caller's, so no fetch client would ever get a 304.
 * The directive asks caches to validate with the origin (RFC 9111 §5.2.1.4), which this is.
 */
export function notModified(req: IncomingMessage, object: Pick<ServedObject, 'etag' | 'lastModified'>): boolean {
  const conditions = { 'if-none-match': req.headers['if-none-match'], 'if-modified-since': req.headers['if-modified-since'] };
  // Most requests carry neither: spare them formatting a date for `fresh`.
  if (conditions['if-none-match'] === undefined && conditions['if-modified-since'] === undefined) return false;
  return fresh(conditions, { etag: `"${object.etag}"`, 'last-modified': object.lastModified.toUTCString() });
}

/**
 * If-Range keeps the Range only while the client's partial copy is of this very object: a strong
 * ETag match (a weak tag never matches) or exactly our Last-Modified (RFC 9110 §13.1.5).
 */
function rangeStillValid(req: IncomingMessage, object: Pick<ServedObject, 'etag' | 'lastModified'>): boolean {
  const header = req.headers['if-range'];
  if (header === undefined) return true;
  // Typed loosely by @types/node; Node itself joins repeated fields, which then match nothing.
  const ifRange = String(header).trim();
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return ifRange === `"${object.etag}"`;
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && seconds(date) === seconds(object.lastModified.getTime());
}

const seconds = (milliseconds: number) => Math.floor(milliseconds / 1000);
const lengthOf = (range: ByteRange) => range.end - range.start + 1;
const contentRange = (range: ByteRange, size: number) => `bytes ${range.start}-${range.end}/${size}`;
