import type { EntityManager } from '@mikro-orm/postgresql';
import { int4Array, textArray } from '../src/db/binary-arrays';
import { directQuery } from '../src/db/sql';
import { makeLab, makeUser, useTestApp } from './support/app';
import { newSessionId, newUuid, trajectoryCalls } from './support/trajectories';

/**
 * The hot paths that skip the ORM: records sent as binary arrays, the one-statement append and
 * the prepared token lookup. What they store must be exactly what was sent, and prepared
 * statements must survive a column another instance's migration adds.
 */

// Two pooled connections (the fewest that start), so the requests below prepare their statements on both.
const t = useTestApp({ DATABASE_POOL_SIZE: '2' });
const { append, read } = trajectoryCalls(t);
const em = () => t.app.services.orm.em.fork() as EntityManager;

describe('binary array parameters round-trip through PostgreSQL exactly', () => {
  test.each([
    ['empty', []],
    ['one empty string', ['']],
    ['nulls among texts', [null, 'a', null]],
    ['array-literal syntax and escapes', ['{"a":[1,2]}', 'quote " and \\ backslash', 'comma, brace } NULL', ' padded ']],
    ['multi-byte text', ['café', '日本語', '😀 ∑ Ü', '\u2028\u2029']],
    ['a text over 256 KiB', ['é'.repeat(200_000)]],
  ])('text[]: %s', async (_what, values) => {
    const [row] = await directQuery<{ values: (string | null)[]; n: number }>(
      em(),
      'select $1::text[] as values, cardinality($1::text[]) as n',
      [textArray(values)],
    );
    expect(row.n).toBe(values.length);
    expect(row.values).toEqual(values);
  });

  test('text[] with the byte lengths given by the caller', async () => {
    const values = ['ascii', 'ünï', '😀'];
    const [row] = await directQuery<{ values: string[] }>(em(), 'select $1::text[] as values', [
      textArray(
        values,
        values.map((v) => Buffer.byteLength(v)),
      ),
    ]);
    expect(row.values).toEqual(values);
  });

  test.each([
    ['empty', []],
    ['bounds and signs', [0, 1, -1, 2 ** 31 - 1, -(2 ** 31)]],
  ])('int[]: %s', async (_what, values) => {
    const [row] = await directQuery<{ values: number[] }>(em(), 'select $1::int[] as values', [int4Array(values)]);
    expect(row.values).toEqual(values);
  });
});

describe('the append hot path', () => {
  let statements: string[] = [];
  beforeAll(() => {
    const logger = t.app.services.orm.config.getLogger();
    const original = logger.logQuery.bind(logger);
    logger.logQuery = (context) => {
      statements.push(String(context.query));
      original(context);
    };
  });

  test('a fast-forward of an existing session costs the token lookup and one statement, whatever the batch size', async () => {
    const user = await makeUser(t);
    const id = newSessionId();
    let head: string | null = null;
    const batch = (n: number) => Array.from({ length: n }, () => ({ uuid: newUuid(), type: 'user', text: 'x' }));
    const first = batch(1);
    expect((await append(user, id, head, first)).status).toBe(200); // creates the session: the full transaction
    head = first[0].uuid;
    for (const n of [1, 50]) {
      const records = batch(n);
      statements = [];
      const reply = await append(user, id, head, records);
      expect(reply.status).toBe(200);
      expect(reply.body.appended).toBe(n);
      expect(statements).toHaveLength(2);
      head = records[n - 1].uuid;
    }
  });

  test('a lab_id in the body is checked as the transaction checks it: a lab the caller is active in passes in one statement, another is 409 with nothing stored', async () => {
    const user = await makeUser(t);
    const mine = await makeLab(t, { owner: user });
    const theirs = await makeLab(t);
    const id = newSessionId();
    const one = { uuid: newUuid(), type: 'user' };
    expect((await append(user, id, null, [one])).status).toBe(200);
    const two = { uuid: newUuid(), parentUuid: one.uuid, type: 'user' };
    statements = [];
    expect((await append(user, id, one.uuid, [two], { lab_id: mine.id })).status).toBe(200);
    expect(statements).toHaveLength(2);
    const refused = await append(user, id, two.uuid, [{ uuid: newUuid(), type: 'user' }], { lab_id: theirs.id });
    expect(refused.status).toBe(409);
    expect((await read(user, id)).body).toMatchObject({ count: 2, head_uuid: two.uuid, lab_id: null });
  });

  test('token counts a ledger cannot hold are ignored, not a failure; plausible ones are counted', async () => {
    const user = await makeUser(t);
    const id = newSessionId();
    const usage = (input_tokens: number, output_tokens: number) => ({
      uuid: newUuid(),
      type: 'assistant',
      message: { usage: { input_tokens, output_tokens } },
    });
    const first = usage(1e21, 7);
    expect((await append(user, id, null, [first])).status).toBe(200);
    expect((await append(user, id, first.uuid, [usage(3, 2e300)])).status).toBe(200);
    const rows = await t.sql<{ tokens_in: string; tokens_out: string }>(
      'select tokens_in, tokens_out from usage_entries where session_id = $1 order by id',
      [id],
    );
    expect(rows.map((r) => [Number(r.tokens_in), Number(r.tokens_out)])).toEqual([
      [0, 7],
      [3, 0],
    ]);
  });

  test('prepared statements keep working when another instance’s migration changes the tables they read, or the server forgets them', async () => {
    const user = await makeUser(t);
    const id = newSessionId();
    const uuids: string[] = [];
    /** Appends one record and reads the session back: the token lookup, the append and the record batches. */
    const round = async () => {
      const uuid = newUuid();
      expect((await append(user, id, uuids.at(-1) ?? null, [{ uuid, type: 'user' }])).status).toBe(200);
      uuids.push(uuid);
      const reply = await read(user, id);
      expect(reply.status).toBe(200);
      expect(reply.body.records.map((r: { uuid: string }) => r.uuid)).toEqual(uuids);
    };
    for (let i = 0; i < 4; i++) await round();
    await t.sql('alter table users add column added_later text');
    await t.sql('alter table trajectories add column added_later text');
    await t.sql('alter table trajectory_records add column added_later text');
    for (let i = 0; i < 4; i++) await round();
    // A column the token lookup reads changes type: PostgreSQL refuses the prepared statement
    // (its result changed); the service prepares it again.
    await t.sql('alter table users alter column name type varchar(1000)');
    for (let i = 0; i < 4; i++) await round();
    // The server forgets every prepared statement (as a pooler's DISCARD ALL does).
    await directQuery(em(), 'deallocate all');
    for (let i = 0; i < 4; i++) await round();
  });
});
