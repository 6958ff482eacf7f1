import type { EntityManager } from '@mikro-orm/postgresql';
import type { Blobs } from '../../blobs';
import { BlobStore, contentKey } from '../../blobs/blob-store';
import type { ReceivedFile } from '../../blobs/receive';
import { Query, sqlOf } from '../../db/sql';
import { AppError, forbidden, notFound } from '../../errors';
import { checks, Checks } from '../../validation';
import type { Viewer } from '../auth/auth.service';
import { chargeStorage, loadTrajectory } from '../trajectories/trajectory.service';

/** `storage_uri` / `original_uri` of a blob in the private drive (contracts §5). */
const DRIVE_URI = /^drive:\/\/sha256\/([0-9a-f]{64})$/;
export const driveUri = (sha256: string) => `drive://sha256/${sha256}`;
const PATH_MAX = 1024;
const URL_MAX = 2048;
const MIME = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;
export const MAX_FIGURE_ROWS = 1000;
/** Media types a browser may render inline from a figure URL; anything else is a download. */
export const INLINE_TYPES = /^image\/(png|jpeg|gif|webp|avif|bmp|tiff)$/;
/** How long a `figures/raw` URL works (contracts §5). */
export const RAW_URL_TTL_S = 300;

/** A figure map row as stored and served (spec: Figure map row). */
export interface FigureRow {
  canonical_path: string;
  cdn_url: string | null;
  storage_uri: string | null;
  original_uri: string | null;
  compressed: boolean | null;
  mime: string | null;
  bytes: number | null;
}

const FIGURE_COLUMNS = `canonical_path, cdn_url, storage_uri, original_uri, compressed, mime, bytes::float8 as bytes`;

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
 * Checks one free-form row (unknown members are ignored) and returns it in stored form. A row
 * needs `canonical_path` and at least one of `cdn_url` and `storage_uri`.
 */
function readRow(check: Checks, row: Record<string, unknown>, at: (string | number)[]): FigureRow {
  const text = (key: string) => {
    const value = row[key];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') check.add([...at, key], 'must be a string', 'string_type');
    else check.storable([...at, key], value);
    return typeof value === 'string' ? value : null;
  };
  const figure: FigureRow = {
    canonical_path: text('canonical_path') ?? '',
    cdn_url: text('cdn_url'),
    storage_uri: text('storage_uri'),
    original_uri: text('original_uri'),
    compressed: typeof row.compressed === 'boolean' ? row.compressed : null,
    mime: text('mime'),
    bytes: typeof row.bytes === 'number' ? row.bytes : null,
  };
  check
    .require([...at, 'canonical_path'], figure.canonical_path !== '', 'is required')
    .text([...at, 'canonical_path'], figure.canonical_path || null, { max: PATH_MAX })
    .text([...at, 'cdn_url'], figure.cdn_url, { max: URL_MAX })
    .text([...at, 'storage_uri'], figure.storage_uri, { max: 100, pattern: DRIVE_URI, hint: 'must be drive://sha256/<64 hex digits>' })
    .text([...at, 'original_uri'], figure.original_uri, { max: 100, pattern: DRIVE_URI, hint: 'must be drive://sha256/<64 hex digits>' })
    .text([...at, 'mime'], figure.mime, { max: 255, pattern: MIME, hint: 'must be a media type such as image/png' });
  if (figure.cdn_url && !isHttpUrl(figure.cdn_url)) check.add([...at, 'cdn_url'], 'must be an http(s) URL', 'url_parsing');
  if (!figure.cdn_url && !figure.storage_uri) check.add([...at, 'storage_uri'], 'a row needs cdn_url or storage_uri', 'missing');
  if (row.compressed !== undefined && row.compressed !== null && typeof row.compressed !== 'boolean') check.add([...at, 'compressed'], 'must be true or false', 'bool_type');
  if (row.bytes !== undefined && row.bytes !== null && !(Number.isSafeInteger(row.bytes) && (row.bytes as number) >= 0)) {
    check.add([...at, 'bytes'], 'must be a whole number ≥ 0', 'int_type');
  }
  return figure;
}

const shaOf = (uri: string | null) => (uri ? DRIVE_URI.exec(uri)![1] : null);

/** Upserts rows of a session's figure map (one statement). */
async function upsertFigures(q: Query, sessionId: string, rows: FigureRow[]) {
  await q(
    `insert into figures (session_id, canonical_path, cdn_url, storage_uri, original_uri, compressed, mime, bytes)
     select ?, canonical_path, cdn_url, storage_uri, original_uri, compressed, mime, bytes
       from jsonb_to_recordset(?::jsonb) as x(canonical_path text, cdn_url text, storage_uri text, original_uri text, compressed boolean, mime text, bytes bigint)
     on conflict (session_id, canonical_path) do update set cdn_url = excluded.cdn_url, storage_uri = excluded.storage_uri,
       original_uri = excluded.original_uri, compressed = excluded.compressed, mime = excluded.mime, bytes = excluded.bytes, updated_at = now()`,
    [sessionId, JSON.stringify(rows)],
  );
}

/**
 * Records path-to-blob mappings for a session (owner only). The request is taken whole or not
 * at all: a bad row is a 422 naming it. Drive URIs must name blobs the owner uploaded, so a
 * row cannot reach someone else's figure by guessing its hash.
 * @throws VALIDATION_FAILED, NOT_FOUND, FORBIDDEN
 */
export async function recordFigures(em: EntityManager, viewer: Viewer, sessionId: string, input: unknown[]): Promise<{ sessionId: string; figureCount: number }> {
  const check = checks().int(['input', 'figures'], input.length, { min: 1, max: MAX_FIGURE_ROWS });
  const rows: FigureRow[] = [];
  input.forEach((row, i) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) check.add(['input', 'figures', i], 'must be an object', 'type_error');
    else rows.push(readRow(check, row as Record<string, unknown>, ['input', 'figures', i]));
  });
  check.done();
  return em.transactional(async (tx) => {
    await loadTrajectory(tx, viewer, sessionId, 'write', true);
    const q = sqlOf(tx);
    const named = [...new Set(rows.flatMap((r) => [shaOf(r.storage_uri), shaOf(r.original_uri)]).filter((sha): sha is string => sha !== null))];
    const owned = new Set(
      (await q<{ sha256: string }>(`select sha256 from blob_owners where user_id = ? and sha256 = any(?)`, [viewer.user.id, named])).map((r) => r.sha256),
    );
    const unknown = checks();
    rows.forEach((row, i) => {
      for (const key of ['storage_uri', 'original_uri'] as const) {
        const sha = shaOf(row[key]);
        if (sha && !owned.has(sha)) unknown.add(['input', 'figures', i, key], 'names no blob you uploaded', 'not_found');
      }
    });
    unknown.done();
    await upsertFigures(q, sessionId, rows);
    const [{ n }] = await q<{ n: number }>(`select count(*)::int as n from figures where session_id = ?`, [sessionId]);
    return { sessionId, figureCount: n };
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
export async function storeFigureUpload(em: EntityManager, viewer: Viewer, blobs: Blobs, sessionId: string, upload: FigureUpload): Promise<FigureRow> {
  const store = requireDrive(blobs);
  const put: string[] = [];
  try {
    return await em.transactional(async (tx) => {
      await loadTrajectory(tx, viewer, sessionId, 'write', true);
      const q = sqlOf(tx);
      let newlyOwned = 0;
      for (const file of [upload.file, upload.original].filter((f): f is ReceivedFile => !!f)) {
        await lockBlobRow(q, file.sha256, file.size);
        const owned = await q(`insert into blob_owners (user_id, sha256, bytes) values (?, ?, ?) on conflict do nothing returning 1`, [viewer.user.id, file.sha256, file.size]);
        if (owned.length) newlyOwned += file.size;
        if (!(await store.stat(contentKey(file.sha256)))) {
          await store.putFile(contentKey(file.sha256), file.path);
          put.push(file.sha256);
        }
      }
      await chargeStorage(q, viewer, newlyOwned);
      const row: FigureRow = {
        canonical_path: upload.canonicalPath,
        cdn_url: null,
        storage_uri: driveUri(upload.file.sha256),
        original_uri: upload.original ? driveUri(upload.original.sha256) : null,
        compressed: upload.compressed ?? null,
        mime: upload.mime ?? null,
        bytes: upload.file.size,
      };
      await upsertFigures(q, sessionId, [row]);
      return row;
    });
  } catch (error) {
    for (const sha256 of put) await releaseUnclaimed(em, store, sha256);
    throw error;
  }
}

/**
 * Creates (if needed) and locks the row of a blob. The sweeper may delete an unowned row while
 * we wait for its lock; then the row is made again.
 */
async function lockBlobRow(q: Query, sha256: string, bytes: number) {
  for (;;) {
    await q(`insert into blobs (sha256, bytes) values (?, ?) on conflict do nothing`, [sha256, bytes]);
    if ((await q(`select 1 from blobs where sha256 = ? for update`, [sha256])).length) return;
  }
}

/**
 * Deletes blobs nobody owns any more (their last figure went with a deleted session), bytes
 * first, each under its row lock: an upload of the same bytes waits for the lock and then puts
 * them again. Several instances may sweep at once (SKIP LOCKED). Returns how many went.
 */
export async function sweepUnownedBlobs(em: EntityManager, store: BlobStore, batch = 100): Promise<number> {
  return em.transactional(async (tx) => {
    const q = sqlOf(tx);
    const unowned = await q<{ sha256: string }>(
      `select sha256 from blobs b where not exists (select 1 from blob_owners o where o.sha256 = b.sha256)
        limit ? for update skip locked`,
      [batch],
    );
    for (const { sha256 } of unowned) {
      // Checked again in this statement's fresh snapshot: an upload may have committed an owner
      // between the select and the lock. Only a row really deleted takes its bytes along.
      const gone = await q(`delete from blobs b where sha256 = ? and not exists (select 1 from blob_owners o where o.sha256 = b.sha256) returning 1`, [sha256]);
      if (gone.length) await store.delete(contentKey(sha256));
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
    const q = sqlOf(tx);
    const claimed = await q(`insert into blobs (sha256, bytes) values (?, 0) on conflict do nothing returning 1`, [sha256]);
    if (claimed.length === 0) return;
    await store.delete(contentKey(sha256));
    await q(`delete from blobs where sha256 = ?`, [sha256]);
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
  { baseUrl, cdnHosts }: { baseUrl: string; cdnHosts: string[] },
): Promise<string> {
  await loadTrajectory(em, viewer, sessionId, 'view');
  const [row] = await sqlOf(em)<FigureRow>(`select ${FIGURE_COLUMNS} from figures where session_id = ? and canonical_path = ?`, [sessionId, canonicalPath]);
  if (!row) throw notFound('figure');
  const sha = shaOf(row.original_uri) ?? shaOf(row.storage_uri);
  if (!sha) {
    if (!isRedirectableCdnUrl(row.cdn_url!, cdnHosts, baseUrl)) {
      throw forbidden('this figure is only at a cdn_url this server does not redirect to (https on a host in FIGURE_CDN_HOSTS)');
    }
    return row.cdn_url!;
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

/** The session's figure map as path → serve URL, for rewriting records for a cloud client. */
export async function figureServeUrls(em: EntityManager, sessionId: string, baseUrl: string): Promise<Map<string, string>> {
  const rows = await sqlOf(em)<{ canonical_path: string }>(`select canonical_path from figures where session_id = ?`, [sessionId]);
  const base = `${baseUrl}/api/trajectories/${encodeURIComponent(sessionId)}/figures/raw?path=`;
  return new Map(rows.map((r) => [r.canonical_path, base + encodeURIComponent(r.canonical_path)]));
}
