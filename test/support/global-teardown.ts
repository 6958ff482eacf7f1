import { query, testDatabaseInfo } from './databases';

export default async function globalTeardown() {
  const { adminUrl, template } = testDatabaseInfo();
  await query(adminUrl, `drop database if exists "${template}" with (force)`);
  const embedded = (globalThis as Record<string, unknown>).__LABDESK_EMBEDDED__ as { stop(): Promise<void> } | undefined;
  await embedded?.stop();
}
