import { schemaDrift } from '../src/db/schema-migrations';
import { runLabdesk } from './support/cli';
import { createTestDatabase, query } from './support/databases';

/**
 * One data path (README, "Data access"): the entities are the schema, so a database built by the
 * migrations and the committed snapshot both agree with them, statement for statement.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

test('a migrated database matches the entities: no statement would change it', async () => {
  expect(await schemaDrift(database.url, 'database')).toEqual([]);
});

test('the committed snapshot matches the entities, so the next generated migration holds only what changes', async () => {
  expect(await schemaDrift(database.url, 'snapshot')).toEqual([]);
});

test('a difference is found: a column the entities do not declare, a check they declare that is gone', async () => {
  const drifted = await createTestDatabase();
  try {
    await query(drifted.url, 'alter table a2a_keys add column note text');
    await query(drifted.url, 'alter table labs drop constraint labs_seat_quota_check');
    const drift = await schemaDrift(drifted.url, 'database');
    expect(drift).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/alter table "a2a_keys" drop column "note"/),
        expect.stringMatching(/labs_seat_quota_check check/),
      ]),
    );
  } finally {
    await drifted.drop();
  }
});

test('labdesk migration create: nothing to write while the entities match the snapshot', async () => {
  const run = await runLabdesk(['migration', 'create', 'nothing']);
  expect(run).toMatchObject({ status: 0, stdout: 'the entities match the snapshot: no migration needed\n' });
  expect(await runLabdesk(['migration', 'create', 'Bad-Name'])).toMatchObject({
    status: 2,
    stderr: expect.stringMatching(/NAME of lower-case/),
  });
});
