import type { EntityManager } from '@mikro-orm/postgresql';
import type { Blobs } from '../../blobs';
import { BlobNotFoundError, BlobStore, contentKey } from '../../blobs/blob-store';
import type { ReceivedFile } from '../../blobs/receive';
import { sqlOf } from '../../db/sql';
import { AppError, forbidden, notFound } from '../../errors';
import { checks, Checks } from '../../validation';
import type { Viewer } from '../auth/viewer';
import { chargeStorage, loadTrajectory } from '../trajectories/trajectory.service';
import {
  addBlobOwner,
  claimBlobRow,
  countFigures,
  deleteBlobIfUnowned,
  deleteBlobRow,
  FigureMapRow,
  figurePaths,
  findFigure,
  lockBlobRow,
  lockUnownedBlobs,
  ownedBlobs,
  upsertFigures,
} from './figure.repository';

export { toSpecRow, type FigureMapRow } from './figure.repository';

/** `storage_uri` / `original_uri` of a blob in the private drive (docs/api/figures.md). */
const DRIVE_URI = /^drive:\/\/sha256\/([0-9a-f]{64})$/;
export const driveUri = (sha256: string) => `drive://sha256/${sha256}`;
const PATH_MAX = 1024;
const URL_MAX = 2048;
const MIME = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;
export const MAX_FIGURE_ROWS = 1000;
/** Media types a browser may render inline from a figure URL; anything else is a download. */
export const INLINE_TYPES = /^image\/(png|jpeg|gif|webp|avif|bmp|tiff)$/;
/** How long a `figures/raw` URL works (docs/api/figures.md). */
export const RAW_URL_TTL_S = 300;

function requireDrive(blobs: Blobs): BlobStore {
  if (!blobs.store) throw new AppError('UNAVAILABLE', 'the private drive is not configured on this server (BLOB_STORE=none)');
  return blobs.store;
}

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/**
 * Checks one free-form row in the spec's names (unknown members are ignored) and returns it. A
 * row needs `canonical_path` and at least one of `cdn_url` and `storage_uri`.
 */
function readRow(check: Checks, row: Record<string, unknown>, at: (string | number)[]): FigureMapRow {
  const text = (key: string) => {
    const value = row[key];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') check.add([...at, key], 'must be a string', 'string_type');
    else check.storable([...at, key], value);
    return typeof value === 'string' ? value : null;
  };
  const figure: FigureMapRow = {
    canonicalPath: text('canonical_path') ?? '',
    cdnUrl: text('cdn_url'),
    storageUri: text('storage_uri'),
    originalUri: text('original_uri'),
    compressed: typeof row.compressed === 'boolean' ? row.compressed : null,
    mime: text('mime'),
    bytes: typeof row.bytes === 'number' ? row.bytes : null,
  };
  check
    .require([...at, 'canonical_path'], figure.canonicalPath !== '', 'is required')
    .text([...at, 'canonical_path'], figure.canonicalPath || null, { max: PATH_MAX })
    .text([...at, 'cdn_url'], figure.cdnUrl, { max: URL_MAX })
    .text([...at, 'storage_uri'], figure.storageUri, { max: 100, pattern: DRIVE_URI, hint: 'must be drive://sha256/<64 hex digits>' })
    .text([...at, 'original_uri'], figure.originalUri, { max: 100, pattern: DRIVE_URI, hint: 'must be drive://sha256/<64 hex digits>' })
    .text([...at, 'mime'], figure.mime, { max: 255, pattern: MIME, hint: 'must be a media type such as image/png' });
  if (figure.cdnUrl && !isHttpUrl(figure.cdnUrl)) check.add([...at, 'cdn_url'], 'must be an http(s) URL', 'url_parsing');
  if (!figure.cdnUrl && !figure.storageUri) check.add([...at, 'storage_uri'], 'a row needs cdn_url or storage_uri', 'missing');
  if (row.compressed !== undefined && row.compressed !== null && typeof row.compressed !== 'boolean')
    check.add([...at, 'compressed'], 'must be true or false', 'bool_type');
  if (row.bytes !== undefined && row.bytes !== null && !(Number.isSafeInteger(row.bytes) && (row.bytes as number) >= 0)) {
    check.add([...at, 'bytes'], 'must be a whole number ≥ 0', 'int_type');
  }
  return figure;
}

const shaOf = (uri: string | null) => (uri ? DRIVE_URI.exec(uri)![1] : null);

/**
 * Records path-to-blob mappings for a session (owner only). The request is taken whole or not
 * at all: a bad row is a 422 naming it. Drive URIs must name blobs the owner uploaded, so a
 * row cannot reach someone else's figure by guessing its hash.
 * @throws VALIDATION_FAILED, NOT_FOUND, FORBIDDEN
 */
export async function recordFigures(
  em: EntityManager,
  viewer: Viewer,
  sessionId: string,
  input: unknown[],
): Promise<{ sessionId: string; figureCount: number }> {
  const check = checks().int(['input', 'figures'], input.length, { min: 1, max: MAX_FIGURE_ROWS });
  const rows: FigureMapRow[] = [];
  input.forEach((row, i) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row))
      check.add(['input', 'figures', i], 'must be an object', 'type_error');
    else rows.push(readRow(check, row as Record<string, unknown>, ['input', 'figures', i]));
  });
  check.done();
  return em.transactional(async (tx) => {
    await loadTrajectory(tx, viewer, sessionId, 'write', true);
    const named = [
      ...new Set(rows.flatMap((r) => [shaOf(r.storageUri), shaOf(r.originalUri)]).filter((sha): sha is string => sha !== null)),
    ];
    const owned = await ownedBlobs(tx, viewer.user.id, named);
    const unknown = checks();
    rows.forEach((row, i) => {
      for (const [key, uri] of [
        ['storage_uri', row.storageUri],
        ['original_uri', row.originalUri],
      ] as const) {
        const sha = shaOf(uri);
        if (sha && !owned.has(sha)) unknown.add(['input', 'figures', i, key], 'names no blob you uploaded', 'not_found');
      }
    });
    unknown.done();
    await upsertFigures(tx, sessionId, rows);
    return { sessionId, figureCount: await countFigures(tx, sessionId) };
  });
}

/**
 * Settles an upload before its body is read: the drive must be configured (503) and the
 * caller must own the session (404/403), so nobody streams megabytes only to be refused.
 */
export async function uploadTarget(em: EntityManager, viewer: Viewer, blobs: Blobs, sessionId: string): Promise<void> {
  requireDrive(blobs);
  await loadTrajectory(em, viewer, sessionId, 'write');
}

export interface FigureUpload {
  file: ReceivedFile;
  original?: ReceivedFile;
  canonicalPath: string;
  mime?: string | null;
  compressed?: boolean | null;
}

/** Checks an upload's form fields; their issues are reported at `body.<field>`. */
export function checkUploadFields(fields: { canonicalPath?: string; mime?: string }) {
  checks()
    .storable(['body', 'canonical_path'], fields.canonicalPath)
    .require(['body', 'canonical_path'], !!fields.canonicalPath)
    .text(['body', 'canonical_path'], fields.canonicalPath, { max: PATH_MAX })
    .text(['body', 'mime'], fields.mime, { max: 255, pattern: MIME, hint: 'must be a media type such as image/png' })
    .done();
}

/**
 * Keeps an uploaded figure (and its original) in the private drive and maps `canonicalPath`
 * to it (owner only). Blobs are content-addressed and each user is charged once per distinct
 * blob, in the same transaction as the map row: over quota is a 413 with nothing kept.
 *
 * Each blob's row is locked while its bytes are put, so concurrent uploads of the same bytes
 * write them once. If the transaction fails (before or at commit), bytes this upload put are
 * removed unless someone else's committed row now relies on them (see `releaseUnclaimed`).
 * @throws NOT_FOUND, FORBIDDEN, PAYLOAD_TOO_LARGE, UNAVAILABLE
 */
export async function storeFigureUpload(
  em: EntityManager,
  viewer: Viewer,
  blobs: Blobs,
  sessionId: string,
  upload: FigureUpload,
): Promise<FigureMapRow> {
  const store = requireDrive(blobs);
  const put: string[] = [];
  try {
    return await em.transactional(async (tx) => {
      await loadTrajectory(tx, viewer, sessionId, 'write', true);
      let newlyOwned = 0;
      for (const file of [upload.file, upload.original].filter((f): f is ReceivedFile => !!f)) {
        await lockBlobRow(tx, file.sha256, file.size);
        if (await addBlobOwner(tx, viewer.user.id, file.sha256, file.size)) newlyOwned += file.size;
        if (!(await store.stat(contentKey(file.sha256)))) {
          await store.putFile(contentKey(file.sha256), file.path);
          put.push(file.sha256);
        }
      }
      await chargeStorage(sqlOf(tx), viewer, newlyOwned);
      const row: FigureMapRow = {
        canonicalPath: upload.canonicalPath,
        cdnUrl: null,
        storageUri: driveUri(upload.file.sha256),
        originalUri: upload.original ? driveUri(upload.original.sha256) : null,
        compressed: upload.compressed ?? null,
        mime: upload.mime ?? null,
        bytes: upload.file.size,
      };
      await upsertFigures(tx, sessionId, [row]);
      return row;
    });
  } catch (error) {
    for (const sha256 of put) await releaseUnclaimed(em, store, sha256);
    throw error;
  }
}

/**
 * Deletes blobs nobody owns any more (their last figure went with a deleted session), bytes
 * first, each under its row lock: an upload of the same bytes waits for the lock and then puts
 * them again. Several instances may sweep at once (SKIP LOCKED). Returns how many went.
 */
export async function sweepUnownedBlobs(em: EntityManager, store: BlobStore, batch = 100): Promise<number> {
  return em.transactional(async (tx) => {
    const unowned = await lockUnownedBlobs(tx, batch);
    for (const sha256 of unowned) {
      // An upload may have committed an owner between the select and the lock: only a row
      // really deleted takes its bytes along.
      if (await deleteBlobIfUnowned(tx, sha256)) await store.delete(contentKey(sha256));
    }
    return unowned.length;
  });
}

/**
 * Deletes the bytes of `sha256` unless a committed blob row claims them. Claiming the row
 * ourselves decides it: the insert waits for any concurrent uploader's uncommitted row, and
 * succeeds only if no one else holds one, in which case no one can be relying on the bytes.
 */
async function releaseUnclaimed(em: EntityManager, store: BlobStore, sha256: string) {
  await em.transactional(async (tx) => {
    if (!(await claimBlobRow(tx, sha256))) return;
    await store.delete(contentKey(sha256));
    await deleteBlobRow(tx, sha256);
  });
}

/**
 * Whether `figures/raw` may send a browser to a stored `cdn_url`. Any owner can store any http(s)
 * URL there, so without this our redirect would point signed-in viewers (and their bearer-free
 * browsers) at internal addresses (`http://127.0.0.1:5432/…`) or at a phishing page on our name:
 * only https on a host the operator allows, or this service's own signed blob URLs.
 */
export function isRedirectableCdnUrl(url: string, allowedHosts: string[], ownBaseUrl: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.origin === new URL(ownBaseUrl).origin && parsed.pathname.startsWith('/blobs/')) return true;
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password) return false;
  const host = parsed.hostname.toLowerCase();
  return allowedHosts.some((allowed) => (allowed.startsWith('*.') ? host.endsWith(allowed.slice(1)) : host === allowed));
}

/**
 * Where `figures/raw` sends a viewer: a fresh signed URL (5 minutes) for the original blob, else
 * the compressed one, else the row's legacy public `cdn_url` when that is redirectable.
 * @throws NOT_FOUND (session not visible, or no such figure), FORBIDDEN (a `cdn_url` this server does not redirect to), UNAVAILABLE
 */
export async function figureLocation(
  em: EntityManager,
  viewer: Viewer,
  blobs: Blobs,
  sessionId: string,
  canonicalPath: string,
  where: FigureUrlOptions,
): Promise<string> {
  await loadTrajectory(em, viewer, sessionId, 'view');
  return figureUrl(em, blobs, sessionId, canonicalPath, where);
}

export interface FigureUrlOptions {
  baseUrl: string;
  cdnHosts: string[];
}

/**
 * A figure's short-lived URL, for whoever the caller has let see it (`figureLocation`: a viewer
 * of the session; a share link that includes figures). @throws NOT_FOUND, FORBIDDEN (a CDN
 * address this server does not redirect to)
 */
export async function figureUrl(
  em: EntityManager,
  blobs: Blobs,
  sessionId: string,
  canonicalPath: string,
  { baseUrl, cdnHosts }: FigureUrlOptions,
): Promise<string> {
  const row = await findFigure(em, sessionId, canonicalPath);
  if (!row) throw notFound('figure');
  const sha = shaOf(row.originalUri) ?? shaOf(row.storageUri);
  if (!sha) {
    if (!isRedirectableCdnUrl(row.cdnUrl!, cdnHosts, baseUrl)) {
      throw forbidden('this figure is only at a cdn_url this server does not redirect to (https on a host in FIGURE_CDN_HOSTS)');
    }
    return row.cdnUrl!;
  }
  // Uploaded bytes are never rendered as a page by the browser: only raster images show inline.
  const inline = INLINE_TYPES.test(row.mime ?? '');
  return requireDrive(blobs).signedUrl(contentKey(sha), {
    baseUrl,
    ttlSeconds: RAW_URL_TTL_S,
    contentType: inline ? row.mime! : 'application/octet-stream',
    disposition: inline ? 'inline' : 'attachment',
  });
}

/** A private blob as its signed URL serves it: where its bytes are, their validators, and how a browser may show them. */
export interface SignedBlob {
  key: string;
  sha256: string;
  size: number;
  lastModified: Date;
  contentType: string;
  disposition: 'inline' | 'attachment';
}

/**
 * The blob a signed URL (`GET /blobs/sha256/{sha256}`) names, when its parts are genuine and
 * unexpired: issued by `figureLocation` (and the cloud record rewrite) to a viewer of the session,
 * for 5 minutes. Only a store whose signed URLs point here can have signed it. Uploaded bytes are
 * never rendered as a page: only raster images show inline.
 * @throws FORBIDDEN (no such signature, or expired), NOT_FOUND (the blob is gone)
 */
export async function signedBlob(
  blobs: Blobs,
  sha256: string,
  parts: { expires: string | null; type: string | null; signature: string | null },
): Promise<SignedBlob> {
  const store = blobs.store;
  const key = contentKey(sha256);
  const { expires, type, signature } = parts;
  const signed =
    /^[0-9a-f]{64}$/.test(sha256) &&
    expires !== null &&
    type !== null &&
    signature !== null &&
    store?.verifySignedUrl?.(key, Number(expires), type, signature) === true;
  if (!store || !signed || type === null) throw forbidden('this link is invalid or has expired');
  const stat = await store.stat(key);
  if (!stat) throw notFound('blob');
  const inline = INLINE_TYPES.test(type);
  return {
    key,
    sha256,
    size: stat.size,
    // A Date of this realm (a store's may come from Node's own, e.g. `fs.Stats`), as GraphQL serializes it.
    lastModified: new Date(stat.lastModified.getTime()),
    contentType: inline ? type : 'application/octet-stream',
    disposition: inline ? 'inline' : 'attachment',
  };
}

/** The figure map of a session the viewer may view, as path → serve URL (rewriting records for a cloud client). */
export async function viewableFigureServeUrls(em: EntityManager, viewer: Viewer, sessionId: string, baseUrl: string) {
  await loadTrajectory(em, viewer, sessionId, 'view');
  return figureServeUrls(em, sessionId, baseUrl);
}

/** The session's figure map as path → serve URL, for rewriting records for a cloud client. */
export async function figureServeUrls(em: EntityManager, sessionId: string, baseUrl: string): Promise<Map<string, string>> {
  const base = `${baseUrl}/api/trajectories/${encodeURIComponent(sessionId)}/figures/raw?path=`;
  return new Map((await figurePaths(em, sessionId)).map((path) => [path, base + encodeURIComponent(path)]));
}

/** The largest figure an export carries inside itself (larger ones are named, not embedded). */
export const INLINE_FIGURE_BYTES = 4 << 20;

/**
 * A figure's bytes, base64, for a viewer of the session: an uploaded raster image of at most
 * `INLINE_FIGURE_BYTES`, for an export that must stand alone (a notebook, a report). Null for any
 * other figure (a CDN link, too large, not an image, missing). @throws NOT_FOUND (the session)
 */
export async function inlineFigure(
  em: EntityManager,
  viewer: Viewer,
  blobs: Blobs,
  sessionId: string,
  canonicalPath: string,
): Promise<{ mime: string; base64: string } | null> {
  await loadTrajectory(em, viewer, sessionId, 'view');
  const row = await findFigure(em, sessionId, canonicalPath);
  const sha = row && (shaOf(row.originalUri) ?? shaOf(row.storageUri));
  if (!row || !sha || !INLINE_TYPES.test(row.mime ?? '') || !blobs.store) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of await blobs.store.read(contentKey(sha))) {
      size += (chunk as Buffer).length;
      if (size > INLINE_FIGURE_BYTES) return null;
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof BlobNotFoundError) return null;
    throw error;
  }
  return { mime: row.mime!, base64: Buffer.concat(chunks).toString('base64') };
}
