import { sql } from 'kysely';
import { z } from 'zod';
import type { Query } from '../../db/sql';
import { condition, db, firstRowOf, fragment, rowsOf } from '../../db/typed-sql';
import type { ChatTurn, ToolCall } from '../../llm/language-model';
import type { LedgerInsert } from '../usage/usage.repository';
import {
  STATUS_NOW,
  STORED_MESSAGE_BODY,
  TASK_COLUMNS,
  type TaskRow,
  toTask,
  withoutRawPayloads,
  type StoredMessageBody,
} from './a2a-task.repository';
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

/** A tool call as a stored turn holds it (checked when read back; members it does not name kept). */
const TOOL_CALL = z.looseObject({ id: z.string(), name: z.string(), input: z.unknown(), error: z.string().optional() });
const TOOL_RESULT = z.looseObject({ toolCallId: z.string(), toolName: z.string(), output: z.unknown(), isError: z.boolean().optional() });
const CHAT_TURN = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('user'), content: z.string() }),
  z.looseObject({ role: z.literal('assistant'), content: z.string(), toolCalls: z.array(TOOL_CALL).optional() }),
  z.looseObject({ role: z.literal('tool'), results: z.array(TOOL_RESULT) }),
]);
/** A turn's state as `startTurn` reads it (the JSON of `COLUMNS`), checked. */
const TURN_STATE = z.object({
  taskId: z.string(),
  phase: z.enum(['running', 'awaiting_approval', 'awaiting_jobs']),
  transcript: z.array(CHAT_TURN),
  contextTurns: z.number(),
  pending: z.array(TOOL_CALL).nullable(),
  decision: z.enum(['allow_once', 'allow_session']).nullable(),
  steps: z.number(),
  seenSeq: z.number(),
  outputsBefore: z.record(z.string(), z.string()).nullable(),
  jobIds: z.array(z.string()),
  answer: z.string().nullable(),
  peerTasks: z.array(z.object({ agentId: z.string(), taskId: z.string() })),
}) satisfies z.ZodType<TurnState>;

const COLUMNS = `task_id as "taskId", phase, transcript, context_turns as "contextTurns", pending, decision, steps, seen_seq as "seenSeq", outputs_before as "outputsBefore", job_ids as "jobIds", answer, peer_tasks as "peerTasks"`;

/**
 * What a run of a task's turn job starts from, in one statement: the task by id with its loop
 * state (null before its first model call), a SUBMITTED task moved to WORKING (`started`: to be
 * published) and any other as it is.
 */
export async function startTurn(q: Query, taskId: string): Promise<{ task: TaskRow; turn: TurnState | null; started: boolean } | null> {
  const row = await firstRowOf(
    q,
    db
      .with('started', (creator) =>
        creator
          .updateTable('a2a_tasks')
          .set({ state: sql.lit('TASK_STATE_WORKING'), status_message: null, status_at: STATUS_NOW })
          .where('id', '=', taskId)
          .where('state', '=', sql.lit('TASK_STATE_SUBMITTED'))
          .returning(TASK_COLUMNS),
      )
      .selectFrom('started')
      .selectAll()
      .select([sql<boolean>`true`.as('started'), sql<unknown>`null::json`.as('turn')])
      .unionAll((eb) =>
        eb
          .selectFrom('a2a_tasks as t')
          .select(TASK_COLUMNS)
          .select([
            sql<boolean>`false`.as('started'),
            // The loop state as JSON (computed): checked as it is read back.
            sql<unknown>`(select row_to_json(r) from (select ${sql.raw(COLUMNS)} from a2a_turns where task_id = t.id) r)`.as('turn'),
          ])
          .where('t.id', '=', taskId)
          .where(sql<boolean>`not exists (select from started)`),
      ),
  );
  if (!row) return null;
  const { turn, started, ...task } = row;
  return { task: toTask(task), turn: turn === null ? null : TURN_STATE.parse(turn), started };
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
  const [row] = await rowsOf(
    q,
    db
      .with('ledger', () => fragment(`(${ledger.sql})`, ...ledger.params))
      .with('open', (creator) =>
        creator
          .selectFrom('a2a_tasks')
          .select('id')
          .where('id', '=', state.taskId)
          .where(condition('state <> all(?)', TERMINAL_STATES))
          .forUpdate(),
      )
      .with('saved', () => fragment(`(${UPSERT} where exists (select from open) ${ON_CONFLICT} returning task_id)`, ...upsertParams(state)))
      .selectNoFrom(sql<boolean>`exists (select from saved)`.as('saved')),
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
  const rows = await rowsOf(
    q,
    db
      .selectFrom('a2a_turns as r')
      .innerJoin('a2a_tasks as t', 't.id', 'r.task_id')
      .select('r.task_id')
      .where('r.phase', '=', sql.lit('awaiting_jobs'))
      .where('t.state', '=', sql.lit('TASK_STATE_WORKING'))
      .where(condition('?::text is null or ? = any(r.job_ids)', jobId ?? null, jobId ?? null))
      .orderBy('r.updated_at')
      .limit(1000),
  );
  return rows.map((row) => row.task_id);
}

/** `allow_session`: execution calls of the principal's context run without asking from now on. */
export async function grantContext(q: Query, principal: string, contextId: string): Promise<void> {
  await q(`insert into a2a_context_grants (principal, context_id) values (?, ?) on conflict do nothing`, [principal, contextId]);
}

export async function contextGranted(q: Query, principal: string, contextId: string): Promise<boolean> {
  const row = await firstRowOf(
    q,
    db.selectFrom('a2a_context_grants').select(sql.lit(1).as('one')).where('principal', '=', principal).where('context_id', '=', contextId),
  );
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
  const row = await firstRowOf(
    q,
    db
      .selectFrom('a2a_peer_tasks')
      .select(sql.lit(1).as('one'))
      .where('owner_id', '=', task.ownerId)
      .where('principal', '=', task.principal)
      .where('context_id', '=', task.contextId)
      .where('agent_id', '=', ref.agentId)
      .where('peer_task_id', '=', ref.taskId),
  );
  return row !== undefined;
}

/** The task's messages after `afterSeq`, oldest first, with their sequence numbers, without their raw payloads (`withoutRawPayloads`). */
export async function messagesAfter(q: Query, taskId: string, afterSeq: number): Promise<{ seq: number; message: StoredMessageBody }[]> {
  const rows = await rowsOf(
    q,
    db
      .selectFrom('a2a_messages')
      .select(['seq', sql<unknown>`${sql.raw(withoutRawPayloads('message'))}`.as('message')])
      .where('task_id', '=', taskId)
      .where('seq', '>', afterSeq)
      .orderBy('seq'),
  );
  return rows.map((row) => ({ seq: row.seq, message: STORED_MESSAGE_BODY.parse(row.message) }));
}
