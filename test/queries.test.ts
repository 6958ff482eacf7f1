import { Client } from 'pg';
import { addMember, makeLab, makeUser, startTestApp, TestApp } from './support/app';
import { newSessionId, newUuid, trajectoryCalls } from './support/trajectories';

/**
 * List endpoints cost a fixed number of SQL statements however many rows they return: fields
 * that need other tables go through per-request DataLoaders, never one query per row.
 */
let t: TestApp;
let statements: string[] = [];
beforeAll(async () => {
  t = await startTestApp();
  const logger = t.app.services.orm.config.getLogger();
  logger.logQuery = (context: { query: string }) => void statements.push(context.query);
});
afterAll(async () => {
  await t.close();
});

/** Statements of `run` after a first call (which may read the caller's token: the credential cache keeps it after). */
async function countStatements(run: () => Promise<unknown>): Promise<number> {
  await run();
  statements = [];
  await run();
  return statements.length;
}

test('GET /api/admin/labs and /api/admin/users: the same statements for 2 rows as for 12', async () => {
  const adminLabs = () => t.call('GET', '/api/admin/labs', { token: t.adminToken });
  const adminUsers = () => t.call('GET', '/api/admin/users', { token: t.adminToken });
  for (let i = 0; i < 2; i++) await makeLab(t);
  const fewLabs = await countStatements(adminLabs);
  const fewUsers = await countStatements(adminUsers);
  for (let i = 0; i < 10; i++) await makeLab(t);
  expect((await adminLabs()).body.total).toBe(12);
  expect(await countStatements(adminLabs)).toBe(fewLabs);
  expect(await countStatements(adminUsers)).toBe(fewUsers);
  // the page, its count, and one batched field (seats used / effective tier); the token is kept checked
  expect(fewLabs).toBe(3);
  expect(fewUsers).toBe(3);
});

test('GET /api/labs/{lab_id} with members: the same statements for 2 members as for 12', async () => {
  const lab = await makeLab(t, { seatQuota: 20 });
  await addMember(t, lab, await makeUser(t));
  const read = () => t.call('GET', `/api/labs/${lab.id}`, { token: lab.owner.token });
  const few = await countStatements(read);
  for (let i = 0; i < 10; i++) await addMember(t, lab, await makeUser(t));
  expect((await read()).body.members).toHaveLength(12);
  expect(await countStatements(read)).toBe(few);
  expect(few).toBeGreaterThan(0);
});

test('GET /api/labs: the same statements for 1 lab as for 6', async () => {
  const user = await makeUser(t);
  await makeLab(t, { owner: user });
  const list = () => t.call('GET', '/api/labs', { token: user.token });
  const few = await countStatements(list);
  for (let i = 0; i < 5; i++) await makeLab(t, { owner: user });
  expect((await list()).body.items).toHaveLength(6);
  expect(await countStatements(list)).toBe(few);
  expect(few).toBeGreaterThan(0);
});

/**
 * The hot routes, counted at the driver: every statement sent to PostgreSQL through any layer
 * (the ORM's log above misses the query builder's). A caller's first request of the minute reads
 * the token and records activity, which changes the user and so drops the token the credential
 * cache kept: each count follows two calls.
 */
describe('statements sent per request, counted at the driver', () => {
  let sent = 0;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the driver's own method, kept to be called with `.apply(this, …)` on its client and put back; never called unbound
  const query = Client.prototype.query;
  beforeAll(() => {
    Client.prototype.query = function countedQuery(this: Client, ...args: unknown[]) {
      sent++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof Client.prototype.query;
  });
  afterAll(() => {
    Client.prototype.query = query;
  });
  async function sentBy(run: () => Promise<{ status: number }>): Promise<number> {
    await run();
    await run();
    const before = sent;
    expect((await run()).status).toBe(200);
    return sent - before;
  }

  test('GET /api/me: no statement (the token, its user and lab tier are kept checked), and it follows membership on the next request', async () => {
    const user = await makeUser(t);
    const me = () => t.call('GET', '/api/me', { token: user.token });
    expect(await sentBy(me)).toBe(0);
    expect((await me()).body.effective_tier).toBe('free');
    const lab = await makeLab(t);
    await addMember(t, lab, user);
    expect(await sentBy(me)).toBe(0);
    expect((await me()).body.effective_tier).toBe('lab');
    expect((await t.call('DELETE', `/api/labs/${lab.id}/membership`, { token: user.token })).status).toBe(200);
    expect((await me()).body.effective_tier).toBe('free');
  });

  test('GET /api/labs/{lab_id}: the lab with the reader’s membership and its seats, and the members', async () => {
    const lab = await makeLab(t, { seatQuota: 20 });
    for (let i = 0; i < 3; i++) await addMember(t, lab, await makeUser(t));
    const read = () => t.call('GET', `/api/labs/${lab.id}`, { token: lab.owner.token });
    expect(await sentBy(read)).toBe(2);
    expect((await read()).body).toMatchObject({ seats_used: 4, role: 'owner', invitation_code: lab.code });
    expect((await read()).body.members).toHaveLength(4);
  });

  test('GET /api/labs: one statement for the labs with their seats, for 1 lab as for 4', async () => {
    const user = await makeUser(t);
    await makeLab(t, { owner: user });
    const list = () => t.call('GET', '/api/labs', { token: user.token });
    expect(await sentBy(list)).toBe(1);
    for (let i = 0; i < 3; i++) await makeLab(t, { owner: user });
    expect(await sentBy(list)).toBe(1);
    expect((await list()).body.items.map((lab: { seats_used: number }) => lab.seats_used)).toEqual([1, 1, 1, 1]);
  });

  test('GET /api/trajectories/{id}/meta: the trajectory with its counts', async () => {
    const user = await makeUser(t);
    const id = newSessionId();
    const { cover } = trajectoryCalls(t);
    expect((await cover(user, id, [{ uuid: newUuid(), parentUuid: null, type: 'user', message: { content: 'hi' } }])).status).toBe(200);
    const meta = () => t.call('GET', `/api/trajectories/${id}/meta`, { token: user.token });
    expect(await sentBy(meta)).toBe(1);
    expect((await meta()).body).toMatchObject({ session_id: id, figure_count: 0, open_annotations: 0 });
    const stranger = await makeUser(t);
    expect((await t.call('GET', `/api/trajectories/${id}/meta`, { token: stranger.token })).status).toBe(404);
  });

  test('GET /api/trajectories: the page with its total and the counts of its items; the same for 1 session as for 6', async () => {
    const user = await makeUser(t);
    const { cover } = trajectoryCalls(t);
    const ids: string[] = [];
    const addSession = async () => {
      const id = newSessionId();
      ids.push(id);
      expect((await cover(user, id, [{ uuid: newUuid(), parentUuid: null, type: 'user', message: { content: 'hi' } }])).status).toBe(200);
    };
    await addSession();
    const list = (query = '') => t.call('GET', `/api/trajectories${query}`, { token: user.token });
    expect(await sentBy(list)).toBe(1);
    for (let i = 0; i < 5; i++) await addSession();
    expect(await sentBy(list)).toBe(1);
    const all = await list();
    expect(all.body.total).toBe(6);
    expect(all.body.items.map((item: { session_id: string }) => item.session_id).sort()).toEqual([...ids].sort());
    // The total counts every match, not the page.
    const page = await list('?limit=2');
    expect(page.body).toMatchObject({ total: 6, limit: 2 });
    expect(page.body.items).toHaveLength(2);
    // Nothing matches: no rows, and a total of 0.
    expect((await list('?source=nowhere')).body).toMatchObject({ items: [], total: 0 });
  });

  test('GraphQL trajectories with owner and viewerCan: the same statements for 2 sessions of 2 people as for 8 of 8', async () => {
    const lab = await makeLab(t, { seatQuota: 20 });
    const reader = await makeUser(t, { name: 'Reader' });
    await addMember(t, lab, reader);
    const { cover, setVisibility } = trajectoryCalls(t);
    const ids: string[] = [];
    const addSession = async () => {
      const owner = await makeUser(t, { name: `Owner ${ids.length}` });
      await addMember(t, lab, owner, 'mentor');
      const id = newSessionId();
      const uuid = newUuid();
      ids.push(id);
      expect(
        (await cover(owner, id, [{ uuid, parentUuid: null, type: 'user', message: { content: 'hi' } }], { lab_id: lab.id })).status,
      ).toBe(200);
      expect((await setVisibility(owner, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
      const note = await t.call('POST', '/graphql', {
        token: owner.token,
        body: {
          query: 'mutation($id: ID!, $input: AnnotationInput!) { trajectoryAnnotate(sessionId: $id, input: $input) { annotationId } }',
          variables: { id, input: { recordUuid: uuid, body: 'note' } },
        },
      });
      expect(note.body.errors).toBeUndefined();
    };
    const list = () =>
      t.call('POST', '/graphql', {
        token: reader.token,
        body: {
          query: `query($lab: ID) { trajectories(labId: $lab) { items { owner { name email } viewerCan { annotate fork delete } } } }`,
          variables: { lab: lab.id },
        },
      });
    for (let i = 0; i < 2; i++) await addSession();
    const few = await sentBy(list);
    for (let i = 0; i < 6; i++) await addSession();
    expect(await sentBy(list)).toBe(few);
    const items = (await list()).body.data.trajectories.items as { owner: { name: string; email: string | null } }[];
    expect(items).toHaveLength(8);
    expect(new Set(items.map((item) => item.owner.name)).size).toBe(8);
    // The reader mentors no one here: names, never emails.
    expect(items.every((item) => item.owner.email === null)).toBe(true);
    // The token, the page, its total, people, the reader's roles, mentorship: a fixed few.
    expect(few).toBeLessThanOrEqual(6);
  });
});
