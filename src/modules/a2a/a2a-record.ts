import type { EntityManager } from '@mikro-orm/postgresql';
import { sha256Hex } from '../../ids';
import { forkEm, type Services } from '../../context';
import { preparedOf, Query } from '../../db/sql';
import { AppError, databaseOutage } from '../../errors';
import { cutText } from '../../llm/prompt';
import type { Logger } from '../../logger';
import type { Viewer } from '../auth/viewer';
import { appendRecords } from '../trajectories/trajectory.service';
import * as trajectories from '../trajectories/trajectory.repository';
import { User } from '../users/user.entity';
import { filesByMessage, isDecisionOnly, messageText } from './a2a-input-files';
import type { StoredMessageBody, TaskRow } from './a2a-task.repository';
import * as turns from './a2a-turn.repository';
import type { TurnState } from './a2a-turn.repository';

/** The trajectory source of A2A contexts: listed only when asked for, never archived by reconcile. */
export const A2A_SOURCE = 'a2a';
/** Characters of a tool result kept in the record (the model saw up to 16,000). */
export const RECORD_RESULT_CHARS = 4000;
/** Characters of a tool call's input (its code, say) and of a message's text kept in the record. */
const RECORD_TEXT_CHARS = 64_000;
const TITLE_CHARS = 100;
/** Appends tried when another turn of the context appended in between (its head moved). */
const APPEND_ATTEMPTS = 5;

type Wire = Record<string, unknown>;

/**
 * The trajectory of a principal's context, owned by the A2A owner: `a2a:` and 40 hex of a SHA-256
 * of the owner, the principal and the context id (stable, and one valid session id whatever the
 * context id holds). Another key's context of the same name, or a later owner, is another trajectory.
 */
export function contextSessionId(ownerId: string, principal: string, contextId: string): string {
  return `a2a:${sha256Hex(`${ownerId}\n${principal}\n${contextId}`).slice(0, 40)}`;
}

const cut = (text: string, max: number) => cutText(text, max, 'recorded');

/** One of the task's requests as the model saw it: its sequence number and its text (files described). */
export interface Request {
  seq: number;
  text: string;
}

/** A stored message the trajectory records as a request: the caller's, and not an approval answer. */
export const isRequest = (message: StoredMessageBody) => message.role !== 'ROLE_AGENT' && !isDecisionOnly(message);

/** A record before its place in the trajectory (parent, time) is known. */
interface Draft {
  uuid: string;
  type: 'user' | 'assistant' | 'tool_use' | 'tool_result';
  body: Wire;
}

/**
 * The records of a turn so far, in order: the task's messages it started from, then its own
 * steps (the transcript after the context it started from: tool calls, their results, messages
 * added while it worked, the model's answers). Uuids come
 * from the task id, the message's sequence number or the step (transcript index), so the same
 * turn always yields the same uuids.
 * @param messages the task's requests the transcript holds (not approval answers), in order, as the model saw them
 */
export function turnRecords(
  task: Pick<TaskRow, 'id'>,
  state: Pick<TurnState, 'transcript' | 'contextTurns'>,
  messages: Request[],
): Draft[] {
  const own = state.transcript.slice(state.contextTurns);
  // The transcript's own user entries are the task's latest requests (added while it worked).
  const added = own.filter((turn) => turn.role === 'user').length;
  const initial = messages.slice(0, Math.max(0, messages.length - added));
  const later = messages.slice(initial.length);
  const user = (seq: number, text: string): Draft => ({
    uuid: `${task.id}:m${seq}`,
    type: 'user',
    body: { message: { role: 'user', content: cut(text, RECORD_TEXT_CHARS) } },
  });
  const assistant = (uuid: string, text: string): Draft => ({
    uuid,
    type: 'assistant',
    body: { message: { role: 'assistant', content: cut(text, RECORD_TEXT_CHARS) } },
  });
  const drafts = initial.map((message) => user(message.seq, message.text));
  for (const [offset, turn] of own.entries()) {
    const step = `${task.id}:t${state.contextTurns + offset}`;
    if (turn.role === 'user') {
      const message = later.shift();
      drafts.push(message ? user(message.seq, turn.content) : { ...user(0, turn.content), uuid: step });
    } else if (turn.role === 'assistant') {
      if (turn.content) drafts.push(assistant(step, turn.content));
      for (const [index, call] of (turn.toolCalls ?? []).entries()) {
        const input = JSON.stringify(call.input ?? null);
        const shown = input.length <= RECORD_TEXT_CHARS ? { input: call.input ?? null } : { inputPreview: cut(input, RECORD_TEXT_CHARS) };
        drafts.push({ uuid: `${step}:use${index}`, type: 'tool_use', body: { toolUseId: call.id, name: call.name, ...shown } });
      }
    } else {
      for (const [index, result] of turn.results.entries()) {
        const output = typeof result.output === 'string' ? result.output : JSON.stringify(result.output);
        drafts.push({
          uuid: `${step}:result${index}`,
          type: 'tool_result',
          body: {
            toolUseId: result.toolCallId,
            name: result.toolName,
            isError: result.isError ?? false,
            content: cut(output, RECORD_RESULT_CHARS),
          },
        });
      }
    }
  }
  return drafts;
}

/** The task's requests up to `seenSeq`, read. */
async function requestsOf(q: Query, task: TaskRow, seenSeq: number): Promise<Request[]> {
  const stored = (await turns.messagesAfter(q, task.id, 0))
    .filter((one) => one.seq <= seenSeq && isRequest(one.message))
    .map((one) => ({ ...one, taskId: task.id }));
  const files = await filesByMessage(q, stored);
  return stored.map((one) => ({ seq: one.seq, text: messageText(one.message, files.get(`${task.id}:${one.seq}`)) }));
}

/** A trajectory title from the first request: its first line, whitespace folded, at most 100 characters. */
const titleOf = (text: string | undefined) =>
  (text ?? '').split('\n')[0].replace(/\s+/g, ' ').trim().slice(0, TITLE_CHARS) || 'A2A conversation';

/** What a turn knows when it records itself, so that `recordTurn` need not read it. */
export interface RecordHints {
  /** The task's requests (else they are read). */
  requests?: Request[];
  /** The context's trajectory cannot exist yet: the turn's context began with its task, and nothing was recorded since. */
  noTrajectoryYet?: boolean;
}

/**
 * Brings the context's `a2a` trajectory up to date with the turn: appends, through the
 * trajectories' own append path (fast-forward, the owner's storage quota, one transaction per
 * batch), the turn's records it does not hold yet, chained by `parentUuid` after its head. The
 * trajectory is made on the first append: owned by the A2A owner, no lab, private, titled from
 * the first request. Called again and again as the turn goes on and after a restart, it appends
 * each record once: what landed is found by uuid (a batch lands whole or not at all). Another
 * turn of the context appending in between moves the head: the append is tried again on the new
 * head. A record that cannot be stored (the owner over quota, say) is logged, never fails the turn;
 * a database outage is thrown, for the caller to wait it out and call again (or fail the turn).
 * `known`: what the turn has at hand, so as not to read it (see `RecordHints`).
 */
export async function recordTurn(
  services: Pick<Services, 'orm' | 'blobs'>,
  task: TaskRow,
  state: TurnState,
  logger: Logger,
  known: RecordHints = {},
  em: EntityManager = forkEm(services),
): Promise<void> {
  const q = preparedOf(em);
  const sessionId = contextSessionId(task.ownerId, task.principal, task.contextId);
  try {
    const { requests } = known;
    const messages = requests ? requests.filter((one) => one.seq <= state.seenSeq) : await requestsOf(q, task, state.seenSeq);
    const drafts = turnRecords(task, state, messages);
    if (drafts.length === 0) return;
    // The owner as a reference: the common append needs its id alone (its quota is read where it is charged).
    const viewer: Viewer = { user: em.getReference(User, task.ownerId), credentialId: 'a2a-agent', inActiveLab: false };
    for (let attempt = 1; ; attempt++) {
      // Taken at its word once: were the trajectory there after all, the append's conflict reads it.
      const trajectory = attempt === 1 && known.noTrajectoryYet ? null : await trajectories.findTrajectory(q, sessionId);
      // The turn's first record is always in its first batch: what landed starts there.
      const firstSeq = trajectory ? await trajectories.seqOfRecord(q, sessionId, drafts[0].uuid) : null;
      const landed = new Set(firstSeq === null ? [] : await trajectories.uuidsAfter(q, sessionId, firstSeq - 1));
      const missing = drafts.filter((draft) => !landed.has(draft.uuid));
      if (missing.length === 0) return;
      const base = trajectory?.headUuid ?? null;
      const timestamp = new Date().toISOString();
      const records = missing.map((draft, index) =>
        JSON.stringify({
          uuid: draft.uuid,
          parentUuid: index === 0 ? base : missing[index - 1].uuid,
          type: draft.type,
          sessionId,
          timestamp,
          a2a: { taskId: task.id, contextId: task.contextId },
          ...draft.body,
        }),
      );
      try {
        await appendRecords(
          em,
          services.blobs,
          viewer,
          sessionId,
          { records, baseUuid: base, title: trajectory ? undefined : titleOf(messages[0]?.text) },
          A2A_SOURCE,
        );
        return;
      } catch (error) {
        const headMoved = error instanceof AppError && error.code === 'CONFLICT' && error.details?.head_uuid !== undefined;
        if (!headMoved || attempt >= APPEND_ATTEMPTS) throw error;
      }
    }
  } catch (error) {
    if (databaseOutage(error)) throw error;
    if (error instanceof AppError)
      logger.warn('the A2A turn was not recorded in its trajectory', { taskId: task.id, sessionId, reason: error.message });
    else
      logger.error('recording an A2A turn failed', {
        taskId: task.id,
        sessionId,
        error: error instanceof Error ? error.stack : String(error),
      });
  }
}
