/**
 * The database's tables as the pg driver answers them. Generated from a freshly migrated database by
 * src/db/database-codegen.ts: do not edit; run `npm run db:types` after adding a migration
 * (test/database-types.test.ts fails while this file differs from what migrations/ make).
 */
import type { ColumnType } from 'kysely';

/** bigint: text (exact); a number or a bigint may be written. */
export type Int8 = ColumnType<string, string | number | bigint, string | number | bigint>;
/** numeric: text (exact); a number may be written. */
export type Numeric = ColumnType<string, string | number, string | number>;
/** Timestamps and dates: text, as the ORM's type parsers leave them (`dateOf` makes a Date); a Date may be written. */
export type Timestamp = ColumnType<string, string | Date, string | Date>;
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** json and jsonb: the parsed value; written as JSON text. */
export type Json = ColumnType<JsonValue, string, string>;
/** A column with a default (or an identity): an insert may leave it out. */
export type Defaulted<T> =
  T extends ColumnType<infer S, infer I, infer U> ? ColumnType<S, I | undefined, U> : ColumnType<T, T | undefined, T>;

export interface Database {
  a2a_agents: A2aAgentsTable;
  a2a_artifact_files: A2aArtifactFilesTable;
  a2a_artifacts: A2aArtifactsTable;
  a2a_context_grants: A2aContextGrantsTable;
  a2a_input_files: A2aInputFilesTable;
  a2a_keys: A2aKeysTable;
  a2a_messages: A2aMessagesTable;
  a2a_part_payloads: A2aPartPayloadsTable;
  a2a_peer_tasks: A2aPeerTasksTable;
  a2a_push_configs: A2aPushConfigsTable;
  a2a_push_deliveries: A2aPushDeliveriesTable;
  a2a_settings: A2aSettingsTable;
  a2a_tasks: A2aTasksTable;
  a2a_turns: A2aTurnsTable;
  agent_workspace_jobs: AgentWorkspaceJobsTable;
  annotation_entries: AnnotationEntriesTable;
  audit_events: AuditEventsTable;
  auth_tokens: AuthTokensTable;
  blob_owners: BlobOwnersTable;
  blobs: BlobsTable;
  compute_leases: ComputeLeasesTable;
  compute_plans: ComputePlansTable;
  credit_accounts: CreditAccountsTable;
  credit_entries: CreditEntriesTable;
  device_logins: DeviceLoginsTable;
  discussion_turns: DiscussionTurnsTable;
  figures: FiguresTable;
  instance_secrets: InstanceSecretsTable;
  job_instances: JobInstancesTable;
  lab_members: LabMembersTable;
  labs: LabsTable;
  lease_idle_refreshes: LeaseIdleRefreshesTable;
  mikro_orm_migrations: MikroOrmMigrationsTable;
  model_catalogs: ModelCatalogsTable;
  model_limits: ModelLimitsTable;
  notices: NoticesTable;
  oidc_identities: OidcIdentitiesTable;
  password_links: PasswordLinksTable;
  record_payloads: RecordPayloadsTable;
  release_files: ReleaseFilesTable;
  release_manifests: ReleaseManifestsTable;
  trajectories: TrajectoriesTable;
  trajectory_critiques: TrajectoryCritiquesTable;
  trajectory_records: TrajectoryRecordsTable;
  trajectory_reviews: TrajectoryReviewsTable;
  trajectory_share_links: TrajectoryShareLinksTable;
  usage_entries: UsageEntriesTable;
  user_activity_days: UserActivityDaysTable;
  user_sessions: UserSessionsTable;
  users: UsersTable;
}

export interface A2aAgentsTable {
  user_id: string;
  id: string;
  name: string;
  url: string;
  api_key_sealed: string | null;
  enabled: Defaulted<boolean>;
  allow_private: Defaulted<boolean>;
  status: Defaulted<string>;
  error: string | null;
  checked_at: Timestamp | null;
  test_until: Timestamp | null;
  created_at: Defaulted<Timestamp>;
  updated_at: Defaulted<Timestamp>;
}

export interface A2aArtifactFilesTable {
  task_id: string;
  idx: number;
  owner_id: string;
  workspace: string;
  bytes: Int8;
  created_at: Defaulted<Timestamp>;
}

export interface A2aArtifactsTable {
  task_id: string;
  artifact_id: string;
  artifact: Json;
  created_at: Defaulted<Timestamp>;
  position: Defaulted<number>;
}

export interface A2aContextGrantsTable {
  principal: string;
  context_id: string;
  granted_at: Defaulted<Timestamp>;
}

export interface A2aInputFilesTable {
  task_id: string;
  seq: number;
  part: number;
  path: string | null;
  media_type: string;
  bytes: Int8;
  note: string | null;
  created_at: Defaulted<Timestamp>;
}

export interface A2aKeysTable {
  id: string;
  label: string;
  secret_sha256: string;
  created_at: Defaulted<Timestamp>;
  revoked_at: Timestamp | null;
}

export interface A2aMessagesTable {
  task_id: string;
  seq: number;
  message: Json;
  created_at: Defaulted<Timestamp>;
  bytes: Defaulted<number | null>;
  apart_chars: Defaulted<number>;
}

export interface A2aPartPayloadsTable {
  task_id: string;
  seq: number;
  part: number;
  chunk: number;
  data: string;
}

export interface A2aPeerTasksTable {
  owner_id: string;
  principal: string;
  context_id: string;
  agent_id: string;
  peer_task_id: string;
  task_id: string;
  created_at: Defaulted<Timestamp>;
}

export interface A2aPushConfigsTable {
  task_id: string;
  id: string;
  url: string;
  token_sealed: string | null;
  auth_scheme: string | null;
  auth_credentials_sealed: string | null;
  created_at: Defaulted<Timestamp>;
  updated_at: Defaulted<Timestamp>;
}

export interface A2aPushDeliveriesTable {
  id: Defaulted<Int8>;
  task_id: string;
  config_id: string;
  state: string;
  status_message: Json | null;
  status_at: Timestamp;
  attempts: Defaulted<number>;
  next_attempt_at: Defaulted<Timestamp>;
  outcome: string | null;
  last_error: string | null;
  created_at: Defaulted<Timestamp>;
  finished_at: Timestamp | null;
  claim: string | null;
  claimed_until: Timestamp | null;
}

export interface A2aSettingsTable {
  id: Defaulted<boolean>;
  enabled: boolean;
  owner_email: string;
  updated_at: Defaulted<Timestamp>;
}

export interface A2aTasksTable {
  id: string;
  context_id: string;
  principal: string;
  owner_id: string;
  state: string;
  status_message: Json | null;
  status_at: Defaulted<Timestamp>;
  created_at: Defaulted<Timestamp>;
  last_seq: Defaulted<number>;
}

export interface A2aTurnsTable {
  task_id: string;
  phase: Defaulted<string>;
  transcript: Defaulted<Json>;
  pending: Json | null;
  decision: string | null;
  steps: Defaulted<number>;
  seen_seq: Defaulted<number>;
  outputs_before: Defaulted<Json>;
  job_ids: Defaulted<string[]>;
  answer: string | null;
  updated_at: Defaulted<Timestamp>;
  context_turns: Defaulted<number>;
  peer_tasks: Defaulted<Json>;
}

export interface AgentWorkspaceJobsTable {
  id: string;
  context_id: string;
  instance_id: string;
  language: string;
  state: Defaulted<string>;
  exit_code: number | null;
  signal: string | null;
  log_path: string;
  started_at: Defaulted<Timestamp>;
  heartbeat_at: Defaulted<Timestamp>;
  finished_at: Timestamp | null;
}

export interface AnnotationEntriesTable {
  id: Defaulted<Int8>;
  session_id: string;
  annotation_id: string;
  kind: string;
  author_id: string;
  record_uuid: string | null;
  body: string | null;
  reply_to: string | null;
  created_at: Defaulted<Timestamp>;
}

export interface AuditEventsTable {
  id: Defaulted<Int8>;
  lab_id: string | null;
  actor_id: string | null;
  subject_user_id: string | null;
  action: string;
  detail: Json | null;
  created_at: Defaulted<Timestamp>;
}

export interface AuthTokensTable {
  id: string;
  user_id: string;
  kind: string;
  label: Defaulted<string>;
  secret_hash: string;
  family_id: string | null;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  used_at: Timestamp | null;
  created_at: Defaulted<Timestamp>;
  lease_id: number | null;
  last_used_at: Timestamp | null;
}

export interface BlobOwnersTable {
  user_id: string;
  sha256: string;
  bytes: Int8;
  created_at: Defaulted<Timestamp>;
}

export interface BlobsTable {
  sha256: string;
  bytes: Int8;
  created_at: Defaulted<Timestamp>;
}

export interface ComputeLeasesTable {
  id: Defaulted<number>;
  user_id: string;
  plan_id: number | null;
  state: string;
  provider: string;
  machine: Json;
  rate_credits_per_minute: Numeric;
  ceiling_credits: Numeric | null;
  spent_credits: Defaulted<Numeric>;
  claim_token_hash: string | null;
  process_token_hash: string | null;
  idle_expires_at: Timestamp;
  bootstrap_deadline: Timestamp;
  last_metered_at: Timestamp;
  created_at: Defaulted<Timestamp>;
  released_at: Timestamp | null;
}

export interface ComputePlansTable {
  id: Defaulted<number>;
  user_id: string;
  status: string;
  goal: string;
  inputs: Json;
  machine: Json;
  steps: Json;
  estimated_minutes: number;
  estimated_credits: Numeric;
  spend_ceiling_credits: Numeric;
  token_charge: Json;
  created_at: Defaulted<Timestamp>;
  decided_at: Timestamp | null;
  drafted_by: Defaulted<string>;
}

export interface CreditAccountsTable {
  user_id: string;
  balance: Defaulted<Numeric>;
  reserved: Defaulted<Numeric>;
}

export interface CreditEntriesTable {
  id: Defaulted<Int8>;
  user_id: string;
  kind: string;
  credits: Numeric;
  lease_id: number | null;
  plan_id: number | null;
  reason: string | null;
  created_at: Defaulted<Timestamp>;
  reserved: Defaulted<Numeric>;
}

export interface DeviceLoginsTable {
  id: string;
  device_code_hash: string;
  user_code: string;
  status: Defaulted<string>;
  user_id: string | null;
  expires_at: Timestamp;
  created_at: Defaulted<Timestamp>;
}

export interface DiscussionTurnsTable {
  id: string;
  session_id: string;
  viewer_id: string;
  question: string;
  answer: string;
  created_at: Defaulted<Timestamp>;
}

export interface FiguresTable {
  session_id: string;
  canonical_path: string;
  cdn_url: string | null;
  storage_uri: string | null;
  original_uri: string | null;
  compressed: boolean | null;
  mime: string | null;
  bytes: Int8 | null;
  created_at: Defaulted<Timestamp>;
  updated_at: Defaulted<Timestamp>;
}

export interface InstanceSecretsTable {
  name: string;
  value: string;
}

export interface JobInstancesTable {
  id: string;
  seen_at: Defaulted<Timestamp>;
}

export interface LabMembersTable {
  id: Defaulted<Int8>;
  lab_id: string;
  user_id: string;
  role: string;
  status: string;
  created_at: Defaulted<Timestamp>;
  joined_at: Timestamp | null;
  updated_at: Defaulted<Timestamp>;
}

export interface LabsTable {
  id: string;
  created_at: Defaulted<Timestamp>;
  updated_at: Defaulted<Timestamp>;
  name: string;
  status: Defaulted<string>;
  seat_quota: Defaulted<number>;
  owner_id: string;
  code_hash: string;
  code_sealed: string;
  code_expires_at: Timestamp;
}

export interface LeaseIdleRefreshesTable {
  id: Defaulted<Int8>;
  lease_id: number;
  source: string;
  at: Timestamp;
  idle_expires_at: Timestamp;
}

export interface MikroOrmMigrationsTable {
  id: Defaulted<number>;
  name: string | null;
  executed_at: Defaulted<Timestamp | null>;
}

export interface ModelCatalogsTable {
  id: number;
  body: string;
  updated_by: string;
  updated_at: Defaulted<Timestamp>;
}

export interface ModelLimitsTable {
  subject: string;
  window_kind: string;
  window_start: Timestamp;
  requests: Defaulted<number>;
  tokens: Defaulted<Int8>;
}

export interface NoticesTable {
  id: string;
  user_id: string;
  kind: string;
  text: string;
  path: string;
  created_at: Defaulted<Timestamp>;
  read_at: Timestamp | null;
}

export interface OidcIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: string;
  email: string | null;
  created_at: Defaulted<Timestamp>;
  last_sign_in_at: Defaulted<Timestamp>;
}

export interface PasswordLinksTable {
  id: string;
  user_id: string;
  secret_hash: string;
  created_by_id: string | null;
  created_at: Defaulted<Timestamp>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface RecordPayloadsTable {
  id: Defaulted<Int8>;
  session_id: string;
  body: string;
}

export interface ReleaseFilesTable {
  product: string;
  version: string;
  filename: string;
  size: Int8;
  sha256: string;
  sha512: string;
  downloads: Defaulted<Int8>;
  created_at: Defaulted<Timestamp>;
}

export interface ReleaseManifestsTable {
  product: string;
  version: string;
  manifest: Json;
  published_at: Defaulted<Timestamp>;
}

export interface TrajectoriesTable {
  id: string;
  owner_id: string;
  lab_id: string | null;
  visibility: Defaulted<string>;
  title: string | null;
  source: Defaulted<string>;
  count: Defaulted<number>;
  head_uuid: string | null;
  bytes: Defaulted<Int8>;
  archived_at: Timestamp | null;
  forked_from_session: string | null;
  forked_from_uuid: string | null;
  summary: Json | null;
  created_at: Defaulted<Timestamp>;
  updated_at: Defaulted<Timestamp>;
  summary_error: string | null;
  inherited_tokens_in: Defaulted<Int8>;
  inherited_tokens_out: Defaulted<Int8>;
}

export interface TrajectoryCritiquesTable {
  session_id: string;
  head_uuid: string;
  record_count: number;
  model: string;
  findings: Json;
  created_at: Defaulted<Timestamp>;
}

export interface TrajectoryRecordsTable {
  session_id: string;
  seq: number;
  uuid: string;
  parent_uuid: string | null;
  type: string;
  raw: string | null;
  payload_ref: string | null;
  bytes: number;
  created_at: Defaulted<Timestamp>;
}

export interface TrajectoryReviewsTable {
  id: string;
  session_id: string;
  lab_id: string;
  requested_by: string;
  reviewer_id: string;
  state: Defaulted<string>;
  note: string | null;
  due_on: Timestamp | null;
  verdict_note: string | null;
  created_at: Defaulted<Timestamp>;
  started_at: Timestamp | null;
  first_verdict_at: Timestamp | null;
  decided_at: Timestamp | null;
  updated_at: Defaulted<Timestamp>;
  due_reminded_at: Timestamp | null;
}

export interface TrajectoryShareLinksTable {
  id: string;
  session_id: string;
  created_by: string;
  token_hash: string;
  mask_emails: Defaulted<boolean>;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  views: Defaulted<number>;
  last_viewed_at: Timestamp | null;
  created_at: Defaulted<Timestamp>;
  include_figures: Defaulted<boolean>;
}

export interface UsageEntriesTable {
  id: Defaulted<Int8>;
  user_id: string;
  lab_id: string | null;
  session_id: string | null;
  source: string;
  tokens_in: Defaulted<Int8>;
  tokens_out: Defaulted<Int8>;
  created_at: Defaulted<Timestamp>;
  feature: string | null;
  model: string | null;
  credits: Defaulted<Numeric>;
  latency_ms: number | null;
  outcome: string | null;
  a2a_principal: string | null;
  call_id: string | null;
}

export interface UserActivityDaysTable {
  user_id: string;
  day: Timestamp;
  last_seen_at: Timestamp;
}

export interface UserSessionsTable {
  id: string;
  user_id: string;
  secret_hash: string;
  method: string;
  user_agent: string | null;
  address: string | null;
  created_at: Defaulted<Timestamp>;
  last_seen_at: Defaulted<Timestamp>;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface UsersTable {
  id: string;
  created_at: Defaulted<Timestamp>;
  updated_at: Defaulted<Timestamp>;
  email: string;
  name: string;
  phone: string | null;
  plan_code: Defaulted<string>;
  plan_source: Defaulted<string>;
  plan_expires_at: Timestamp | null;
  is_admin: Defaulted<boolean>;
  disabled: Defaulted<boolean>;
  domain: Defaulted<string>;
  institution: string | null;
  institution_tier: string | null;
  institution_type: string | null;
  institution_name: string | null;
  storage_quota_bytes: Int8 | null;
  storage_used_bytes: Defaulted<Int8>;
  last_active_at: Timestamp | null;
  password_hash: string | null;
}
