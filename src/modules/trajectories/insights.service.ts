import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Blobs } from '../../blobs';
import type { Config } from '../../config';
import { notFound } from '../../errors';
import { checks } from '../../validation';
import type { Viewer } from '../auth/auth.service';
import { sqlOf } from '../../db/sql';
import { eachRecordFacts, RecordFacts } from './record-facts';
import { appendRecords, loadTrajectory, seqOf } from './trajectory.service';
import * as repo from './trajectory.repository';

const snippet = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * A deterministic, extractive summary (no model): the task as first asked, the last answer,
 * and what happened in between, in counts. One pass that keeps only those.
 */
export async function extractiveSummary(records: AsyncIterable<RecordFacts>): Promise<string> {
  let firstAsk: string | undefined;
  let lastAnswer: string | undefined;
  let count = 0;
  let toolCalls = 0;
  let failures = 0;
  for await (const record of records) {
    count++;
    const text = record.text?.trim();
    if (firstAsk === undefined && record.type === 'user' && text) firstAsk = snippet(text, 600);
    if (record.type === 'assistant' && text) lastAnswer = snippet(text, 1200);
    for (const block of record.blocks ?? []) {
      if (block.type === 'tool_use') toolCalls++;
      if (block.type === 'tool_result' && (block.is_error === true || block.status === 'error')) failures++;
    }
    if (record.type === 'error') failures++;
  }
  const parts = [
    firstAsk ? `Task: ${firstAsk}` : 'Task: (no user message)',
    `Steps: ${count} records, ${toolCalls} tool calls, ${failures} failures.`,
    lastAnswer ? `Latest answer: ${lastAnswer}` : 'Latest answer: (none yet)',
  ];
  return parts.join('\n');
}

/**
 * Appends a `summary` record condensing everything up to `parentUuid` (owner only).
 * @throws NOT_FOUND when `parentUuid` is not in the session; CONFLICT if the session moved meanwhile.
 */
export async function appendSummary(em: EntityManager, blobs: Blobs, viewer: Viewer, sessionId: string, parentUuid: string) {
  checks().text(['input', 'parentUuid'], parentUuid, { min: 1, max: 200 }).done();
  const { trajectory } = await loadTrajectory(em, viewer, sessionId, 'write');
  const upto = await seqOf(em, sessionId, parentUuid).catch(() => {
    throw notFound('parent_uuid in this session');
  });
  const record = { type: 'summary', uuid: randomUUID(), parentUuid, summary: await extractiveSummary(eachRecordFacts(em, blobs, sessionId, upto)), leafUuid: parentUuid };
  await appendRecords(em, blobs, viewer, sessionId, { baseUuid: trajectory.headUuid, records: [JSON.stringify(record)] }, trajectory.source);
  return record;
}

export interface SummaryState {
  enabled: boolean;
  reason?: string;
  status?: 'ready' | 'pending';
  summary?: { text: string; headUuid: string; generatedAt: Date };
  stale?: boolean;
}

const NO_MODEL = 'no language model is configured (LLM_PROVIDER is unset)';

/** The cached model summary, for anyone who can view the session. Never an error for a viewer. */
export async function summaryState(em: EntityManager, config: Config, viewer: Viewer, sessionId: string): Promise<SummaryState> {
  const { trajectory } = await loadTrajectory(em, viewer, sessionId, 'view');
  if (!config.llm) return { enabled: false, reason: NO_MODEL };
  const cached = await repo.cachedSummary(sqlOf(em), sessionId);
  if (!cached) return { enabled: true, status: 'pending' };
  return {
    enabled: true,
    status: 'ready',
    summary: cached,
    stale: cached.headUuid !== trajectory.headUuid,
  };
}

/** Owner-only: drops the cached summary; the next generation fills it again. */
export async function dropSummary(em: EntityManager, viewer: Viewer, sessionId: string): Promise<void> {
  await loadTrajectory(em, viewer, sessionId, 'write');
  await repo.dropCachedSummary(sqlOf(em), sessionId);
}
