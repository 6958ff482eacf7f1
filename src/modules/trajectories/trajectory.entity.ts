import { BigIntType, Check, Entity, Enum, Index, ManyToOne, Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Lab } from '../labs/lab.entity';
import { User } from '../users/user.entity';

export const VISIBILITIES = ['private', 'lab'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

// Schema only: these entities describe the tables for the migrations (migrations/);
// the domain reads and writes them through its repositories (trajectory.repository.ts and the
// others beside it), whose camelCase types (`TrajectoryRow`, ...) are the domain's one model.

/**
 * A session (trajectory): an append-only list of records. `count`, `headUuid` and `bytes` are
 * kept in the same transaction as every write of its records.
 */
/**
 * The searchable text of a session's title and of a record (the record's JSON without its member
 * names and with its \n, \r, \t escapes as spaces), as PostgreSQL's `simple` configuration
 * reads them: no stemming, any language. The search indexes below are built on exactly these
 * expressions, and trajectory-search.repository.ts queries them, so that the indexes serve it.
 */
export const titleTextSql = (title: string) => `to_tsvector('simple'::regconfig, COALESCE(${title}, ''::text))`;
export const recordTextSql = (raw: string) =>
  `to_tsvector('simple'::regconfig, regexp_replace(${raw}, '"\\w+"\\s*:|\\\\[nrt]'::text, ' '::text, 'g'::text))`;

@Entity({ tableName: 'trajectories' })
@Index({ properties: ['owner', 'updatedAt'] })
@Index({ properties: ['lab', 'visibility', 'updatedAt'] })
// Search over titles (titleTextSql).
@Index({
  name: 'trajectories_title_search',
  expression: `create index "trajectories_title_search" on "trajectories" using gin (${titleTextSql('title')})`,
})
@Check({ name: 'trajectories_counts_check', expression: '(count >= 0) and (bytes >= 0)' })
export class Trajectory {
  /** Chosen by the client: 1-128 of [A-Za-z0-9._:-]. */
  @PrimaryKey({ type: 'text' })
  id!: string;

  @ManyToOne(() => User)
  owner!: User;

  @ManyToOne(() => Lab, { nullable: true })
  lab: Lab | null = null;

  @Enum({ items: [...VISIBILITIES], default: 'private' })
  visibility: Visibility & Opt = 'private';

  @Property({ type: 'text', nullable: true })
  title: string | null = null;

  /** desktop, cli, cloud, api, fork or a2a. */
  @Property({ type: 'text', default: 'api' })
  source: string & Opt = 'api';

  @Property({ type: 'integer', default: 0 })
  count: number & Opt = 0;

  @Property({ type: 'text', nullable: true })
  headUuid: string | null = null;

  /** Stored bytes of all records. */
  @Property({ type: new BigIntType('number'), default: 0 })
  bytes: number & Opt = 0;

  @Property({ type: 'datetime', nullable: true })
  archivedAt: Date | null = null;

  @Property({ type: 'text', nullable: true })
  forkedFromSession: string | null = null;

  @Property({ type: 'text', nullable: true })
  forkedFromUuid: string | null = null;

  /**
   * Tokens the records a fork was seeded with reported: its own appends go to the usage ledger,
   * which the copied records never entered (they were its parent's usage), yet they are its turns.
   */
  @Property({ type: new BigIntType('number'), default: 0 })
  inheritedTokensIn: number & Opt = 0;

  @Property({ type: new BigIntType('number'), default: 0 })
  inheritedTokensOut: number & Opt = 0;

  /** Cached summary `{text, head_uuid, generated_at}`; null when absent or dropped. */
  @Property({ type: 'json', nullable: true })
  summary: Record<string, unknown> | null = null;

  /** Why the last summary job failed (null after a success or a refresh). */
  @Property({ type: 'text', nullable: true })
  summaryError: string | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  updatedAt: Date & Opt = new Date();
}

/**
 * One record, kept as the exact text received. Records over the inline threshold keep
 * their text in the payload store and a reference here.
 */
@Entity({ tableName: 'trajectory_records' })
@Unique({ properties: ['session', 'uuid'] })
// Search over records' text (recordTextSql).
@Index({
  name: 'trajectory_records_text_search',
  expression: `create index "trajectory_records_text_search" on "trajectory_records" using gin (${recordTextSql('raw')}) where (raw is not null)`,
})
export class TrajectoryRecord {
  @ManyToOne(() => Trajectory, { primary: true, deleteRule: 'cascade' })
  session!: Trajectory;

  /** 1-based position in the session. */
  @PrimaryKey({ type: 'integer' })
  seq!: number;

  @Property({ type: 'text' })
  uuid!: string;

  @Property({ type: 'text', nullable: true })
  parentUuid: string | null = null;

  @Property({ type: 'text' })
  type!: string;

  @Property({ type: 'text', nullable: true })
  raw: string | null = null;

  /** Where the text is when it is not inline (e.g. `db:42`). */
  @Property({ type: 'text', nullable: true })
  payloadRef: string | null = null;

  @Property({ type: 'integer' })
  bytes!: number;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}

/** Large record texts, until the blob store takes them (see payloads.ts). */
@Entity({ tableName: 'record_payloads' })
export class RecordPayload {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Index()
  @ManyToOne(() => Trajectory, { deleteRule: 'cascade' })
  session!: Trajectory;

  @Property({ type: 'text' })
  body!: string;
}

/**
 * Annotations and their status changes: an append-only log per session. `kind` is `note` (a new
 * annotation or a reply) or `resolve` (a status entry for `annotationId`).
 */
@Entity({ tableName: 'annotation_entries' })
@Index({ properties: ['session', 'id'] })
export class AnnotationEntry {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @ManyToOne(() => Trajectory, { deleteRule: 'cascade' })
  session!: Trajectory;

  @Index({ name: 'annotation_entries_annotation_id_index' })
  @Property({ type: 'text' })
  annotationId!: string;

  @Enum({ items: ['note', 'resolve'] })
  kind!: 'note' | 'resolve';

  @Property({ type: 'text' })
  authorId!: string;

  @Property({ type: 'text', nullable: true })
  recordUuid: string | null = null;

  @Property({ type: 'text', nullable: true })
  body: string | null = null;

  @Property({ type: 'text', nullable: true })
  replyTo: string | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}

/** A Q&A turn of a viewer other than the owner about a session (the owner's own are not kept). */
@Entity({ tableName: 'discussion_turns' })
@Index({ properties: ['session', 'createdAt'] })
export class DiscussionTurn {
  @PrimaryKey({ type: 'text' })
  id!: string;

  @ManyToOne(() => Trajectory, { deleteRule: 'cascade' })
  session!: Trajectory;

  @ManyToOne(() => User)
  viewer!: User;

  @Property({ type: 'text' })
  question!: string;

  @Property({ type: 'text' })
  answer!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}
