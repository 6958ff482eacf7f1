import { inTransaction, preparedOf, SqlPart } from '../../db/sql';
import { forkEm, type Services } from '../../context';
import type { Completion, CompletionRequest, LanguageModelClient } from '../../llm/language-model';
import type { Logger } from '../../logger';
import { meteredCompletionInOne } from '../usage/usage.service';
import { collectFileArtifacts, snapshotOutputs } from './a2a-artifacts';
import { agentMessage, publishTask } from './a2a-executor';
import { filesByMessage, saveInputFiles } from './a2a-input-files';
import { recordTurn, RecordHints } from './a2a-record';
import { TERMINAL_STATES } from './a2a-states';
import * as repo from './a2a-task.repository';
import type { InputFileRow, StoredMessage, StoredMessageBody, TaskRow } from './a2a-task.repository';
import * as turns from './a2a-turn.repository';
import type { PeerTaskRef, TurnState } from './a2a-turn.repository';
import type { A2aArtifact, A2aMessage } from './a2a.types';

/**
 * What a turn reads and writes of its task, its context and its loop state: a port, as a2a-js's
 * TaskStore. `postgresTurnStore` keeps it in PostgreSQL (each method the statements it always
 * made); a test may run a turn against one in memory.
 */
export interface TurnStore {
  /** The task and its stored loop state; a SUBMITTED task is moved to WORKING (`started`). Null for an unknown task. */
  startTurn(taskId: string): Promise<{ task: TaskRow; turn: TurnState | null; started: boolean } | null>;
  findTask(taskId: string): Promise<TaskRow | null>;
  /** Moves an open task; null when it is terminal (or gone). */
  moveTask(taskId: string, state: string, statusMessage: A2aMessage | null): Promise<TaskRow | null>;
  /** Moves the task to a final state with `message` and forgets its loop state, together. */
  finishTask(task: TaskRow, state: string, message: A2aMessage): Promise<TaskRow | null>;
  /** Stores `state` waiting for an approval and moves the task to INPUT_REQUIRED with `request`, unless it ended meanwhile (null). */
  askApproval(state: TurnState, request: A2aMessage): Promise<TaskRow | null>;
  /** The most recent `limit` messages of the task's context (its principal's), newest first. */
  contextMessages(task: TaskRow, limit: number): Promise<StoredMessage[]>;
  messagesAfter(taskId: string, afterSeq: number): Promise<{ seq: number; message: StoredMessageBody }[]>;
  /** The file rows of `messages`, by `<task id>:<seq>`. */
  filesByMessage(messages: StoredMessage[]): Promise<Map<string, InputFileRow[]>>;
  /** Saves a message's file parts into the workspace's `inputs/` (once each); their rows. */
  saveInputFiles(workspace: string, taskId: string, seq: number, message: StoredMessageBody, logger: Logger): Promise<InputFileRow[]>;
  /** Whether the task's context allowed execution calls for the session. */
  contextGranted(task: TaskRow): Promise<boolean>;
  rememberPeerTask(task: TaskRow, ref: PeerTaskRef): Promise<void>;
  peerTaskOfContext(task: TaskRow, ref: PeerTaskRef): Promise<boolean>;
  saveTurn(state: TurnState): Promise<void>;
  /**
   * One model call of the turn, paid by the task's owner: its loop state after the call
   * (`next`) is stored with the call's ledger row unless the task ended meanwhile (null then).
   * A call `final` says answers the turn is not stored: its ledger row comes back (`ledger`), for
   * the completion's statement (`completeTask`) to write, or `keepLedger` should it not get there.
   */
  callModel(
    task: TaskRow,
    llm: LanguageModelClient,
    request: CompletionRequest,
    next: (done: Completion) => TurnState,
    final?: (done: Completion) => boolean,
  ): Promise<{ done: Completion; state: TurnState; ledger?: SqlPart } | null>;
  /** Writes a model call's ledger row alone (its turn did not get to complete). */
  keepLedger(ledger: SqlPart): Promise<void>;
  /** Appends what is new of the turn to its context's trajectory. */
  recordTurn(task: TaskRow, state: TurnState, logger: Logger, hints?: RecordHints): Promise<void>;
  /** The workspace's `outputs/` now (name → "size:mtime"). */
  snapshotOutputs(workspace: string): Promise<Record<string, string>>;
  /** The output files new or changed since `before` as artifacts (from index 1), and those left out. */
  collectFileArtifacts(
    task: TaskRow,
    workspace: string,
    before: Record<string, string>,
  ): Promise<{ artifacts: A2aArtifact[]; omitted: string[] }>;
  /**
   * Completes the task with `artifacts` and the answer, unless a message came after `seenSeq`
   * or it ended (null); in the same statement `also.job` (the turn job's completion) and
   * `also.ledger` (the answering call's ledger row, written whatever the outcome).
   */
  completeTask(
    taskId: string,
    seenSeq: number,
    artifacts: A2aArtifact[],
    answer: A2aMessage,
    also?: { job?: SqlPart; ledger?: SqlPart },
  ): Promise<TaskRow | null>;
}

type StoreServices = Pick<Services, 'orm' | 'agent' | 'config' | 'blobs'>;

/**
 * The turn store in PostgreSQL: the task and turn repositories, one unit of work (ORM fork) for
 * the turn's reads and writes, its trajectory record included (each transaction takes a
 * connection of its own, so the turn's concurrent re-read of its task never runs inside one).
 */
export function postgresTurnStore(services: StoreServices): TurnStore {
  const em = forkEm(services);
  const q = preparedOf(em);
  return {
    startTurn: (taskId) => turns.startTurn(q, taskId),
    findTask: (taskId) => repo.findTaskById(q, taskId),
    moveTask: (taskId, state, statusMessage) => repo.moveTask(q, taskId, state, statusMessage),
    finishTask: (task, state, message) =>
      inTransaction(forkEm(services), async (tx) => {
        await turns.deleteTurn(tx, task.id);
        return repo.moveTask(tx, task.id, state, message);
      }),
    askApproval: (state, request) =>
      inTransaction(forkEm(services), async (tx) => {
        const now = await repo.findTaskById(tx, state.taskId, true);
        if (!now || TERMINAL_STATES.includes(now.state)) return null;
        await turns.saveTurn(tx, { ...state, phase: 'awaiting_approval', decision: null });
        return repo.moveTask(tx, state.taskId, 'TASK_STATE_INPUT_REQUIRED', request);
      }),
    contextMessages: (task, limit) => repo.contextMessages(q, task.principal, task.contextId, limit),
    messagesAfter: (taskId, afterSeq) => turns.messagesAfter(q, taskId, afterSeq),
    filesByMessage: (messages) => filesByMessage(q, messages),
    saveInputFiles: (workspace, taskId, seq, message, logger) =>
      saveInputFiles(q, services.agent.workspaces, workspace, taskId, seq, message, logger),
    contextGranted: (task) => turns.contextGranted(q, task.principal, task.contextId),
    rememberPeerTask: (task, ref) => turns.rememberPeerTask(q, task, ref),
    peerTaskOfContext: (task, ref) => turns.peerTaskOfContext(q, task, ref),
    saveTurn: (state) => turns.saveTurn(q, state),
    callModel: (task, llm, request, next, final) =>
      meteredCompletionInOne(
        em,
        llm,
        { userId: task.ownerId, labId: null, sessionId: null, feature: 'a2a', a2aPrincipal: task.principal },
        request,
        async (ledger, done) => {
          const state = next(done);
          // The answer: its ledger row goes with the completion, in one statement; the loop state is never stored.
          if (final?.(done)) return { done, state, ledger };
          // Kept with its ledger row (unless the task was canceled meanwhile): a restart resumes after this call, never pays for it twice.
          return (await turns.saveTurnIfOpen(q, state, ledger)) ? { done, state } : null;
        },
      ),
    keepLedger: async (ledger) => void (await q(ledger.sql, ledger.params)),
    recordTurn: (task, state, logger, hints) => recordTurn(services, task, state, logger, hints, em),
    snapshotOutputs: (workspace) => snapshotOutputs(services.agent.workspaces, workspace),
    collectFileArtifacts: (task, workspace, before) => collectFileArtifacts(services, task, workspace, before, 1),
    completeTask: (taskId, seenSeq, artifacts, answer, also) => repo.completeTask(q, taskId, seenSeq, artifacts, answer, also),
  };
}

/** Moves the task to a final state with a status message, forgets its loop state, and publishes it. */
export async function finishTask(
  services: Pick<Services, 'pubsub'>,
  store: Pick<TurnStore, 'finishTask'>,
  task: TaskRow,
  state: string,
  text: string,
): Promise<void> {
  const moved = await store.finishTask(task, state, agentMessage(task, text));
  if (moved) publishTask(services, moved);
}
