import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf } from '../../db/sql';
import type { Viewer } from '../auth/auth.service';
import { OPEN_NOTE } from './annotation.service';
import { BlockFacts, factsOf, RecordFacts } from './record-facts';

/** How many of each session's last records the board looks at to tell where it stopped. */
const TAIL = 20;
/**
 * Bytes of a session's tail PostgreSQL parses for the board: the last record always (when stored
 * inline), earlier ones while the records after them total less than this. Bounds the work one
 * row costs, whatever the records' sizes.
 */
const TAIL_PARSE_BYTES = 256 * 1024;

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
  const error = failed ? last.error ?? (last.text || lastBlocks.find(isFailure)?.text || 'failed') : null;
  const waiting = last && (last.type === 'user' || lastBlocks.some((b) => b.type === 'tool_use' || b.type === 'tool_result'));
  const state = failed ? 'failed' : waiting ? 'running' : 'stopped';
  return { state, lastText: lastAssistant?.text ?? null, error: error ? error.slice(0, 2000) : null, outputs: [...outputs].slice(0, 50) };
}

/**
 * The tail of each session, oldest first: records within the parse budget are projected; the
 * others (over the budget, or stored out of line) are known by their type alone.
 */
const BOARD_TAILS = `select x.id as session_id, coalesce(
         ${factsOf('r.raw')},
         jsonb_build_object('type', r.type)) as record
    from jsonb_array_elements_text(?::jsonb) as x(id)
   cross join lateral (
     select tail.seq, tail.type, case when coalesce(sum(tail.bytes) over (order by tail.seq desc rows between unbounded preceding and 1 preceding), 0) < ${TAIL_PARSE_BYTES} then tail.raw end as raw
       from (select seq, type, raw, bytes from trajectory_records where session_id = x.id order by seq desc limit ${TAIL}) tail) r
   order by x.id, r.seq`;

/** One scan of a lab's shared sessions (the caller is already authorized for the lab). */
export async function labBoard(em: EntityManager, labId: string, limit: number): Promise<BoardRow[]> {
  const q = sqlOf(em);
  const sessions = await q<{ id: string; owner_id: string; owner_name: string; title: string | null; updated_at: string; count: number; head_uuid: string | null; open: number; figures: number }>(
    `select t.id, t.owner_id, u.name as owner_name, t.title, t.updated_at, t.count, t.head_uuid,
            (select count(*)::int from annotation_entries n where n.session_id = t.id and ${OPEN_NOTE}) as open,
            (select count(*)::int from figures f where f.session_id = t.id) as figures
       from trajectories t join users u on u.id = t.owner_id
      where t.lab_id = ? and t.visibility = 'lab' and t.archived_at is null
      order by t.updated_at desc, t.id limit ?`,
    [labId, limit],
  );
  if (sessions.length === 0) return [];
  const tails = await q<{ session_id: string; record: RecordFacts }>(BOARD_TAILS, [JSON.stringify(sessions.map((s) => s.id))]);
  const bySession = new Map<string, RecordFacts[]>();
  for (const row of tails) bySession.set(row.session_id, [...(bySession.get(row.session_id) ?? []), row.record]);
  return sessions.map((s) => ({
    sessionId: s.id,
    ownerId: s.owner_id,
    ownerName: s.owner_name,
    title: s.title,
    lastActivityAt: new Date(s.updated_at),
    count: s.count,
    stoppedAtUuid: s.head_uuid,
    figureCount: s.figures,
    openAnnotations: s.open,
    ...readTail(bySession.get(s.id) ?? []),
  }));
}

export interface ReviewThread {
  annotationId: string;
  sessionId: string;
  sessionTitle: string | null;
  recordUuid: string;
  authorId: string;
  body: string;
  createdAt: Date;
}

/**
 * Open review threads on the lab's shared sessions: `forMe` on the viewer's sessions written by
 * others, `byMe` written by the viewer on others' sessions.
 */
export async function labReviews(em: EntityManager, viewer: Viewer, labId: string, limit: number) {
  const threads = (mine: boolean) =>
    sqlOf(em)<{ annotation_id: string; session_id: string; title: string | null; record_uuid: string; author_id: string; body: string; created_at: string }>(
      `select n.annotation_id, n.session_id, t.title, n.record_uuid, n.author_id, n.body, n.created_at
         from annotation_entries n join trajectories t on t.id = n.session_id
        where ${OPEN_NOTE} and t.lab_id = ? and t.visibility = 'lab'
          and ${mine ? 't.owner_id = ? and n.author_id <> ?' : 'n.author_id = ? and t.owner_id <> ?'}
        order by n.id desc limit ?`,
      [labId, viewer.user.id, viewer.user.id, limit],
    );
  const present = (rows: Awaited<ReturnType<typeof threads>>): ReviewThread[] =>
    rows.map((r) => ({ annotationId: r.annotation_id, sessionId: r.session_id, sessionTitle: r.title, recordUuid: r.record_uuid, authorId: r.author_id, body: r.body, createdAt: new Date(r.created_at) }));
  const [forMe, byMe] = await Promise.all([threads(true), threads(false)]);
  return { forMe: present(forMe), byMe: present(byMe) };
}
