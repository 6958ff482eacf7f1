import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf } from '../../db/sql';
import { openThreads, sharedTrajectories, tailsOf } from './board.repository';
import type { Viewer } from '../auth/viewer';
import type { BlockFacts, RecordFacts } from './record-facts.repository';

export interface BoardRow {
  sessionId: string;
  ownerId: string;
  ownerName: string;
  title: string | null;
  lastActivityAt: Date;
  count: number;
  state: 'running' | 'stopped' | 'failed';
  stoppedAtUuid: string | null;
  lastText: string | null;
  error: string | null;
  outputs: string[];
  figureCount: number;
  openAnnotations: number;
}

const isFailure = (block: BlockFacts) => block.type === 'tool_result' && (block.is_error === true || block.status === 'error');

/**
 * Where a run stands, from its last records: failed when the last step was an error or a failed
 * tool call; running when the last record waits for the agent (the user's message, a tool call
 * or a tool result); stopped when the assistant had the last word. Staleness is the client's.
 */
export function readTail(tail: RecordFacts[]): Pick<BoardRow, 'state' | 'lastText' | 'error' | 'outputs'> {
  const last = tail[tail.length - 1];
  const lastAssistant = [...tail].reverse().find((r) => r.type === 'assistant' && r.text?.trim());
  const outputs = new Set<string>();
  for (const record of tail) {
    for (const block of record.blocks ?? []) {
      if (block.type === 'tool_use' && block.file && /write|save|export|create/i.test(block.name ?? '')) outputs.add(block.file);
    }
    for (const out of record.outputs ?? []) outputs.add(out);
  }
  const lastBlocks = last?.blocks ?? [];
  const failed = last && (last.type === 'error' || lastBlocks.some(isFailure));
  const error = failed ? (last.error ?? (last.text || lastBlocks.find(isFailure)?.text || 'failed')) : null;
  const waiting = last && (last.type === 'user' || lastBlocks.some((b) => b.type === 'tool_use' || b.type === 'tool_result'));
  const state = failed ? 'failed' : waiting ? 'running' : 'stopped';
  return { state, lastText: lastAssistant?.text ?? null, error: error ? error.slice(0, 2000) : null, outputs: [...outputs].slice(0, 50) };
}

/** One scan of a lab's shared trajectories (the caller is already authorized for the lab). */
export async function labBoard(em: EntityManager, labId: string, limit: number): Promise<BoardRow[]> {
  const q = sqlOf(em);
  const trajectories = await sharedTrajectories(q, labId, limit);
  if (trajectories.length === 0) return [];
  const tails = await tailsOf(
    q,
    trajectories.map((t) => t.id),
  );
  return trajectories.map((t) => ({
    sessionId: t.id,
    ownerId: t.ownerId,
    ownerName: t.ownerName,
    title: t.title,
    lastActivityAt: t.updatedAt,
    count: t.count,
    stoppedAtUuid: t.headUuid,
    figureCount: t.figureCount,
    openAnnotations: t.openAnnotations,
    ...readTail(tails.get(t.id) ?? []),
  }));
}

/**
 * Open review threads on the lab's shared trajectories: `forMe` on the viewer's trajectories
 * written by others, `byMe` written by the viewer on others' trajectories.
 */
export async function labReviews(em: EntityManager, viewer: Viewer, labId: string, limit: number) {
  const q = sqlOf(em);
  const [forMe, byMe] = await Promise.all([
    openThreads(q, labId, viewer.user.id, true, limit),
    openThreads(q, labId, viewer.user.id, false, limit),
  ]);
  return { forMe, byMe };
}
