import { Check, Entity, Enum, Index, ManyToOne, OneToOne, Opt, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';
import type { A2aArtifact, A2aMessage } from './a2a.types';
import { TASK_STATES } from './a2a-states';

// Schema only: these entities declare the A2A tables, and migrations are generated from them.
// The A2A repositories read and write with SQL of their own (prepared statements on the hot
// path); their types (`TaskRow`, `TurnState`, …) are the model. Named `…Entity` because the
// GraphQL model (a2a.types.ts) owns the plain names.

/** An A2A task: its state, the caller it belongs to and the conversation (context) it is in. */
@Entity({ tableName: 'a2a_tasks' })
@Index({ name: 'a2a_tasks_principal_context_id_index', properties: ['principal', 'contextId', 'createdAt'] })
/** ListTasks pages newest first. */
@Index({
  name: 'a2a_tasks_principal_status_at_index',
  expression: 'create index "a2a_tasks_principal_status_at_index" on "a2a_tasks" ("principal", "status_at" desc, "id" desc)',
})
export class A2aTaskEntity {
  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'text' })
  contextId!: string;

  /** Who may see the task: an A2A key's id, or a user's. */
  @Property({ type: 'text' })
  principal!: string;

  @Property({ type: 'text' })
  ownerId!: string;

  @Enum({ items: [...TASK_STATES] })
  state!: (typeof TASK_STATES)[number];

  @Property({ type: 'json', nullable: true })
  statusMessage: A2aMessage | null = null;

  /** Milliseconds, so that a task's status time round-trips through the wire's timestamps. */
  @Property({ type: 'datetime', defaultRaw: `date_trunc('milliseconds'::text, clock_timestamp())` })
  statusAt!: Date & Opt;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt!: Date & Opt;

  /** The newest message's `seq`, bumped by every append (the next one is `last_seq + 1`). */
  @Property({ type: 'integer', default: 0 })
  lastSeq!: number & Opt;
}

/** A task's history, one row per message, in order. */
@Entity({ tableName: 'a2a_messages' })
export class A2aMessageEntity {
  [PrimaryKeyProp]?: ['task', 'seq'];

  @ManyToOne(() => A2aTaskEntity, { primary: true, deleteRule: 'cascade', updateRule: 'no action' })
  task!: A2aTaskEntity;

  @PrimaryKey({ type: 'integer' })
  seq!: number;

  @Property({ type: 'json' })
  message!: A2aMessage;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt!: Date & Opt;

  /** The message's size, which the history's byte budget sums without reading the messages. */
  @Property({ type: 'integer', generated: 'octet_length((message)::text) stored', nullable: true })
  bytes!: number & Opt;

  /**
   * Characters of the `raw` payloads stored apart (`a2a_part_payloads`), which `bytes` does not
   * count: the history's budget sums both, so a message weighs what it is answered as.
   */
  @Property({ type: 'integer', default: 0 })
  apartChars!: number & Opt;
}

/**
 * A `raw` part's payload (base64, as sent), stored apart from its message in chunks: no statement
 * reading messages builds a value of their files' size, and a file is read a few chunks at a time.
 */
@Entity({ tableName: 'a2a_part_payloads' })
export class A2aPartPayloadEntity {
  [PrimaryKeyProp]?: ['task', 'seq', 'part', 'chunk'];

  @ManyToOne(() => A2aTaskEntity, { primary: true, deleteRule: 'cascade', updateRule: 'no action' })
  task!: A2aTaskEntity;

  /** The message's sequence number in its task. */
  @PrimaryKey({ type: 'integer' })
  seq!: number;

  /** The part's 0-based index in its message. */
  @PrimaryKey({ type: 'integer' })
  part!: number;

  /** The chunk's 0-based place in the payload. */
  @PrimaryKey({ type: 'integer' })
  chunk!: number;

  @Property({ type: 'text' })
  data!: string;
}

/** A task's artifacts, in the order they were first produced. */
@Entity({ tableName: 'a2a_artifacts' })
export class A2aArtifactEntity {
  [PrimaryKeyProp]?: ['task', 'artifactId'];

  @ManyToOne(() => A2aTaskEntity, { primary: true, deleteRule: 'cascade', updateRule: 'no action' })
  task!: A2aTaskEntity;

  @PrimaryKey({ type: 'text' })
  artifactId!: string;

  @Property({ type: 'json' })
  artifact!: A2aArtifact;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt!: Date & Opt;

  @Property({ type: 'integer', default: 0 })
  position!: number & Opt;
}

/** A file of the agent's workspace offered as an artifact: served by its download route. */
@Entity({ tableName: 'a2a_artifact_files' })
export class A2aArtifactFileEntity {
  [PrimaryKeyProp]?: ['task', 'idx'];

  @ManyToOne(() => A2aTaskEntity, { primary: true, deleteRule: 'cascade', updateRule: 'no action' })
  task!: A2aTaskEntity;

  @PrimaryKey({ type: 'integer' })
  idx!: number;

  @Index()
  @Property({ type: 'text' })
  ownerId!: string;

  /** The workspace the file lives in. */
  @Index()
  @Property({ type: 'text' })
  workspace!: string;

  @Property({ type: 'bigint' })
  bytes!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt!: Date & Opt;
}

/** A file a caller sent in a message, saved into the workspace (or refused, with a note). */
@Entity({ tableName: 'a2a_input_files' })
export class A2aInputFileEntity {
  [PrimaryKeyProp]?: ['task', 'seq', 'part'];

  @ManyToOne(() => A2aTaskEntity, { primary: true, deleteRule: 'cascade', updateRule: 'no action' })
  task!: A2aTaskEntity;

  @PrimaryKey({ type: 'integer' })
  seq!: number;

  @PrimaryKey({ type: 'integer' })
  part!: number;

  @Property({ type: 'text', nullable: true })
  path: string | null = null;

  @Property({ type: 'text' })
  mediaType!: string;

  @Property({ type: 'bigint' })
  bytes!: string;

  @Property({ type: 'text', nullable: true })
  note: string | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt!: Date & Opt;
}

/** The analysis agent's loop state for a task: survives restarts and waits for approvals or jobs. */
@Entity({ tableName: 'a2a_turns' })
@Check({
  name: 'a2a_turns_decision_check',
  expression: `(decision is null) or (decision = any (array['allow_once'::text, 'allow_session'::text]))`,
})
/** The job poller reads the turns waiting for jobs. */
@Index({
  name: 'a2a_turns_phase_index',
  expression: `create index "a2a_turns_phase_index" on "a2a_turns" ("phase") where (phase = 'awaiting_jobs'::text)`,
})
export class A2aTurnEntity {
  [PrimaryKeyProp]?: 'task';

  @OneToOne(() => A2aTaskEntity, { primary: true, deleteRule: 'cascade', updateRule: 'no action' })
  task!: A2aTaskEntity;

  @Enum({ items: ['running', 'awaiting_approval', 'awaiting_jobs'], default: 'running' })
  phase!: 'running' | 'awaiting_approval' | ('awaiting_jobs' & Opt);

  @Property({ type: 'json', default: '[]' })
  transcript!: unknown[] & Opt;

  @Property({ type: 'json', nullable: true })
  pending: unknown = null;

  @Property({ type: 'text', nullable: true })
  decision: 'allow_once' | 'allow_session' | null = null;

  @Property({ type: 'integer', default: 0 })
  steps!: number & Opt;

  @Property({ type: 'integer', default: 0 })
  seenSeq!: number & Opt;

  @Property({ type: 'json', default: '{}' })
  outputsBefore!: Record<string, unknown> & Opt;

  @Property({ type: 'text[]', default: '{}' })
  jobIds!: string[] & Opt;

  @Property({ type: 'text', nullable: true })
  answer: string | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  updatedAt!: Date & Opt;

  @Property({ type: 'integer', default: 0 })
  contextTurns!: number & Opt;

  @Property({ type: 'json', default: '[]' })
  peerTasks!: unknown[] & Opt;
}

/** "Allow for this conversation": the caller's standing approval within one context. */
@Entity({ tableName: 'a2a_context_grants' })
export class A2aContextGrantEntity {
  [PrimaryKeyProp]?: ['principal', 'contextId'];

  @PrimaryKey({ type: 'text' })
  principal!: string;

  @PrimaryKey({ type: 'text' })
  contextId!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  grantedAt!: Date & Opt;
}

/** A task the analysis agent started at an outbound agent, so that a later turn can continue it. */
@Entity({ tableName: 'a2a_peer_tasks' })
export class A2aPeerTaskEntity {
  [PrimaryKeyProp]?: ['ownerId', 'principal', 'contextId', 'agentId', 'peerTaskId'];

  @PrimaryKey({ type: 'text' })
  ownerId!: string;

  @PrimaryKey({ type: 'text' })
  principal!: string;

  @PrimaryKey({ type: 'text' })
  contextId!: string;

  @PrimaryKey({ type: 'text' })
  agentId!: string;

  @PrimaryKey({ type: 'text' })
  peerTaskId!: string;

  @Property({ type: 'text' })
  taskId!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt!: Date & Opt;
}

/** A webhook a caller registered for a task; secrets sealed with the instance key. */
@Entity({ tableName: 'a2a_push_configs' })
export class A2aPushConfigEntity {
  [PrimaryKeyProp]?: ['task', 'id'];

  @ManyToOne(() => A2aTaskEntity, { primary: true, deleteRule: 'cascade', updateRule: 'no action' })
  task!: A2aTaskEntity;

  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'text' })
  url!: string;

  @Property({ type: 'text', nullable: true })
  tokenSealed: string | null = null;

  @Property({ type: 'text', nullable: true })
  authScheme: string | null = null;

  @Property({ type: 'text', nullable: true })
  authCredentialsSealed: string | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt!: Date & Opt;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  updatedAt!: Date & Opt;
}

/**
 * One webhook call owed: enqueued by the `a2a_tasks_push_enqueue` trigger in the transaction that
 * settles the task, claimed by one instance at a time, retried with back-off.
 */
@Entity({ tableName: 'a2a_push_deliveries' })
@Index({ name: 'a2a_push_deliveries_task_config_index', properties: ['config', 'id'] })
/** The sender's queue: deliveries not yet finished, by when they are due. */
@Index({
  name: 'a2a_push_deliveries_pending_index',
  expression: 'create index "a2a_push_deliveries_pending_index" on "a2a_push_deliveries" ("next_attempt_at") where (outcome is null)',
})
@Check({ name: 'a2a_push_deliveries_claim_check', expression: '(claim is null) = (claimed_until is null)' })
@Check({
  name: 'a2a_push_deliveries_outcome_check',
  expression: `((outcome = any (array['delivered'::text, 'failed'::text])) and (finished_at is not null)) or ((outcome is null) and (finished_at is null))`,
})
export class A2aPushDeliveryEntity {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @ManyToOne(() => A2aPushConfigEntity, {
    fieldNames: ['task_id', 'config_id'],
    foreignKeyName: 'a2a_push_deliveries_config_foreign',
    deleteRule: 'cascade',
    updateRule: 'no action',
  })
  config!: A2aPushConfigEntity;

  /** The task's state and status message when it settled: what the webhook carries. */
  @Property({ type: 'text' })
  state!: string;

  @Property({ type: 'json', nullable: true })
  statusMessage: A2aMessage | null = null;

  @Property({ type: 'datetime' })
  statusAt!: Date;

  @Property({ type: 'integer', default: 0 })
  attempts!: number & Opt;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  nextAttemptAt!: Date & Opt;

  @Property({ type: 'text', nullable: true })
  outcome: 'delivered' | 'failed' | null = null;

  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt!: Date & Opt;

  @Property({ type: 'datetime', nullable: true })
  finishedAt: Date | null = null;

  /** The instance's claim while it sends, and until when it holds. */
  @Property({ type: 'uuid', nullable: true })
  claim: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  claimedUntil: Date | null = null;
}

/** An A2A API key; only the SHA-256 of its secret is stored. */
@Entity({ tableName: 'a2a_keys' })
export class A2aKeyEntity {
  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'text' })
  label!: string;

  @Property({ type: 'text' })
  secretSha256!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt!: Date & Opt;

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;
}

/** The endpoint's settings: one row, changed by an administrator. */
@Entity({ tableName: 'a2a_settings' })
@Check({ name: 'a2a_settings_single_row', expression: 'id is true' })
export class A2aSettingsEntity {
  @PrimaryKey({ type: 'boolean', default: true })
  id!: boolean & Opt;

  @Property({ type: 'boolean' })
  enabled!: boolean;

  @Property({ type: 'text' })
  ownerEmail!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  updatedAt!: Date & Opt;
}
