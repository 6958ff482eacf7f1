import { Client } from 'pg';

/** Where the test databases live: written by global setup for every test file. */
export interface TestDatabaseInfo {
  /** A maintenance URL on the test server (database `postgres`). */
  adminUrl: string;
  /** The migrated template each test file copies. */
  template: string;
}

export const INFO_ENV = 'LABDESK_TEST_DB';

export function testDatabaseInfo(): TestDatabaseInfo {
  const raw = process.env[INFO_ENV];
  if (!raw) throw new Error('test database info missing: run the tests through jest (global setup)');
  return JSON.parse(raw) as TestDatabaseInfo;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** One query on its own connection (tests inspect and arrange the database directly). */
export async function query<T = any>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A fresh database copied from the migrated template (about 100 ms). */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const { adminUrl, template } = testDatabaseInfo();
  const name = `labdesk_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await query(adminUrl, `create database "${name}" template "${template}"`);
  return {
    url: withDatabase(adminUrl, name),
    drop: async () => {
      await query(adminUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}
