import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sweepUnownedBlobs } from '../src/modules/figures/figure.service';
import { makeUser, TestApp, useTestApp } from './support/app';
import { newSessionId, sessionPath, trajectoryCalls } from './support/trajectories';

/**
 * Records over 256 KiB live in the blob store when there is one (content-addressed, shared by
 * forks), in the payload table when there is none; either way they are served back exactly.
 * Deleting a session stops charging the owner for figure blobs nothing points at any more.
 */

const bigRecord = (uuid: string, parentUuid: string | null) =>
  `{"uuid":"${uuid}","parentUuid":${parentUuid === null ? 'null' : `"${parentUuid}"`},"type":"tool_result","blob":"${'é日x\\"'.repeat(60 * 1024)}"}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function appendRaw(t: TestApp, token: string, id: string, base: string | null, raws: string[]) {
  return t.call('PUT', sessionPath(id, '/append'), {
    token,
    rawBody: `{"base_uuid":${JSON.stringify(base)},"records":[${raws.join(',')}]}`,
  });
}

describe('with the file store', () => {
  const t = useTestApp();

  test('a large record is a content-addressed object; the row holds only its reference; a fork shares it', async () => {
    const owner = await makeUser(t);
    const id = newSessionId('big');
    const big = bigRecord(`big-${id}`, null);
    const small = `{"uuid":"small-${id}","parentUuid":"big-${id}","type":"assistant"}`;
    expect((await appendRaw(t, owner.token, id, null, [big, small])).status).toBe(200);

    const [row] = await t.sql('select raw, payload_ref from trajectory_records where session_id = $1 and seq = 1', [id]);
    expect(row).toEqual({ raw: null, payload_ref: `blob:${sha256(big)}` });
    const object = path.join(t.app.services.config.dataDir, 'blobs', 'records', sha256(big));
    expect(fs.readFileSync(object, 'utf8')).toBe(big);
    expect(await t.sql('select 1 from record_payloads where session_id = $1', [id])).toEqual([]);

    const read = await trajectoryCalls(t).read(owner, id);
    expect(read.text).toContain(`"records":[${big},${small}]`);

    const forked = await t.call('POST', sessionPath(id, '/fork'), { token: owner.token, body: { head_uuid: `small-${id}` } });
    expect(forked.status).toBe(201);
    expect((await trajectoryCalls(t).remove(owner, id)).status).toBe(204);
    const [copy] = await t.sql('select payload_ref from trajectory_records where session_id = $1 and seq = 1', [forked.body.session_id]);
    expect(copy.payload_ref).toBe(`blob:${sha256(big)}`);
    expect((await trajectoryCalls(t).read(owner, forked.body.session_id)).text).toContain(`"records":[${big},${small}]`);
  });

  test('deleting a session releases the figure blobs only it pointed at', async () => {
    const owner = await makeUser(t);
    const used = async () => (await t.sql('select storage_used_bytes::float8 as n from users where id = $1', [owner.id]))[0].n as number;
    const [first, second] = [newSessionId('figs'), newSessionId('figs')];
    for (const id of [first, second])
      expect((await trajectoryCalls(t).append(owner, id, null, [{ uuid: `r-${id}`, type: 'user' }])).status).toBe(200);
    const upload = async (id: string, bytes: Buffer, canonicalPath: string) => {
      const form = new FormData();
      form.set('file', new Blob([bytes]), 'figure.png');
      form.set('canonical_path', canonicalPath);
      const response = await fetch(new URL(sessionPath(id, '/figures/upload'), t.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}` },
        body: form,
      });
      expect(response.status).toBe(200);
    };
    const shared = Buffer.alloc(3000, 1);
    const onlyFirst = Buffer.alloc(5000, 2);
    await upload(first, shared, '/shared.png');
    await upload(second, shared, '/shared.png');
    await upload(first, onlyFirst, '/only.png');
    const before = await used();

    expect((await trajectoryCalls(t).remove(owner, first)).status).toBe(204);
    const recordBytes = Buffer.byteLength(JSON.stringify({ uuid: `r-${first}`, type: 'user' }));
    // The blob only the first session used is released; the shared one is still charged.
    expect(await used()).toBe(before - recordBytes - onlyFirst.length);
    const owned = await t.sql('select bytes::float8 as bytes from blob_owners where user_id = $1', [owner.id]);
    expect(owned).toEqual([{ bytes: shared.length }]);
  });
});

describe('with BLOB_STORE=none', () => {
  const t = useTestApp({ BLOB_STORE: 'none' });

  test('a large record goes to the payload table and is served back exactly, also from a fork', async () => {
    const owner = await makeUser(t);
    const id = newSessionId('bignone');
    const big = bigRecord(`big-${id}`, null);
    expect((await appendRaw(t, owner.token, id, null, [big])).status).toBe(200);
    const [row] = await t.sql('select raw, payload_ref from trajectory_records where session_id = $1', [id]);
    expect(row.raw).toBeNull();
    expect(row.payload_ref).toMatch(/^db:\d+$/);
    expect((await trajectoryCalls(t).read(owner, id)).text).toContain(`"records":[${big}]`);
    const forked = await t.call('POST', sessionPath(id, '/fork'), { token: owner.token, body: { head_uuid: `big-${id}` } });
    expect(forked.status).toBe(201);
    expect((await trajectoryCalls(t).read(owner, forked.body.session_id)).text).toContain(`"records":[${big}]`);
  });
});

describe('sweeping unowned blobs (file store)', () => {
  const t = useTestApp();

  test('a blob nobody owns any more is deleted from the store; uploading the same bytes again puts them back', async () => {
    const owner = await makeUser(t);
    const id = newSessionId('sweep');
    expect((await trajectoryCalls(t).append(owner, id, null, [{ uuid: `r-${id}`, type: 'user' }])).status).toBe(200);
    const bytes = Buffer.from(`figure bytes of ${id}`);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const upload = async () => {
      const form = new FormData();
      form.set('file', new Blob([bytes]), 'figure.png');
      form.set('canonical_path', '/sweep.png');
      return fetch(new URL(sessionPath(id, '/figures/upload'), t.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}` },
        body: form,
      });
    };
    expect((await upload()).status).toBe(200);
    const object = path.join(t.app.services.config.dataDir, 'blobs', 'sha256', sha);
    expect(fs.existsSync(object)).toBe(true);

    const store = t.app.services.blobs.store!;
    const sweep = () => sweepUnownedBlobs(t.app.services.orm.em.fork(), store);
    await sweep();
    expect(fs.existsSync(object)).toBe(true); // still owned: kept

    // The owner's other session keeps the session alive; deleting the only one using the blob frees it.
    const other = newSessionId('sweep');
    expect((await trajectoryCalls(t).append(owner, other, null, [{ uuid: `r-${other}`, type: 'user' }])).status).toBe(200);
    expect((await trajectoryCalls(t).remove(owner, id)).status).toBe(204);
    await sweep();
    expect(fs.existsSync(object)).toBe(false);
    expect(await t.sql('select 1 from blobs where sha256 = $1', [sha])).toEqual([]);

    // The same bytes uploaded again (to a new session) are stored again.
    expect((await trajectoryCalls(t).append(owner, id, null, [{ uuid: `again-${id}`, type: 'user' }])).status).toBe(200);
    expect((await upload()).status).toBe(200);
    expect(fs.readFileSync(object)).toEqual(bytes);
  });

  test('an upload racing a sweep of the same bytes keeps them: row, owner and object all there after', async () => {
    const store = t.app.services.blobs.store!;
    const owner = await makeUser(t);
    for (let round = 0; round < 5; round++) {
      const bytes = Buffer.from(`race ${round} ${Math.random()}`);
      const sha = createHash('sha256').update(bytes).digest('hex');
      const [first, second] = [newSessionId('race'), newSessionId('race')];
      for (const id of [first, second])
        expect((await trajectoryCalls(t).append(owner, id, null, [{ uuid: `r-${id}`, type: 'user' }])).status).toBe(200);
      const upload = (id: string) => {
        const form = new FormData();
        form.set('file', new Blob([bytes]), 'figure.png');
        form.set('canonical_path', '/race.png');
        return fetch(new URL(sessionPath(id, '/figures/upload'), t.url), {
          method: 'POST',
          headers: { authorization: `Bearer ${owner.token}` },
          body: form,
        });
      };
      expect((await upload(first)).status).toBe(200);
      expect((await trajectoryCalls(t).remove(owner, first)).status).toBe(204); // unowned now
      const [uploaded] = await Promise.all([upload(second), sweepUnownedBlobs(t.app.services.orm.em.fork() as never, store)]);
      expect(uploaded.status).toBe(200);
      expect(await t.sql('select 1 from blob_owners where sha256 = $1', [sha])).toHaveLength(1);
      expect(await t.sql('select 1 from blobs where sha256 = $1', [sha])).toHaveLength(1);
      expect(fs.readFileSync(path.join(t.app.services.config.dataDir, 'blobs', 'sha256', sha))).toEqual(bytes);
    }
  });
});
