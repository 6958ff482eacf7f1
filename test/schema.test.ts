import type { EntityManager } from '@mikro-orm/postgresql';
import { openDatabase, type Orm } from '../src/db/orm';
import { schemaDrift } from '../src/db/schema-migrations';
import { directQuery, inTransaction, preparedOf, sqlOf } from '../src/db/sql';
import { runLabdesk } from './support/cli';
import { createTestDatabase, query } from './support/databases';

/**
 * One data path (README, "Data access"): the entities are the schema, so a database built by the
 * migrations and the committed snapshot both agree with them, statement for statement; and SQL
 * run for a unit of work runs in its transaction.
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

describe('SQL in a unit of work runs in its transaction', () => {
  let orm: Orm;
  beforeAll(async () => {
    orm = await openDatabase(database.url, { migrate: false, poolMax: 4 });
  });
  afterAll(() => orm.close(true));

  const keys = async (em: EntityManager, prefix: string) =>
    (await preparedOf(em)<{ id: string }>('select id from a2a_keys where id like ? order by id', [`${prefix}%`])).map((row) => row.id);
  const addKey = (em: EntityManager, id: string) =>
    sqlOf(em)(`insert into a2a_keys (id, label, secret_sha256) values (?, 'test', repeat('0', 64))`, [id]);
  const rollback = new Error('roll back');

  test('prepared and direct statements see what the transaction wrote, and go with its rollback', async () => {
    await expect(
      orm.em.fork().transactional(async (tx) => {
        await addKey(tx, 'uow1-a');
        await directQuery(tx, `insert into a2a_keys (id, label, secret_sha256) values ($1, 'test', repeat('0', 64))`, ['uow1-b']);
        expect(await keys(tx, 'uow1-')).toEqual(['uow1-a', 'uow1-b']);
        // Another connection does not see them before the commit.
        expect(await keys(orm.em.fork(), 'uow1-')).toEqual([]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await keys(orm.em.fork(), 'uow1-')).toEqual([]);
  });

  test('inTransaction inside a transaction is a savepoint: its failure undoes only its part, the commit keeps the rest', async () => {
    await orm.em.fork().transactional(async (tx) => {
      await addKey(tx, 'uow2-a');
      await expect(
        inTransaction(tx, async (q) => {
          await q(`insert into a2a_keys (id, label, secret_sha256) values (?, 'test', repeat('0', 64))`, ['uow2-b']);
          throw rollback;
        }),
      ).rejects.toBe(rollback);
      await inTransaction(tx, (q) => q(`insert into a2a_keys (id, label, secret_sha256) values (?, 'test', repeat('0', 64))`, ['uow2-c']));
    });
    expect(await keys(orm.em.fork(), 'uow2-')).toEqual(['uow2-a', 'uow2-c']);
  });

  test('outside a transaction, inTransaction commits on its own', async () => {
    await inTransaction(orm.em.fork(), (q) =>
      q(`insert into a2a_keys (id, label, secret_sha256) values (?, 'test', repeat('0', 64))`, ['uow3-a']),
    );
    expect(await keys(orm.em.fork(), 'uow3-')).toEqual(['uow3-a']);
  });
});
