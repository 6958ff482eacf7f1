import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf } from '../../db/sql';

/**
 * All SQL of the figures domain: figure map rows (`figures`) and the private drive's
 * content-addressed blobs (`blobs`) with their owners (`blob_owners`), read and written as the
 * domain types below. The entities in `figure.entity.ts` only describe the tables for migrations.
 */

/** A figure map row: a local figure path of a trajectory and where its bytes are (spec: Figure map row). */
export interface FigureMapRow {
  canonicalPath: string;
  cdnUrl: string | null;
  storageUri: string | null;
  originalUri: string | null;
  compressed: boolean | null;
  mime: string | null;
  bytes: number | null;
}

/** A figure map row in the spec's (and the table's) names, as clients send and receive it. */
export interface SpecFigureRow {
  canonical_path: string;
  cdn_url: string | null;
  storage_uri: string | null;
  original_uri: string | null;
  compressed: boolean | null;
  mime: string | null;
  bytes: number | null;
}

const FIGURE_COLUMNS = `canonical_path, cdn_url, storage_uri, original_uri, compressed, mime, bytes::float8 as bytes`;

export const toSpecRow = (row: FigureMapRow): SpecFigureRow => ({
  canonical_path: row.canonicalPath,
  cdn_url: row.cdnUrl,
  storage_uri: row.storageUri,
  original_uri: row.originalUri,
  compressed: row.compressed,
  mime: row.mime,
  bytes: row.bytes,
});

const fromSpecRow = (row: SpecFigureRow): FigureMapRow => ({
  canonicalPath: row.canonical_path,
  cdnUrl: row.cdn_url,
  storageUri: row.storage_uri,
  originalUri: row.original_uri,
  compressed: row.compressed,
  mime: row.mime,
  bytes: row.bytes,
});

/** Inserts or replaces (by path) rows of a trajectory's figure map, in one statement. */
export async function upsertFigures(em: EntityManager, trajectoryId: string, rows: FigureMapRow[]): Promise<void> {
  await sqlOf(em)(
    `insert into figures (session_id, canonical_path, cdn_url, storage_uri, original_uri, compressed, mime, bytes)
     select ?, canonical_path, cdn_url, storage_uri, original_uri, compressed, mime, bytes
       from jsonb_to_recordset(?::jsonb) as x(canonical_path text, cdn_url text, storage_uri text, original_uri text, compressed boolean, mime text, bytes bigint)
     on conflict (session_id, canonical_path) do update set cdn_url = excluded.cdn_url, storage_uri = excluded.storage_uri,
       original_uri = excluded.original_uri, compressed = excluded.compressed, mime = excluded.mime, bytes = excluded.bytes, updated_at = now()`,
    [trajectoryId, JSON.stringify(rows.map(toSpecRow))],
  );
}

export async function countFigures(em: EntityManager, trajectoryId: string): Promise<number> {
  const [{ n }] = await sqlOf(em)<{ n: number }>(`select count(*)::int as n from figures where session_id = ?`, [trajectoryId]);
  return n;
}

export async function findFigure(em: EntityManager, trajectoryId: string, canonicalPath: string): Promise<FigureMapRow | null> {
  const [row] = await sqlOf(em)<SpecFigureRow>(`select ${FIGURE_COLUMNS} from figures where session_id = ? and canonical_path = ?`, [
    trajectoryId,
    canonicalPath,
  ]);
  return row ? fromSpecRow(row) : null;
}

/** The canonical paths of a trajectory's figure map. */
export async function figurePaths(em: EntityManager, trajectoryId: string): Promise<string[]> {
  const rows = await sqlOf(em)<{ canonical_path: string }>(`select canonical_path from figures where session_id = ?`, [trajectoryId]);
  return rows.map((row) => row.canonical_path);
}

/** Copies these rows of one trajectory's figure map to another (a fork): the same stored bytes, no new upload. */
export async function copyFigureRows(em: EntityManager, fromId: string, toId: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await sqlOf(em)(
    `insert into figures (session_id, canonical_path, cdn_url, storage_uri, original_uri, compressed, mime, bytes)
     select ?, canonical_path, cdn_url, storage_uri, original_uri, compressed, mime, bytes from figures
      where session_id = ? and canonical_path = any(?::text[])`,
    [toId, fromId, [...paths]],
  );
}

/** Which of `sha256s` the user owns (has uploaded). */
export async function ownedBlobs(em: EntityManager, userId: string, sha256s: string[]): Promise<Set<string>> {
  const rows = await sqlOf(em)<{ sha256: string }>(`select sha256 from blob_owners where user_id = ? and sha256 = any(?)`, [
    userId,
    sha256s,
  ]);
  return new Set(rows.map((row) => row.sha256));
}

/** Makes the user an owner of the blob; false when they owned it already. */
export async function addBlobOwner(em: EntityManager, userId: string, sha256: string, bytes: number): Promise<boolean> {
  const added = await sqlOf(em)(`insert into blob_owners (user_id, sha256, bytes) values (?, ?, ?) on conflict do nothing returning 1`, [
    userId,
    sha256,
    bytes,
  ]);
  return added.length > 0;
}

/**
 * Creates (if needed) and locks the row of a blob until the transaction ends. The sweeper may
 * delete an unowned row while we wait for its lock; then the row is made again.
 */
export async function lockBlobRow(em: EntityManager, sha256: string, bytes: number): Promise<void> {
  const q = sqlOf(em);
  for (;;) {
    await q(`insert into blobs (sha256, bytes) values (?, ?) on conflict do nothing`, [sha256, bytes]);
    if ((await q(`select 1 from blobs where sha256 = ? for update`, [sha256])).length) return;
  }
}

/**
 * Creates the row of a blob, bytes unknown; false when a row exists, committed or not (the
 * insert waits for a concurrent uploader's uncommitted row before it decides).
 */
export async function claimBlobRow(em: EntityManager, sha256: string): Promise<boolean> {
  const claimed = await sqlOf(em)(`insert into blobs (sha256, bytes) values (?, 0) on conflict do nothing returning 1`, [sha256]);
  return claimed.length > 0;
}

export async function deleteBlobRow(em: EntityManager, sha256: string): Promise<void> {
  await sqlOf(em)(`delete from blobs where sha256 = ?`, [sha256]);
}

/** Up to `limit` blobs nobody owns, locked until the transaction ends; rows another transaction holds are skipped. */
export async function lockUnownedBlobs(em: EntityManager, limit: number): Promise<string[]> {
  const rows = await sqlOf(em)<{ sha256: string }>(
    `select sha256 from blobs b where not exists (select 1 from blob_owners o where o.sha256 = b.sha256)
      limit ? for update skip locked`,
    [limit],
  );
  return rows.map((row) => row.sha256);
}

/**
 * Deletes the blob's row if nobody owns it, checked again in this statement's own snapshot (an
 * upload may have committed an owner since the row was locked). True when it was deleted.
 */
export async function deleteBlobIfUnowned(em: EntityManager, sha256: string): Promise<boolean> {
  const gone = await sqlOf(em)(
    `delete from blobs b where sha256 = ? and not exists (select 1 from blob_owners o where o.sha256 = b.sha256) returning 1`,
    [sha256],
  );
  return gone.length > 0;
}
