import type { EntityManager } from '@mikro-orm/postgresql';
import type { Blobs } from '../../blobs';
import { sqlOf } from '../../db/sql';
import { loadPayload } from './payloads';
import { factsOfText, readFactsBatch, type RecordFacts } from './record-facts.repository';

/** Records one read of `eachRecordFacts` asks for. */
const BATCH_ROWS = 500;

/**
 * The facts of every record of a trajectory up to position `uptoSeq` (all when undefined), in
 * order, read in batches. A record PostgreSQL cannot parse is known by its type alone.
 */
export async function* eachRecordFacts(
  em: EntityManager,
  blobs: Blobs,
  sessionId: string,
  uptoSeq = 2 ** 31 - 1,
): AsyncGenerator<RecordFacts> {
  const q = sqlOf(em);
  for (let after = 0; ;) {
    const rows = await readFactsBatch(q, sessionId, after, uptoSeq, BATCH_ROWS);
    for (const row of rows) {
      // A record kept in the blob store is brought to PostgreSQL to be projected the same way.
      const facts = row.payloadRef?.startsWith('blob:') ? await factsOfText(q, await loadPayload(blobs, row.payloadRef)) : row.facts;
      yield facts ?? { type: row.type };
    }
    if (rows.length < BATCH_ROWS) return;
    after = rows[rows.length - 1].seq;
  }
}

/** `text` cut to `max` characters, with an ellipsis when cut. */
export const snippet = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
