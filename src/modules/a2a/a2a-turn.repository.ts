import type { Query } from '../../db/sql';
import type { ChatTurn, ToolCall } from '../../llm/language-model';
import type { LedgerInsert } from '../usage/usage.repository';
import { asTask, TASK_COLUMNS, TaskColumns, TaskRow, withoutRawPayloads, StoredMessageBody } from './a2a-task.repository';
import { TERMINAL_STATES } from './a2a-states';

/** A task a turn started on a peer (stored with the loop state, and remembered for the conversation). */
export interface PeerTaskRef {
  agentId: string;
  taskId: string;
}

/** Where a turn stands between two runs of its job. */
export type TurnPhase = 'running' | 'awaiting_approval' | 'awaiting_jobs';
export type ApprovalDecision = 'allow_once' | 'allow_session' | 'deny';

/** The agent loop's state of one task, as stored (`a2a_turns`). */
export interface TurnState {
  taskId: string;
  phase: TurnPhase;
  /** What the model has been sent and has said so far, oldest first. */
  transcript: ChatTurn[];
  /** Entries of the transcript that came from the context before the turn: its own steps follow them. */
  contextTurns: number;
  /** The step's calls waiting for an approval (phase awaiting_approval). */
  pending: ToolCall[] | null;
  /** The decision that lets the pending calls run (set by SendMessage, consumed by the turn). */
  decision: 'allow_once' | 'allow_session' | null;
  /** Model calls made for this turn. */
  steps: number;
  /** The newest message of the task the transcript holds. */
  seenSeq: number;
  /** `outputs/` before the turn's first tool ran: name → "size:mtime", so the turn's new or changed files are known (null: no tool has run). */
  outputsBefore: Record<string, string> | null;
  /** Background jobs the turn started. */
  jobIds: string[];
  /** The answer, kept while the turn's jobs still run. */
  answer: string | null;
  /** Tasks the turn started on peers (`a2a__<id>`): the only ones its `a2a_check` may read. */
  peerTasks: PeerTaskRef[];
}

const COLUMNS = `task_id as "taskId", phase, transcript, context_turns as "contextTurns", pending, decision, steps, seen_seq as "seenSeq", outputs_before as "outputsBefore", job_ids as "jobIds", answer, peer_tasks as "peerTasks"`;

/**
 * What a run of a task's turn job starts from, in one statement: the task by id with its loop
 * state (null before its first model call), a SUBMITTED task moved to WORKING (`started`: to be
 * published) and any other as it is.
 */
export async function startTurn(q: Query, taskId: string): Promise<{ task: TaskRow; turn: TurnState | null; started: boolean } | null> {
  const [row] = await q<TaskColumns & { turn: TurnState | null; started: boolean }>(
    `with started as (update a2a_tasks set state = 'TASK_STATE_WORKING', status_message = null, status_at = date_trunc('milliseconds', clock_timestamp())
                       where id = ? and state = 'TASK_STATE_SUBMITTED' returning ${TASK_COLUMNS})
     select *, true as started, null::json as turn from started
     union all
     select ${TASK_COLUMNS}, false, (select row_to_json(r) from (select ${COLUMNS} from a2a_turns where task_id = t.id) r) from a2a_tasks t
      where t.id = ? and not exists (select from started)`,
    [taskId, taskId],
  );
  if (!row) return null;
  const { turn, started, ...task } = row;
  return { task: asTask(task), turn, started };
}

const UPSERT = `insert into a2a_turns (task_id, phase, transcript, context_turns, pending, decision, steps, seen_seq, outputs_before, job_ids, answer, peer_tasks, updated_at)
  select ?, ?, ?::jsonb, ?, ?::jsonb, ?, ?, ?, ?::jsonb, ?::text[], ?, ?::jsonb, now()`;
const ON_CONFLICT = `on conflict (task_id) do update set phase = excluded.phase, transcript = excluded.transcript, context_turns = excluded.context_turns, pending = excluded.pending, decision = excluded.decision,
  steps = excluded.steps, seen_seq = excluded.seen_seq, outputs_before = excluded.outputs_before, job_ids = excluded.job_ids, answer = excluded.answer, peer_tasks = excluded.peer_tasks, updated_at = now()`;
const upsertParams = (state: TurnState) => [
  state.taskId,
  state.phase,
  JSON.stringify(state.transcript),
  state.contextTurns,
  state.pending === null ? null : JSON.stringify(state.pending),
  state.decision,
  state.steps,
  state.seenSeq,
  JSON.stringify(state.outputsBefore),
  state.jobIds,
  state.answer,
  JSON.stringify(state.peerTasks),
];

/** Writes the whole state (insert or replace): a turn job is the only writer of a running turn. */
export async function saveTurn(q: Query, state: TurnState): Promise<void> {
  await q(`${UPSERT} ${ON_CONFLICT}`, upsertParams(state));
}

/**
 * Writes the state only while its task is not terminal, with a model call's ledger row (written
 * whatever the task's state: the call was paid for), in one statement (atomic on its own). The
 * task's row is locked first: a cancel waits for it, or has won and the state is not written.
 * Answers whether it was written.
 */
export async function saveTurnIfOpen(q: Query, state: TurnState, ledger: LedgerInsert): Promise<boolean> {
  const [row] = await q<{ saved: boolean }>(
    `with ledger as (${ledger.sql}),
          open as (select id from a2a_tasks where id = ? and state <> all(?) for update),
          saved as (${UPSERT} where exists (select from open) ${ON_CONFLICT} returning task_id)
     select exists (select from saved) as saved`,
    [...ledger.params, state.taskId, TERMINAL_STATES, ...upsertParams(state)],
  );
  return row.saved;
}

/** Records the decision that lets the pending calls run (the task row is locked by the caller). */
export async function setDecision(q: Query, taskId: string, decision: 'allow_once' | 'allow_session'): Promise<void> {
  await q(`update a2a_turns set decision = ?, updated_at = now() where task_id = ?`, [decision, taskId]);
}

export async function deleteTurn(q: Query, taskId: string): Promise<void> {
  await q(`delete from a2a_turns where task_id = ?`, [taskId]);
}

/** Tasks whose answer waits for background jobs: re-checked by every instance's sweep. */
export async function turnsAwaitingJobs(q: Query, jobId?: string): Promise<string[]> {
  const rows = await q<{ taskId: string }>(
    `select r.task_id as "taskId" from a2a_turns r join a2a_tasks t on t.id = r.task_id
      where r.phase = 'awaiting_jobs' and t.state = 'TASK_STATE_WORKING' and (?::text is null or ? = any(r.job_ids)) order by r.updated_at limit 1000`,
    [jobId ?? null, jobId ?? null],
  );
  return rows.map((row) => row.taskId);
}

/** `allow_session`: execution calls of the principal's context run without asking from now on. */
export async function grantContext(q: Query, principal: string, contextId: string): Promise<void> {
  await q(`insert into a2a_context_grants (principal, context_id) values (?, ?) on conflict do nothing`, [principal, contextId]);
}

export async function contextGranted(q: Query, principal: string, contextId: string): Promise<boolean> {
  const [row] = await q(`select 1 from a2a_context_grants where principal = ? and context_id = ?`, [principal, contextId]);
  return row !== undefined;
}

/** Remembers a task the turn of `task` started on a peer (one of its owner's entries), for later turns of its context. */
export async function rememberPeerTask(
  q: Query,
  task: Pick<TaskRow, 'id' | 'ownerId' | 'principal' | 'contextId'>,
  ref: PeerTaskRef,
): Promise<void> {
  await q(
    `insert into a2a_peer_tasks (owner_id, principal, context_id, agent_id, peer_task_id, task_id) values (?, ?, ?, ?, ?, ?) on conflict do nothing`,
    [task.ownerId, task.principal, task.contextId, ref.agentId, ref.taskId, task.id],
  );
}

/** Whether a turn of the principal's context, under the same owner, started this task on the peer. */
export async function peerTaskOfContext(
  q: Query,
  task: Pick<TaskRow, 'ownerId' | 'principal' | 'contextId'>,
  ref: PeerTaskRef,
): Promise<boolean> {
  const [row] = await q(
    `select 1 from a2a_peer_tasks where owner_id = ? and principal = ? and context_id = ? and agent_id = ? and peer_task_id = ?`,
    [task.ownerId, task.principal, task.contextId, ref.agentId, ref.taskId],
  );
  return row !== undefined;
}

/** The task's messages after `afterSeq`, oldest first, with their sequence numbers, without their raw payloads (`withoutRawPayloads`). */
export async function messagesAfter(q: Query, taskId: string, afterSeq: number): Promise<{ seq: number; message: StoredMessageBody }[]> {
  return q(`select seq, ${withoutRawPayloads('message')} as message from a2a_messages where task_id = ? and seq > ? order by seq`, [
    taskId,
    afterSeq,
  ]);
}
