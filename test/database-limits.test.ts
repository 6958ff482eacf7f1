import { Client } from 'pg';
import { loadConfig } from '../src/config';
import { ANSWER_GRACE_MS } from '../src/db/orm';
import { makeUser, replyOf, startTestApp, TestApp, useTestApp } from './support/app';
import { query, testDatabaseInfo } from './support/databases';
import { FreezableProxy } from './support/freezable-proxy';
import { until } from './support/until';

/**
 * The database may keep the service waiting only so long (issue 21, finding 9): statements and
 * connections have time-outs, and `/readyz` says 503 when the database is unreachable, slow or
 * read-only. Real PostgreSQL throughout; a frozen server is a proxy that stops forwarding.
 */

/** One request, given up (an AbortError, failing the test) after `ms`: a hang must not wait for jest's time-out. */
async function callWithin(t: TestApp, ms: number, method: string, path: string, opts: { token?: string; body?: unknown } = {}) {
  const started = Date.now();
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
  };
  const response = await fetch(new URL(path, t.url), {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: AbortSignal.timeout(ms),
  });
  return { ...(await replyOf(response)), ms: Date.now() - started };
}

const LIMITS = { DATABASE_STATEMENT_TIMEOUT_MS: '1000', DATABASE_CONNECT_TIMEOUT_MS: '1000' };

test('DATABASE_STATEMENT_TIMEOUT_MS and DATABASE_CONNECT_TIMEOUT_MS: 30 s and 5 s by default, positive integers', () => {
  expect(loadConfig({})).toMatchObject({ databaseStatementTimeoutMs: 30_000, databaseConnectTimeoutMs: 5_000 });
  expect(loadConfig(LIMITS)).toMatchObject({ databaseStatementTimeoutMs: 1000, databaseConnectTimeoutMs: 1000 });
  for (const bad of ['0', '-5', '1.5', 'soon']) {
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: bad, DATABASE_CONNECT_TIMEOUT_MS: bad })).toThrow(
      /DATABASE_STATEMENT_TIMEOUT_MS must be a positive integer[\s\S]*DATABASE_CONNECT_TIMEOUT_MS must be a positive integer/,
    );
  }
});

describe('database time-outs and readiness', () => {
  const direct = useTestApp();

  test('a statement held up beyond DATABASE_STATEMENT_TIMEOUT_MS (a row lock) → 503, and the pool serves the next request', async () => {
    const t = await startTestApp(LIMITS, { sameDatabaseAs: direct });
    const locker = new Client({ connectionString: direct.databaseUrl });
    await locker.connect();
    try {
      const user = await makeUser(t);
      await locker.query('begin');
      await locker.query('select 1 from users where id = $1 for update', [user.id]);
      const held = await callWithin(t, 8000, 'PATCH', `/api/admin/users/${user.id}`, { token: t.adminToken, body: { name: 'Renamed' } });
      expect({ status: held.status, body: held.body }).toEqual({
        status: 503,
        body: { detail: expect.stringContaining('did not answer in time') },
      });
      expect(held.ms).toBeLessThan(5000);
      await locker.query('rollback');
      const after = await callWithin(t, 8000, 'PATCH', `/api/admin/users/${user.id}`, { token: t.adminToken, body: { name: 'Renamed' } });
      expect(after).toMatchObject({ status: 200, body: { name: 'Renamed' } });
    } finally {
      await locker.end();
      await t.close();
    }
  });

  test('migrations are not bound by it: a start that waits 2.5 s for another instance’s migration lock comes up', async () => {
    const other = new Client({ connectionString: direct.databaseUrl });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock(727001)'); // the lock `migrate` takes (src/db/orm.ts)
      const release = setTimeout(() => void other.query('select pg_advisory_unlock(727001)'), 2500);
      const t = await startTestApp(LIMITS, { sameDatabaseAs: direct }).finally(() => clearTimeout(release));
      try {
        expect((await t.call('GET', '/readyz')).status).toBe(200);
      } finally {
        await t.close();
      }
    } finally {
      await other.end();
    }
  });

  test('a frozen database: /readyz → 503 within its 2 s, requests → 503 within the statement time-out and a little; both answer again once it thaws', async () => {
    const proxy = await FreezableProxy.start(direct.databaseUrl);
    const t = await startTestApp({ ...LIMITS, DATABASE_URL: proxy.urlFor(direct.databaseUrl) }, { sameDatabaseAs: direct });
    try {
      expect((await callWithin(t, 8000, 'GET', '/readyz')).status).toBe(200);
      // Requests at once: the pool holds several idle connections when the database freezes.
      const warm = await Promise.all(Array.from({ length: 6 }, () => callWithin(t, 8000, 'GET', '/api/me', { token: t.adminToken })));
      expect(warm.map((reply) => reply.status)).toEqual(Array(6).fill(200));
      proxy.freeze();
      // More requests than the pool holds idle connections: some wait on a connection they hold
      // (closed after the statement time-out and the grace), the others on one they open (given
      // up after DATABASE_CONNECT_TIMEOUT_MS).
      const [ready, ...requests] = await Promise.all([
        callWithin(t, 8000, 'GET', '/readyz'),
        ...Array.from({ length: 8 }, () => callWithin(t, 8000, 'GET', '/api/me', { token: t.adminToken })),
      ]);
      expect({ status: ready.status, body: ready.body }).toEqual({
        status: 503,
        body: { detail: 'the database did not answer within 2000 ms' },
      });
      expect(ready.ms).toBeLessThan(3500);
      for (const me of requests) {
        expect({ status: me.status, body: me.body }).toEqual({ status: 503, body: { detail: expect.stringMatching(/try again shortly/) } });
        expect(me.ms).toBeLessThan(6000);
      }
      // Those on a held connection waited for the statement time-out and ANSWER_GRACE_MS, no more.
      expect(requests.some((me) => me.ms >= 1000 + ANSWER_GRACE_MS - 100)).toBe(true);
      proxy.thaw();
      await until('/readyz to answer 200 after the thaw', async () => (await callWithin(t, 8000, 'GET', '/readyz')).status === 200, {
        seconds: 10,
        intervalMs: 100,
      });
      const renamed = await callWithin(t, 8000, 'PATCH', `/api/admin/users/${(await makeUser(t)).id}`, {
        token: t.adminToken,
        body: { name: 'After the thaw' },
      });
      expect(renamed).toMatchObject({ status: 200, body: { name: 'After the thaw' } });
    } finally {
      proxy.thaw();
      await t.close();
      await proxy.close();
    }
  });

  test('a read-only database (default_transaction_read_only) → /readyz 503 saying so, 200 once it takes writes again', async () => {
    const { adminUrl } = testDatabaseInfo();
    const name = new URL(direct.databaseUrl).pathname.slice(1);
    // New sessions only take the setting: the app's are ended, and its pool opens new ones.
    const endSessions = () =>
      query(adminUrl, `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [name]);
    await query(adminUrl, `alter database "${name}" set default_transaction_read_only = on`);
    try {
      await endSessions();
      const refused = await until(
        '/readyz to say read-only',
        async () => {
          const reply = await callWithin(direct, 8000, 'GET', '/readyz');
          return reply.status === 503 && /read-only/.test(reply.body.detail) && reply;
        },
        { seconds: 5, intervalMs: 100 },
      );
      expect(refused.body).toEqual({ detail: 'the database is read-only: transaction_read_only is on' });
    } finally {
      await query(adminUrl, `alter database "${name}" reset default_transaction_read_only`);
      await endSessions();
    }
    await until('/readyz to answer 200 again', async () => (await callWithin(direct, 8000, 'GET', '/readyz')).status === 200, {
      seconds: 10,
      intervalMs: 100,
    });
  });
});
