import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LimitPage } from '../../pages';
import { Person } from '../users/user.types';

export enum VisibilityValue {
  private = 'private',
  lab = 'lab',
}
registerEnumType(VisibilityValue, {
  name: 'Visibility',
  description: 'private: the owner (and admins); lab: also the active members of its lab.',
});

@ObjectType({ description: 'Where a fork came from.' })
export class ForkOrigin {
  @Field(() => ID, { description: 'The parent session.' })
  sessionId!: string;

  @Field({ description: 'uuid of the parent’s record the fork was made at (its last copied record).' })
  headUuid!: string;

  /** The fork's own session id (for the field resolvers; not a field). */
  forkId!: string;
}

@ObjectType({
  description:
    'What the caller may do to a trajectory, each answered by the rule the mutation itself enforces (true: the mutation is allowed; it may still refuse for the state, e.g. a quota or a lab to share with).',
})
export class TrajectoryViewerCan {
  @Field({
    description: 'trajectoryAnnotate: comment on a record or reply to a note (the owner, or a mentor of the lab it is shared with).',
  })
  annotate!: boolean;

  @Field({ description: 'trajectoryAnnotationResolve, on any of its notes (the same right as annotate).' })
  resolve!: boolean;

  @Field({ description: 'trajectoryFork (anyone who can view it).' })
  fork!: boolean;

  @Field({ description: 'trajectoryVisibilitySet (the owner).' })
  changeVisibility!: boolean;

  @Field({ description: 'trajectoryDelete (the owner).' })
  delete!: boolean;

  @Field({ description: 'trajectorySummaryRefresh (the owner).' })
  refreshSummary!: boolean;

  @Field({
    description: 'trajectoryShareLinkCreate, trajectoryShareLinks, trajectoryShareLinkRevoke (the same people as annotate).',
  })
  share!: boolean;

  @Field({ description: 'trajectoryReviewRequest (an owner or mentor of the lab it is shared with).' })
  requestReview!: boolean;
}

@ObjectType({ description: 'Tokens a trajectory’s records reported (their message.usage), all turns together.' })
export class TrajectoryTokens {
  @Field(() => Number)
  input!: number;

  @Field(() => Number)
  output!: number;
}

@ObjectType({ description: 'A trajectory (session) without its records.' })
export class TrajectoryMeta {
  @Field(() => ID)
  sessionId!: string;

  @Field(() => ID)
  ownerId!: string;

  @Field(() => Person, { description: 'Whose session it is.' })
  owner!: Person;

  @Field(() => TrajectoryViewerCan, { description: 'What the caller may do to it.' })
  viewerCan!: TrajectoryViewerCan;

  @Field(() => ID, { nullable: true })
  labId!: string | null;

  @Field(() => VisibilityValue)
  visibility!: VisibilityValue;

  @Field(() => String, { nullable: true })
  title!: string | null;

  @Field(() => Int, { description: 'Records stored.' })
  count!: number;

  @Field(() => String, { nullable: true, description: 'uuid of the last record; null when empty.' })
  headUuid!: string | null;

  @Field(() => Number, { description: 'Stored bytes of all records.' })
  bytes!: number;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date)
  updatedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'Set when reconcile archived it; cleared when it is written again.' })
  archivedAt!: Date | null;

  @Field(() => ForkOrigin, { nullable: true })
  forkedFrom!: ForkOrigin | null;

  @Field(() => Int)
  figureCount!: number;

  @Field(() => Int)
  openAnnotations!: number;

  @Field({ description: 'desktop, cli, cloud, api, fork or a2a.' })
  source!: string;
}

@ObjectType({ description: 'A page of trajectories.' })
export class TrajectoryPage extends LimitPage(TrajectoryMeta) {}

@ObjectType({ description: 'The session after a write.' })
export class AppendPayload {
  @Field(() => ID)
  sessionId!: string;

  @Field(() => String, { nullable: true })
  headUuid!: string | null;

  @Field(() => Int)
  count!: number;

  @Field(() => Int, { description: 'Records written by this call (0 for a retried batch).' })
  appended!: number;
}

@ObjectType({ description: 'What reconcile changed.' })
export class ReconcilePayload {
  @Field(() => [ID])
  archived!: string[];

  @Field(() => [ID])
  reactivated!: string[];
}

@ObjectType({ description: 'Records appended to a session, streamed to its viewers.' })
export class RecordsAppendedEvent {
  @Field(() => ID)
  sessionId!: string;

  @Field(() => [String], { description: 'Each record’s stored JSON text.' })
  records!: string[];

  @Field(() => String, { nullable: true })
  headUuid!: string | null;

  @Field(() => Int)
  count!: number;
}

@InputType({ description: 'A fast-forward append.' })
export class TrajectoryAppendInput {
  @Field(() => String, { nullable: true, description: 'uuid of the last record the client has; null for a new or empty session.' })
  baseUuid?: string | null;

  @Field(() => [String], { description: 'Each record as JSON text (stored byte for byte).' })
  records!: string[];

  @Field(() => ID, { nullable: true, description: 'Lab of a new session (one you are active in).' })
  labId?: string | null;

  @Field(() => String, { nullable: true })
  title?: string | null;
}

@InputType({ description: 'A cover-write: the session becomes exactly these records.' })
export class TrajectoryCoverInput {
  @Field(() => [String], { description: 'Each record as JSON text (stored byte for byte).' })
  records!: string[];

  @Field(() => ID, { nullable: true })
  labId?: string | null;

  @Field(() => String, { nullable: true })
  title?: string | null;
}

@InputType({ description: 'The complete list of session ids a client has.' })
export class ReconcileInput {
  @Field(() => [ID])
  sessionIds!: string[];
}

@InputType({ description: 'Who may view the session.' })
export class VisibilityInput {
  @Field(() => VisibilityValue)
  visibility!: VisibilityValue;

  @Field(() => ID, { nullable: true, description: 'For lab: the lab to share with (default: the session’s lab).' })
  labId?: string | null;
}

export enum AnnotationStatusValue {
  open = 'open',
  resolved = 'resolved',
}
registerEnumType(AnnotationStatusValue, { name: 'AnnotationStatus' });

@ObjectType({ description: 'A note anchored to a record; resolving appends a status entry.' })
export class Annotation {
  @Field(() => ID)
  annotationId!: string;

  @Field(() => ID)
  sessionId!: string;

  @Field()
  recordUuid!: string;

  @Field(() => ID)
  authorId!: string;

  @Field(() => Person, { description: 'Who wrote it.' })
  author!: Person;

  @Field()
  body!: string;

  @Field(() => ID, { nullable: true, description: 'The note this one answers.' })
  replyTo!: string | null;

  @Field(() => AnnotationStatusValue)
  status!: AnnotationStatusValue;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  resolvedAt!: Date | null;

  @Field(() => ID, { nullable: true })
  resolvedBy!: string | null;
}

@ObjectType()
export class AnnotationList {
  @Field(() => [Annotation])
  items!: Annotation[];

  @Field(() => Int)
  total!: number;
}

@InputType({ description: 'A note on a record (1-10,000 characters), or a reply to another note.' })
export class AnnotationInput {
  @Field()
  recordUuid!: string;

  @Field()
  body!: string;

  @Field(() => ID, { nullable: true })
  replyTo?: string | null;
}

export enum SeverityValue {
  info = 'info',
  warning = 'warning',
  error = 'error',
}
registerEnumType(SeverityValue, { name: 'Severity' });

@ObjectType({ description: 'One critique finding, anchored to a record.' })
export class Finding {
  @Field()
  recordUuid!: string;

  @Field(() => SeverityValue)
  severity!: SeverityValue;

  @Field()
  body!: string;

  @Field(() => Int, { nullable: true, description: 'The record’s position in the session (1 for the first).' })
  recordSeq?: number;
}

@ObjectType()
export class Critique {
  @Field(() => [Finding])
  findings!: Finding[];
}

@InputType()
export class ForkInput {
  @Field({ description: 'The last record to copy (included).' })
  headUuid!: string;
}

@ObjectType({ description: 'A new session seeded from another.' })
export class ForkPayload {
  @Field(() => ID)
  sessionId!: string;

  @Field(() => ForkOrigin)
  forkedFrom!: ForkOrigin;

  @Field(() => Int)
  count!: number;
}

@InputType()
export class SummaryRequestInput {
  @Field({ description: 'Summarize everything up to this record.' })
  parentUuid!: string;
}

@ObjectType({ description: 'The appended summary record.' })
export class SummaryRecord {
  @Field()
  type!: string;

  @Field()
  uuid!: string;

  @Field()
  parentUuid!: string;

  @Field()
  summary!: string;

  @Field()
  leafUuid!: string;
}

@ObjectType()
export class CachedSummary {
  @Field()
  text!: string;

  @Field()
  headUuid!: string;

  @Field(() => Date)
  generatedAt!: Date;
}

@ObjectType({ description: 'The model summary cache: disabled without a model, else pending, ready or failed.' })
export class SummaryState {
  @Field()
  enabled!: boolean;

  @Field(() => String, { nullable: true })
  reason?: string;

  @Field(() => String, {
    nullable: true,
    description: 'pending (a job is queued or running), ready, or failed (the job is dead; refresh to try again).',
  })
  status?: string;

  @Field(() => CachedSummary, { nullable: true })
  summary?: CachedSummary;

  @Field(() => Boolean, { nullable: true, description: 'The session moved on since it was made.' })
  stale?: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Why the summary job failed (status failed): names the provider and model when the model call failed.',
  })
  error?: string;
}

@ObjectType()
export class SummaryRefresh {
  @Field({ description: 'Always pending: poll the summary.' })
  status!: string;
}

@InputType({ description: 'An earlier turn of the same conversation.' })
export class DiscussTurnInput {
  @Field()
  question!: string;

  @Field()
  answer!: string;
}

@InputType({ description: 'A question about the session, with the conversation so far.' })
export class DiscussInput {
  @Field({ description: '1-4,000 characters.' })
  question!: string;

  @Field(() => [DiscussTurnInput], { nullable: true, description: 'At most 50 earlier turns.' })
  history?: DiscussTurnInput[] | null;
}

@ObjectType()
export class DiscussAnswer {
  @Field()
  answer!: string;

  @Field(() => ID)
  turnId!: string;
}

@ObjectType({ description: 'One event of a streamed answer: exactly one of its fields is set. The last event is done.' })
export class DiscussStreamEvent {
  @Field(() => String, { nullable: true, description: 'The next piece of the answer, as the model sent it.' })
  delta?: string | null;

  @Field(() => DiscussAnswer, { nullable: true, description: 'The whole answer and its turn id (kept as for trajectoryDiscuss).' })
  done?: DiscussAnswer | null;
}

@ObjectType()
export class DiscussionTurnNode {
  @Field(() => ID)
  turnId!: string;

  @Field()
  question!: string;

  @Field()
  answer!: string;

  @Field(() => Date)
  createdAt!: Date;
}

@ObjectType()
export class DiscussionViewer {
  @Field(() => ID)
  userId!: string;

  @Field()
  name!: string;

  @Field(() => [DiscussionTurnNode])
  turns!: DiscussionTurnNode[];
}

@ObjectType({ description: 'Q&A turns of other viewers, grouped by viewer (owner only).' })
export class Discussions {
  @Field(() => [DiscussionViewer])
  viewers!: DiscussionViewer[];
}

@ObjectType()
export class UserStorage {
  @Field(() => ID)
  userId!: string;

  @Field()
  email!: string;

  @Field(() => Number)
  usedBytes!: number;

  @Field(() => Number)
  quotaBytes!: number;

  @Field(() => Int)
  sessions!: number;
}

@ObjectType()
export class LabStorage {
  @Field(() => ID)
  labId!: string;

  @Field()
  name!: string;

  @Field(() => Number)
  bytes!: number;

  @Field(() => Int)
  sessions!: number;
}

@ObjectType({ description: 'Byte usage per user and per lab (the 500 largest of each).' })
export class StorageSummary {
  @Field(() => [UserStorage])
  users!: UserStorage[];

  @Field(() => [LabStorage])
  labs!: LabStorage[];

  @Field(() => Number)
  totalBytes!: number;
}

@ObjectType({ description: 'A record as the client sent it: its position in the trajectory (1 for the first) and its exact JSON text.' })
export class RecordText {
  @Field(() => Int)
  seq!: number;

  @Field({ description: 'The record, byte for byte as appended (a JSON object).' })
  text!: string;
}

@ObjectType({ description: 'Records in order, a page at a time: the next page is `after: <the last seq>`.' })
export class RecordTextPage {
  @Field(() => [RecordText])
  items!: RecordText[];

  @Field({ description: 'Whether records follow this page.' })
  hasMore!: boolean;
}

@ObjectType({ description: 'Records in order, one read batch of them, each exactly as stored.' })
export class RecordTextBatch {
  @Field(() => [String], { description: 'Each record’s JSON text, byte for byte as appended.' })
  records!: string[];
}

@ObjectType({ description: 'One side of a comparison.' })
export class DiffSide {
  @Field(() => ID)
  sessionId!: string;

  @Field(() => String, { nullable: true })
  title!: string | null;

  @Field(() => Int)
  records!: number;

  @Field(() => Int, { description: 'Records holding a tool call.' })
  toolCalls!: number;

  @Field(() => Int, { description: 'Records holding a failed tool result.' })
  errors!: number;

  @Field(() => TrajectoryTokens, { description: 'Tokens its records reported (a fork counts what it copied).' })
  tokens?: TrajectoryTokens;
}

@ObjectType()
export class DiffSegment {
  @Field({ description: 'same, added (only in other) or removed (only in base).' })
  kind!: string;

  @Field()
  text!: string;
}

@ObjectType({ description: 'A row of a comparison: a record of either side, or of both.' })
export class DiffRow {
  @Field(() => Int)
  index!: number;

  @Field({ description: 'same, changed (the same uuid, another text), removed (base only) or added (other only).' })
  kind!: string;

  @Field(() => Int, { nullable: true })
  baseSeq!: number | null;

  @Field(() => Int, { nullable: true })
  otherSeq!: number | null;

  @Field(() => String, { nullable: true, description: 'The base side’s record (for same, the text of both).' })
  baseText!: string | null;

  @Field(() => String, { nullable: true })
  otherText!: string | null;

  @Field(() => [DiffSegment], { nullable: true, description: 'For changed: the line diff of the two records, pretty-printed.' })
  segments!: DiffSegment[] | null;
}

@ObjectType()
export class DiffCounts {
  @Field(() => Int)
  same!: number;

  @Field(() => Int)
  changed!: number;

  @Field(() => Int)
  removed!: number;

  @Field(() => Int)
  added!: number;
}

@ObjectType({ description: 'Where two trajectories first differ.' })
export class DiffDivergence {
  @Field(() => Int, { description: 'The first row that is not same.' })
  index!: number;

  @Field(() => Int, { nullable: true })
  baseSeq!: number | null;

  @Field(() => Int, { nullable: true })
  otherSeq!: number | null;
}

@ObjectType({ description: 'Two trajectories compared record by record (docs/api/trajectories.md, "Compare").' })
export class TrajectoryDiff {
  @Field(() => DiffSide)
  base!: DiffSide;

  @Field(() => DiffSide)
  other!: DiffSide;

  @Field(() => Int, { description: 'Rows in the whole comparison.' })
  total!: number;

  @Field(() => DiffCounts)
  counts!: DiffCounts;

  @Field(() => DiffDivergence, { nullable: true, description: 'Null: the two hold the same records.' })
  divergence!: DiffDivergence | null;

  @Field(() => Int, { description: 'The index of this page’s first row.' })
  from!: number;

  @Field()
  hasMore!: boolean;

  @Field(() => [DiffRow])
  rows!: DiffRow[];
}
