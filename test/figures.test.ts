import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { S3Settings } from '../src/blobs/s3-store';
import { addMember, makeLab, makeUser, Reply, replyOf, startTestApp, TestApp, TestLab, TestUser } from './support/app';
import { s3Env, startS3 } from './support/s3';
import { Actor, newSessionId, newUuid, recordsText, sessionPath, trajectoryCalls } from './support/trajectories';

/**
 * Figures (service spec "Figure map row", the three figures endpoints; docs/api/figures.md): the figure
 * map, uploads into the private drive (content-addressed, deduplicated per user, charged against
 * the storage quota atomically, nothing kept on failure), `figures/raw` redirects to short-lived
 * signed URLs, the `file` store's `/blobs/…` route, and figure paths rewritten for cloud clients.
 * Upload, raw and crash behaviour run against both the file store and a real S3 server (s3rver).
 */

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const MAX_FIGURE_BYTES = 4096;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const driveUri = (bytes: Buffer) => `drive://sha256/${sha256(bytes)}`;
/** Fresh bytes that start like a PNG; distinct on every call. */
const figureBytes = (size: number) => Buffer.concat([PNG_MAGIC, randomBytes(size - PNG_MAGIC.length)]);

function expectStatus(reply: { status: number; body?: unknown }, status: number) {
  // The whole reply is printed when the status is wrong.
  expect({ status: reply.status, body: reply.body }).toEqual(expect.objectContaining({ status }));
}

/** A non-422 error: exactly `{detail: "<message>"}`, with no stack, SQL or paths in it. */
function expectError(reply: Reply, status: number) {
  expectStatus(reply, status);
  expect(reply.body).toEqual({ detail: expect.any(String) });
  expect(reply.body.detail).not.toMatch(/\n\s+at |\.ts:\d|insert into|select |\/tmp\/|simulated crash/i);
}

/** A 422 whose issues all name row `row` of `figures` (and at least one issue). */
function expectRowIssue(reply: Reply, row: number, member?: string) {
  expectStatus(reply, 422);
  expect(reply.body.detail.length).toBeGreaterThan(0);
  for (const issue of reply.body.detail) expect(issue.loc.slice(0, 3)).toEqual(['body', 'figures', row]);
  if (member) expect(reply.body.detail.map((issue: { loc: unknown[] }) => issue.loc[3])).toContain(member);
}

interface UploadParts {
  file?: Buffer;
  original?: Buffer;
  canonical_path?: string;
  mime?: string;
  compressed?: string;
  /** More text parts (e.g. unknown ones). */
  extra?: Record<string, string>;
}

/** `POST …/figures/upload` as a real multipart form. */
async function upload(t: TestApp, who: Actor, sessionId: string, parts: UploadParts): Promise<Reply> {
  const form = new FormData();
  for (const name of ['canonical_path', 'mime', 'compressed'] as const) if (parts[name] !== undefined) form.append(name, parts[name]);
  for (const [name, value] of Object.entries(parts.extra ?? {})) form.append(name, value);
  if (parts.file) form.append('file', new Blob([parts.file], { type: 'image/png' }), 'figure.png');
  if (parts.original) form.append('original', new Blob([parts.original], { type: 'image/png' }), 'original.png');
  const response = await fetch(new URL(sessionPath(sessionId, '/figures/upload'), t.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${who.token}` },
    body: form,
  });
  return replyOf(response);
}

/**
 * Starts an upload of a large multipart body, sends its headers and first bytes, and never the
 * rest: resolves with the answer only if the server answers without reading the body.
 */
function uploadWithoutBody(t: TestApp, who: Actor, sessionId: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const boundary = 'figure-test-boundary';
    let settled = false;
    const req = http.request(new URL(sessionPath(sessionId, '/figures/upload'), t.url), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${who.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(64 * 1024 * 1024),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        settled = true;
        req.destroy();
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', (error) => {
      if (!settled) reject(error);
    });
    req.write(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="f.png"\r\ncontent-type: image/png\r\n\r\n`);
    req.write(figureBytes(1024));
    // The other 64 MiB are never sent.
  });
}

/** A GET over plain `http` (so any Host header can be sent), body as bytes. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** GET `url` without following redirects, as bytes. */
async function getBytes(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers, redirect: 'manual' });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

/** `GET …/figures/raw?path=` without following the redirect. */
async function raw(t: TestApp, who: Actor, sessionId: string, figurePath?: string): Promise<Reply> {
  const url = new URL(sessionPath(sessionId, '/figures/raw'), t.url);
  if (figurePath !== undefined) url.searchParams.set('path', figurePath);
  return replyOf(await fetch(url, { headers: who.token ? { authorization: `Bearer ${who.token}` } : {}, redirect: 'manual' }));
}

/** `GET …/figures/raw` must be a 302; answers its Location. */
async function rawLocation(t: TestApp, who: Actor, sessionId: string, figurePath: string): Promise<string> {
  const reply = await raw(t, who, sessionId, figurePath);
  expectStatus(reply, 302);
  expect(reply.headers.get('cache-control')).toBe('no-store');
  return reply.headers.get('location')!;
}

const recordFigures = (t: TestApp, who: Actor, sessionId: string, figures: unknown) =>
  t.call('POST', sessionPath(sessionId, '/figures'), { token: who.token, body: { figures } });

/** A session of `owner` with one record (optionally in `lab`, optionally shared with it). */
async function newSession(t: TestApp, owner: Actor, opts: { lab?: TestLab; shared?: boolean; records?: unknown[] } = {}): Promise<string> {
  const id = newSessionId('fig');
  const { append, setVisibility } = trajectoryCalls(t);
  const records = opts.records ?? [{ uuid: newUuid(), parentUuid: null, type: 'user', message: { content: 'plot it' } }];
  const appended = await append(owner, id, null, records, opts.lab ? { lab_id: opts.lab.id } : {});
  if (appended.status !== 200) throw new Error(`append: ${appended.status} ${appended.text}`);
  if (opts.shared) {
    const shared = await setVisibility(owner, id, { visibility: 'lab' });
    if (shared.status !== 200) throw new Error(`visibility: ${shared.status} ${shared.text}`);
  }
  return id;
}

async function storageUsed(t: TestApp, user: TestUser): Promise<number> {
  const reply = await t.call('GET', `/api/admin/users/${user.id}`, { token: t.adminToken });
  expectStatus(reply, 200);
  return reply.body.storage_used_bytes;
}

async function setQuota(t: TestApp, user: TestUser, bytes: number | null) {
  expectStatus(await t.call('PATCH', `/api/admin/users/${user.id}`, { token: t.adminToken, body: { storage_quota_bytes: bytes } }), 200);
}

const figureRows = (t: TestApp, sessionId: string) =>
  t.sql(
    `select canonical_path, cdn_url, storage_uri, original_uri, compressed, mime, bytes::float8 as bytes
       from figures where session_id = $1 order by canonical_path`,
    [sessionId],
  );
const blobRows = (t: TestApp, bytes: Buffer) =>
  t.sql('select sha256, bytes::float8 as bytes from blobs where sha256 = $1', [sha256(bytes)]);
const blobOwners = async (t: TestApp, bytes: Buffer) =>
  (await t.sql<{ user_id: string }>('select user_id from blob_owners where sha256 = $1 order by user_id', [sha256(bytes)])).map(
    (r) => r.user_id,
  );
const figureCount = async (t: TestApp, who: Actor, sessionId: string) => {
  const meta = await trajectoryCalls(t).meta(who, sessionId);
  expectStatus(meta, 200);
  return meta.body.figure_count;
};

/** Upload temp files left under DATA_DIR/tmp. */
const tempFiles = (t: TestApp) => fs.readdirSync(path.join(t.app.services.config.dataDir, 'tmp'));
/** No temp file appeared since `before` was listed. */
const expectNoNewTempFiles = (t: TestApp, before: string[]) => expect(tempFiles(t).filter((name) => !before.includes(name))).toEqual([]);

/** What the blob store holds, observed from outside the service. */
interface StoreProbe {
  has(bytes: Buffer): Promise<boolean>;
  read(bytes: Buffer): Promise<Buffer>;
  /** Every content-addressed object's sha256. */
  list(): Promise<string[]>;
}

function fileProbe(t: TestApp): StoreProbe {
  const dir = () => path.join(t.app.services.config.dataDir, 'blobs', 'sha256');
  return {
    has: async (bytes) => fs.existsSync(path.join(dir(), sha256(bytes))),
    read: async (bytes) => fs.readFileSync(path.join(dir(), sha256(bytes))),
    list: async () => (fs.existsSync(dir()) ? fs.readdirSync(dir()).sort() : []),
  };
}

function s3Probe(settings: S3Settings): StoreProbe {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    async has(bytes) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: `sha256/${sha256(bytes)}` }));
        return true;
      } catch (error) {
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return false;
        throw error;
      }
    },
    async read(bytes) {
      const object = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: `sha256/${sha256(bytes)}` }));
      return Buffer.from(await object.Body!.transformToByteArray());
    },
    async list() {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: 'sha256/', ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key!.slice('sha256/'.length)));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
  };
}

const CRASH_TRIGGER = `
  create function fail_figure() returns trigger language plpgsql as $$ begin raise exception 'simulated crash'; end $$;
  create trigger fail_figure before insert on figures for each row when (new.canonical_path = '/crash.png') execute function fail_figure();`;
const DROP_CRASH_TRIGGER = `drop trigger if exists fail_figure on figures; drop function if exists fail_figure();`;

// One real S3 server for the whole file; each app that uses it has its own bucket.
let s3: Awaited<ReturnType<typeof startS3>>;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.close();
});

// ---------------------------------------------------------------------------------------------
// Upload, raw and crash behaviour, on both stores
// ---------------------------------------------------------------------------------------------

describe.each(['file', 's3'] as const)('the %s store', (kind) => {
  let t: TestApp;
  let probe: StoreProbe;
  let lab: TestLab;
  /** Owner of the sessions; active lab member. */
  let alice: TestUser;
  /** Another active member of the lab. */
  let bob: TestUser;
  /** In no lab. */
  let carol: TestUser;

  beforeAll(async () => {
    const limits = { MAX_FIGURE_BYTES: String(MAX_FIGURE_BYTES) };
    // TRUST_PROXY: some tests check URLs built for a proxy's forwarded host.
    const env = { TRUST_PROXY: 'true', FIGURE_CDN_HOSTS: 'cdn.example.org, *.media.example.net', ...limits };
    t = await startTestApp(kind === 'file' ? { BLOB_STORE: 'file', ...env } : s3Env(s3.settings, env));
    probe = kind === 'file' ? fileProbe(t) : s3Probe(s3.settings);
    lab = await makeLab(t);
    [alice, bob, carol] = await Promise.all([makeUser(t, { name: 'Alice' }), makeUser(t, { name: 'Bob' }), makeUser(t, { name: 'Carol' })]);
    await addMember(t, lab, alice);
    await addMember(t, lab, bob);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('POST …/figures/upload', () => {
    test('answers the figure row with drive://sha256/<hex> of file and original; both blobs are stored, owned by the uploader and charged', async () => {
      const id = await newSession(t, alice);
      const before = await storageUsed(t, alice);
      const file = figureBytes(300);
      const original = figureBytes(900);
      const reply = await upload(t, alice, id, { file, original, canonical_path: '/out/plot.png', mime: 'image/png' });
      expectStatus(reply, 200);
      expect(reply.body).toEqual({
        canonical_path: '/out/plot.png',
        cdn_url: null,
        storage_uri: driveUri(file),
        original_uri: driveUri(original),
        compressed: null,
        mime: 'image/png',
        bytes: 300,
      });
      expect(await figureRows(t, id)).toEqual([reply.body]);
      for (const bytes of [file, original]) {
        expect(await blobRows(t, bytes)).toEqual([{ sha256: sha256(bytes), bytes: bytes.length }]);
        expect(await blobOwners(t, bytes)).toEqual([alice.id]);
        expect(await probe.read(bytes)).toEqual(bytes);
      }
      expect(await storageUsed(t, alice)).toBe(before + 1200);
      expect(await figureCount(t, alice, id)).toBe(1);
    });

    test('the upload mutation keeps only files its own request received: over /graphql it names none, and nothing is kept', async () => {
      const id = await newSession(t, alice);
      const before = await storageUsed(t, alice);
      const reply = await t.call('POST', '/graphql', {
        token: alice.token,
        body: {
          query: 'mutation($id: ID!, $input: FigureUploadInput!) { trajectoryFigureUpload(sessionId: $id, input: $input) { storageUri } }',
          variables: { id, input: { file: 'file', canonicalPath: '/posted.png' } },
        },
      });
      expect(reply.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
      expect(reply.body.errors[0].message).toMatch(/names no file this request sent/);
      expect(await figureRows(t, id)).toEqual([]);
      expect(await storageUsed(t, alice)).toBe(before);
    });

    test('a form with every part (file, original, canonical_path, mime, compressed) is taken whole', async () => {
      const id = await newSession(t, alice);
      const file = figureBytes(150);
      const original = figureBytes(450);
      const reply = await upload(t, alice, id, { file, original, canonical_path: '/all/parts.png', mime: 'image/png', compressed: 'true' });
      expectStatus(reply, 200);
      expect(reply.body).toEqual({
        canonical_path: '/all/parts.png',
        cdn_url: null,
        storage_uri: driveUri(file),
        original_uri: driveUri(original),
        compressed: true,
        mime: 'image/png',
        bytes: 150,
      });
      expect(await figureRows(t, id)).toEqual([reply.body]);
    });

    test('optional parts: no original → original_uri null; compressed=false and no mime are kept as given', async () => {
      const id = await newSession(t, alice);
      const file = figureBytes(200);
      const reply = await upload(t, alice, id, { file, canonical_path: 'figs/a.svg', compressed: 'false' });
      expectStatus(reply, 200);
      expect(reply.body).toEqual({
        canonical_path: 'figs/a.svg',
        cdn_url: null,
        storage_uri: driveUri(file),
        original_uri: null,
        compressed: false,
        mime: null,
        bytes: 200,
      });
    });

    test('uploading to a path again replaces the row (upsert by canonical_path)', async () => {
      const id = await newSession(t, alice);
      const first = figureBytes(100);
      const second = figureBytes(120);
      expectStatus(await upload(t, alice, id, { file: first, canonical_path: '/p.png', mime: 'image/png' }), 200);
      expectStatus(await upload(t, alice, id, { file: second, canonical_path: '/p.png', mime: 'image/png' }), 200);
      expect(await figureRows(t, id)).toEqual([
        expect.objectContaining({ canonical_path: '/p.png', storage_uri: driveUri(second), bytes: 120 }),
      ]);
      expect(await figureCount(t, alice, id)).toBe(1);
      expect(await getBytes(await rawLocation(t, alice, id, '/p.png'))).toMatchObject({ status: 200, body: second });
    });

    test('the same bytes again (another session, another path) are not charged again and stay one blob', async () => {
      const file = figureBytes(500);
      const one = await newSession(t, alice);
      const two = await newSession(t, alice);
      expectStatus(await upload(t, alice, one, { file, canonical_path: '/a.png' }), 200);
      const before = await storageUsed(t, alice);
      const again = await upload(t, alice, two, { file, canonical_path: '/b.png' });
      expectStatus(again, 200);
      expect(again.body.storage_uri).toBe(driveUri(file));
      expect(await storageUsed(t, alice)).toBe(before);
      expect(await blobRows(t, file)).toHaveLength(1);
      expect(await blobOwners(t, file)).toEqual([alice.id]);
      expect((await probe.list()).filter((sha) => sha === sha256(file))).toHaveLength(1);
      // Both rows serve the one blob.
      expect((await getBytes(await rawLocation(t, alice, two, '/b.png'))).body).toEqual(file);
      expect((await getBytes(await rawLocation(t, alice, one, '/a.png'))).body).toEqual(file);
    });

    test('another user uploading the same bytes is charged for them (one stored blob, two owners)', async () => {
      const file = figureBytes(700);
      expectStatus(await upload(t, alice, await newSession(t, alice), { file, canonical_path: '/shared.png' }), 200);
      const carolSession = await newSession(t, carol);
      const before = await storageUsed(t, carol);
      expectStatus(await upload(t, carol, carolSession, { file, canonical_path: '/mine-too.png' }), 200);
      expect(await storageUsed(t, carol)).toBe(before + 700);
      expect(await blobRows(t, file)).toHaveLength(1);
      expect(await blobOwners(t, file)).toEqual([alice.id, carol.id].sort());
      expect((await getBytes(await rawLocation(t, carol, carolSession, '/mine-too.png'))).body).toEqual(file);
    });

    test('over the storage quota → 413 and nothing kept: no figure row, no blob or owner row, usage unchanged, no object in the store', async () => {
      const dave = await makeUser(t);
      const id = await newSession(t, dave);
      const before = await storageUsed(t, dave);
      await setQuota(t, dave, before + 1000);
      const file = figureBytes(600);
      const original = figureBytes(600);
      const objects = await probe.list();
      const temps = tempFiles(t);
      const reply = await upload(t, dave, id, { file, original, canonical_path: '/big.png', mime: 'image/png' });
      expectError(reply, 413);
      expect(await figureRows(t, id)).toEqual([]);
      for (const bytes of [file, original]) {
        expect(await blobRows(t, bytes)).toEqual([]);
        expect(await blobOwners(t, bytes)).toEqual([]);
        expect(await probe.has(bytes)).toBe(false);
      }
      expect(await storageUsed(t, dave)).toBe(before);
      expect(await probe.list()).toEqual(objects);
      expectNoNewTempFiles(t, temps);
      // Within the quota the same upload of one of them goes through.
      expectStatus(await upload(t, dave, id, { file, canonical_path: '/big.png' }), 200);
      expect(await storageUsed(t, dave)).toBe(before + 600);
    });

    test('at the quota, bytes the user already owns can still be mapped (they cost nothing)', async () => {
      const erin = await makeUser(t);
      const id = await newSession(t, erin);
      const file = figureBytes(400);
      expectStatus(await upload(t, erin, id, { file, canonical_path: '/one.png' }), 200);
      const used = await storageUsed(t, erin);
      await setQuota(t, erin, used);
      expectStatus(await upload(t, erin, id, { file, canonical_path: '/two.png' }), 200);
      expect(await storageUsed(t, erin)).toBe(used);
      expectError(await upload(t, erin, id, { file: figureBytes(10), canonical_path: '/three.png' }), 413);
      expect((await figureRows(t, id)).map((r) => r.canonical_path)).toEqual(['/one.png', '/two.png']);
    });

    test('the quota holds under concurrency: 10 different uploads at once with room for 3 → exactly 3 kept and charged', async () => {
      const frank = await makeUser(t);
      const sessions = await Promise.all(Array.from({ length: 10 }, () => newSession(t, frank)));
      const before = await storageUsed(t, frank);
      await setQuota(t, frank, before + 3 * 1000 + 500);
      const files = sessions.map(() => figureBytes(1000));
      const replies = await Promise.all(sessions.map((id, i) => upload(t, frank, id, { file: files[i], canonical_path: '/c.png' })));
      expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 413, 413, 413, 413, 413, 413, 413]);
      expect(await storageUsed(t, frank)).toBe(before + 3000);
      for (const [i, reply] of replies.entries()) {
        const kept = reply.status === 200;
        expect(await probe.has(files[i])).toBe(kept);
        expect(await blobOwners(t, files[i])).toEqual(kept ? [frank.id] : []);
        expect(await blobRows(t, files[i])).toHaveLength(kept ? 1 : 0);
        expect(await figureRows(t, sessions[i])).toHaveLength(kept ? 1 : 0);
      }
    });

    test('10 concurrent uploads of the same bytes by one user → all answered, charged once, one blob row, one owner row', async () => {
      const gina = await makeUser(t);
      const sessions = await Promise.all(Array.from({ length: 10 }, () => newSession(t, gina)));
      const before = await storageUsed(t, gina);
      const file = figureBytes(2000);
      const replies = await Promise.all(sessions.map((id, i) => upload(t, gina, id, { file, canonical_path: `/same-${i}.png` })));
      for (const reply of replies) {
        expectStatus(reply, 200);
        expect(reply.body.storage_uri).toBe(driveUri(file));
      }
      expect(await storageUsed(t, gina)).toBe(before + 2000);
      expect(await blobRows(t, file)).toHaveLength(1);
      expect(await blobOwners(t, file)).toEqual([gina.id]);
      expect(await probe.read(file)).toEqual(file);
      for (const id of sessions) expect(await figureRows(t, id)).toHaveLength(1);
    });

    test('a file of MAX_FIGURE_BYTES is taken; one byte more (file or original) → 413 with nothing kept', async () => {
      const id = await newSession(t, alice);
      expectStatus(await upload(t, alice, id, { file: figureBytes(MAX_FIGURE_BYTES), canonical_path: '/exact.png' }), 200);
      const before = await storageUsed(t, alice);
      const objects = await probe.list();
      const cases: UploadParts[] = [
        { file: figureBytes(MAX_FIGURE_BYTES + 1), canonical_path: '/too-big.png' },
        { file: figureBytes(100), original: figureBytes(MAX_FIGURE_BYTES + 1), canonical_path: '/too-big.png' },
      ];
      for (const parts of cases) {
        const temps = tempFiles(t);
        expectError(await upload(t, alice, id, parts), 413);
        expectNoNewTempFiles(t, temps);
        for (const bytes of [parts.file, parts.original]) {
          if (!bytes) continue;
          expect(await blobRows(t, bytes)).toEqual([]);
          expect(await probe.has(bytes)).toBe(false);
        }
      }
      expect((await figureRows(t, id)).map((r) => r.canonical_path)).toEqual(['/exact.png']);
      expect(await storageUsed(t, alice)).toBe(before);
      expect(await probe.list()).toEqual(objects);
    });

    test('owner only: an active lab member on a shared session → 403, a stranger → 404, an unknown session → 404; nothing kept', async () => {
      const id = await newSession(t, alice, { lab, shared: true });
      const file = figureBytes(300);
      expectError(await upload(t, bob, id, { file, canonical_path: '/x.png' }), 403);
      expectError(await upload(t, carol, id, { file, canonical_path: '/x.png' }), 404);
      expectError(await upload(t, alice, newSessionId('missing'), { file, canonical_path: '/x.png' }), 404);
      expect(await figureRows(t, id)).toEqual([]);
      expect(await blobRows(t, file)).toEqual([]);
      expect(await probe.has(file)).toBe(false);
    });

    test('who may upload is settled before the body is read: a stranger gets 404 while the body is still coming', async () => {
      const id = await newSession(t, alice);
      const reply = await uploadWithoutBody(t, carol, id);
      expect(reply).toEqual({ status: 404, body: { detail: expect.any(String) } });
    });

    test('malformed forms → 422 naming the part (no file, no canonical_path, bad compressed, unknown part); not multipart → 415; nothing kept', async () => {
      const id = await newSession(t, alice);
      const file = figureBytes(200);
      const cases: [UploadParts, string[]][] = [
        [{ canonical_path: '/x.png' }, ['body', 'file']],
        [{ file }, ['body', 'canonical_path']],
        [{ file, canonical_path: '/x.png', compressed: 'maybe' }, ['body', 'compressed']],
        [{ file, canonical_path: '/x.png', mime: 'not a type' }, ['body', 'mime']],
        [{ file, canonical_path: '/x.png', extra: { owner: 'someone' } }, ['body', 'owner']],
        [{ file, canonical_path: `/${'x'.repeat(1024)}` }, ['body', 'canonical_path']],
      ];
      for (const [parts, loc] of cases) {
        const reply = await upload(t, alice, id, parts);
        expectStatus(reply, 422);
        expect(reply.body.detail.map((issue: { loc: unknown }) => issue.loc)).toContainEqual(loc);
      }
      const json = await t.call('POST', sessionPath(id, '/figures/upload'), { token: alice.token, body: { canonical_path: '/x.png' } });
      expectError(json, 415);
      expect(await figureRows(t, id)).toEqual([]);
      expect(await blobRows(t, file)).toEqual([]);
      expect(await probe.has(file)).toBe(false);
    });

    test('a body cut off inside a file part (known or not) is 400, and the service goes on (its error once went unheard and ended the process)', async () => {
      const id = await newSession(t, alice);
      const boundary = 'cut-off-boundary';
      for (const part of ['extra', 'file']) {
        const cut = `--${boundary}\r\ncontent-disposition: form-data; name="${part}"; filename="x.png"\r\ncontent-type: image/png\r\n\r\nsome bytes`;
        const response = await fetch(new URL(sessionPath(id, '/figures/upload'), t.url), {
          method: 'POST',
          headers: { authorization: `Bearer ${alice.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
          body: cut,
        });
        expect({ part, status: response.status, body: await response.json() }).toEqual({
          part,
          status: 400,
          body: { detail: expect.stringContaining('malformed multipart body') },
        });
      }
      expect((await t.call('GET', '/api/me', { token: alice.token })).status).toBe(200);
      expect(await figureRows(t, id)).toEqual([]);
    });

    test('a NUL character in canonical_path → 422 at body.canonical_path (like POST …/figures), nothing kept', async () => {
      const id = await newSession(t, alice);
      const file = figureBytes(200);
      const before = await storageUsed(t, alice);
      const reply = await upload(t, alice, id, { file, canonical_path: '/nul\u0000.png' });
      expectStatus(reply, 422);
      expect(reply.body.detail.map((issue: { loc: unknown }) => issue.loc)).toContainEqual(['body', 'canonical_path']);
      expect(await figureRows(t, id)).toEqual([]);
      expect(await blobRows(t, file)).toEqual([]);
      expect(await probe.has(file)).toBe(false);
      expect(await storageUsed(t, alice)).toBe(before);
    });
  });

  describe('a crash between the blob write and the database write', () => {
    beforeAll(async () => {
      await t.sql(CRASH_TRIGGER);
    });
    afterAll(async () => {
      await t.sql(DROP_CRASH_TRIGGER);
    });

    test('the request fails (500 {detail}, no stack) and nothing is visible: no rows, usage unchanged, no object in the store', async () => {
      const id = await newSession(t, alice);
      const before = await storageUsed(t, alice);
      const objects = await probe.list();
      const temps = tempFiles(t);
      const file = figureBytes(800);
      const original = figureBytes(1600);
      const reply = await upload(t, alice, id, { file, original, canonical_path: '/crash.png', mime: 'image/png' });
      expectError(reply, 500);
      expect(await figureRows(t, id)).toEqual([]);
      for (const bytes of [file, original]) {
        expect(await blobRows(t, bytes)).toEqual([]);
        expect(await blobOwners(t, bytes)).toEqual([]);
        expect(await probe.has(bytes)).toBe(false);
      }
      expect(await storageUsed(t, alice)).toBe(before);
      expect(await probe.list()).toEqual(objects);
      expectNoNewTempFiles(t, temps);
      expectStatus(await raw(t, alice, id, '/crash.png'), 404);
      // The same bytes go in cleanly under another path afterwards.
      expectStatus(await upload(t, alice, id, { file, original, canonical_path: '/fine.png', mime: 'image/png' }), 200);
      expect(await storageUsed(t, alice)).toBe(before + 2400);
      expect((await getBytes(await rawLocation(t, alice, id, '/fine.png'))).body).toEqual(original);
    });

    test('the same holds when the database write fails only at commit (a deferred constraint trigger): no object is left behind', async () => {
      await t.sql(`
        create function fail_at_commit() returns trigger language plpgsql as $$ begin raise exception 'simulated crash'; end $$;
        create constraint trigger fail_at_commit after insert on figures deferrable initially deferred
          for each row when (new.canonical_path = '/late-crash.png') execute function fail_at_commit();`);
      try {
        const id = await newSession(t, alice);
        const before = await storageUsed(t, alice);
        const objects = await probe.list();
        const file = figureBytes(700);
        expectError(await upload(t, alice, id, { file, canonical_path: '/late-crash.png', mime: 'image/png' }), 500);
        expect(await figureRows(t, id)).toEqual([]);
        expect(await blobRows(t, file)).toEqual([]);
        expect(await blobOwners(t, file)).toEqual([]);
        expect(await storageUsed(t, alice)).toBe(before);
        expect(await probe.has(file)).toBe(false);
        expect(await probe.list()).toEqual(objects);
      } finally {
        await t.sql('drop trigger if exists fail_at_commit on figures; drop function if exists fail_at_commit();');
      }
    });

    test('bytes that were already stored before the failed upload stay, and so do the figures using them', async () => {
      const id = await newSession(t, alice);
      const file = figureBytes(900);
      expectStatus(await upload(t, alice, id, { file, canonical_path: '/kept.png', mime: 'image/png' }), 200);
      const before = await storageUsed(t, alice);
      expectError(await upload(t, alice, id, { file, canonical_path: '/crash.png', mime: 'image/png' }), 500);
      expect(await probe.read(file)).toEqual(file);
      expect(await blobRows(t, file)).toHaveLength(1);
      expect(await blobOwners(t, file)).toEqual([alice.id]);
      expect(await storageUsed(t, alice)).toBe(before);
      expect((await figureRows(t, id)).map((r) => r.canonical_path)).toEqual(['/kept.png']);
      expect((await getBytes(await rawLocation(t, alice, id, '/kept.png'))).body).toEqual(file);
    });
  });

  describe('GET …/figures/raw', () => {
    let shared: string;
    let privateOne: string;
    let file: Buffer;
    let original: Buffer;
    let alone: Buffer;

    beforeAll(async () => {
      shared = await newSession(t, alice, { lab, shared: true });
      privateOne = await newSession(t, alice, { lab });
      file = figureBytes(1000);
      original = figureBytes(3000);
      alone = figureBytes(1500);
      for (const id of [shared, privateOne]) {
        expectStatus(await upload(t, alice, id, { file, original, canonical_path: '/fig/with original.png', mime: 'image/png' }), 200);
        expectStatus(await upload(t, alice, id, { file: alone, canonical_path: '/fig/alone.png', mime: 'image/png' }), 200);
      }
    });

    test('302 to a fresh signed URL of the original, valid 5 minutes; fetching it gives the original bytes', async () => {
      const from = Math.floor(Date.now() / 1000);
      const location = await rawLocation(t, alice, shared, '/fig/with original.png');
      const to = Math.ceil(Date.now() / 1000);
      const url = new URL(location);
      if (kind === 'file') {
        expect(location.startsWith(`${t.url}/blobs/sha256/${sha256(original)}?`)).toBe(true);
        const expires = Number(url.searchParams.get('expires'));
        expect(expires).toBeGreaterThanOrEqual(from + 300);
        expect(expires).toBeLessThanOrEqual(to + 300);
      } else {
        expect(url.origin).toBe(s3.settings.endpoint);
        expect(url.pathname).toBe(`/${s3.settings.bucket}/sha256/${sha256(original)}`);
        expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
      }
      const fetched = await getBytes(location);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(original);
    });

    test('without an original, the compressed blob', async () => {
      const fetched = await getBytes(await rawLocation(t, alice, shared, '/fig/alone.png'));
      expect(fetched).toMatchObject({ status: 200, body: alone });
    });

    test('a Range request on the signed URL → 206 with those bytes', async () => {
      const fetched = await getBytes(await rawLocation(t, alice, shared, '/fig/alone.png'), { range: 'bytes=100-199' });
      expect(fetched.status).toBe(206);
      expect(fetched.headers.get('content-range')).toBe(`bytes 100-199/${alone.length}`);
      expect(fetched.body).toEqual(alone.subarray(100, 200));
    });

    test('an active lab member on a lab session and the admin → 302 to the same bytes', async () => {
      for (const who of [bob, { token: t.adminToken }]) {
        expect((await getBytes(await rawLocation(t, who, shared, '/fig/with original.png'))).body).toEqual(original);
      }
    });

    test('not visible to the caller → 404: a lab member on a private session, a stranger; an unknown path or session → 404', async () => {
      expectError(await raw(t, bob, privateOne, '/fig/alone.png'), 404);
      expectError(await raw(t, carol, shared, '/fig/alone.png'), 404);
      expectError(await raw(t, carol, privateOne, '/fig/alone.png'), 404);
      expectError(await raw(t, alice, shared, '/fig/nope.png'), 404);
      expectError(await raw(t, bob, shared, '/fig/nope.png'), 404);
      expectError(await raw(t, alice, newSessionId('missing'), '/fig/alone.png'), 404);
      // The owner still gets the private one.
      expectStatus(await raw(t, alice, privateOne, '/fig/alone.png'), 302);
    });

    test('without ?path= → 422 at query.path; without a token → 401', async () => {
      const reply = await raw(t, alice, shared);
      expectStatus(reply, 422);
      expect(reply.body.detail[0].loc).toEqual(['query', 'path']);
      expectStatus(await raw(t, { token: '' }, shared, '/fig/alone.png'), 401);
    });

    test('a row with only cdn_url → 302 to that URL (https on a FIGURE_CDN_HOSTS host, or its subdomains for *.)', async () => {
      expectStatus(
        await recordFigures(t, alice, shared, [{ canonical_path: '/legacy.png', cdn_url: 'https://cdn.example.org/legacy.png?v=2' }]),
        200,
      );
      expect(await rawLocation(t, bob, shared, '/legacy.png')).toBe('https://cdn.example.org/legacy.png?v=2');
      expectStatus(
        await recordFigures(t, alice, shared, [{ canonical_path: '/sub.png', cdn_url: 'https://eu.media.example.net/sub.png' }]),
        200,
      );
      expect(await rawLocation(t, bob, shared, '/sub.png')).toBe('https://eu.media.example.net/sub.png');
    });

    test('a cdn_url elsewhere is stored but never redirected to: 403 {detail} (internal addresses, plain http, other hosts, credentials in the URL)', async () => {
      const elsewhere = [
        'http://127.0.0.1:5432/x.png',
        'https://127.0.0.1/x.png',
        'http://cdn.example.org/x.png',
        'https://evil.example/x.png',
        'https://cdn.example.org.evil.example/x.png',
        'https://media.example.net/x.png',
        'https://user:pass@cdn.example.org/x.png',
      ];
      const rows = elsewhere.map((cdn_url, i) => ({ canonical_path: `/elsewhere/${i}.png`, cdn_url }));
      expectStatus(await recordFigures(t, alice, shared, rows), 200);
      for (const row of rows) {
        const reply = await raw(t, bob, shared, row.canonical_path);
        expectStatus(reply, 403);
        expect(reply.body).toEqual({ detail: expect.stringContaining('FIGURE_CDN_HOSTS') });
        expect(reply.headers.get('location')).toBeNull();
      }
    });
  });
});

// ---------------------------------------------------------------------------------------------
// The figure map, the file store's signed URLs, cloud rewriting (one file-store app)
// ---------------------------------------------------------------------------------------------

describe('on a file-store app', () => {
  let t: TestApp;
  let lab: TestLab;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ BLOB_STORE: 'file', TRUST_PROXY: 'true', FIGURE_CDN_HOSTS: 'cdn.example.org' });
    lab = await makeLab(t);
    [alice, bob, carol] = await Promise.all([makeUser(t, { name: 'Alice' }), makeUser(t, { name: 'Bob' }), makeUser(t, { name: 'Carol' })]);
    await addMember(t, lab, alice);
    await addMember(t, lab, bob);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('POST …/figures (figure map rows)', () => {
    test('a row with only cdn_url is valid → 200 {session_id, figure_count}; the row is stored with the rest null', async () => {
      const id = await newSession(t, alice);
      const reply = await recordFigures(t, alice, id, [{ canonical_path: '/a.png', cdn_url: 'https://cdn.example.org/a.png' }]);
      expectStatus(reply, 200);
      expect(reply.body).toEqual({ session_id: id, figure_count: 1 });
      expect(await figureRows(t, id)).toEqual([
        {
          canonical_path: '/a.png',
          cdn_url: 'https://cdn.example.org/a.png',
          storage_uri: null,
          original_uri: null,
          compressed: null,
          mime: null,
          bytes: null,
        },
      ]);
    });

    test('rows may name blobs the owner uploaded (storage_uri, original_uri), with compressed, mime and bytes; unknown members are ignored', async () => {
      const id = await newSession(t, alice);
      const file = figureBytes(200);
      const original = figureBytes(400);
      expectStatus(await upload(t, alice, id, { file, canonical_path: '/up.png' }), 200);
      expectStatus(await upload(t, alice, id, { file: original, canonical_path: '/orig.png' }), 200);
      const row = {
        canonical_path: '/mapped.png',
        storage_uri: driveUri(file),
        original_uri: driveUri(original),
        compressed: true,
        mime: 'image/png',
        bytes: 200,
      };
      const reply = await recordFigures(t, alice, id, [{ ...row, note: 'ignored' }]);
      expectStatus(reply, 200);
      expect(reply.body.figure_count).toBe(3);
      expect((await figureRows(t, id)).find((r) => r.canonical_path === '/mapped.png')).toEqual({ ...row, cdn_url: null });
      expect((await getBytes(await rawLocation(t, alice, id, '/mapped.png'))).body).toEqual(original);
    });

    test('one bad row rejects the whole request: 422 naming that row, nothing stored', async () => {
      const id = await newSession(t, alice);
      const good = { canonical_path: '/good.png', cdn_url: 'https://cdn.example.org/good.png' };
      const bad: [unknown, string?][] = [
        [{ cdn_url: 'https://cdn.example.org/x.png' }, 'canonical_path'],
        [{ canonical_path: '', cdn_url: 'https://cdn.example.org/x.png' }, 'canonical_path'],
        [{ canonical_path: 5, cdn_url: 'https://cdn.example.org/x.png' }, 'canonical_path'],
        [{ canonical_path: '/x.png' }],
        [{ canonical_path: '/x.png', original_uri: `drive://sha256/${'a'.repeat(64)}`, mime: 'image/png' }],
        [{ canonical_path: '/x.png', storage_uri: 's3://bucket/x.png' }, 'storage_uri'],
        [{ canonical_path: '/x.png', storage_uri: 'drive://sha256/abc' }, 'storage_uri'],
        [{ canonical_path: '/x.png', cdn_url: 'javascript:alert(1)' }, 'cdn_url'],
        [{ canonical_path: '/x.png', cdn_url: 'https://cdn.example.org/x.png', compressed: 'yes' }, 'compressed'],
        [{ canonical_path: '/x.png', cdn_url: 'https://cdn.example.org/x.png', bytes: -1 }, 'bytes'],
        [{ canonical_path: '/x.png', cdn_url: 'https://cdn.example.org/x.png', mime: 'png' }, 'mime'],
        [{ canonical_path: '/nul\u0000.png', cdn_url: 'https://cdn.example.org/x.png' }, 'canonical_path'],
        [{ canonical_path: `/${'x'.repeat(1024)}`, cdn_url: 'https://cdn.example.org/x.png' }, 'canonical_path'],
      ];
      for (const [row, member] of bad) {
        const reply = await recordFigures(t, alice, id, [good, row]);
        expectRowIssue(reply, 1, member);
      }
      expect(await figureRows(t, id)).toEqual([]);
      expect(await figureCount(t, alice, id)).toBe(0);
    });

    test('a NUL character in cdn_url is a bad row too: 422 naming it, nothing stored', async () => {
      const id = await newSession(t, alice);
      const reply = await recordFigures(t, alice, id, [
        { canonical_path: '/good.png', cdn_url: 'https://cdn.example.org/good.png' },
        { canonical_path: '/x.png', cdn_url: 'https://cdn.example.org/nul\u0000.png' },
      ]);
      expectRowIssue(reply, 1, 'cdn_url');
      expect(await figureRows(t, id)).toEqual([]);
    });

    test('no rows, more than 1000 rows, or a row that is not an object → 422; nothing stored', async () => {
      const id = await newSession(t, alice);
      expectStatus(await recordFigures(t, alice, id, []), 422);
      const many = Array.from({ length: 1001 }, (_, i) => ({
        canonical_path: `/many/${i}.png`,
        cdn_url: `https://cdn.example.org/${i}.png`,
      }));
      expectStatus(await recordFigures(t, alice, id, many), 422);
      expectStatus(await recordFigures(t, alice, id, many.slice(0, 1000)), 200);
      await t.sql('delete from figures where session_id = $1', [id]);
      expectStatus(
        await recordFigures(t, alice, id, [{ canonical_path: '/ok.png', cdn_url: 'https://cdn.example.org/ok.png' }, 'nope']),
        422,
      );
      expectStatus(await t.call('POST', sessionPath(id, '/figures'), { token: alice.token, body: {} }), 422);
      expect(await figureRows(t, id)).toEqual([]);
    });

    test('drive URIs must name a blob the session owner uploaded: a hash only someone else uploaded → 422, nothing stored', async () => {
      const carolSession = await newSession(t, carol);
      const carols = figureBytes(300);
      expectStatus(await upload(t, carol, carolSession, { file: carols, canonical_path: '/carol.png' }), 200);
      const aliceSession = await newSession(t, alice);
      const alices = figureBytes(300);
      expectStatus(await upload(t, alice, aliceSession, { file: alices, canonical_path: '/alice.png' }), 200);

      const asStorage = await recordFigures(t, alice, aliceSession, [
        { canonical_path: '/ok.png', storage_uri: driveUri(alices) },
        { canonical_path: '/steal.png', storage_uri: driveUri(carols) },
      ]);
      expectRowIssue(asStorage, 1, 'storage_uri');
      const asOriginal = await recordFigures(t, alice, aliceSession, [
        { canonical_path: '/steal.png', storage_uri: driveUri(alices), original_uri: driveUri(carols) },
      ]);
      expectRowIssue(asOriginal, 0, 'original_uri');
      const unknown = await recordFigures(t, alice, aliceSession, [
        { canonical_path: '/ghost.png', storage_uri: `drive://sha256/${'0'.repeat(64)}` },
      ]);
      expectRowIssue(unknown, 0, 'storage_uri');
      expect((await figureRows(t, aliceSession)).map((r) => r.canonical_path)).toEqual(['/alice.png']);
      expect(await blobOwners(t, carols)).toEqual([carol.id]);
    });

    test('owner only: an active lab member viewer → 403, a stranger → 404, an unknown session → 404; nothing stored', async () => {
      const id = await newSession(t, alice, { lab, shared: true });
      const rows = [{ canonical_path: '/x.png', cdn_url: 'https://cdn.example.org/x.png' }];
      expectError(await recordFigures(t, bob, id, rows), 403);
      expectError(await recordFigures(t, carol, id, rows), 404);
      expectError(await recordFigures(t, alice, newSessionId('missing'), rows), 404);
      expect(await figureRows(t, id)).toEqual([]);
    });

    test('rows are upserted by canonical_path; figure_count is in meta, in list rows and in lab board rows', async () => {
      const id = await newSession(t, alice, { lab, shared: true });
      const first = await recordFigures(t, alice, id, [
        { canonical_path: '/one.png', cdn_url: 'https://cdn.example.org/1.png' },
        { canonical_path: '/two.png', cdn_url: 'https://cdn.example.org/2.png' },
      ]);
      expect(first.body).toEqual({ session_id: id, figure_count: 2 });
      const second = await recordFigures(t, alice, id, [
        { canonical_path: '/two.png', cdn_url: 'https://cdn.example.org/2b.png', mime: 'image/png' },
        { canonical_path: '/three.png', cdn_url: 'https://cdn.example.org/3.png' },
      ]);
      expect(second.body).toEqual({ session_id: id, figure_count: 3 });
      expect((await figureRows(t, id)).find((r) => r.canonical_path === '/two.png')).toMatchObject({
        cdn_url: 'https://cdn.example.org/2b.png',
        mime: 'image/png',
      });
      expect(await rawLocation(t, alice, id, '/two.png')).toBe('https://cdn.example.org/2b.png');

      expect(await figureCount(t, alice, id)).toBe(3);
      expect(await figureCount(t, bob, id)).toBe(3);
      const list = await t.call('GET', '/api/trajectories', { token: alice.token });
      expectStatus(list, 200);
      expect(list.body.items.find((row: { session_id: string }) => row.session_id === id)).toMatchObject({ figure_count: 3 });
      const board = await t.call('GET', `/api/labs/${lab.id}/board`, { token: bob.token });
      expectStatus(board, 200);
      expect(board.body.items.find((row: { session_id: string }) => row.session_id === id)).toMatchObject({ figure_count: 3 });
      // A session without figures counts 0.
      const bare = await newSession(t, alice);
      expect(await figureCount(t, alice, bare)).toBe(0);
    });
  });

  describe('signed /blobs/… URLs of the file store', () => {
    let id: string;
    let png: Buffer;
    let html: Buffer;

    beforeAll(async () => {
      id = await newSession(t, alice);
      png = figureBytes(2048);
      html = Buffer.from('<html><script>alert(document.cookie)</script></html>');
      expectStatus(await upload(t, alice, id, { file: png, canonical_path: '/plot.png', mime: 'image/png' }), 200);
      expectStatus(await upload(t, alice, id, { file: html, canonical_path: '/page.html', mime: 'text/html' }), 200);
      expectStatus(await upload(t, alice, id, { file: figureBytes(100), canonical_path: '/untyped.bin' }), 200);
    });

    afterEach(() => {
      jest.restoreAllMocks();
    });

    test('a raster image is served inline with its type, under a CSP sandbox', async () => {
      const fetched = await getBytes(await rawLocation(t, alice, id, '/plot.png'));
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(png);
      expect(fetched.headers.get('content-type')).toBe('image/png');
      expect(fetched.headers.get('content-disposition') ?? 'inline').toMatch(/^inline/);
      expect(fetched.headers.get('content-security-policy')).toMatch(/sandbox/);
    });

    test('a non-image mime (or none) is served as application/octet-stream, as an attachment, under a CSP sandbox', async () => {
      for (const figurePath of ['/page.html', '/untyped.bin']) {
        const fetched = await getBytes(await rawLocation(t, alice, id, figurePath));
        expect(fetched.status).toBe(200);
        expect(fetched.headers.get('content-type')).toMatch(/^application\/octet-stream/);
        expect(fetched.headers.get('content-disposition')).toMatch(/^attachment/);
        expect(fetched.headers.get('content-security-policy')).toMatch(/sandbox/);
      }
      expect((await getBytes(await rawLocation(t, alice, id, '/page.html'))).body).toEqual(html);
    });

    test('a tampered URL → 403 {detail}: signature, expiry, type or blob changed', async () => {
      const location = new URL(await rawLocation(t, alice, id, '/plot.png'));
      const tampered = (change: (url: URL) => void) => {
        const url = new URL(location);
        change(url);
        return url.toString();
      };
      const signature = location.searchParams.get('signature')!;
      const variants = [
        tampered((u) => u.searchParams.set('signature', `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`)),
        tampered((u) => u.searchParams.delete('signature')),
        tampered((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))),
        tampered((u) => u.searchParams.set('type', 'text/html')),
        tampered((u) => (u.pathname = `/blobs/sha256/${sha256(html)}`)),
      ];
      for (const url of variants) {
        const fetched = await getBytes(url);
        expect(fetched.status).toBe(403);
        expect(JSON.parse(fetched.body.toString())).toEqual({ detail: expect.any(String) });
      }
      expect((await getBytes(location.toString())).status).toBe(200);
    });

    test('the URL works until it expires, then → 403', async () => {
      const location = await rawLocation(t, alice, id, '/plot.png');
      const expires = Number(new URL(location).searchParams.get('expires'));
      // The service runs in this process: move its clock instead of waiting.
      const now = jest.spyOn(Date, 'now');
      now.mockReturnValue((expires - 5) * 1000);
      expect((await getBytes(location)).status).toBe(200);
      now.mockReturnValue((expires + 5) * 1000);
      expect((await getBytes(location)).status).toBe(403);
    });

    test('the URL is built for the host the caller used: Host, or X-Forwarded-Host/-Proto (TRUST_PROXY)', async () => {
      const rawPath = `${sessionPath(id, '/figures/raw')}?path=${encodeURIComponent('/plot.png')}`;
      const viaHost = await rawGet(`${t.url}${rawPath}`, { authorization: `Bearer ${alice.token}`, host: 'localhost:8443' });
      expect(viaHost.status).toBe(302);
      expect(viaHost.headers.location!.startsWith(`http://localhost:8443/blobs/sha256/${sha256(png)}?`)).toBe(true);
      const viaProxy = await rawGet(`${t.url}${rawPath}`, {
        authorization: `Bearer ${alice.token}`,
        'x-forwarded-host': 'labdesk.example.org',
        'x-forwarded-proto': 'https',
      });
      expect(viaProxy.status).toBe(302);
      const location = new URL(viaProxy.headers.location!);
      expect(location.origin).toBe('https://labdesk.example.org');
      expect(location.pathname).toBe(`/blobs/sha256/${sha256(png)}`);
      // The same signed path and query work on this service.
      expect((await getBytes(`${t.url}${location.pathname}${location.search}`)).body).toEqual(png);
    });
  });

  describe('cloud clients: figure paths rewritten to serve URLs', () => {
    let id: string;
    let raws: string[];
    const PLOT = '/home/alice/run/plot.png';
    const ODD = '/data/fig 1 & co?#%.png';
    const CAFE = '/data/café/plot.png';

    const serveUrl = (figurePath: string) =>
      `${t.url}/api/trajectories/${encodeURIComponent(id)}/figures/raw?path=${encodeURIComponent(figurePath)}`;
    const readAs = (clientKind: string | undefined, query?: Record<string, string>) =>
      t.call('GET', sessionPath(id), { token: alice.token, query, headers: clientKind ? { 'x-client-kind': clientKind } : {} });

    beforeAll(async () => {
      id = newSessionId('cloud');
      const u = Array.from({ length: 6 }, () => newUuid());
      raws = [
        // Mentions the path as a value (nested), inside a longer string, and with a suffix.
        `{"uuid":"${u[0]}","parentUuid":null,"type":"assistant","message":{"content":[{"type":"image","path":"${PLOT}"},{"type":"text","text":"saved to ${PLOT}"}]},"also":["${PLOT}","${PLOT}.bak"]}`,
        // No figure at all, odd spacing: must come back byte for byte even for a cloud client.
        `{ "uuid" : "${u[1]}", "parentUuid":"${u[0]}",  "type":"user", "message": {"content": "next"} }`,
        // A path that needs encoding in a URL.
        `{"uuid":"${u[2]}","parentUuid":"${u[1]}","type":"tool_result","output":{"file":${JSON.stringify(ODD)}}}`,
        // The path written with JSON escapes (\\/ for /): still a string equal to the path.
        `{"uuid":"${u[3]}","parentUuid":"${u[2]}","type":"tool_result","output":${JSON.stringify(PLOT).replace(/\//g, '\\/')}}`,
        // A path next to a number JavaScript cannot hold exactly.
        `{"uuid":"${u[4]}","parentUuid":"${u[3]}","type":"tool_result","run_id":12345678901234567890,"figure":"${PLOT}"}`,
        // A non-ASCII path as Python's json.dumps writes it (\u escapes).
        `{"uuid":"${u[5]}","parentUuid":"${u[4]}","type":"tool_result","figure":"${CAFE.replace('é', '\\u00e9')}"}`,
      ];
      const appended = await t.call('PUT', sessionPath(id, '/append'), {
        token: alice.token,
        rawBody: `{"base_uuid":null,"records":[${raws.join(',')}]}`,
      });
      expectStatus(appended, 200);
      expectStatus(
        await recordFigures(t, alice, id, [
          { canonical_path: PLOT, cdn_url: 'https://cdn.example.org/plot.png' },
          { canonical_path: ODD, cdn_url: 'https://cdn.example.org/odd.png' },
          { canonical_path: CAFE, cdn_url: 'https://cdn.example.org/cafe.png' },
        ]),
        200,
      );
    });

    test('without X-Client-Kind: cloud (or with another kind), records are byte for byte as stored', async () => {
      for (const kindHeader of [undefined, 'desktop', 'cli']) {
        const reply = await readAs(kindHeader);
        expectStatus(reply, 200);
        expect(recordsText(reply)).toBe(raws.join(','));
        const download = await readAs(kindHeader, { download: 'true' });
        expectStatus(download, 200);
        expect(download.text).toBe(raws.map((r) => `${r}\n`).join(''));
      }
    });

    test('JSON form: strings equal to a canonical_path become its serve URL; strings merely containing it do not', async () => {
      const reply = await readAs('cloud');
      expectStatus(reply, 200);
      const records = reply.body.records;
      expect(records).toHaveLength(6);
      expect(records[0].message.content[0].path).toBe(serveUrl(PLOT));
      expect(records[0].message.content[1].text).toBe(`saved to ${PLOT}`);
      expect(records[0].also).toEqual([serveUrl(PLOT), `${PLOT}.bak`]);
      expect(records[2].output.file).toBe(serveUrl(ODD));
      expect(records[4].figure).toBe(serveUrl(PLOT));
      // A record that names no figure is passed through untouched.
      expect(recordsText(reply)).toContain(raws[1]);
      // Everything else is as stored.
      expect({ ...records[0], message: undefined, also: undefined }).toEqual({
        ...JSON.parse(raws[0]),
        message: undefined,
        also: undefined,
      });
      expect(reply.body.session_id).toBe(id);
    });

    test('a path written with JSON escapes (\\/, \\u00e9) is still a string equal to the path: rewritten', async () => {
      expect(JSON.parse(raws[3]).output).toBe(PLOT);
      expect(JSON.parse(raws[5]).figure).toBe(CAFE);
      for (const query of [undefined, { download: 'true' }]) {
        const reply = await readAs('cloud', query);
        expectStatus(reply, 200);
        const records = query
          ? reply.text
              .trim()
              .split('\n')
              .map((line) => JSON.parse(line))
          : reply.body.records;
        expect([records[3].output, records[5].figure]).toEqual([serveUrl(PLOT), serveUrl(CAFE)]);
      }
    });

    test('a rewritten record keeps its other values exactly (a large integer keeps all its digits)', async () => {
      const reply = await readAs('cloud');
      expectStatus(reply, 200);
      expect(reply.body.records[4].figure).toBe(serveUrl(PLOT));
      expect(recordsText(reply)).toMatch(/"run_id":\s*12345678901234567890\b/);
    });

    test('download=true (NDJSON) form: the same rewriting, one record per line', async () => {
      const reply = await readAs('cloud', { download: 'true' });
      expectStatus(reply, 200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      const lines = reply.text.split('\n');
      expect(lines.pop()).toBe('');
      expect(lines).toHaveLength(6);
      const records = lines.map((line) => JSON.parse(line));
      expect(records[0].message.content[0].path).toBe(serveUrl(PLOT));
      expect(records[0].message.content[1].text).toBe(`saved to ${PLOT}`);
      expect(records[0].also).toEqual([serveUrl(PLOT), `${PLOT}.bak`]);
      expect(lines[1]).toBe(raws[1]);
      expect(records[2].output.file).toBe(serveUrl(ODD));
      expect(records[4].figure).toBe(serveUrl(PLOT));
    });

    test('the serve URL works: it redirects to the figure', async () => {
      const reply = await readAs('cloud');
      const url = new URL(reply.body.records[2].output.file);
      expect(url.searchParams.get('path')).toBe(ODD);
      const followed = await replyOf(
        await fetch(new URL(`${url.pathname}${url.search}`, t.url), {
          headers: { authorization: `Bearer ${alice.token}` },
          redirect: 'manual',
        }),
      );
      expectStatus(followed, 302);
      expect(followed.headers.get('location')).toBe('https://cdn.example.org/odd.png');
    });

    test('the serve URLs are built for the host the caller used', async () => {
      const reply = await rawGet(`${t.url}${sessionPath(id)}`, {
        authorization: `Bearer ${alice.token}`,
        'x-client-kind': 'cloud',
        'x-forwarded-host': 'app.example.org',
        'x-forwarded-proto': 'https',
      });
      expect(reply.status).toBe(200);
      const body = JSON.parse(reply.body.toString());
      expect(body.records[0].message.content[0].path).toBe(
        `https://app.example.org/api/trajectories/${encodeURIComponent(id)}/figures/raw?path=${encodeURIComponent(PLOT)}`,
      );
    });

    test('the stored bytes are unchanged by cloud reads', async () => {
      await readAs('cloud');
      await readAs('cloud', { download: 'true' });
      const stored = await t.sql<{ raw: string }>('select raw from trajectory_records where session_id = $1 order by seq', [id]);
      expect(stored.map((r) => r.raw)).toEqual(raws);
      expect(recordsText(await readAs(undefined))).toBe(raws.join(','));
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Configurations: PUBLIC_URL, S3_PUBLIC_ENDPOINT, BLOB_STORE=none
// ---------------------------------------------------------------------------------------------

describe('with PUBLIC_URL set', () => {
  const PUBLIC_URL = 'https://labdesk.public.example';
  let t: TestApp;
  let alice: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ BLOB_STORE: 'file', PUBLIC_URL });
    alice = await makeUser(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  test('signed URLs and cloud serve URLs are built for PUBLIC_URL, whatever host the caller used', async () => {
    const id = await newSession(t, alice, { records: [{ uuid: newUuid(), type: 'assistant', figure: '/p.png' }] });
    const file = figureBytes(500);
    expectStatus(await upload(t, alice, id, { file, canonical_path: '/p.png', mime: 'image/png' }), 200);
    const headers = { authorization: `Bearer ${alice.token}`, 'x-forwarded-host': 'elsewhere.example', 'x-forwarded-proto': 'http' };
    const redirected = await rawGet(`${t.url}${sessionPath(id, '/figures/raw')}?path=${encodeURIComponent('/p.png')}`, headers);
    expect(redirected.status).toBe(302);
    const location = new URL(redirected.headers.location!);
    expect(location.origin).toBe(PUBLIC_URL);
    expect(location.pathname).toBe(`/blobs/sha256/${sha256(file)}`);
    expect((await getBytes(`${t.url}${location.pathname}${location.search}`)).body).toEqual(file);

    const read = await rawGet(`${t.url}${sessionPath(id)}`, { ...headers, 'x-client-kind': 'cloud' });
    expect(JSON.parse(read.body.toString()).records[0].figure).toBe(
      `${PUBLIC_URL}/api/trajectories/${encodeURIComponent(id)}/figures/raw?path=${encodeURIComponent('/p.png')}`,
    );
  });
});

describe('s3 with S3_PUBLIC_ENDPOINT set', () => {
  const PUBLIC_ENDPOINT = 'http://s3.public.example:9000';
  let t: TestApp;
  let alice: TestUser;

  beforeAll(async () => {
    t = await startTestApp(s3Env({ ...s3.settings, bucket: 'labdesk-public' }, { S3_PUBLIC_ENDPOINT: PUBLIC_ENDPOINT }));
    alice = await makeUser(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  test('the presigned URL is on the public endpoint (the service still stores through S3_ENDPOINT)', async () => {
    const id = await newSession(t, alice);
    const file = figureBytes(500);
    expectStatus(await upload(t, alice, id, { file, canonical_path: '/p.png', mime: 'image/png' }), 200);
    expect(await s3Probe({ ...s3.settings, bucket: 'labdesk-public' }).read(file)).toEqual(file);
    const location = new URL(await rawLocation(t, alice, id, '/p.png'));
    expect(location.origin).toBe(PUBLIC_ENDPOINT);
    expect(location.pathname).toBe(`/labdesk-public/sha256/${sha256(file)}`);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('with BLOB_STORE=none', () => {
  let t: TestApp;
  let alice: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ BLOB_STORE: 'none', FIGURE_CDN_HOSTS: 'cdn.example.org' });
    alice = await makeUser(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  test('upload → 503 {detail}, answered before the body is read; nothing stored', async () => {
    const id = await newSession(t, alice);
    const before = await storageUsed(t, alice);
    expect(await uploadWithoutBody(t, alice, id)).toEqual({ status: 503, body: { detail: expect.any(String) } });
    expectError(await upload(t, alice, id, { file: figureBytes(100), canonical_path: '/x.png' }), 503);
    expect(await figureRows(t, id)).toEqual([]);
    expect(await t.sql('select * from blobs')).toEqual([]);
    expect(await storageUsed(t, alice)).toBe(before);
  });

  test('cdn_url rows still work: recorded, and raw redirects to them', async () => {
    const id = await newSession(t, alice);
    expectStatus(await recordFigures(t, alice, id, [{ canonical_path: '/c.png', cdn_url: 'https://cdn.example.org/c.png' }]), 200);
    expect(await rawLocation(t, alice, id, '/c.png')).toBe('https://cdn.example.org/c.png');
  });
});
