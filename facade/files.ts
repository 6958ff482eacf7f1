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
import { requireViewer } from '../src/modules/auth/viewer';
import { AppError, invalid, notFound } from '../src/errors';
import { requireReleaseToken } from '../src/modules/releases/release.policy';
import { unstorable } from '../src/validation';
import { currentCatalog } from '../src/modules/catalog/catalog.service';
import {
  checkUploadFields,
  figureLocation,
  INLINE_TYPES,
  storeFigureUpload,
  toSpecRow,
  uploadTarget,
} from '../src/modules/figures/figure.service';
import {
  countDownload,
  currentManifest,
  downloadUrl,
  ManifestFile,
  publishedFile,
  releaseFileKey,
  ReleaseBinary,
  releaseFilesOf,
  uploadReleaseFile,
} from '../src/modules/releases/release.service';
import { handOff, LocalFile, notModified, serveObject } from '../src/http/byte-ranges';
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
  // Public: the catalog as the `modelCatalog` query reads it.
  authorize: (_req, ctx) => currentCatalog(ctx.em),
  async handle(req, res, _ctx, { body, sha256, updatedAt }) {
    res.setHeader('ETag', `"${sha256}"`);
    res.setHeader('Cache-Control', 'public, max-age=60');
    if (notModified(req, { etag: sha256, lastModified: updatedAt })) return void res.status(304).end();
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
  // The release token, as `releasePublish` asks for it; then where the file goes.
  async authorize(req, ctx) {
    requireReleaseToken(ctx);
    return { product: param(req, 'product'), version: param(req, 'version'), filename: param(req, 'filename') };
  },
  async handle(req, res, ctx, where) {
    const file = await uploadReleaseFile(ctx.em, ctx.services.blobs, where, req, ctx.services.config.maxReleaseFileBytes);
    res.status(201).json({ product: file.product, version: file.version, filename: file.filename, size: file.size, sha256: file.sha256 });
  },
});

/** A missing local file of a stored object is the store's not-found. */
const missingBlob = (key: string) => (error: unknown) => {
  throw (error as NodeJS.ErrnoException).code === 'ENOENT' ? new BlobNotFoundError(key) : error;
};

/**
 * A release file's bytes as a local file: the store's own when it keeps files on this machine,
 * else the on-disk cache's copy (filled once). The handle is shared with other downloads of the
 * file (its bytes never change once published): no open and close per request.
 */
async function openReleaseFile(blobs: Blobs, file: ReleaseBinary): Promise<LocalFile> {
  const store = blobs.store!;
  const key = releaseFileKey(file);
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
  // Public once published: the file of a published version (the manifest `releaseManifest` reads).
  async authorize(req, ctx) {
    const file = await publishedFile(ctx.em, segment(req, 'product'), segment(req, 'version'), segment(req, 'filename'));
    if (!file || !ctx.services.blobs.store) throw notFound('release file');
    return file;
  },
  async handle(req, res, ctx, file) {
    const { blobs, config } = ctx.services;
    const object = {
      size: file.size,
      etag: file.sha256,
      lastModified: file.createdAt,
      contentType: mediaTypeOf(file.filename),
      contentDisposition: `attachment; filename="${file.filename}"`,
      // A published version's files never change.
      cacheControl: 'public, max-age=31536000, immutable',
    };
    const offload = config.downloadOffload && offloadHeader(blobs.store!, releaseFileKey(file), config.downloadOffload);
    const served = offload
      ? handOff(req, res, object, offload)
      : await serveObject(req, res, { ...object, open: () => openReleaseFile(blobs, file) });
    const fromStart = served.status === 200 || (served.status === 206 && served.ranges?.[0]?.start === 0);
    if (req.method === 'GET' && fromStart) {
      // After the bytes (or the hand-off), so a count is a download served; tracked, so shutdown waits for it.
      const counting = countDownload(ctx.em, file).finally(() => ctx.services.background.delete(counting));
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
function inFeed(file: ManifestFile, feed: Feed): boolean {
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
  // Public: the current desktop manifest, as the `releaseManifest` query reads it.
  async authorize(req, ctx) {
    const feed = feedOf(segment(req, 'feed'));
    if (segment(req, 'product') !== 'desktop' || !feed) throw notFound('update feed');
    return { feed, manifest: await currentManifest(ctx.em, 'desktop') };
  },
  async handle(_req, res, ctx, { feed, manifest }) {
    const files = (manifest?.files ?? []).filter((f) => inFeed(f, feed)).sort((a, b) => Number(!a.platform) - Number(!b.platform));
    if (!manifest || files.length === 0) throw notFound('update feed');
    const digests = new Map((await releaseFilesOf(ctx.em, 'desktop', manifest.version)).map((f) => [f.filename, f.sha512]));
    const entries = files.map((f) => ({
      url: downloadUrl(ctx.baseUrl, 'desktop', manifest.version, f.filename),
      sha512: digests.get(f.filename) ?? '',
      size: f.size,
    }));
    const feedText = stringifyYaml(
      { version: manifest.version, files: entries, path: entries[0].url, sha512: entries[0].sha512, releaseDate: manifest.pubDate },
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
  // The session's owner (`loadTrajectory` for writing, as the trajectory mutations), and a drive, before a byte is read.
  async authorize(req, ctx) {
    const viewer = await requireViewer(ctx);
    const sessionId = param(req, 'session_id');
    await uploadTarget(ctx.em, viewer, ctx.services.blobs, sessionId);
    return { viewer, sessionId };
  },
  async handle(req, res, ctx, { viewer, sessionId }) {
    const { blobs, config } = ctx.services;
    const form = await readMultipart(req, {
      files: ['file', 'original'],
      fields: ['canonical_path', 'mime', 'compressed'],
      tmpDir: blobs.tmpDir,
      maxFileBytes: config.maxFigureBytes,
    });
    try {
      const file = form.files.get('file');
      const compressed = form.fields.get('compressed');
      if (!file) throw invalid([{ path: ['body', 'file'], msg: 'is required', type: 'missing' }]);
      if (compressed !== undefined && !BOOLEAN_FIELD.has(compressed))
        throw invalid([{ path: ['body', 'compressed'], msg: 'must be true or false', type: 'bool_parsing' }]);
      const fields = { canonicalPath: form.fields.get('canonical_path'), mime: form.fields.get('mime') };
      checkUploadFields(fields);
      const figure = await storeFigureUpload(ctx.em, viewer, blobs, sessionId, {
        file,
        original: form.files.get('original'),
        canonicalPath: fields.canonicalPath!,
        mime: fields.mime ?? null,
        compressed: compressed === undefined ? null : BOOLEAN_FIELD.get(compressed)!,
      });
      res.status(200).json(toSpecRow(figure));
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
  // A viewer of the session (`loadTrajectory` for viewing, as the trajectory queries): where its figure is.
  async authorize(req, ctx) {
    const figurePath = req.query.path;
    if (typeof figurePath !== 'string' || figurePath.length === 0 || figurePath.length > FIGURE_PATH_MAX || figurePath.includes('\u0000')) {
      throw invalid([{ path: ['query', 'path'], msg: `must be given once, 1-${FIGURE_PATH_MAX} characters`, type: 'missing' }]);
    }
    return figureLocation(ctx.em, await requireViewer(ctx), ctx.services.blobs, param(req, 'session_id'), figurePath, {
      baseUrl: ctx.baseUrl,
      cdnHosts: ctx.services.config.figureCdnHosts,
    });
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
  // The signature: issued by `figureLocation` (and the cloud record rewrite) to a viewer of the session, for 5 minutes.
  async authorize(req, ctx) {
    const store = ctx.services.blobs.store;
    const sha256 = segment(req, 'sha256');
    const key = `sha256/${sha256}`;
    const { expires, type, signature } = req.query;
    // Only a store whose signed URLs point here can have signed this one.
    const signed =
      /^[0-9a-f]{64}$/.test(sha256) &&
      typeof expires === 'string' &&
      typeof type === 'string' &&
      typeof signature === 'string' &&
      store?.verifySignedUrl?.(key, Number(expires), type, signature) === true;
    if (!store || !signed || typeof type !== 'string') throw new AppError('FORBIDDEN', 'this link is invalid or has expired');
    const stat = await store.stat(key);
    if (!stat) throw notFound('blob');
    return { store, key, sha256, type, stat };
  },
  async handle(req, res, _ctx, { store, key, sha256, type, stat }) {
    const inline = INLINE_TYPES.test(type);
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    await serveObject(req, res, {
      size: stat.size,
      etag: sha256,
      lastModified: stat.lastModified,
      contentType: inline ? type : 'application/octet-stream',
      contentDisposition: inline ? 'inline' : 'attachment',
      cacheControl: 'private, max-age=300',
      open: (range) => openStored(store, key, range),
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
