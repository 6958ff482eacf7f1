import { BigIntType, Check, Entity, Index, ManyToOne, Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { Trajectory } from '../trajectories/trajectory.entity';
import { User } from '../users/user.entity';

// Schema only (these classes drive the migrations): the data goes through figure.repository.ts.

/** A content-addressed blob in the private drive: stored once, whoever uploads it. */
@Entity({ tableName: 'blobs' })
@Check({ name: 'blobs_check', expression: `(sha256 ~ '^[0-9a-f]{64}$'::text) and (bytes >= 0)` })
export class Blob {
  /** Hex SHA-256 of the bytes; the store key is `sha256/<hex>`. */
  @PrimaryKey({ type: 'text' })
  sha256!: string;

  @Property({ type: new BigIntType('number') })
  bytes!: number;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}

/** A user's claim on a blob: each user is charged once per distinct blob, however often they upload it. */
@Entity({ tableName: 'blob_owners' })
@Index({ name: 'blob_owners_sha256_index', properties: ['blob'] })
export class BlobOwner {
  @ManyToOne(() => User, { primary: true, deleteRule: 'cascade' })
  user!: User;

  @ManyToOne(() => Blob, { primary: true, fieldName: 'sha256' })
  blob!: Blob;

  @Property({ type: new BigIntType('number') })
  bytes!: number;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}

/** A figure map row: a local figure path of a session and where its bytes are (spec: Figure map row). */
@Entity({ tableName: 'figures' })
@Check({ name: 'figures_target_check', expression: '(cdn_url is not null) or (storage_uri is not null)' })
export class Figure {
  @ManyToOne(() => Trajectory, { primary: true, deleteRule: 'cascade' })
  session!: Trajectory;

  @PrimaryKey({ type: 'text' })
  canonicalPath!: string;

  @Property({ type: 'text', nullable: true })
  cdnUrl: string | null = null;

  @Property({ type: 'text', nullable: true })
  storageUri: string | null = null;

  @Property({ type: 'text', nullable: true })
  originalUri: string | null = null;

  @Property({ type: 'boolean', nullable: true })
  compressed: boolean | null = null;

  @Property({ type: 'text', nullable: true })
  mime: string | null = null;

  @Property({ type: new BigIntType('number'), nullable: true })
  bytes: number | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  updatedAt: Date & Opt = new Date();
}
