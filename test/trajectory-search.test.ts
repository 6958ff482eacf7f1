import { Client } from 'pg';
import { recordTextSql, titleTextSql } from '../src/modules/trajectories/trajectory.entity';
import { labOfTwo, makeUser, useTestApp } from './support/app';
import { newSessionId, newUuid, trajectoryCalls } from './support/trajectories';

/**
 * Search across the sessions a viewer can read (docs/api.md "Search"): titles and record text by
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
