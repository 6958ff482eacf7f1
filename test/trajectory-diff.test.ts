import { makeUser, useTestApp, type TestUser } from './support/app';
import { newSessionId, trajectoryCalls } from './support/trajectories';

/**
 * Comparing trajectories (issue 41, 2): a fork against its parent from the point they diverge,
 * records matched by uuid, a changed record's line diff, each side's counts; only for whoever can
 * read both, a page at a time.
 */
const t = useTestApp();
type Reply = { data?: Record<string, any> | null; errors?: { message: string; extensions?: { code?: string } }[] };
const gql = async (token: string, query: string, variables: Record<string, unknown>): Promise<Reply> =>
  (await t.call<Reply>('POST', '/graphql', { token, body: { query, variables } })).body;

const DIFF = `query($base: ID!, $other: ID!, $from: Int, $first: Int) {
  trajectoryDiff(base: $base, other: $other, from: $from, first: $first) {
    total from hasMore
    counts { same changed removed added }
    divergence { index baseSeq otherSeq }
    base { sessionId records toolCalls errors tokens { input output } }
    other { sessionId records toolCalls errors tokens { input output } }
    rows { index kind baseSeq otherSeq baseText otherText segments { kind text } }
  } }`;

const say = (uuid: string, parentUuid: string | null, text: string, type = 'assistant') => ({
  uuid,
  parentUuid,
  type,
  message: { role: type, content: text },
});

let owner: TestUser;
let outsider: TestUser;
let parent: string;
let fork: string;
beforeAll(async () => {
  [owner, outsider] = await Promise.all([makeUser(t, { name: 'Dana Diff' }), makeUser(t, { name: 'Otto Outside' })]);
  const calls = trajectoryCalls(t);
  parent = newSessionId('parent');
  const records = [
    say('p1', null, 'Load the spectra.', 'user'),
    say('p2', 'p1', 'Loaded 40 spectra.'),
    {
      uuid: 'p3',
      parentUuid: 'p2',
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'python', input: { code: 'fit(baseline="linear")' } }] },
    },
    {
      uuid: 'p4',
      parentUuid: 'p3',
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', is_error: true, content: 'diverged' }] },
    },
    {
      ...say('p5', 'p4', 'The linear baseline does not converge.'),
      message: { role: 'assistant', content: 'The linear baseline does not converge.', usage: { input_tokens: 900, output_tokens: 40 } },
    },
  ];
  expect((await calls.append(owner, parent, null, records, { title: 'Baseline fit' })).status).toBe(200);
  const forked = await gql(
    owner.token,
    `mutation($id: ID!, $input: ForkInput!) { trajectoryFork(sessionId: $id, input: $input) { sessionId } }`,
    {
      id: parent,
      input: { headUuid: 'p3' },
    },
  );
  fork = forked.data!.trajectoryFork.sessionId;
  expect(
    (
      await calls.append(owner, fork, 'p3', [
        say('f4', 'p3', 'Trying a spline baseline instead.'),
        {
          ...say('f5', 'f4', ''),
          message: { role: 'assistant', content: 'Converged: chi² 1.02.', usage: { input_tokens: 700, output_tokens: 25 } },
        },
      ])
    ).status,
  ).toBe(200);
});

test('a fork against its parent: the shared records, then each side’s own, the page opening where they diverge', async () => {
  const reply = await gql(owner.token, DIFF, { base: parent, other: fork });
  expect(reply.errors).toBeUndefined();
  const diff = reply.data!.trajectoryDiff;
  expect(diff.counts).toEqual({ same: 3, changed: 0, removed: 2, added: 2 });
  expect(diff.divergence).toEqual({ index: 3, baseSeq: 4, otherSeq: null });
  expect(diff.base).toEqual({ sessionId: parent, records: 5, toolCalls: 1, errors: 1, tokens: { input: 900, output: 40 } });
  expect(diff.other).toEqual({ sessionId: fork, records: 5, toolCalls: 1, errors: 0, tokens: { input: 700, output: 25 } });
  // From the last shared record: the reader sees where they part first.
  expect(diff.from).toBe(2);
  expect(diff.rows.map((row: any) => [row.index, row.kind, row.baseSeq, row.otherSeq])).toEqual([
    [2, 'same', 3, 3],
    [3, 'removed', 4, null],
    [4, 'removed', 5, null],
    [5, 'added', null, 4],
    [6, 'added', null, 5],
  ]);
  expect(diff.rows[1].otherText).toBeNull(); // removed: the base side's record only
  expect(JSON.parse(diff.rows[2].baseText).message.content).toBe('The linear baseline does not converge.');
  expect(JSON.parse(diff.rows[3].otherText).message.content).toBe('Trying a spline baseline instead.');
  expect(diff.hasMore).toBe(false);

  const first = (await gql(owner.token, DIFF, { base: parent, other: fork, from: 0, first: 2 })).data!.trajectoryDiff;
  expect([first.from, first.hasMore, first.rows.map((row: any) => row.index)]).toEqual([0, true, [0, 1]]);
});

test('a record with the same uuid and another text is changed, with its line diff', async () => {
  const calls = trajectoryCalls(t);
  const [a, b] = [newSessionId('a'), newSessionId('b')];
  expect((await calls.append(owner, a, null, [say('u1', null, 'Same start.', 'user'), say('u2', 'u1', 'k = 0.31 per hour')])).status).toBe(
    200,
  );
  expect((await calls.append(owner, b, null, [say('u1', null, 'Same start.', 'user'), say('u2', 'u1', 'k = 0.29 per hour')])).status).toBe(
    200,
  );
  const diff = (await gql(owner.token, DIFF, { base: a, other: b })).data!.trajectoryDiff;
  expect(diff.counts).toEqual({ same: 1, changed: 1, removed: 0, added: 0 });
  const changed = diff.rows.find((row: any) => row.kind === 'changed');
  expect(changed.segments.filter((part: any) => part.kind !== 'same').map((part: any) => [part.kind, part.text.trim()])).toEqual([
    ['removed', '"content": "k = 0.31 per hour"'],
    ['added', '"content": "k = 0.29 per hour"'],
  ]);
  // Identical sessions: no divergence.
  expect((await gql(owner.token, DIFF, { base: a, other: a })).data!.trajectoryDiff.divergence).toBeNull();
});

test('only for whoever can read both; bad pages are refused', async () => {
  const hidden = await gql(outsider.token, DIFF, { base: parent, other: fork });
  expect(hidden.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  const mine = newSessionId('mine');
  expect((await trajectoryCalls(t).append(outsider, mine, null, [say('m1', null, 'mine', 'user')])).status).toBe(200);
  expect((await gql(outsider.token, DIFF, { base: mine, other: fork })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  expect((await gql(owner.token, DIFF, { base: parent, other: fork, first: 0 })).errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  expect((await gql(owner.token, DIFF, { base: parent, other: fork, first: 201 })).errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
});
