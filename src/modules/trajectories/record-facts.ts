import type { EntityManager } from '@mikro-orm/postgresql';
import type { Blobs } from '../../blobs';
import { sqlOf } from '../../db/sql';
import { loadPayload } from './payloads';
import { factsOfText, readFactsBatch } from './record-facts.repository';

/**
 * What the service's own readings of a session (the board, critique, the extractive summary)
 * know of one record. PostgreSQL projects it from the stored text, every string cut short and
 * every list bounded, so a pass over a session never holds or parses a whole record in the
 * service, whatever the records' sizes.
 */
export interface RecordFacts {
  uuid?: string;
  type?: unknown;
  /** A string `error` member, or the `message` of an `error` object ('' for any other error value). */
  error?: string;
  /** The message text (`message.content`, else `content`, else `text`: a string, or its text blocks), at most 2,000 characters. */
  text?: string;
  /** The message's content blocks (at most 50), or the record itself as one block. */
  blocks?: BlockFacts[];
  /** String members of an `outputs` array (at most 50). */
  outputs?: string[];
}

export interface BlockFacts {
  type?: unknown;
  id?: string;
  tool_use_id?: string;
  is_error?: unknown;
  status?: unknown;
  name?: string;
  /** `input.file_path` or `input.path`. */
  file?: string;
  /** Text of the block's `content`, at most 500 characters. */
  text?: string;
}

/** Records one read of `eachRecordFacts` asks for. */
const BATCH_ROWS = 500;

/**
 * The facts of every record of a trajectory up to position `uptoSeq` (all when undefined), in
 * order, read in batches. A record PostgreSQL cannot parse is known by its type alone.
 */
export async function* eachRecordFacts(em: EntityManager, blobs: Blobs, sessionId: string, uptoSeq = 2 ** 31 - 1): AsyncGenerator<RecordFacts> {
  const q = sqlOf(em);
  for (let after = 0; ; ) {
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
