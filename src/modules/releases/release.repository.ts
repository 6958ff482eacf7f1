import type { EntityManager } from '@mikro-orm/postgresql';
import { dateOf, sqlOf } from '../../db/sql';

/**
 * All SQL of the releases domain: release binaries (`release_files`) and published manifests
 * (`release_manifests`), read and written as the domain types below. The entities in
 * `release.entity.ts` only describe the tables for migrations.
 */

/** A binary in the release store (`releases/<product>/<version>/<filename>`), with its size and digests. */
export interface ReleaseBinary {
  product: string;
  version: string;
  filename: string;
  size: number;
  /** Hex, as the core client verifies it and as the download's ETag. */
  sha256: string;
  /** Base64, as electron-updater's feeds state it. */
  sha512: string;
  /** Downloads that started at the first byte. */
  downloads: number;
  createdAt: Date;
}

/** One file of a manifest as stored (the served form adds `url`). */
export interface ManifestFile {
  filename: string;
  size: number;
  sha256: string;
  signature: string | null;
  platform: string | null;
  arch: string | null;
}

export interface Manifest {
  product: string;
  version: string;
  notes: string | null;
  /** ISO 8601. */
  pubDate: string;
  files: ManifestFile[];
}

/** A manifest as its jsonb document holds it (stored since the first release: its key names stay). */
interface StoredManifest extends Omit<Manifest, 'pubDate'> {
  pub_date: string;
}

const toStored = ({ pubDate, ...rest }: Manifest): StoredManifest => ({ ...rest, pub_date: pubDate });
const fromStored = ({ pub_date, ...rest }: StoredManifest): Manifest => ({ ...rest, pubDate: pub_date });

const BINARY_COLUMNS = `product, version, filename, size::float8 as size, sha256, sha512, downloads::float8 as downloads, created_at`;

const toBinary = (row: Record<string, unknown>): ReleaseBinary => ({
  product: row.product as string,
  version: row.version as string,
  filename: row.filename as string,
  size: row.size as number,
  sha256: row.sha256 as string,
  sha512: row.sha512 as string,
  downloads: row.downloads as number,
  createdAt: dateOf(row.created_at)!,
});

async function binaries(em: EntityManager, sql: string, params: unknown[]): Promise<ReleaseBinary[]> {
  return (await sqlOf(em)(sql, params)).map(toBinary);
}

/**
 * Takes a lock on `name` until `em`'s transaction ends (a PostgreSQL advisory lock, so it holds
 * across instances). Names: `release:<product>`, `release:<product>:<version>`.
 */
export async function lockReleaseName(em: EntityManager, name: string): Promise<void> {
  await sqlOf(em)(`select pg_advisory_xact_lock(hashtext(?))`, [name]);
}

/** Whether `version` of `product` has a published manifest. */
export async function hasManifest(em: EntityManager, product: string, version: string): Promise<boolean> {
  const rows = await sqlOf(em)(`select 1 from release_manifests where product = ? and version = ?`, [product, version]);
  return rows.length > 0;
}

type NewBinary = Pick<ReleaseBinary, 'product' | 'version' | 'filename' | 'size' | 'sha256' | 'sha512'>;

/** Records an uploaded binary, replacing the row of an earlier upload of the same file (count kept, date renewed). */
export async function saveUploadedBinary(em: EntityManager, file: NewBinary): Promise<ReleaseBinary> {
  const [row] = await binaries(
    em,
    `insert into release_files (product, version, filename, size, sha256, sha512) values (?, ?, ?, ?, ?, ?)
     on conflict (product, version, filename) do update set size = excluded.size, sha256 = excluded.sha256, sha512 = excluded.sha512, created_at = now()
     returning ${BINARY_COLUMNS}`,
    [file.product, file.version, file.filename, file.size, file.sha256, file.sha512],
  );
  return row;
}

/** Records a binary found in the store without a row; a row recorded meanwhile keeps its digests. */
export async function saveFoundBinary(em: EntityManager, file: NewBinary): Promise<ReleaseBinary> {
  const [row] = await binaries(
    em,
    `insert into release_files (product, version, filename, size, sha256, sha512) values (?, ?, ?, ?, ?, ?)
     on conflict (product, version, filename) do update set size = excluded.size returning ${BINARY_COLUMNS}`,
    [file.product, file.version, file.filename, file.size, file.sha256, file.sha512],
  );
  return row;
}

export async function findBinary(em: EntityManager, product: string, version: string, filename: string): Promise<ReleaseBinary | null> {
  const [row] = await binaries(em, `select ${BINARY_COLUMNS} from release_files where product = ? and version = ? and filename = ?`, [
    product,
    version,
    filename,
  ]);
  return row ?? null;
}

/** A binary that a published manifest of its version lists; null for anything else. */
export async function findPublishedBinary(
  em: EntityManager,
  product: string,
  version: string,
  filename: string,
): Promise<ReleaseBinary | null> {
  const [row] = await binaries(
    em,
    `select ${BINARY_COLUMNS} from release_files f
      where f.product = ? and f.version = ? and f.filename = ?
        and exists (select 1 from release_manifests m, jsonb_array_elements(m.manifest->'files') listed
                     where m.product = f.product and m.version = f.version and listed->>'filename' = f.filename)`,
    [product, version, filename],
  );
  return row ?? null;
}

export async function binariesOfVersion(em: EntityManager, product: string, version: string): Promise<ReleaseBinary[]> {
  return binaries(em, `select ${BINARY_COLUMNS} from release_files where product = ? and version = ?`, [product, version]);
}

/** Every binary of `product`, in no particular order. */
export async function binariesOfProduct(em: EntityManager, product: string): Promise<ReleaseBinary[]> {
  return binaries(em, `select ${BINARY_COLUMNS} from release_files where product = ?`, [product]);
}

export async function addDownload(em: EntityManager, file: Pick<ReleaseBinary, 'product' | 'version' | 'filename'>): Promise<void> {
  await sqlOf(em)(`update release_files set downloads = downloads + 1 where product = ? and version = ? and filename = ?`, [
    file.product,
    file.version,
    file.filename,
  ]);
}

/**
 * The published manifest of `manifest`'s version, if any, and whether it equals `manifest`
 * (jsonb equality, so key order does not matter); without `comparePubDate`, publication dates
 * are left out of the comparison.
 */
export async function findManifestLike(
  em: EntityManager,
  manifest: Manifest,
  comparePubDate: boolean,
): Promise<{ manifest: Manifest; same: boolean } | null> {
  const stored = JSON.stringify(toStored(manifest));
  const [row] = await sqlOf(em)<{ manifest: StoredManifest; same: boolean }>(
    `select manifest, (case when ? then manifest else manifest - 'pub_date' end) = (case when ? then ?::jsonb else ?::jsonb - 'pub_date' end) as same
       from release_manifests where product = ? and version = ?`,
    [comparePubDate, comparePubDate, stored, stored, manifest.product, manifest.version],
  );
  return row ? { manifest: fromStored(row.manifest), same: row.same } : null;
}

export async function insertManifest(em: EntityManager, manifest: Manifest): Promise<void> {
  await sqlOf(em)(`insert into release_manifests (product, version, manifest) values (?, ?, ?)`, [
    manifest.product,
    manifest.version,
    JSON.stringify(toStored(manifest)),
  ]);
}

/** The most recently published manifest of `product`. */
export async function latestManifest(em: EntityManager, product: string): Promise<Manifest | null> {
  const [row] = await sqlOf(em)<{ manifest: StoredManifest }>(
    `select manifest from release_manifests where product = ? order by published_at desc, version desc limit 1`,
    [product],
  );
  return row ? fromStored(row.manifest) : null;
}
