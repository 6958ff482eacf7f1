import { BigIntType, Check, Entity, Index, Opt, PrimaryKey, Property } from '@mikro-orm/core';

// Schema only (these classes drive the migrations): the data goes through release.repository.ts.

/** A binary in the release store (`releases/<product>/<version>/<filename>`), with its digests. */
@Entity({ tableName: 'release_files' })
@Check({ name: 'release_files_check', expression: '(size >= 0) and (downloads >= 0)' })
export class ReleaseFile {
  @PrimaryKey({ type: 'text' })
  product!: string;

  @PrimaryKey({ type: 'text' })
  version!: string;

  @PrimaryKey({ type: 'text' })
  filename!: string;

  @Property({ type: new BigIntType('number') })
  size!: number;

  /** Hex, as the core client verifies it and as the download's ETag. */
  @Property({ type: 'text' })
  sha256!: string;

  /** Base64, as electron-updater's `latest.yml` states it. */
  @Property({ type: 'text' })
  sha512!: string;

  @Property({ type: new BigIntType('number'), default: 0 })
  downloads: number & Opt = 0;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}

/** A published manifest. The product's current one is the most recently published. */
@Entity({ tableName: 'release_manifests' })
@Index({ name: 'release_manifests_current_index', properties: ['product', 'publishedAt'] })
export class ReleaseManifest {
  @PrimaryKey({ type: 'text' })
  product!: string;

  @PrimaryKey({ type: 'text' })
  version!: string;

  @Property({ type: 'json' })
  manifest!: Record<string, unknown>;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  publishedAt: Date & Opt = new Date();
}
