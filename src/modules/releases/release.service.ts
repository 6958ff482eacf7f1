import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { BlobStore } from '../../blobs/blob-store';
import type { ReceivedFile } from '../../blobs/receive';
import { AppError, conflict, notFound } from '../../errors';
import { checks } from '../../validation';
import {
  addDownload,
  binariesOfProduct,
  binariesOfVersion,
  findBinary,
  findManifestLike,
  findPublishedBinary,
  hasManifest,
  insertManifest,
  latestManifest,
  lockReleaseName,
  Manifest,
  ManifestFile,
  ReleaseBinary,
  saveFoundBinary,
  saveUploadedBinary,
} from './release.repository';
import { compareVersions, RELEASE_VERSION } from './semver';

export type { Manifest, ManifestFile, ReleaseBinary } from './release.repository';

export const PRODUCTS = ['desktop', 'core'] as const;
export type Product = (typeof PRODUCTS)[number];
/** A file name as a URL path segment and a store key segment: no separators, no dot-only names. */
export const FILENAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

const VERSION_RULE = { min: 1, max: 100, pattern: RELEASE_VERSION, hint: 'must be a semantic version such as 1.2.3 or 1.2.3-beta.1' };
const FILENAME_RULE = { min: 1, max: 200, pattern: FILENAME, hint: 'must be 1-200 of A-Z a-z 0-9 . _ - (starting with a letter or digit)' };

const releaseKey = (product: string, version: string, filename: string) => `releases/${product}/${version}/${filename}`;

export interface ManifestInput {
  version: string;
  notes?: string | null;
  pubDate?: Date | null;
  force?: boolean | null;
  files: {
    filename: string;
    size: number;
    sha256?: string | null;
    signature?: string | null;
    platform?: string | null;
    arch?: string | null;
  }[];
}

/** @throws NOT_FOUND for a product other than desktop and core */
export function checkProduct(product: string): Product {
  if (!(PRODUCTS as readonly string[]).includes(product)) throw notFound('product');
  return product as Product;
}

function requireStore(store: BlobStore | null): BlobStore {
  if (!store) throw new AppError('UNAVAILABLE', 'the release store is not configured (BLOB_STORE=none)');
  return store;
}

/** A published version's files are immutable. */
const filesFrozen = (product: string, version: string) =>
  conflict(`version ${version} of ${product} is published; its files cannot change`);

/** Where an uploaded release binary goes: product, version and file name. */
export interface ReleaseFileTarget {
  product: string;
  version: string;
  filename: string;
}

/**
 * Settles an upload before its body is read: a known product, a valid version and file name, a
 * configured store, and a version not yet published (its files cannot change).
 * @throws NOT_FOUND (product), VALIDATION_FAILED, CONFLICT (published), UNAVAILABLE
 */
export async function checkReleaseFileTarget(
  em: EntityManager,
  store: BlobStore | null,
  where: ReleaseFileTarget,
): Promise<ReleaseFileTarget> {
  const product = checkProduct(where.product);
  checks().text(['path', 'version'], where.version, VERSION_RULE).text(['path', 'filename'], where.filename, FILENAME_RULE).done();
  requireStore(store);
  if (await hasManifest(em, product, where.version)) throw filesFrozen(product, where.version);
  return { product, version: where.version, filename: where.filename };
}

/**
 * Stores one release binary received whole (streamed to a temp file, never buffered), with its
 * size and digests; the temp file is consumed either way. Files of a published version cannot be
 * replaced.
 * @throws NOT_FOUND (product), VALIDATION_FAILED, CONFLICT (published), UNAVAILABLE
 */
export async function storeReleaseFile(
  em: EntityManager,
  blobStore: BlobStore | null,
  where: ReleaseFileTarget,
  file: ReceivedFile,
): Promise<ReleaseBinary> {
  try {
    const { product } = await checkReleaseFileTarget(em, blobStore, where);
    const store = requireStore(blobStore);
    return await em.transactional(async (tx) => {
      // Serializes uploads and publishes of one version: a file cannot change under a publish
      // that is checking it, and row and bytes always belong to the same upload.
      await lockReleaseName(tx, `release:${product}:${where.version}`);
      if (await hasManifest(tx, product, where.version)) throw filesFrozen(product, where.version);
      const row = await saveUploadedBinary(tx, {
        product,
        version: where.version,
        filename: where.filename,
        size: file.size,
        sha256: file.sha256,
        sha512: file.sha512,
      });
      // The bytes go in last, atomically: if the put fails the row rolls back and the old file stays.
      await store.putFile(releaseKey(product, where.version, where.filename), file.path);
      return row;
    });
  } finally {
    await fs.promises.rm(file.path, { force: true }); // consumed by the store unless the upload failed
  }
}

/**
 * The row of a file in the release store. A file put into the store directly (not through the
 * upload endpoint) is hashed once, streamed, and recorded.
 */
async function findReleaseFile(
  em: EntityManager,
  store: BlobStore,
  product: string,
  version: string,
  filename: string,
): Promise<ReleaseBinary | null> {
  const row = await findBinary(em, product, version, filename);
  if (row) return row;
  const key = releaseKey(product, version, filename);
  if (!(await store.stat(key))) return null;
  const sha256 = createHash('sha256');
  const sha512 = createHash('sha512');
  let size = 0;
  for await (const chunk of await store.read(key)) {
    size += (chunk as Buffer).length;
    sha256.update(chunk as Buffer);
    sha512.update(chunk as Buffer);
  }
  return saveFoundBinary(em, { product, version, filename, size, sha256: sha256.digest('hex'), sha512: sha512.digest('base64') });
}

function checkManifest(product: Product, input: ManifestInput) {
  const check = checks()
    .text(['input', 'version'], input.version, VERSION_RULE)
    .text(['input', 'notes'], input.notes, { max: 100_000 })
    .int(['input', 'files'], input.files.length, { min: 1, max: 200 });
  const names = new Set<string>();
  input.files.forEach((file, i) => {
    const at = (field: string) => ['input', 'files', i, field];
    check
      .text(at('filename'), file.filename, FILENAME_RULE)
      .int(at('size'), file.size, { min: 0, max: Number.MAX_SAFE_INTEGER })
      .text(at('sha256'), file.sha256, { min: 64, max: 64, pattern: /^[0-9a-f]{64}$/, hint: 'must be 64 lowercase hex digits' })
      .text(at('signature'), file.signature, { min: 1, max: 10_000 })
      .text(at('platform'), file.platform, { min: 1, max: 50 })
      .text(at('arch'), file.arch, { min: 1, max: 50 });
    if (!Number.isInteger(file.size)) check.add(at('size'), 'must be a whole number of bytes', 'int_type');
    // The core client verifies a SHA-256, the desktop shell a signature (spec: Release manifest).
    if (product === 'core') check.require(at('sha256'), !!file.sha256, 'is required for core files');
    if (product === 'desktop') check.require(at('signature'), !!file.signature, 'is required for desktop files');
    if (names.has(file.filename)) check.add(at('filename'), 'appears twice in this manifest', 'duplicate');
    names.add(file.filename);
  });
  check.done();
}

/**
 * Publishes `product`'s manifest. Every file must be in the release store with the declared size
 * (and SHA-256, when declared), else 422 naming it. An older version than the current one is
 * refused unless `force`. A published version is immutable: publishing it again answers the
 * same manifest when nothing differs, 409 otherwise.
 * @throws NOT_FOUND (product), VALIDATION_FAILED, CONFLICT, UNAVAILABLE
 */
export async function publishManifest(
  em: EntityManager,
  store: BlobStore | null,
  productName: string,
  input: ManifestInput,
): Promise<Manifest> {
  const product = checkProduct(productName);
  checkManifest(product, input);
  const releases = requireStore(store);
  return em.transactional(async (tx) => {
    await lockReleaseName(tx, `release:${product}`);
    await lockReleaseName(tx, `release:${product}:${input.version}`);
    // Checks in order: (auth at the route), version order, then files. A version already
    // published goes on to the files so that an identical retry still answers 200.
    const current = await currentManifest(tx, product);
    if (
      current &&
      compareVersions(input.version, current.version) < 0 &&
      !input.force &&
      !(await hasManifest(tx, product, input.version))
    ) {
      throw conflict(`version ${input.version} is older than the current ${current.version}; send force: true to publish it anyway`, {
        current_version: current.version,
      });
    }
    const files: ManifestFile[] = [];
    const problems = checks();
    for (const [i, file] of input.files.entries()) {
      const stored = await findReleaseFile(tx, releases, product, input.version, file.filename);
      const at = (field: string) => ['input', 'files', i, field];
      if (!stored)
        problems.add(at('filename'), `${file.filename} is not in the release store for ${input.version}: upload it first`, 'not_found');
      else if (stored.size !== file.size) problems.add(at('size'), `does not match the stored file (${stored.size} bytes)`, 'mismatch');
      else if (file.sha256 && stored.sha256 !== file.sha256) problems.add(at('sha256'), 'does not match the stored file', 'mismatch');
      files.push({
        filename: file.filename,
        size: file.size,
        sha256: stored?.sha256 ?? '',
        signature: file.signature ?? null,
        platform: file.platform ?? null,
        arch: file.arch ?? null,
      });
    }
    problems.done();
    const manifest: Manifest = {
      product,
      version: input.version,
      notes: input.notes ?? null,
      pubDate: (input.pubDate ?? new Date()).toISOString(),
      files,
    };
    // Without a pub_date in the request, the stored one stands.
    const existing = await findManifestLike(tx, manifest, !!input.pubDate);
    if (existing) {
      if (existing.same) return existing.manifest;
      throw conflict(`version ${input.version} of ${product} is already published; published versions are immutable`);
    }
    await insertManifest(tx, manifest);
    return manifest;
  });
}

/** The product's current manifest: the most recently published one. */
export async function currentManifest(em: EntityManager, productName: string): Promise<Manifest | null> {
  return latestManifest(em, checkProduct(productName));
}

/** The public URL of a release file on this host. */
export const downloadUrl = (baseUrl: string, product: string, version: string, filename: string) =>
  `${baseUrl}/admin/api/public/app/${product}/download/${version}/${filename}`;

/**
 * Published files never change (their version is immutable), so once found they are remembered
 * by every instance for good; misses are not remembered, since a publish may come next.
 */
const publishedFiles = new Map<string, ReleaseBinary>();
const PUBLISHED_FILES_KEPT = 1000;

/**
 * A file of a published manifest, for download; null for anything else (unknown, unpublished,
 * or not listed), so a pre-release upload is not public before its manifest is.
 */
export async function publishedFile(em: EntityManager, product: string, version: string, filename: string): Promise<ReleaseBinary | null> {
  if (!(PRODUCTS as readonly string[]).includes(product) || !RELEASE_VERSION.test(version) || !FILENAME.test(filename)) return null;
  // Keyed by database too: several apps in one process (tests) must not share entries.
  const key = `${em.config.get('clientUrl')}|${product}/${version}/${filename}`;
  const known = publishedFiles.get(key);
  if (known) return known;
  const row = await findPublishedBinary(em, product, version, filename);
  if (!row) return null;
  if (publishedFiles.size >= PUBLISHED_FILES_KEPT) publishedFiles.delete(publishedFiles.keys().next().value!);
  publishedFiles.set(key, row);
  return row;
}

/** Where a release file's bytes are in the store. */
export const releaseFileKey = (file: ReleaseBinary) => releaseKey(file.product, file.version, file.filename);

/** Counts one download. */
export const countDownload = (em: EntityManager, file: ReleaseBinary): Promise<void> => addDownload(em, file);

/** A file of the current release with its SHA-512, as electron-updater's feeds list it. */
export interface FeedFile extends ManifestFile {
  /** Base64; empty when the store has no row for it. */
  sha512: string;
}

/** The product's current release with each file's SHA-512 (the update feeds), or null when none is published. */
export async function currentFeed(em: EntityManager, productName: string): Promise<{ manifest: Manifest; files: FeedFile[] } | null> {
  const manifest = await currentManifest(em, productName);
  if (!manifest) return null;
  const digests = new Map((await binariesOfVersion(em, manifest.product, manifest.version)).map((f) => [f.filename, f.sha512]));
  return { manifest, files: manifest.files.map((file) => ({ ...file, sha512: digests.get(file.filename) ?? '' })) };
}

/** Every file of `product` with its download count, newest version first (admins). */
export async function releaseFiles(em: EntityManager, productName: string): Promise<ReleaseBinary[]> {
  const rows = await binariesOfProduct(em, checkProduct(productName));
  // Versions are validated on every way in, so they all compare.
  return rows.sort((a, b) => compareVersions(b.version, a.version) || a.filename.localeCompare(b.filename));
}
