import { Client } from 'pg';
import { recordTextSql, titleTextSql } from '../src/modules/trajectories/trajectory.entity';
import { labOfTwo, makeUser, useTestApp } from './support/app';
import { newSessionId, newUuid, trajectoryCalls } from './support/trajectories';

/**
 * Search across the sessions a viewer can read (docs/api/trajectories.md, "Search"): titles and record text by
 * PostgreSQL full-text search, through GraphQL, by pages, served by the GIN indexes.
 */

const t = useTestApp();
const calls = trajectoryCalls(t);

const search = async (token: string, q: string, limit?: number, offset?: number) => {
  const reply = await t.call('POST', '/graphql', {
    token,
    body: {
      query: `query ($q: String!, $limit: Int, $offset: Int) {
        trajectorySearch(q: $q, limit: $limit, offset: $offset) { total items { sessionId title ownerName seq uuid snippet } }
      }`,
      variables: { q, limit, offset },
    },
  });
  if (reply.body.errors) return { errors: reply.body.errors as { extensions: { code: string } }[] };
  return reply.body.data.trajectorySearch as {
    total: number;
    items: { sessionId: string; title: string | null; ownerName: string; seq: number | null; uuid: string | null; snippet: string }[];
  };
};

const record = (text: string, parentUuid: string | null = null) => ({
  uuid: newUuid(),
  parentUuid,
  type: 'assistant',
  message: { role: 'assistant', content: text },
});

test('finds words in titles and record text of the sessions the viewer can read, and no one else’s', async () => {
  const { lab, owner, member } = await labOfTwo(t);
  const stranger = await makeUser(t);
  const shared = newSessionId('shared');
  const first = record('Differential expression of zebrafish fin regeneration genes');
  const second = record('Then\nnormalised with DESeq2; 1,204 reads kept', first.uuid);
  expect((await calls.append(owner, shared, null, [first, second], { title: 'Zebrafish RNA-seq' })).status).toBe(200);
  expect((await calls.setVisibility(owner, shared, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
  const hidden = newSessionId('private');
  expect((await calls.append(owner, hidden, null, [record('zebrafish kept private')])).status).toBe(200);

  const byOwner = await search(owner.token, 'zebrafish');
  expect('items' in byOwner && byOwner.items.map((hit) => [hit.sessionId, hit.seq])).toEqual([
    [shared, null], // the title first
    [hidden, 1],
    [shared, 1],
  ]);
  const asMember = await search(member.token, 'zebrafish');
  expect('items' in asMember && asMember.items.map((hit) => [hit.sessionId, hit.seq, hit.ownerName])).toEqual([
    [shared, null, 'Owner'],
    [shared, 1, 'Owner'],
  ]);
  expect(await search(stranger.token, 'zebrafish')).toEqual({ total: 0, items: [] });

  // Words after an escaped newline are words; member names (message, content, role) are not searched.
  const deseq = await search(owner.token, 'normalised deseq2');
  expect('items' in deseq && deseq.items.map((hit) => [hit.uuid, hit.snippet])).toEqual([[second.uuid, expect.stringContaining('DESeq2')]]);
  expect(await search(owner.token, 'content')).toEqual({ total: 0, items: [] });
  // A phrase, and paging.
  const phrase = await search(owner.token, '"fin regeneration"');
  expect('items' in phrase && phrase.items.map((hit) => hit.uuid)).toEqual([first.uuid]);
  const paged = await search(owner.token, 'zebrafish', 1, 1);
  expect(paged).toMatchObject({ total: 3, items: [{ sessionId: hidden }] });
});

test('a query out of bounds is refused; anonymous callers are not served', async () => {
  const user = await makeUser(t);
  for (const q of ['', '   ', 'x'.repeat(201)]) {
    const reply = await search(user.token, q);
    expect('errors' in reply && reply.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  }
  const anonymous = await t.call('POST', '/graphql', { body: { query: '{ trajectorySearch(q: "x") { total } }' } });
  expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
});

test('EXPLAIN: the record and title matches are served by the GIN indexes on the searched expressions', async () => {
  const client = new Client({ connectionString: t.databaseUrl });
  await client.connect();
  try {
    // With a few rows a sequential scan is cheaper; what matters is that the indexes can serve the expressions searched.
    await client.query('set enable_seqscan = off');
    const planOf = async (sql: string) =>
      (await client.query<{ 'QUERY PLAN': string }>(`explain ${sql}`)).rows.map((row) => row['QUERY PLAN']).join('\n');
    const query = `websearch_to_tsquery('simple', 'zebrafish')`;
    expect(await planOf(`select seq from trajectory_records r where r.raw is not null and ${recordTextSql('r.raw')} @@ ${query}`)).toMatch(
      /Bitmap Index Scan on trajectory_records_text_search/,
    );
    expect(await planOf(`select id from trajectories t where ${titleTextSql('t.title')} @@ ${query}`)).toMatch(
      /Bitmap Index Scan on trajectories_title_search/,
    );
  } finally {
    await client.end();
  }
});

describe('find in one trajectory', () => {
  const find = async (token: string, sessionId: string, text: string, first?: number) => {
    const reply = await t.call('POST', '/graphql', {
      token,
      body: {
        query: `query ($id: ID!, $text: String!, $first: Int) { trajectoryFind(sessionId: $id, text: $text, first: $first) { seqs total } }`,
        variables: { id: sessionId, text, first },
      },
    });
    if (reply.body.errors) return { errors: reply.body.errors as { extensions: { code: string } }[] };
    return reply.body.data.trajectoryFind as { seqs: number[]; total: number };
  };

  test('a plain case-insensitive substring: punctuation, quotes and newlines as shown; member names never match', async () => {
    const { lab, owner, member } = await labOfTwo(t);
    const id = newSessionId('find');
    const texts = ['p=0.05 after DESeq2', 'nothing here', 'She said "deseq2 is fine"\nthen left', 'line one\nline two', 'DESEQ2 again'];
    const records = texts.map((text) => record(text));
    expect((await calls.append(owner, id, null, records, { title: 'Find me' })).status).toBe(200);
    expect(await find(owner.token, id, 'deseq2')).toEqual({ seqs: [1, 3, 5], total: 3 });
    expect(await find(owner.token, id, 'q2 is F')).toEqual({ seqs: [3], total: 1 }); // inside a word, any case
    expect(await find(owner.token, id, '"deseq2')).toEqual({ seqs: [3], total: 1 }); // a quote, as the page shows it
    expect(await find(owner.token, id, '=0.05')).toEqual({ seqs: [1], total: 1 });
    expect(await find(owner.token, id, 'one\nline')).toEqual({ seqs: [4], total: 1 });
    expect(await find(owner.token, id, '%')).toEqual({ seqs: [], total: 0 }); // no LIKE wildcards
    expect(await find(owner.token, id, 'content')).toEqual({ seqs: [], total: 0 }); // a member name
    expect(await find(owner.token, id, 'deseq2', 2)).toEqual({ seqs: [1, 3], total: 3 });
    // Whoever can view it may find in it: the lab once it is shared.
    expect(await find(member.token, id, 'deseq2')).toMatchObject({ errors: [{ extensions: { code: 'NOT_FOUND' } }] });
    expect((await calls.setVisibility(owner, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
    expect(await find(member.token, id, 'again')).toEqual({ seqs: [5], total: 1 });
  });

  test('an outsider gets not-found, as for a session that does not exist; bad input is refused', async () => {
    const owner = await makeUser(t);
    const stranger = await makeUser(t);
    const id = newSessionId('find-private');
    expect((await calls.append(owner, id, null, [record('secret words')])).status).toBe(200);
    const outsider = await find(stranger.token, id, 'secret');
    expect(outsider).toMatchObject({ errors: [{ extensions: { code: 'NOT_FOUND' } }] });
    expect(await find(stranger.token, newSessionId('none'), 'secret')).toMatchObject({ errors: [{ extensions: { code: 'NOT_FOUND' } }] });
    for (const text of ['', '   ', 'x'.repeat(201)]) {
      expect(await find(owner.token, id, text)).toMatchObject({ errors: [{ extensions: { code: 'VALIDATION_FAILED' } }] });
    }
    for (const first of [0, 1001]) {
      expect(await find(owner.token, id, 'secret', first)).toMatchObject({ errors: [{ extensions: { code: 'VALIDATION_FAILED' } }] });
    }
    // A NUL is sought as the escape a record would hold, not sent to the database raw.
    expect(await find(owner.token, id, 'a\u0000b')).toEqual({ seqs: [], total: 0 });
    const anonymous = await t.call('POST', '/graphql', { body: { query: `{ trajectoryFind(sessionId: "${id}", text: "x") { total } }` } });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});
