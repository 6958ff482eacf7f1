import { addMember, makeLab, makeUser, startTestApp, TestApp } from './support/app';

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

async function countStatements(run: () => Promise<unknown>): Promise<number> {
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
  // the token with its user, the page, its count, and one batched field (seats used / effective tier)
  expect(fewLabs).toBe(4);
  expect(fewUsers).toBe(4);
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
