import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Request } from 'express';
import { stringify as stringifyYaml } from 'yaml';
import type { Blobs } from '../src/blobs';
import type { DownloadOffload } from '../src/config';
import type { Readable } from 'node:stream';
import { BlobNotFoundError, BlobStore, ByteRange } from '../src/blobs/blob-store';
import { varyByOrigin } from '../src/context';
import { invalid, notFound } from '../src/errors';
import { receiveToTemp } from '../src/blobs/receive';
import { unstorable } from '../src/validation';
import { handOff, LocalFile, notModified, serveObject } from '../src/http/byte-ranges';
import * as Op from './generated/operations';
import { readMultipart } from './multipart';
import { stream } from './route';

/**
 * A path segment of a public byte route, as given: the lookup only matches well-formed
 * names, so anything else (traversal, NUL) is simply not found.
 */
const segment = (req: Request, name: string) => req.params[name] as string;

/** A path parameter the domain takes; text the database cannot store is a 422 at its wire location. */
export function param(req: Request, name: string): string {
  const value = req.params[name] as string;
  const problem = unstorable(value);
  if (problem) throw invalid([{ path: ['path', name], msg: problem, type: 'string_invalid' }]);
  return value;
}

/** Bytes of any kind, as a JSON Schema (OpenAPI 3.1). */
const BINARY = { type: 'string', contentMediaType: 'application/octet-stream' };
const NULLABLE_STRING = { anyOf: [{ type: 'string' }, { type: 'null' }] };
/** Answers of `serveObject` besides 200. */
const BYTE_RANGE_ANSWERS = { 206: 'Partial content (Range)', 304: 'Not modified (If-None-Match, If-Modified-Since)' };

/** `GET /admin/api/public/models`: the catalog body exactly as stored, so its manifest's sha256 holds. */
export const modelCatalogRoute = stream({
  method: 'GET',
  path: '/admin/api/public/models',
  auth: 'none',
  tag: 'releases',
  summary: 'Public model catalog',
  produces: 'application/json',
  response: { type: 'object', description: 'The catalog exactly as stored (its manifest’s sha256 is of these bytes)' },
  alsoAnswers: { 304: 'Not modified (If-None-Match, If-Modified-Since)' },
  // Public: the `modelCatalogFile` operation (the catalog as the `modelCatalog` query reads it).
  authorize: async (_req, _ctx, { run }) => (await run(Op.ModelCatalogFileDocument, {})).modelCatalogFile,
  async handle(req, res, _ctx, { body, sha256, updatedAt }) {
    res.setHeader('ETag', `"${sha256}"`);
    res.setHeader('Cache-Control', 'public, max-age=60');
    if (notModified(req, { etag: sha256, lastModified: new Date(updatedAt) })) return void res.status(304).end();
    res.status(200).type('application/json').send(body);
  },
});

/** `PUT /admin/api/release/{product}/files/{version}/{filename}`: one release binary, streamed in. */
export const releaseFileUploadRoute = stream({
  method: 'PUT',
  path: '/admin/api/release/{product}/files/{version}/{filename}',
  auth: 'release',
  tag: 'releases',
  summary: 'Upload a release binary (release token)',
  produces: 'application/json',
  consumes: 'application/octet-stream',
  status: 201,
  requestBody: BINARY,
  response: {
    type: 'object',
    required: ['product', 'version', 'filename', 'size', 'sha256'],
    properties: {
      product: { type: 'string' },
      version: { type: 'string' },
      filename: { type: 'string' },
      size: { type: 'integer' },
      sha256: { type: 'string' },
    },
  },
  // The `releaseUploadTarget` operation (the release token, as `releasePublish` asks for it): where the file goes.
  async authorize(req, _ctx, { run }) {
    const where = { product: param(req, 'product'), version: param(req, 'version'), filename: param(req, 'filename') };
    return { where, maxBytes: (await run(Op.ReleaseUploadTargetDocument, where)).releaseUploadTarget.maxBytes };
  },
  async handle(req, res, ctx, { where, maxBytes }, { run }) {
    const file = await receiveToTemp(req, ctx.services.blobs.tmpDir, maxBytes);
    try {
      ctx.received = new Map([['file', file]]);
      const { releaseUpload } = await run(Op.ReleaseUploadDocument, { ...where, upload: 'file' });
      res.status(201).json(releaseUpload);
    } finally {
      await fs.promises.rm(file.path, { force: true }); // consumed by the store unless the upload failed
    }
  },
});

type ReleaseDownload = Op.ReleaseDownloadQuery['releaseDownload'];

/** A missing local file of a stored object is the store's not-found. */
const missingBlob = (key: string) => (error: unknown) => {
  throw (error as NodeJS.ErrnoException).code === 'ENOENT' ? new BlobNotFoundError(key) : error;
};

/**
 * A release file's bytes as a local file: the store's own when it keeps files on this machine,
 * else the on-disk cache's copy (filled once). The handle is shared with other downloads of the
 * file (its bytes never change once published): no open and close per request.
 */
async function openReleaseFile(blobs: Blobs, file: ReleaseDownload): Promise<LocalFile> {
  const store = blobs.store!;
  const { key } = file;
  const shared = async (filePath: string): Promise<LocalFile> => {
    const { handle, release } = await blobs.releaseFiles.open(filePath);
    return { handle, done: release };
  };
  const localPath = store.localPath?.(key);
  if (localPath !== undefined) return shared(localPath).catch(missingBlob(key));
  const cache = blobs.releaseCache!;
  const fill = async (tmpPath: string) => pipeline(await store.read(key), fs.createWriteStream(tmpPath));
  // Eviction may unlink the cached copy between lookup and open: look it up again once.
  for (let attempt = 0; ; attempt++) {
    try {
      return await shared(await cache.path(key, file.size, fill));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > 0) throw error;
    }
  }
}

/**
 * The header that hands the stored file of `key` to the proxy in front (`DOWNLOAD_OFFLOAD`), for
 * a store that keeps it as a local file. None for a remote store: its release files are served
 * from this instance's own cache, which the proxy knows nothing of.
 */
function offloadHeader(store: BlobStore, key: string, offload: DownloadOffload): [string, string] | undefined {
  const localPath = store.localPath?.(key);
  if (localPath === undefined) return undefined;
  // Keys are segments of [A-Za-z0-9._-] (checkKey), so they go into a URI as they are.
  return offload.header === 'X-Accel-Redirect' ? [offload.header, `${offload.prefix}${key}`] : [offload.header, path.resolve(localPath)];
}

const MEDIA_TYPES: Record<string, string> = {
  dmg: 'application/x-apple-diskimage',
  exe: 'application/vnd.microsoft.portable-executable',
  msi: 'application/x-msi',
  zip: 'application/zip',
  gz: 'application/gzip',
  tgz: 'application/gzip',
  deb: 'application/vnd.debian.binary-package',
  rpm: 'application/x-rpm',
  appimage: 'application/vnd.appimage',
  yml: 'text/yaml',
  json: 'application/json',
};
const mediaTypeOf = (filename: string) => MEDIA_TYPES[filename.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream';

/**
 * `GET`/`HEAD /admin/api/public/app/{product}/download/{version}/{filename}`: a published file,
 * streamed, with byte ranges (single, suffix, multiple), validators and conditional requests.
 * A download counts when it starts at the first byte (resumed or sliced fetches do not).
 */
export const releaseDownloadRoute = stream({
  method: 'GET',
  path: '/admin/api/public/app/{product}/download/{version}/{filename}',
  auth: 'none',
  tag: 'releases',
  summary: 'Download a release binary (byte ranges supported)',
  produces: 'application/octet-stream',
  response: BINARY,
  alsoAnswers: BYTE_RANGE_ANSWERS,
  errors: { RANGE_NOT_SATISFIABLE: null },
  // Public once published: the `releaseDownload` operation (a file of the manifest `releaseManifest` reads).
  async authorize(req, _ctx, { run }) {
    const where = { product: segment(req, 'product'), version: segment(req, 'version'), filename: segment(req, 'filename') };
    return (await run(Op.ReleaseDownloadDocument, where)).releaseDownload;
  },
  async handle(req, res, ctx, file, { run }) {
    const { blobs, config } = ctx.services;
    const object = {
      size: file.size,
      etag: file.sha256,
      lastModified: new Date(file.createdAt),
      contentType: mediaTypeOf(file.filename),
      contentDisposition: `attachment; filename="${file.filename}"`,
      // A published version's files never change.
      cacheControl: 'public, max-age=31536000, immutable',
    };
    const offload = config.downloadOffload && offloadHeader(blobs.store!, file.key, config.downloadOffload);
    const served = offload
      ? handOff(req, res, object, offload)
      : await serveObject(req, res, { ...object, open: () => openReleaseFile(blobs, file) });
    const fromStart = served.status === 200 || (served.status === 206 && served.ranges?.[0]?.start === 0);
    if (req.method === 'GET' && fromStart) {
      // After the bytes (or the hand-off), so a count is a download served; tracked, so shutdown waits for it.
      const { product, version, filename } = file;
      const counting = run(Op.ReleaseDownloadCountDocument, { product, version, filename })
        .then(() => undefined)
        .finally(() => ctx.services.background.delete(counting));
      ctx.services.background.add(counting);
      await counting;
    }
  },
});

const WINDOWS = ['win32', 'win', 'windows'];
const MAC = ['darwin', 'mac', 'macos'];
/** Architectures as Node, electron-builder and Linux packages spell them, to electron-builder's names. */
const ARCHES = new Map<string, string>([
  ...['x64', 'amd64', 'x86_64'].map((name) => [name, 'x64'] as const),
  ...['ia32', 'i386', 'i686', 'x86'].map((name) => [name, 'ia32'] as const),
  ...['armv7l', 'arm', 'armhf'].map((name) => [name, 'armv7l'] as const),
  ...['arm64', 'aarch64'].map((name) => [name, 'arm64'] as const),
]);
const archOf = (name: string) => ARCHES.get(name.toLowerCase()) ?? name.toLowerCase();

/** What one feed lists: files of these platforms and, for Linux, of one architecture. */
interface Feed {
  platforms: string[];
  arch?: string;
}

/**
 * electron-updater's feed files: `latest.yml` (Windows), `latest-mac.yml`, and per Linux
 * architecture `latest-linux.yml` (x64) or `latest-linux-<arch>.yml` (electron-updater asks
 * with Node's `process.arch`, e.g. `arm64`, `arm`; electron-builder publishes `armv7l`).
 */
function feedOf(name: string): Feed | null {
  if (name === 'latest.yml') return { platforms: WINDOWS };
  if (name === 'latest-mac.yml') return { platforms: MAC };
  const linux = /^latest-linux(?:-([A-Za-z0-9_]{1,20}))?\.yml$/.exec(name);
  return linux ? { platforms: ['linux'], arch: archOf(linux[1] ?? 'x64') } : null;
}

/**
 * Whether a manifest file belongs in `feed`. Blockmaps never do (electron-updater fetches them
 * beside their file, and electron-builder never lists them). A file without a platform goes in
 * every feed; in a Linux feed, a Linux file without an arch counts as x64 (electron-builder's
 * default), a file without a platform as any architecture.
 */
type FeedFile = NonNullable<Op.ReleaseFeedQuery['releaseFeed']>['files'][number];

function inFeed(file: FeedFile, feed: Feed): boolean {
  if (file.filename.toLowerCase().endsWith('.blockmap')) return false;
  if (!file.platform) return feed.arch === undefined || !file.arch || archOf(file.arch) === feed.arch;
  if (!feed.platforms.includes(file.platform.toLowerCase())) return false;
  return feed.arch === undefined || archOf(file.arch ?? 'x64') === feed.arch;
}
/**
 * How feeds are written: every string single-quoted, as electron-builder writes its own feeds
 * (so a version, digest or date is never read back as a number or a timestamp by
 * electron-updater's YAML 1.1 parser), and no line folded.
 */
const FEED_YAML = { defaultStringType: 'QUOTE_SINGLE', defaultKeyType: 'PLAIN', lineWidth: 0 } as const;

/**
 * `GET /admin/api/public/app/desktop/update/{feed}`: electron-updater's generic-provider feed
 * for the current desktop release, so an electron app can update from this service directly.
 * Files of the feed's platform come first (in manifest order), so `path` and `sha512` name
 * one of them rather than a file without a platform.
 */
export const desktopUpdateFeedRoute = stream({
  method: 'GET',
  path: '/admin/api/public/app/{product}/update/{feed}',
  auth: 'none',
  tag: 'releases',
  summary: 'electron-updater feed (latest.yml, latest-mac.yml, latest-linux.yml, latest-linux-<arch>.yml) of the desktop release',
  produces: 'text/yaml',
  response: { type: 'string' },
  // Public: the `releaseFeed` operation (the current desktop manifest, as the `releaseManifest` query reads it).
  async authorize(req, _ctx, { run }) {
    const feed = feedOf(segment(req, 'feed'));
    if (segment(req, 'product') !== 'desktop' || !feed) throw notFound('update feed');
    return { feed, release: (await run(Op.ReleaseFeedDocument, { product: 'desktop' })).releaseFeed };
  },
  async handle(_req, res, ctx, { feed, release }) {
    const files = (release?.files ?? []).filter((f) => inFeed(f, feed)).sort((a, b) => Number(!a.platform) - Number(!b.platform));
    if (!release || files.length === 0) throw notFound('update feed');
    const entries = files.map((f) => ({ url: f.url, sha512: f.sha512, size: f.size }));
    const feedText = stringifyYaml(
      { version: release.version, files: entries, path: entries[0].url, sha512: entries[0].sha512, releaseDate: release.releaseDate },
      FEED_YAML,
    );
    res.setHeader('Cache-Control', 'no-cache');
    varyByOrigin(res, ctx.services.config);
    res.status(200).type('text/yaml').send(feedText);
  },
});

const BOOLEAN_FIELD = new Map([
  ['true', true],
  ['1', true],
  ['false', false],
  ['0', false],
]);

/**
 * `POST /api/trajectories/{session_id}/figures/upload`: multipart `file` (and optional
 * `original`), streamed to disk and hashed, then kept in the private drive. Who may upload and
 * whether there is a drive are settled before a byte of the body is read.
 */
export const figureUploadRoute = stream({
  method: 'POST',
  path: '/api/trajectories/{session_id}/figures/upload',
  auth: 'user',
  tag: 'trajectories',
  summary: 'Upload a figure to the private drive (owner)',
  produces: 'application/json',
  consumes: 'multipart/form-data',
  requestBody: {
    type: 'object',
    required: ['file', 'canonical_path'],
    properties: {
      file: { ...BINARY, description: 'The figure as shown' },
      original: { ...BINARY, description: 'The original, when `file` is a compressed copy' },
      canonical_path: { type: 'string', description: 'The path records use for the figure' },
      mime: { type: 'string' },
      compressed: { type: 'string', enum: [...BOOLEAN_FIELD.keys()] },
    },
  },
  response: {
    type: 'object',
    description: 'The figure map row',
    required: ['canonical_path', 'cdn_url', 'storage_uri', 'original_uri', 'compressed', 'mime', 'bytes'],
    properties: {
      canonical_path: { type: 'string' },
      cdn_url: NULLABLE_STRING,
      storage_uri: NULLABLE_STRING,
      original_uri: NULLABLE_STRING,
      compressed: { anyOf: [{ type: 'boolean' }, { type: 'null' }] },
      mime: NULLABLE_STRING,
      bytes: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
    },
  },
  // The `trajectoryFigureUploadTarget` operation: the session's owner (`loadTrajectory` for writing, as the
  // trajectory mutations), and a drive, before a byte is read.
  async authorize(req, _ctx, { run }) {
    const sessionId = param(req, 'session_id');
    return (await run(Op.TrajectoryFigureUploadTargetDocument, { sessionId })).trajectoryFigureUploadTarget;
  },
  async handle(req, res, ctx, { sessionId, maxBytes }, { run }) {
    const form = await readMultipart(req, {
      files: ['file', 'original'],
      fields: ['canonical_path', 'mime', 'compressed'],
      tmpDir: ctx.services.blobs.tmpDir,
      maxFileBytes: maxBytes,
    });
    try {
      const file = form.files.get('file');
      const compressed = form.fields.get('compressed');
      if (!file) throw invalid([{ path: ['body', 'file'], msg: 'is required', type: 'missing' }]);
      if (compressed !== undefined && !BOOLEAN_FIELD.has(compressed))
        throw invalid([{ path: ['body', 'compressed'], msg: 'must be true or false', type: 'bool_parsing' }]);
      ctx.received = form.files;
      const input = {
        file: 'file',
        original: form.files.has('original') ? 'original' : null,
        canonicalPath: form.fields.get('canonical_path') ?? null,
        mime: form.fields.get('mime') ?? null,
        compressed: compressed === undefined ? null : BOOLEAN_FIELD.get(compressed)!,
      };
      res.status(200).json((await run(Op.TrajectoryFigureUploadDocument, { sessionId, input })).trajectoryFigureUpload);
    } finally {
      await form.discard();
    }
  },
});

const FIGURE_PATH_MAX = 1024;

/** `GET /api/trajectories/{session_id}/figures/raw?path=`: 302 to a fresh 5-minute URL of the figure. */
export const figureRawRoute = stream({
  method: 'GET',
  path: '/api/trajectories/{session_id}/figures/raw',
  auth: 'user',
  tag: 'trajectories',
  summary: 'Redirect to a short-lived URL of a figure (original, else compressed)',
  produces: 'application/json',
  status: 302,
  query: [
    {
      name: 'path',
      required: true,
      description: 'canonical_path of the figure',
      schema: { type: 'string', minLength: 1, maxLength: FIGURE_PATH_MAX },
    },
  ],
  // The `trajectoryFigureUrl` operation: a viewer of the session (`loadTrajectory` for viewing, as the
  // trajectory queries), and where its figure is.
  async authorize(req, _ctx, { run }) {
    const figurePath = req.query.path;
    if (typeof figurePath !== 'string' || figurePath.length === 0 || figurePath.length > FIGURE_PATH_MAX || figurePath.includes('\u0000')) {
      throw invalid([{ path: ['query', 'path'], msg: `must be given once, 1-${FIGURE_PATH_MAX} characters`, type: 'missing' }]);
    }
    return (await run(Op.TrajectoryFigureUrlDocument, { sessionId: param(req, 'session_id'), path: figurePath })).trajectoryFigureUrl;
  },
  async handle(_req, res, _ctx, location) {
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, location);
  },
});

/**
 * `GET /blobs/sha256/{sha256}`: the `file` store's signed URLs. The signature covers key, expiry
 * and media type; user content is never rendered as a page of this origin (CSP sandbox, and only
 * raster images inline).
 */
export const signedBlobRoute = stream({
  method: 'GET',
  path: '/blobs/sha256/{sha256}',
  auth: 'none',
  tag: 'trajectories',
  summary: 'A private blob through a signed, short-lived URL',
  produces: 'application/octet-stream',
  response: BINARY,
  query: ['expires', 'type', 'signature'].map((name) => ({
    name,
    required: true,
    description: 'Part of the signed URL',
    schema: { type: 'string' },
  })),
  alsoAnswers: BYTE_RANGE_ANSWERS,
  errors: { FORBIDDEN: null, RANGE_NOT_SATISFIABLE: null },
  // The `signedBlob` operation: the signature, issued by `figureLocation` (and the cloud record
  // rewrite) to a viewer of the session, for 5 minutes.
  async authorize(req, _ctx, { run }) {
    const given = (name: string) => (typeof req.query[name] === 'string' ? req.query[name] : null);
    const parts = { expires: given('expires'), type: given('type'), signature: given('signature') };
    return (await run(Op.SignedBlobDocument, { sha256: segment(req, 'sha256'), ...parts })).signedBlob;
  },
  async handle(req, res, ctx, blob) {
    const store = ctx.services.blobs.store!;
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    await serveObject(req, res, {
      size: blob.size,
      etag: blob.sha256,
      lastModified: new Date(blob.lastModified),
      contentType: blob.contentType,
      contentDisposition: blob.disposition,
      cacheControl: 'private, max-age=300',
      open: (range) => openStored(store, blob.key, range),
    });
  },
});

/** An object's bytes: its local file when the store keeps one (every range read from it), else a store read of `range`. */
async function openStored(store: BlobStore, key: string, range: ByteRange): Promise<LocalFile | Readable> {
  const localPath = store.localPath?.(key);
  if (localPath === undefined) return store.read(key, range);
  const handle = await fs.promises.open(localPath, 'r').catch(missingBlob(key));
  return { handle, done: () => handle.close() };
}
