/**
 * The SQL that projects stored record texts to `RecordFacts` (see record-facts.ts), and the
 * reads that use it.
 */
import { sql } from 'kysely';
import type { Query } from '../../db/sql';
import { condition, db, fragment, rowsOf } from '../../db/typed-sql';

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

/** SQL: the text of a JSON content value (a string, or the text blocks of an array). */
const textOfContent = (content: string) => `case jsonb_typeof(${content})
    when 'string' then ${content} #>> '{}'
    when 'array' then (select string_agg(case when jsonb_typeof(part) = 'string' then part #>> '{}' when part ->> 'type' = 'text' then part ->> 'text'
                                              when jsonb_typeof(part -> 'content') = 'string' then part ->> 'content' end, E'\\n')
                         from jsonb_array_elements(${content}) part)
  end`;

/** SQL: a JSON string member cut to `max` characters, else null. */
const shortString = (value: string, max: number) => `case when jsonb_typeof(${value}) = 'string' then left(${value} #>> '{}', ${max}) end`;

/** SQL: a JSON scalar member (a tool call id may be a number) as text of at most `max` characters. */
const shortScalar = (value: string, max: number) =>
  `case when jsonb_typeof(${value}) in ('string', 'number') then left(${value} #>> '{}', ${max}) end`;

/** SQL: one content block (or a record standing for one) projected to `BlockFacts`. */
const blockFacts = (
  b: string,
) => `jsonb_build_object('type', ${b} -> 'type', 'id', ${shortScalar(`${b} -> 'id'`, 200)}, 'tool_use_id', ${shortScalar(`${b} -> 'tool_use_id'`, 200)},
    'is_error', ${b} -> 'is_error', 'status', ${b} -> 'status', 'name', ${shortString(`${b} -> 'name'`, 100)},
    'file', coalesce(${shortString(`${b} #> '{input,file_path}'`, 500)}, ${shortString(`${b} #> '{input,path}'`, 500)}),
    'text', left(${textOfContent(`nullif(${b} -> 'content', 'null')`)}, 500))`;

/** SQL: the parsed record `j` projected to `RecordFacts`. */
export const RECORD_FACTS = `jsonb_strip_nulls(jsonb_build_object(
    'uuid', ${shortScalar(`j -> 'uuid'`, 200)},
    'type', j -> 'type',
    'error', case jsonb_typeof(j -> 'error')
               when 'string' then nullif(left(j ->> 'error', 2000), '')
               when 'object' then coalesce(${shortString(`j #> '{error,message}'`, 2000)}, '')
               when 'array' then ''
               when 'number' then case when (j ->> 'error')::numeric <> 0 then '' end
             end,
    'text', left(${textOfContent(`coalesce(nullif(j #> '{message,content}', 'null'), nullif(j -> 'content', 'null'), nullif(j -> 'text', 'null'))`)}, 2000),
    'blocks', case when jsonb_typeof(j #> '{message,content}') = 'array'
                then (select coalesce(jsonb_agg(${blockFacts('b')}), '[]') from (select b from jsonb_array_elements(j #> '{message,content}') b where jsonb_typeof(b) = 'object' limit 50) blocks)
                else jsonb_build_array(${blockFacts('j')}) end,
    'outputs', case when jsonb_typeof(j -> 'outputs') = 'array'
                 then (select jsonb_agg(left(o #>> '{}', 500)) from (select o from jsonb_array_elements(j -> 'outputs') o where jsonb_typeof(o) = 'string' limit 50) outs) end))`;

/**
 * SQL: the facts of a stored record text `raw` (null when jsonb cannot hold that JSON: an escaped
 * NUL, a lone surrogate, a number beyond its range).
 */
export const factsOf = (raw: string) => `(select ${RECORD_FACTS} from (select labdesk_try_jsonb(${raw}) as j) parsed where j is not null)`;

/** SQL: the facts of a stored record text `raw` (see `factsOf`), typed as `RECORD_FACTS` builds them. */
const factsColumn = (raw: string) => sql<RecordFacts | null>`${sql.raw(factsOf(raw))}`.as('facts');

/** One read of at most `rows` records after `afterSeq` (up to `uptoSeq`): facts for those stored in the database, `blob:` references for the rest. */
export async function readFactsBatch(q: Query, trajectoryId: string, afterSeq: number, uptoSeq: number, rows: number) {
  const found = await rowsOf(
    q,
    db
      .selectFrom('trajectory_records as r')
      .leftJoin('record_payloads as p', (join) =>
        join.on(condition(`p.id = (case when r.payload_ref like 'db:%' then substr(r.payload_ref, 4)::bigint end)`)),
      )
      .select(['r.seq', 'r.type', 'r.payload_ref', factsColumn('coalesce(r.raw, p.body)')])
      .where('r.session_id', '=', trajectoryId)
      .where('r.seq', '>', afterSeq)
      .where('r.seq', '<=', uptoSeq)
      .orderBy('r.seq')
      .limit(rows),
  );
  return found.map((r) => ({ seq: r.seq, type: r.type, payloadRef: r.payload_ref, facts: r.facts }));
}

/** The facts of a record text given (one kept in the blob store), projected the same way. */
export async function factsOfText(q: Query, text: string): Promise<RecordFacts | null> {
  const [row] = await rowsOf(q, db.selectNoFrom(fragment<RecordFacts | null>(factsOf('?::text'), text).as('facts')));
  return row.facts;
}
