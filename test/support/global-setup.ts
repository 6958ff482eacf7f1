import 'reflect-metadata';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../src/db/embedded';
import { openDatabase } from '../../src/db/orm';
import { query, INFO_ENV, TestDatabaseInfo, withDatabase } from './databases';

/**
 * Runs once before all test files. With DATABASE_URL (CI: the machine's PostgreSQL) the tests
 * use that server; without it, the embedded PostgreSQL the service itself would start. Either
 * way a template database is migrated once with the real migrations; each test file copies it.
 */
export default async function globalSetup() {
  let adminUrl: string;
  if (process.env.DATABASE_URL) {
    adminUrl = withDatabase(process.env.DATABASE_URL, 'postgres');
  } else {
    const embedded = await startEmbeddedPostgres(path.resolve(__dirname, '..', '..', '.data', 'test'), { database: 'postgres' });
    (globalThis as Record<string, unknown>).__LABDESK_EMBEDDED__ = embedded;
    adminUrl = embedded.url;
  }
  const template = `labdesk_template_${process.pid}`;
  await query(adminUrl, `drop database if exists "${template}" with (force)`);
  await query(adminUrl, `create database "${template}"`);
  const orm = await openDatabase(withDatabase(adminUrl, template), { preferTs: true });
  await orm.close(true);
  const info: TestDatabaseInfo = { adminUrl, template };
  process.env[INFO_ENV] = JSON.stringify(info);
  process.stdout.write(`\ntests run on ${process.env.DATABASE_URL ? 'PostgreSQL from DATABASE_URL' : 'the embedded PostgreSQL'}\n`);
}
