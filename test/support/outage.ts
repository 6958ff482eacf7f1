import { openDatabase } from '../../src/db/orm';
import { startTestApp, TestApp } from './app';
import { FreezableProxy } from './freezable-proxy';

/**
 * A test app, and an ORM of its database reached through a `FreezableProxy`, so that a suite can
 * take that database down (`proxy.shutDownPostgres()`, `proxy.comeBack()`) under code it calls
 * directly while the app itself stays up. Set up and torn down by the suite's hooks.
 */
export function useDatabaseBehindProxy() {
  const held = {} as { t: TestApp; proxy: FreezableProxy; orm: Awaited<ReturnType<typeof openDatabase>> };
  beforeAll(async () => {
    held.t = await startTestApp();
    held.proxy = await FreezableProxy.start(held.t.databaseUrl);
    held.orm = await openDatabase(held.proxy.urlFor(held.t.databaseUrl), { migrate: false, poolMax: 1 });
  }, 60_000);
  afterAll(async () => {
    await held.proxy?.comeBack();
    await held.orm?.close(true);
    await held.proxy?.close();
    await held.t?.close();
  });
  return held;
}
