import type { JobRun } from '../../jobs/queue';
import { AppError } from '../../errors';
import { newId } from '../../ids';
import type { Services } from '../../context';
import type { StoredMessage, TaskRow } from './a2a-task.repository';
import type * as turns from './a2a-turn.repository';
import type { A2aArtifact, A2aMessage, A2aPart } from './a2a.types';

// A task's turn seen from the A2A side, after a2a-js's server: the request handler (SendMessage,
// the turn job) stores the task and calls an `AgentExecutor`, which the agent implements and the
// composition root (src/app.ts) hands in. The agent depends on this module; it never on the agent.

/**
 * Runs a task's turn (the agent's tool loop): one attempt of the turn job, `run.handOff` its
 * `TurnHandOff` when the request that created the task claimed the turn here. It moves the task
 * (WORKING, INPUT_REQUIRED, COMPLETED, FAILED) with the helpers below and the task repositories.
 * @throws when the attempt was cut off (its instance stopping, its time-out) and `retriesLeft`: the job runs it again
 */
export interface AgentExecutor {
  execute(taskId: string, run: JobRun, retriesLeft: boolean): Promise<void>;
}

/** What the task says when no model is configured (no turn can run). */
export const NO_MODEL_MESSAGE = 'this server has no language model configured (LLM_PROVIDER), so the agent cannot answer';

/** Publishes a task's new state (after its commit): waiting SendMessages, running turns and the other helpers' hooks hear it. */
export const publishTask = (services: Pick<Services, 'pubsub'>, task: TaskRow) =>
  services.pubsub.publish('A2A_TASK', task.id, { taskId: task.id, state: task.state });

/** A message of the agent in the task (a status message, or the answer in the history). */
export function agentMessage(task: Pick<TaskRow, 'id' | 'contextId'>, text: string, extraParts: A2aPart[] = []): A2aMessage {
  return { messageId: newId('msg'), role: 'ROLE_AGENT', parts: [{ text }, ...extraParts], contextId: task.contextId, taskId: task.id };
}

/** The approval decision a message carries (a data part `{decision}`), if any. @throws VALIDATION_FAILED for an unknown decision */
export function decisionOf(message: A2aMessage): turns.ApprovalDecision | undefined {
  const { parts } = message;
  const part = parts.find((one) => typeof one.data === 'object' && one.data !== null && 'decision' in one.data);
  if (!part) return undefined;
  const decision = (part.data as { decision: unknown }).decision;
  if (decision === 'allow_once' || decision === 'allow_session' || decision === 'deny') return decision;
  throw new AppError('VALIDATION_FAILED', 'message.parts: decision must be allow_once, allow_session or deny', undefined, [
    {
      path: ['message', 'parts', parts.indexOf(part), 'data', 'decision'],
      msg: 'must be allow_once, allow_session or deny',
      type: 'value_error',
    },
  ]);
}

/**
 * What the request that created a task and claimed its turn here hands the turn's first attempt
 * (`JobRun.handOff`), so that it does not read back what that request just wrote: the task as
 * created (WORKING), and the context's conversation when it is known to be that task's message
 * alone (else the turn reads the context).
 */
export interface TurnHandOff {
  task: TaskRow;
  context?: StoredMessage[];
  /** The owner had no enabled outbound agent a moment ago: the turn offers none rather than read them. */
  noPeers?: boolean;
  /** The task's first message, as stored, when it holds no file (so the whole task may be known without reading it). */
  first?: A2aMessage;
  /**
   * Set by the turn when it completed the task and knows all of it: its first message and the
   * answer its only other one, the answer its only artifact, and all small (a fraction of the
   * history and artifact budgets), so the request can answer without reading the task back.
   */
  answered?: { task: TaskRow; history: A2aMessage[]; artifacts: A2aArtifact[] };
}
