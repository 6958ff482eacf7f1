import http from 'node:http';
import { makeUser, TestUser, useTestApp } from './support/app';
import { newSessionId, newUuid, sessionPath, trajectoryCalls } from './support/trajectories';

/**
 * The bodies of trajectory writes (issue 36, finding 4): a body that could not be stored is
 * refused by its length before it is read, one of unknown length as soon as it passes what the
 * caller could store, and an instance reads a bounded number of large bodies at once. Before,
 * eight parallel 61 MB appends over a 1 MiB quota were each read, parsed and sent to PostgreSQL
 * before the quota refused them (service RSS 141 → 2,096 MiB), and nothing was charged for it.
 *
 * Bodies are streamed from a generator, so this process holds no copy of them, and the tests
 * count how much of a body the client had handed to its socket when the answer came: a server
 * that reads the whole body first answers only after all of it was sent, whatever the timing.
 */

const t = useTestApp();
const MB = 1000 * 1000;
const MiB = 1024 * 1024;

const { append } = trajectoryCalls(t);
const usedBytes = async (userId: string) =>
  Number((await t.sql<{ used: string }>('select storage_used_bytes as used from users where id = $1', [userId]))[0].used);
const sessionsOf = async (userId: string) =>
  (await t.sql<{ id: string }>('select id from trajectories where owner_id = $1', [userId])).map((row) => row.id);

async function withQuota(user: TestUser, bytes: number) {
  const patched = await t.call('PATCH', `/api/admin/users/${user.id}`, { token: t.adminToken, body: { storage_quota_bytes: bytes } });
  expect(patched.status).toBe(200);
}

interface Streamed {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** Bytes of the body handed to the socket when the answer's head arrived. */
  sentWhenAnswered: number;
  size: number;
}

/**
 * `PUT …/append` of one record, `size` bytes in all: the record's text pads the body, or (with
 * `padding: 'outside'`) whitespace after the JSON does, so that parsing it costs little. Written
 * 64 KiB at a time as the socket drains; with `chunked` the body has no Content-Length; `hold`
 * makes the client stop after the first bytes until it resolves. The client stops once answered.
 */
function streamedAppend(
  token: string | undefined,
  sessionId: string,
  size: number,
  opts: { chunked?: boolean; padding?: 'record' | 'outside'; hold?: Promise<void> } = {},
): Promise<Streamed> {
  const open = `{"base_uuid":null,"records":[{"uuid":"${newUuid('big')}","type":"user","text":"`;
  const close = '"}]}';
  const outside = opts.padding === 'outside';
  const [before, after] = outside ? [Buffer.from(open + close), Buffer.alloc(0)] : [Buffer.from(open), Buffer.from(close)];
  const block = Buffer.alloc(64 * 1024, outside ? ' ' : 'x');
  const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (!opts.chunked) headers['content-length'] = size;
  return new Promise<Streamed>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(new URL(sessionPath(sessionId, '/append'), t.url), { method: 'PUT', headers, agent: false });
    const gone = new Promise<void>((done) => req.once('close', done));
    req.once('error', (error) => {
      if (!answered) reject(error);
    });
    req.once('response', (res) => {
      answered = true;
      const sentWhenAnswered = sent;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () => {
        req.destroy();
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : null, sentWhenAnswered, size });
      });
    });
    /** Hands `chunk` to the socket, waiting for it to drain; false once answered. */
    const write = async (chunk: Buffer) => {
      if (answered) return false;
      sent += chunk.length;
      if (!req.write(chunk)) await Promise.race([new Promise((drained) => req.once('drain', drained)), gone]);
      return !answered;
    };
    void (async () => {
      if (!(await write(before))) return;
      if (opts.hold) await opts.hold;
      for (let left = size - before.length - after.length; left > 0; left -= block.length)
        if (!(await write(left >= block.length ? block : block.subarray(0, left)))) return;
      if (after.length && !(await write(after))) return;
      if (!answered) req.end();
    })().catch(reject);
  });
}

describe('a write body larger than the caller could store', () => {
  test('eight parallel 40 MB appends over a 1 MiB quota: each is 413 {detail} before a quarter of it was sent; nothing stored, nothing charged; an append within the quota then passes', async () => {
    const user = await makeUser(t);
    await withQuota(user, MiB);
    const ids = Array.from({ length: 8 }, () => newSessionId('over'));
    const replies = await Promise.all(ids.map((id) => streamedAppend(user.token, id, 40 * MB)));
    for (const reply of replies) {
      expect({ status: reply.status, body: reply.body }).toEqual({
        status: 413,
        body: { detail: expect.stringMatching(/^storage quota exceeded: /) },
      });
      // Answered from its Content-Length: only what the sockets' buffers took was ever sent.
      expect(reply.sentWhenAnswered).toBeLessThan(reply.size / 4);
    }
    expect(await sessionsOf(user.id)).toEqual([]);
    expect(await usedBytes(user.id)).toBe(0);

    const fits = [{ uuid: newUuid(), type: 'user', text: 'y'.repeat(1000) }];
    expect(await append(user, newSessionId(), null, fits)).toMatchObject({ status: 200, body: { appended: 1 } });
    expect(await usedBytes(user.id)).toBe(Buffer.byteLength(JSON.stringify(fits[0])));
  }, 120_000);

  test('a chunked append (no Content-Length) over the quota is 413 once it passes what the caller could store, long before its end; nothing stored', async () => {
    const user = await makeUser(t);
    await withQuota(user, MiB);
    const id = newSessionId('chunked');
    const reply = await streamedAppend(user.token, id, 40 * MB, { chunked: true });
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 413,
      body: { detail: expect.stringMatching(/^storage quota exceeded: /) },
    });
    expect(reply.sentWhenAnswered).toBeLessThan(reply.size / 4);
    expect(await sessionsOf(user.id)).toEqual([]);
    expect(await usedBytes(user.id)).toBe(0);
  }, 60_000);

  test('anonymous and a bad token are still 401 for a body over any quota', async () => {
    for (const token of [undefined, 'ldk_pat_notatokenxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx']) {
      const reply = await streamedAppend(token, newSessionId('anon'), 40 * MB);
      expect(reply.status).toBe(401);
      expect(reply.sentWhenAnswered).toBeLessThan(reply.size / 4);
    }
  }, 60_000);

  test('a body that fits is never refused by its length: a 3 MB append under a 4 MiB quota passes, and its retry passes again (appended 0) with less than its size left', async () => {
    const user = await makeUser(t);
    await withQuota(user, 4 * MiB);
    const id = newSessionId('retry');
    const record = { uuid: newUuid(), type: 'user', text: 'z'.repeat(3 * MB) };
    const first = await append(user, id, null, [record]);
    expect({ status: first.status, body: first.body }).toEqual({ status: 200, body: expect.objectContaining({ appended: 1 }) });
    const used = await usedBytes(user.id);
    expect(used).toBe(Buffer.byteLength(JSON.stringify(record)));
    // Less than 1.2 MiB left: the retry's 3 MB body is over the quota alone, not over what the session already holds.
    const retry = await append(user, id, null, [record]);
    expect({ status: retry.status, body: retry.body }).toEqual({ status: 200, body: expect.objectContaining({ appended: 0 }) });
    const covered = await t.call('PUT', sessionPath(id, '/full'), { token: user.token, body: { records: [record] } });
    expect(covered.status).toBe(200);
    expect(await usedBytes(user.id)).toBe(used);
  }, 60_000);
});

describe('large bodies read at once', () => {
  test('three held 60 MB appends: two are read, the third is 503 with Retry-After before it is; the two then pass, and so does a real 8 MB append', async () => {
    const user = await makeUser(t); // the free plan's 1 GiB
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const ids = [newSessionId('held'), newSessionId('held'), newSessionId('held')];
    const pending = ids.map((id) => streamedAppend(user.token, id, 60 * MB, { padding: 'outside', hold }));
    // Nothing is answered while every body is held, but the one refused before it is read.
    const first = await Promise.race(pending.map((reply, i) => reply.then((value) => ({ ...value, i }))));
    expect({ status: first.status, body: first.body, retryAfter: first.headers['retry-after'] }).toEqual({
      status: 503,
      body: { detail: 'this server is receiving other large messages; send this one again in a few seconds' },
      retryAfter: '5',
    });
    release();
    const others = await Promise.all(pending.filter((_, i) => i !== first.i));
    for (const reply of others)
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 200, body: expect.objectContaining({ appended: 1 }) });
    expect((await sessionsOf(user.id)).sort()).toEqual(ids.filter((_, i) => i !== first.i).sort());

    const big = await streamedAppend(user.token, newSessionId('big'), 8 * MB);
    expect({ status: big.status, body: big.body }).toEqual({ status: 200, body: expect.objectContaining({ appended: 1 }) });
    expect(big.sentWhenAnswered).toBe(big.size);
  }, 120_000);
});
