import { type Selection, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/database';
import type { Query, SqlPart } from '../../db/sql';
import { asFloat8, compiledOnce, condition, db, firstRowOf, fragment, rowsOf, slot } from '../../db/typed-sql';
import type { FetchedJob } from '../../jobs/jobs.repository';
import { ARTIFACTS_PATH } from './a2a-artifacts';
import { TASK_STATES, TERMINAL_STATES } from './a2a-states';
import type { A2aArtifact, A2aMessage, A2aPart } from './a2a.types';

/** A task row as stored (its messages and artifacts are read separately). */
export interface TaskRow {
  id: string;
  contextId: string;
  principal: string;
  ownerId: string;
  state: string;
  statusMessage: A2aMessage | null;
  statusAt: Date;
  /** The sequence number of its newest message. */
  lastSeq: number;
}

/** A part of a message or an artifact as stored and read back (checked; members it does not name kept as they are). */
const STORED_PART = z.looseObject({
  text: z.string().nullish(),
  raw: z.string().nullish(),
  url: z.string().nullish(),
  data: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  filename: z.string().nullish(),
  mediaType: z.string().nullish(),
  /** Stored apart (`apart`): the payload's decoded size. */
  rawApart: z.number().optional(),
  /** Read without its payload (`withoutRawPayloads`): the payload's decoded size. */
  rawBytes: z.number().optional(),
});
/** A message (`a2a_messages.message`, `a2a_tasks.status_message`) as read back: checked, never assumed. */
const messageOf = <Part extends z.ZodType>(part: Part) =>
  z.looseObject({
    messageId: z.string(),
    contextId: z.string().nullish(),
    taskId: z.string().nullish(),
    role: z.string(),
    parts: z.array(part),
    metadata: z.record(z.string(), z.unknown()).nullish(),
    extensions: z.array(z.string()).nullish(),
    referenceTaskIds: z.array(z.string()).nullish(),
  });
export const A2A_MESSAGE = messageOf(STORED_PART);
const A2A_MESSAGES = z.array(A2A_MESSAGE);
/** An artifact (`a2a_artifacts.artifact`) as read back. */
const A2A_ARTIFACT = z.looseObject({
  artifactId: z.string(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  parts: z.array(STORED_PART),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
const A2A_ARTIFACTS = z.array(A2A_ARTIFACT);
/** The text column a task's state is written to from TASK_STATES only. */
const TASK_STATE = z.enum(TASK_STATES);

/** The columns of a task row; `TaskColumns`: its type, inferred from the schema. */
export const TASK_COLUMNS = ['id', 'context_id', 'principal', 'owner_id', 'state', 'status_message', 'status_at', 'last_seq'] as const;
export type TaskColumns = Selection<Database, 'a2a_tasks', (typeof TASK_COLUMNS)[number]>;
export const toTask = (row: TaskColumns): TaskRow => ({
  id: row.id,
  contextId: row.context_id,
  principal: row.principal,
  ownerId: row.owner_id,
  state: TASK_STATE.parse(row.state),
  statusMessage: row.status_message === null ? null : A2A_MESSAGE.parse(row.status_message),
  statusAt: new Date(row.status_at),
  lastSeq: row.last_seq,
});

/**
 * Most messages a caller may ask for in a task's history (GetTask, SendMessage, ListTasks,
 * streams), and the default: the proto's int32 bound, since A2A sets no cap. What an answer
 * carries is bounded by HISTORY_BYTES instead.
 */
export const MAX_HISTORY_LENGTH = 2_147_483_647;
/**
 * How often a waiting call, a running turn or a stream reads its task again: a publication lost
 * (Redis is best-effort) or made on another instance without Redis is noticed this late at worst.
 */
export const BACKSTOP_READ_MS = 5000;

/**
 * Base64 characters of a payload per stored chunk (`a2a_part_payloads`): a multiple of 4, so each
 * chunk decodes alone.
 */
export const PAYLOAD_CHUNK_CHARS = 1024 * 1024;
/** Chunks one statement writes or reads at most: what a backend (and this process) holds of a payload at a time. */
const CHUNKS_PER_STATEMENT = 4;

/** A part as stored: a `raw` part's payload taken out (`a2a_part_payloads`), its decoded size in `rawApart`. */
type ApartPart = Omit<A2aPart, 'raw'> & { rawApart?: number };

/** The decoded size of base64 text (checked by the rules: a multiple of 4 characters, at most two `=`). */
const decodedSize = (base64: string) => (base64.length / 4) * 3 - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);

/**
 * A message as stored: each `raw` part's payload out of its JSON (stored apart, `insertPayloads`),
 * so that no statement reading messages (a turn's context, a history's budget) builds a value of
 * their files' size, and jsonb never holds them. `chars`: the base64 characters taken out.
 */
function apart(message: A2aMessage): {
  stored: Omit<A2aMessage, 'parts'> & { parts: ApartPart[] };
  payloads: { part: number; raw: string }[];
  chars: number;
} {
  const payloads: { part: number; raw: string }[] = [];
  const parts = message.parts.map((part, index): ApartPart => {
    if (typeof part.raw !== 'string') return part;
    const { raw, ...rest } = part;
    payloads.push({ part: index, raw });
    return { ...rest, rawApart: decodedSize(raw) };
  });
  return { stored: { ...message, parts }, payloads, chars: payloads.reduce((sum, { raw }) => sum + raw.length, 0) };
}

/** Whether a message has file parts, whose payloads `createTask` and `appendMessage` store apart (in the caller's transaction). */
export const hasPayloads = (message: A2aMessage) => message.parts.some((part) => typeof part.raw === 'string');

/** Stores the payloads of a message's `raw` parts, CHUNKS_PER_STATEMENT chunks per statement. */
async function insertPayloads(q: Query, taskId: string, seq: number, payloads: { part: number; raw: string }[]): Promise<void> {
  const step = PAYLOAD_CHUNK_CHARS * CHUNKS_PER_STATEMENT;
  for (const { part, raw } of payloads)
    for (let at = 0; at < raw.length; at += step) {
      const chunks = [];
      for (let from = at; from < Math.min(at + step, raw.length); from += PAYLOAD_CHUNK_CHARS)
        chunks.push(raw.slice(from, from + PAYLOAD_CHUNK_CHARS));
      await q(
        `insert into a2a_part_payloads (task_id, seq, part, chunk, data) select ?, ?, ?, ?::int + c.n::int - 1, c.data from unnest(?::text[]) with ordinality as c (data, n)`,
        [taskId, seq, part, at / PAYLOAD_CHUNK_CHARS, chunks],
      );
    }
}

/**
 * Creates a task with its first message and answers its row. A message without file parts is one
 * statement (atomic on its own, so no transaction round trips), as SendMessage starts a task on
 * every call without a taskId; one with file parts is that statement and then its payloads
 * (`insertPayloads`): `q` must then be in a transaction.
 */
export async function createTask(
  q: Query,
  task: { id: string; contextId: string; principal: string; ownerId: string; state: string },
  message: A2aMessage,
): Promise<TaskRow> {
  const { stored, payloads, chars } = apart(message);
  const created = await insertTask(q, task, stored, chars);
  await insertPayloads(q, created.task.id, 1, payloads);
  return created.task;
}

/**
 * `createTask` of a message without file parts (`hasPayloads`: those take a transaction), and with
 * `claim` (a job queue slot's, `LocalSlot.claim`) the task's turn job claimed in the same
 * statement: the task starts WORKING when the claim returned its job, else as `task.state` says
 * (no job: the caller queues the turn).
 */
export async function createClaimedTask(
  q: Query,
  task: { id: string; contextId: string; principal: string; ownerId: string; state: string },
  message: A2aMessage,
  claim?: SqlPart,
): Promise<{ task: TaskRow; job: FetchedJob | null }> {
  if (hasPayloads(message)) throw new Error('a message with file parts is stored by createTask, in a transaction');
  return insertTask(q, task, message, 0, claim);
}

/**
 * The statement of `createTask` and `createClaimedTask`, compiled once (SendMessage runs it on
 * every call without a taskId): the task and its first message, and with `claimSql` (the job
 * claim's SQL, a fixed text) the claim before them. Its slots: the claim's parameters, then the
 * task's id, context id, principal, owner, state, and the message as stored with its apart characters.
 */
function taskInsert(claimSql: string | null) {
  const state = claimSql === null ? slot<string>() : sql<string>`case when exists (select from job) then 'TASK_STATE_WORKING' else ? end`;
  const task = () =>
    db
      .insertInto('a2a_tasks')
      .values({
        id: slot<string>(),
        context_id: slot<string>(),
        principal: slot<string>(),
        owner_id: slot<string>(),
        state,
        last_seq: sql.lit(1),
      })
      .returning(TASK_COLUMNS);
  // Answers no rows: SQL text.
  const first = () =>
    sql<Record<string, unknown>>`(insert into a2a_messages (task_id, seq, message, apart_chars) select id, 1, ?::jsonb, ?::int from task)`;
  if (claimSql === null) return compiledOnce(db.with('task', task).with('first', first).selectFrom('task').selectAll().select(NO_JOB));
  return compiledOnce(
    db
      .with('job', () => sql`(${sql.raw(claimSql)})`)
      .with('task', task)
      .with('first', first)
      .selectFrom('task')
      .selectAll()
      // The claimed job's row as JSON, computed (`FetchedJob`'s columns, as the claim returns them).
      .select(sql<FetchedJob | null>`(select row_to_json(job) from job)`.as('job')),
  );
}
const NO_JOB = sql<FetchedJob | null>`null::json`.as('job');
const TASK_INSERT = taskInsert(null);
/** `taskInsert` of each claim's text (one per kind of job: the text is fixed, its values are parameters). */
const claimedTaskInserts = new Map<string, ReturnType<typeof taskInsert>>();

/** The statement of `createTask` and `createClaimedTask`: the task and its message as stored (`apart`), the claim with them. */
async function insertTask(
  q: Query,
  task: { id: string; contextId: string; principal: string; ownerId: string; state: string },
  stored: object,
  apartChars: number,
  claim?: SqlPart,
): Promise<{ task: TaskRow; job: FetchedJob | null }> {
  let statement = TASK_INSERT;
  if (claim) {
    const compiled = claimedTaskInserts.get(claim.sql);
    statement = compiled ?? taskInsert(claim.sql);
    if (!compiled) claimedTaskInserts.set(claim.sql, statement);
  }
  const [row] = await statement.rows(q, [
    ...(claim?.params ?? []),
    task.id,
    task.contextId,
    task.principal,
    task.ownerId,
    task.state,
    JSON.stringify(stored),
    apartChars,
  ]);
  const { job, ...created } = row;
  return { task: toTask(created), job };
}

/** The principal's task (another principal's is not found); `lock` takes its row lock (inside a transaction). */
export async function findTask(q: Query, principal: string, id: string, lock = false): Promise<TaskRow | null> {
  const found = db.selectFrom('a2a_tasks').select(TASK_COLUMNS).where('id', '=', id).where('principal', '=', principal);
  const row = await firstRowOf(q, lock ? found.forUpdate() : found);
  return row ? toTask(row) : null;
}

/**
 * Bytes of stored message JSON (`a2a_messages.bytes`) one answer's history holds at most: a
 * message may carry a file of up to the body limit, so a count of messages alone does not bound
 * what a read loads. The most recent messages are kept, newest first, while their total stays
 * within it; a message larger than the budget on its own is left out and the older ones are
 * still counted. For ListTasks the budget is the whole page's, spent on its tasks in page order.
 */
export const HISTORY_BYTES = 4 * 1024 ** 2;

/**
 * The most bytes of artifacts one answer (GetTask, a page of ListTasks, a stream's read, a push)
 * carries inline: artifacts are spent on it in answer order (the tasks as listed, then each
 * task's artifacts in order), and once it is spent an artifact's file parts are answered by URL
 * (the artifacts endpoint, which serves inline files too) instead of their bytes. PostgreSQL
 * measures and cuts, so the service never holds more than this per answer.
 */
export const ANSWER_ARTIFACT_BYTES = 4 * 1024 ** 2;

/** An artifact (`artifact`, with `task_id` and its 0-based `idx`) with each `raw` part replaced by its URL on the artifacts endpoint. */
const ARTIFACT_BY_URL = `jsonb_set(artifact, '{parts}', coalesce((select jsonb_agg(case when part->>'raw' is not null then (part - 'raw') || jsonb_build_object('url', '${ARTIFACTS_PATH}/' || task_id || '/' || idx) else part end order by n)
    from jsonb_array_elements(artifact->'parts') with ordinality as e(part, n)), '[]'::jsonb))`;

/**
 * The artifacts of the tasks `taskIds` (an SQL text[] expression, twice in the text) within
 * ANSWER_ARTIFACT_BYTES, as rows (task_id, artifact_id, idx, task_place, artifact); those `seen`
 * (an SQL condition, twice in the text, before `taskIds`) are not counted and answered null.
 */
const budgetedArtifacts = (taskIds: string, seen = 'false') => `
  select task_id, artifact_id, idx, task_place,
         case when ${seen} then null when total <= ${ANSWER_ARTIFACT_BYTES} then artifact else ${ARTIFACT_BY_URL} end as artifact
    from (select *, sum(case when ${seen} then 0 else octet_length(artifact::text) end) over (order by task_place, idx) as total
            from (select a.task_id, a.artifact_id, a.artifact, array_position(${taskIds}, a.task_id) as task_place,
                         row_number() over (partition by a.task_id order by a.position, a.created_at, a.artifact_id) - 1 as idx
                    from a2a_artifacts a where a.task_id = any(${taskIds})) listed) sized`;

/** `budgetedArtifacts` with its values, as the table `b`: its artifacts are JSON, checked as they are read. */
const budgeted = (text: string, ...values: unknown[]) =>
  // The 0-based idx is a row_number(): a bigint, which the driver answers as text (ordered in SQL only).
  fragment<{ task_id: string; artifact_id: string; idx: string; task_place: number; artifact: unknown }>(`(${text})`, ...values).as('b');

/** A message's size for the history's budget: its stored JSON and the payloads stored apart. */
const MESSAGE_BYTES = `(bytes + apart_chars)`;

/**
 * The stored message `m` (an `a2a_messages` row) as it was sent: each payload stored apart put
 * back as its part's `raw`. Only for messages a history's budget kept, so what it builds is
 * bounded by HISTORY_BYTES.
 */
const WITH_PAYLOADS = `case when m.apart_chars = 0 then m.message else jsonb_set(m.message, '{parts}', (
    select coalesce(jsonb_agg(case when jsonb_typeof(p.part->'rawApart') = 'number'
        then (p.part - 'rawApart') || jsonb_build_object('raw', coalesce((select string_agg(c.data, '' order by c.chunk) from a2a_part_payloads c
                                                                          where c.task_id = m.task_id and c.seq = m.seq and c.part = p.place - 1), ''))
        else p.part end order by p.place), '[]'::jsonb)
      from jsonb_array_elements(m.message->'parts') with ordinality as p (part, place))) end`;

/** A task with its most recent `historyLimit` messages within HISTORY_BYTES (oldest first; all with null) and its artifacts. */
export interface TaskWithDetails {
  task: TaskRow;
  history: A2aMessage[];
  artifacts: A2aArtifact[];
}

/**
 * The principal's task with its recent history and its artifacts in one statement (another
 * principal's is not found; null: any principal's, for the web tools): what GetTask and a settled SendMessage answer. The history's
 * messages are chosen by their sizes alone (a window sum over `bytes`); only those kept are read.
 */
export async function findTaskWithDetails(
  q: Query,
  principal: string | null,
  id: string,
  historyLimit: number | null,
): Promise<TaskWithDetails | null> {
  const row = await firstRowOf(
    q,
    db
      .selectFrom('a2a_tasks as t')
      .select(TASK_COLUMNS)
      .select([
        // Computed JSON of stored messages and artifacts: checked as they are read back.
        fragment<unknown>(
          `(select coalesce(json_agg(${WITH_PAYLOADS} order by m.seq), '[]') from a2a_messages m where m.task_id = t.id and m.seq in (
             select seq from (
               select seq, sum(bytes) over (order by seq desc) as total
                 from (select seq, ${MESSAGE_BYTES} as bytes from a2a_messages where task_id = t.id order by seq desc limit ?::int) recent where bytes <= ?
             ) sized where total <= ?))`,
          historyLimit,
          HISTORY_BYTES,
          HISTORY_BYTES,
        ).as('history'),
        sql<unknown>`(select coalesce(json_agg(b.artifact order by b.idx), '[]') from (${sql.raw(budgetedArtifacts('array[t.id]'))}) b)`.as(
          'artifacts',
        ),
      ])
      .where('t.id', '=', id)
      .where(condition('?::text is null or t.principal = ?', principal, principal)),
  );
  if (!row) return null;
  const { history, artifacts, ...task } = row;
  return { task: toTask(task), history: A2A_MESSAGES.parse(history), artifacts: A2A_ARTIFACTS.parse(artifacts) };
}

/** A task by id alone: for the turn job, which runs on behalf of whoever made it. */
export async function findTaskById(q: Query, id: string, lock = false): Promise<TaskRow | null> {
  const found = db.selectFrom('a2a_tasks').select(TASK_COLUMNS).where('id', '=', id);
  const row = await firstRowOf(q, lock ? found.forUpdate() : found);
  return row ? toTask(row) : null;
}

/** SQL: now, to the millisecond (what a status time is stamped with). */
export const STATUS_NOW = sql<string>`date_trunc('milliseconds', clock_timestamp())`;

/**
 * Moves a task that is not terminal to `state` (stamping the status time). Returns the row, or
 * null when the task is terminal already (a cancel won the race): nothing changed then.
 */
export async function moveTask(q: Query, id: string, state: string, statusMessage: A2aMessage | null): Promise<TaskRow | null> {
  const row = await firstRowOf(
    q,
    db
      .updateTable('a2a_tasks')
      .set({
        state,
        status_message: statusMessage === null ? null : fragment<string>('?::jsonb', JSON.stringify(statusMessage)),
        status_at: STATUS_NOW,
      })
      .where('id', '=', id)
      .where(condition('state <> all(?)', TERMINAL_STATES))
      .returning(TASK_COLUMNS),
  );
  return row ? toTask(row) : null;
}

/**
 * The number of a task's next message (`t` its row): after `last_seq`, and after the newest
 * stored message too, which an instance still on the release before `last_seq` numbered
 * without moving it (one index probe).
 */
const NEXT_SEQ = `greatest(t.last_seq, (select coalesce(max(m.seq), 0) from a2a_messages m where m.task_id = t.id)) + 1`;

/**
 * Completes a task that is not terminal and holds no message after `seenSeq`, in one statement
 * (atomic on its own): `artifacts` stored at positions 0, 1, …, `answer` appended to its history,
 * its loop state (`a2a_turns`) removed, COMPLETED. Answers the row, or null when nothing changed:
 * the task is terminal already (a cancel won), or more was asked meanwhile. Both are checked on
 * the locked row, so an append committed while this waited for the lock is seen. In the same
 * statement: `also.job`, the turn job's completion (only when the task completes), and
 * `also.ledger`, the answering model call's ledger row (whatever the outcome: the call was made).
 */
export async function completeTask(
  q: Query,
  taskId: string,
  seenSeq: number,
  artifacts: A2aArtifact[],
  answer: A2aMessage,
  also: { job?: SqlPart; ledger?: SqlPart } = {},
): Promise<TaskRow | null> {
  const { job, ledger } = also;
  const key = `${job?.sql ?? ''}\u0000${ledger?.sql ?? ''}`;
  let statement = completions.get(key);
  if (!statement) completions.set(key, (statement = completion(job?.sql, ledger?.sql)));
  // In the order they stand in its text.
  const values = [
    taskId,
    TERMINAL_STATES,
    seenSeq,
    JSON.stringify(artifacts),
    JSON.stringify(answer),
    ...(ledger?.params ?? []),
    ...(job?.params ?? []),
  ];
  const [row] = await statement.rows(q, values);
  return row ? toTask(row) : null;
}

/** `completeTask`'s statement per job and ledger text (fixed texts of the code; their values are parameters), compiled once. */
const completions = new Map<string, ReturnType<typeof completion>>();

function completion(jobSql: string | undefined, ledgerSql: string | undefined) {
  const stored = db
    .with('open', (creator) =>
      creator
        .selectFrom('a2a_tasks as t')
        .select(['id as open_id', sql<number>`${sql.raw(NEXT_SEQ)}`.as('answer_seq')])
        .where('id', '=', slot<string>())
        .where(sql<boolean>`(state <> all(?))`)
        .where('last_seq', '<=', slot<number>())
        .forUpdate(),
    )
    .with(
      'kept',
      () =>
        sql`(insert into a2a_artifacts (task_id, artifact_id, artifact, position)
         select open_id, a.artifact->>'artifactId', a.artifact, a.place - 1 from open, jsonb_array_elements(?::jsonb) with ordinality as a (artifact, place)
         on conflict (task_id, artifact_id) do update set artifact = excluded.artifact, position = excluded.position)`,
    )
    .with('answered', () => sql`(insert into a2a_messages (task_id, seq, message) select open_id, answer_seq, ?::jsonb from open)`)
    .with('forgotten', () => sql`(delete from a2a_turns where task_id in (select open_id from open))`)
    // A data-modifying CTE runs whether or not anything reads it; without a ledger row, an empty select (never run).
    .with('paid', () => sql.raw(ledgerSql ? `(${ledgerSql})` : '(select)'));
  const completed = {
    state: sql.lit('TASK_STATE_COMPLETED'),
    status_message: sql<null>`null`,
    status_at: STATUS_NOW,
    last_seq: sql<number>`answer_seq`,
  };
  const openRow = sql<boolean>`id = open_id`;
  return compiledOnce(
    jobSql
      ? stored
          .with('job', () => sql.raw(`(${jobSql} and exists (select from open))`))
          .updateTable('a2a_tasks')
          .from('open')
          .set(completed)
          .where(openRow)
          .returning(TASK_COLUMNS)
      : stored.updateTable('a2a_tasks').from('open').set(completed).where(openRow).returning(TASK_COLUMNS),
  );
}

/**
 * Appends a message to the task's history, moving its `last_seq` (its row is locked by the caller,
 * in a transaction, so the sequence has no gaps or clashes), then its file parts' payloads.
 */
export async function appendMessage(q: Query, taskId: string, message: A2aMessage): Promise<void> {
  const { stored, payloads, chars } = apart(message);
  const [{ seq }] = await rowsOf(
    q,
    db
      .with('moved', (creator) =>
        creator
          .updateTable('a2a_tasks as t')
          .set({ last_seq: sql<number>`${sql.raw(NEXT_SEQ)}` })
          .where('id', '=', taskId)
          .returning('last_seq'),
      )
      .insertInto('a2a_messages')
      .columns(['task_id', 'seq', 'message', 'apart_chars'])
      .expression((eb) =>
        eb
          .selectFrom('moved')
          .select([
            fragment<string>('?', taskId).as('task_id'),
            'last_seq',
            fragment<string>('?::jsonb', JSON.stringify(stored)).as('message'),
            fragment<number>('?::int', chars).as('apart_chars'),
          ]),
      )
      .returning('seq'),
  );
  await insertPayloads(q, taskId, seq, payloads);
}

/**
 * The last `limit` messages of each task (all when undefined), oldest first, within HISTORY_BYTES
 * for all the tasks together, spent in the order of `taskIds` (a later task may get none). The
 * messages are chosen by their sizes alone; only those kept are read.
 */
export async function historiesOf(q: Query, taskIds: string[], limit?: number): Promise<Map<string, A2aMessage[]>> {
  const histories = new Map<string, A2aMessage[]>(taskIds.map((id) => [id, []]));
  if (taskIds.length === 0 || limit === 0) return histories;
  // The messages kept (a bigint running total, compared in SQL only).
  const sized = fragment<{ task_id: string; seq: number; total: string }>(
    `(select task_id, seq, sum(bytes) over (order by place, seq desc) as total from (
       select s.task_id, s.seq, s.bytes + s.apart_chars as bytes, p.place, row_number() over (partition by s.task_id order by s.seq desc) as back
         from a2a_messages s join unnest(?::text[]) with ordinality as p (task_id, place) on p.task_id = s.task_id
     ) recent where (?::int is null or back <= ?) and bytes <= ?)`,
    taskIds,
    limit ?? null,
    limit ?? null,
    HISTORY_BYTES,
  ).as('sized');
  const rows = await rowsOf(
    q,
    db
      .selectFrom('a2a_messages as m')
      .innerJoin(sized, (join) => join.onRef('sized.task_id', '=', 'm.task_id').onRef('sized.seq', '=', 'm.seq'))
      .select(['m.task_id', sql<unknown>`${sql.raw(WITH_PAYLOADS)}`.as('message')])
      .where(condition('sized.total <= ?', HISTORY_BYTES))
      .orderBy('m.task_id')
      .orderBy('m.seq'),
  );
  for (const row of rows) histories.get(row.task_id)!.push(A2A_MESSAGE.parse(row.message));
  return histories;
}

/**
 * The stored message `column` as a turn reads it: each file part without its payload and with
 * `rawBytes` (the payload's decoded size) instead, every other member kept (filename,
 * mediaType, …). A part stored apart (`rawApart`, the form since migration 20261130010005) is
 * read as it is; one stored before with its `raw` inline has it removed here. A `rawBytes` a
 * caller put on another part is dropped, so the member always marks a file part. The model sees
 * text and a file's description only, so a turn never loads file bytes this way (`readPayload`
 * reads one when it is saved).
 */
export const withoutRawPayloads = (
  column: string,
) => `case when jsonb_typeof(${column}->'parts') = 'array' then jsonb_set(${column}, '{parts}', (
    select coalesce(jsonb_agg(case when jsonb_typeof(part->'rawApart') = 'number' then part || jsonb_build_object('rawBytes', part->'rawApart')
        when jsonb_typeof(part->'raw') = 'string'
        then (part - 'raw') || jsonb_build_object('rawBytes', octet_length(part->>'raw') / 4 * 3 - case when right(part->>'raw', 2) = '==' then 2 when right(part->>'raw', 1) = '=' then 1 else 0 end)
        else part - 'rawBytes' end order by place), '[]'::jsonb)
      from jsonb_array_elements(${column}->'parts') with ordinality as p (part, place))) else ${column} end`;

/** A part as a turn reads it: a `raw` part's payload replaced by its decoded size (`rawApart` too when it is stored apart). */
export type StoredPart = Omit<A2aPart, 'raw'> & { rawBytes?: number; rawApart?: number };
/** A message as a turn reads it (`withoutRawPayloads`). */
export type StoredMessageBody = Omit<A2aMessage, 'parts'> & { parts: StoredPart[] };
/** A message read by `withoutRawPayloads` (checked: no part has its payload). */
export const STORED_MESSAGE_BODY = messageOf(STORED_PART.omit({ raw: true }));

/** A stored message with its place: its task and its sequence number there; `raw` parts without their payloads (`withoutRawPayloads`). */
export interface StoredMessage {
  taskId: string;
  seq: number;
  message: StoredMessageBody;
}

/**
 * The most recent messages of a context (every task of the principal in it), oldest first, at
 * most `limit`, without their raw payloads: what a turn gives the model as the conversation so far.
 */
export async function contextMessages(q: Query, principal: string, contextId: string, limit: number): Promise<StoredMessage[]> {
  const recent = db
    .selectFrom('a2a_messages as m')
    .innerJoin('a2a_tasks as t', 't.id', 'm.task_id')
    .select(['t.created_at', 'm.task_id', 'm.seq'])
    .where('t.principal', '=', principal)
    .where('t.context_id', '=', contextId)
    .orderBy('t.created_at', 'desc')
    .orderBy('m.task_id', 'desc')
    .orderBy('m.seq', 'desc')
    .limit(limit)
    .as('recent');
  const rows = await rowsOf(
    q,
    db
      .selectFrom(recent)
      .innerJoin('a2a_messages as m', (join) => join.onRef('m.task_id', '=', 'recent.task_id').onRef('m.seq', '=', 'recent.seq'))
      .select(['m.task_id', 'm.seq', sql<unknown>`${sql.raw(withoutRawPayloads('m.message'))}`.as('message')])
      .orderBy('recent.created_at')
      .orderBy('recent.task_id')
      .orderBy('recent.seq'),
  );
  return rows.map((row) => ({ taskId: row.task_id, seq: row.seq, message: STORED_MESSAGE_BODY.parse(row.message) }));
}

/**
 * The decoded payload of one file part (its message's task, seq and 0-based part index, as a turn
 * read it), or null when its message is gone (its task was deleted). A payload stored apart is
 * read CHUNKS_PER_STATEMENT chunks at a time into a buffer of its size, so neither PostgreSQL nor
 * this process holds its base64 text whole.
 * @throws Error when the stored chunks do not make the size the message says (never written so)
 */
export async function readPayload(q: Query, taskId: string, seq: number, index: number, part: StoredPart): Promise<Buffer | null> {
  if (typeof part.rawApart !== 'number') {
    // Stored before payloads were kept apart: inline in the message.
    const row = await firstRowOf(
      q,
      db
        .selectFrom('a2a_messages')
        .select(fragment<string | null>(`message->'parts'->(?::int)->>'raw'`, index).as('raw'))
        .where('task_id', '=', taskId)
        .where('seq', '=', seq),
    );
    return typeof row?.raw === 'string' ? Buffer.from(row.raw, 'base64') : null;
  }
  const bytes = Buffer.alloc(part.rawApart);
  let filled = 0;
  for (let chunk = 0; ; chunk += CHUNKS_PER_STATEMENT) {
    const rows = await rowsOf(
      q,
      db
        .selectFrom('a2a_part_payloads')
        .select('data')
        .where('task_id', '=', taskId)
        .where('seq', '=', seq)
        .where('part', '=', index)
        .where('chunk', '>=', chunk)
        .where('chunk', '<', chunk + CHUNKS_PER_STATEMENT)
        .orderBy('chunk'),
    );
    for (const { data } of rows) filled += bytes.write(data, filled, 'base64');
    if (rows.length < CHUNKS_PER_STATEMENT) break;
  }
  if (filled === bytes.length) return bytes;
  const message = await firstRowOf(
    q,
    db.selectFrom('a2a_messages').select(sql.lit(1).as('one')).where('task_id', '=', taskId).where('seq', '=', seq),
  );
  if (!message) return null;
  throw new Error(`the payload of part ${index} of message ${seq} of task ${taskId} has ${filled} of its ${bytes.length} bytes`);
}

/** Where a file part of a message was saved in the workspace (`path`), or why not (`note`). */
export interface InputFileRow {
  taskId: string;
  seq: number;
  /** The part's 0-based index in its message. */
  part: number;
  path: string | null;
  mediaType: string;
  bytes: number;
  note: string | null;
}

export async function insertInputFile(q: Query, row: InputFileRow): Promise<void> {
  await q(
    `insert into a2a_input_files (task_id, seq, part, path, media_type, bytes, note) values (?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
    [row.taskId, row.seq, row.part, row.path, row.mediaType, row.bytes, row.note],
  );
}

/** The saved file parts of the given messages (task id and sequence number). */
export async function inputFilesOf(q: Query, messages: { taskId: string; seq: number }[]): Promise<InputFileRow[]> {
  if (messages.length === 0) return [];
  const asked = fragment<{ task_id: string; seq: number }>(
    '(select * from unnest(?::text[], ?::int[]) as u (task_id, seq))',
    messages.map((m) => m.taskId),
    messages.map((m) => m.seq),
  ).as('m');
  const rows = await rowsOf(
    q,
    db
      .selectFrom('a2a_input_files as f')
      .innerJoin(asked, (join) => join.onRef('m.task_id', '=', 'f.task_id').onRef('m.seq', '=', 'f.seq'))
      .select((eb) => ['f.task_id', 'f.seq', 'f.part', 'f.path', 'f.media_type', asFloat8(eb.ref('f.bytes')).as('bytes'), 'f.note'])
      .orderBy('f.task_id')
      .orderBy('f.seq')
      .orderBy('f.part'),
  );
  return rows.map((row) => ({
    taskId: row.task_id,
    seq: row.seq,
    part: row.part,
    path: row.path,
    mediaType: row.media_type,
    bytes: row.bytes,
    note: row.note,
  }));
}

/** The task's artifact at 0-based `index` (the artifacts' order), or null. */
export async function artifactAt(q: Query, taskId: string, index: number): Promise<A2aArtifact | null> {
  const row = await firstRowOf(
    q,
    db
      .selectFrom('a2a_artifacts')
      .select('artifact')
      .where('task_id', '=', taskId)
      .orderBy('position')
      .orderBy('created_at')
      .orderBy('artifact_id')
      .offset(index)
      .limit(1),
  );
  return row ? A2A_ARTIFACT.parse(row.artifact) : null;
}

/** The artifacts of `taskIds` (in that order) within ANSWER_ARTIFACT_BYTES for them all. */
export async function artifactsOf(q: Query, taskIds: string[]): Promise<Map<string, A2aArtifact[]>> {
  const artifacts = new Map<string, A2aArtifact[]>(taskIds.map((id) => [id, []]));
  if (taskIds.length === 0) return artifacts;
  const rows = await rowsOf(
    q,
    db
      .selectFrom(budgeted(budgetedArtifacts('?::text[]'), taskIds, taskIds))
      .select(['task_id', 'artifact'])
      .orderBy('task_place')
      .orderBy('idx'),
  );
  for (const row of rows) artifacts.get(row.task_id)!.push(A2A_ARTIFACT.parse(row.artifact));
  return artifacts;
}

/**
 * The task's artifacts in the order they were made: ids of all, contents only of those not in
 * `seen` (an event stream asks at every wake-up; what it sent already is not read again).
 */
export async function artifactsNotIn(
  q: Query,
  taskId: string,
  seen: string[],
): Promise<{ artifactId: string; artifact: A2aArtifact | null }[]> {
  const rows = await rowsOf(
    q,
    db
      .selectFrom(budgeted(budgetedArtifacts('array[?::text]', 'artifact_id = any(?::text[])'), seen, seen, taskId, taskId))
      .select(['artifact_id', 'artifact'])
      .orderBy('idx'),
  );
  return rows.map((row) => ({ artifactId: row.artifact_id, artifact: row.artifact === null ? null : A2A_ARTIFACT.parse(row.artifact) }));
}

export interface TaskFilter {
  principal: string;
  contextId?: string;
  state?: string;
  statusAfter?: Date;
}

/** SQL: how many rows, as a number (`count(*)` is a bigint, which the driver answers as text). */
const COUNT_TOTAL = sql<number>`count(*)::int`.as('total');

/** The conditions a task filter sets, each member given adding one (bind values in the same order). */
const FILTER_CONDITIONS = [
  ['principal', 'principal = ?'],
  ['contextId', 'context_id = ?'],
  ['state', 'state = ?'],
  ['statusAfter', 'status_at > ?'],
] as const;

/** SQL: the conditions `filter` sets. */
function whereOf(filter: Partial<TaskFilter>) {
  const given = FILTER_CONDITIONS.filter(([member]) => filter[member] !== undefined);
  return condition(['true', ...given.map(([, clause]) => clause)].join(' and '), ...given.map(([member]) => filter[member]));
}

/** One page of the principal's tasks, newest status first, after the keyset `after` (status time, id); and how many match in all. */
export async function listTasks(
  q: Query,
  filter: TaskFilter,
  pageSize: number,
  after?: { statusAt: Date; id: string },
): Promise<{ rows: TaskRow[]; total: number }> {
  const where = whereOf(filter);
  const matching = db.selectFrom('a2a_tasks').select(TASK_COLUMNS).where(where);
  const rows = await rowsOf(
    q,
    (after ? matching.where(condition('(status_at, id) < (?, ?)', after.statusAt, after.id)) : matching)
      .orderBy('status_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize),
  );
  const [count] = await rowsOf(q, db.selectFrom('a2a_tasks').select(COUNT_TOTAL).where(where));
  return { rows: rows.map(toTask), total: count.total };
}

/** Every principal's tasks (the A2A owner's web tools), newest status first, by offset; and how many match. */
export async function allTasks(
  q: Query,
  filter: { principal?: string; contextId?: string; state?: string },
  limit: number,
  offset: number,
): Promise<{ rows: TaskRow[]; total: number }> {
  const where = whereOf(filter);
  const rows = await rowsOf(
    q,
    db
      .selectFrom('a2a_tasks')
      .select(TASK_COLUMNS)
      // A bigint: the driver answers text.
      .select(sql<string>`count(*) over ()`.as('total'))
      .where(where)
      .orderBy('status_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset),
  );
  if (rows.length === 0 && offset > 0) {
    const [count] = await rowsOf(q, db.selectFrom('a2a_tasks').select(COUNT_TOTAL).where(where));
    return { rows: [], total: count.total };
  }
  return { rows: rows.map(toTask), total: Number(rows[0]?.total ?? 0) };
}

/** A conversation: one principal's tasks under one context id. */
export interface ContextRow {
  contextId: string;
  principal: string;
  taskCount: number;
  lastActivityAt: Date;
}

/** Every principal's contexts, most recently active first, by offset; and how many there are. */
export async function allContexts(q: Query, limit: number, offset: number): Promise<{ rows: ContextRow[]; total: number }> {
  const rows = await rowsOf(
    q,
    db
      .selectFrom('a2a_tasks')
      .select((eb) => [
        'context_id',
        'principal',
        sql<number>`count(*)::int`.as('task_count'),
        eb.fn.max('status_at').as('last_activity_at'),
        // A bigint: the driver answers text.
        sql<string>`count(*) over ()`.as('total'),
      ])
      .groupBy(['principal', 'context_id'])
      .orderBy(sql`max(status_at)`, 'desc')
      .orderBy('principal')
      .orderBy('context_id')
      .limit(limit)
      .offset(offset),
  );
  if (rows.length === 0 && offset > 0) {
    const [count] = await rowsOf(
      q,
      db.selectFrom('a2a_tasks').select(sql<number>`count(distinct (principal, context_id))::int`.as('total')),
    );
    return { rows: [], total: count.total };
  }
  return {
    rows: rows.map((row) => ({
      contextId: row.context_id,
      principal: row.principal,
      taskCount: row.task_count,
      lastActivityAt: new Date(row.last_activity_at),
    })),
    total: Number(rows[0]?.total ?? 0),
  };
}

/** How many tasks are in each state, over every principal (the metrics). */
export function tasksByState(q: Query): Promise<{ state: string; count: number }[]> {
  return rowsOf(
    q,
    db
      .selectFrom('a2a_tasks')
      .select(['state', sql<number>`count(*)::int`.as('count')])
      .groupBy('state'),
  );
}
