import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { sqlOf } from '../../db/sql';
import { condition, db, fragment, rowsOf } from '../../db/typed-sql';
import { recordTextSql, titleTextSql } from './trajectory.entity';
import { canViewSql } from './trajectory.policy';

/**
 * Full-text search over the sessions a viewer can read: their titles and their records' text
 * (`titleTextSql`, `recordTextSql`), with `websearch_to_tsquery` (words, "a phrase", -not, or).
 * Served by the GIN indexes on exactly those expressions.
 */
const RECORD_TEXT = recordTextSql('r.raw');
const TITLE_TEXT = titleTextSql('t.title');
/**
 * What a record's snippet is cut from: its `content` string when it has one (a message), else its
 * JSON without member names, punctuation and escapes. Regular expressions, not jsonb: a record may
 * hold an escaped NUL, which jsonb refuses. (No `?` in them: the statement's placeholders are `?`.)
 */
const SNIPPET_SOURCE = `regexp_replace(coalesce(substring(r.raw from '"content"\\s*:\\s*"(([^"\\\\]|\\\\.)*)"'),
   regexp_replace(r.raw, '"\\w+"\\s*:|[{}\\[\\]",]', ' ', 'g')), '\\\\[nrt]', ' ', 'g')`;

export interface SearchHit {
  sessionId: string;
  title: string | null;
  ownerId: string;
  ownerName: string;
  /** The record's place, or null for a match on the title. */
  seq: number | null;
  uuid: string | null;
  snippet: string;
}

/**
 * One page of matches, titles first (then newest session first, records in order), and the count
 * of all. Records stored apart (`payload_ref`, very large texts) are not searched.
 */
export async function searchTrajectories(
  em: EntityManager,
  viewer: { userId: string; admin: boolean },
  text: string,
  page: { limit: number; offset: number },
): Promise<{ hits: SearchHit[]; total: number }> {
  const readable = canViewSql('t', '?', viewer.admin);
  const readableParams = viewer.admin ? [] : [viewer.userId, viewer.userId];
  const statement = db
    .with('query', (creator) => creator.selectNoFrom(fragment<string>("websearch_to_tsquery('simple', ?)", text).as('q')))
    .with('hits', (creator) =>
      creator
        .selectFrom(['trajectories as t', 'query'])
        .select(['t.id as session_id', sql<number | null>`null::int`.as('seq'), 't.updated_at'])
        .where(condition(`${TITLE_TEXT} @@ query.q and ${readable}`, ...readableParams))
        .unionAll(
          creator
            .selectFrom('trajectory_records as r')
            .innerJoin('trajectories as t', 't.id', 'r.session_id')
            .crossJoin('query')
            .select(['r.session_id', 'r.seq', 't.updated_at'])
            .where(condition(`r.raw is not null and ${RECORD_TEXT} @@ query.q and ${readable}`, ...readableParams)),
        ),
    )
    .with('paged', (creator) =>
      creator
        .selectFrom('hits')
        // A bigint: the driver answers text.
        .select(['session_id', 'seq', sql<string>`count(*) over ()`.as('total')])
        .orderBy(sql`seq is not null`)
        .orderBy('updated_at', 'desc')
        .orderBy('session_id')
        .orderBy('seq')
        .limit(page.limit)
        .offset(page.offset),
    )
    .selectFrom('paged as p')
    .innerJoin('trajectories as t', 't.id', 'p.session_id')
    .innerJoin('users as u', 'u.id', 't.owner_id')
    .leftJoin('trajectory_records as r', (join) => join.onRef('r.session_id', '=', 'p.session_id').onRef('r.seq', '=', 'p.seq'))
    .crossJoin('query')
    .select([
      'p.session_id as sessionId',
      't.title',
      't.owner_id as ownerId',
      'u.name as ownerName',
      'p.seq',
      'r.uuid',
      'p.total',
      sql<string>`ts_headline('simple', coalesce(${sql.raw(SNIPPET_SOURCE)}, t.title, ''), query.q,
                              'StartSel="", StopSel="", MaxWords=30, MinWords=12, MaxFragments=1')`.as('snippet'),
    ])
    .orderBy(sql`p.seq is not null`)
    .orderBy('t.updated_at', 'desc')
    .orderBy('p.session_id')
    .orderBy('p.seq');
  const rows = await rowsOf(sqlOf(em), statement);
  const total = rows.length ? Number(rows[0].total) : 0;
  return { hits: rows.map(({ total: _total, ...hit }) => hit), total };
}

/**
 * What a find inside one trajectory reads of a record: its JSON text, lower-cased, without its
 * member names (a reader never sees "content" or "message" on the page, so they must not match).
 * Escapes stay as written: the text sought is escaped the same way (`asJsonText`).
 */
const FIND_TEXT = `lower(regexp_replace(r.raw, '"\\w+"\\s*:', ' ', 'g'))`;

/** `text` as it appears inside a JSON string: a quote, a backslash or a newline escaped. */
const asJsonText = (text: string) => JSON.stringify(text).slice(1, -1);

/**
 * The positions of the records of one trajectory whose text holds `text`, case-insensitively, in
 * order: at most `limit` of them, and how many there are in all. A plain substring find, not the
 * word search above: a reader looking for "seq2" or "=0.05" in one transcript expects every
 * record that shows it. Records stored apart (`payload_ref`, very large texts) are not read.
 */
export async function findInTrajectory(
  em: EntityManager,
  sessionId: string,
  text: string,
  limit: number,
): Promise<{ seqs: number[]; total: number }> {
  const rows = await rowsOf(
    sqlOf(em),
    db
      .selectFrom('trajectory_records as r')
      // A bigint: the driver answers text.
      .select(['r.seq', sql<string>`count(*) over ()`.as('total')])
      .where('r.session_id', '=', sessionId)
      .where('r.raw', 'is not', null)
      // The whole text first: cheap, and it rules out most records before the member names are taken out.
      .where(condition(`strpos(lower(r.raw), lower(?)) > 0 and strpos(${FIND_TEXT}, lower(?)) > 0`, asJsonText(text), asJsonText(text)))
      .orderBy('r.seq')
      .limit(limit),
  );
  return { seqs: rows.map((row) => row.seq), total: rows.length ? Number(rows[0].total) : 0 };
}
