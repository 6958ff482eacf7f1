import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { startTestApp, TestApp } from './support/app';
import { a2aCli, createA2aKey, enableA2a, rpc, rpcCall } from './support/a2a';
import { createTestDatabase } from './support/databases';
import { startS3 } from './support/s3';

/**
 * compose.yaml's two labdesk instances, run here without Docker: the labdesk environment of the
 * compose file exactly, with its service addresses and credentials swapped for this machine's
 * PostgreSQL, Redis and an S3 server. What they must share: the A2A settings and keys, at once.
 */
const ROOT = path.resolve(__dirname, '..');
const compose = parse(fs.readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, { environment?: Record<string, string>; volumes?: string[]; image?: string }>;
};
const composeEnv = compose.services['labdesk-1'].environment!;

const ADMIN_TOKEN = `ldk_pat_testadmin${process.pid}xcomposexxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`;
let s3: Awaited<ReturnType<typeof startS3>>;
let one: TestApp;
let two: TestApp;

/** compose.yaml's environment on this machine: what differs is where each service is, and its credentials. */
function localEnv(databaseUrl: string): Record<string, string> {
  const local: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    S3_ENDPOINT: s3.settings.endpoint!,
    S3_PUBLIC_ENDPOINT: s3.settings.endpoint!,
    S3_BUCKET: s3.settings.bucket,
    S3_ACCESS_KEY_ID: s3.settings.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey,
    // Each test instance listens on a port of its own, on loopback.
    HOST: '127.0.0.1',
    PORT: '0',
    PUBLIC_URL: 'http://127.0.0.1:8080',
    BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
    // compose's shared volume: a directory of this machine both instances use.
    AGENT_WORKSPACE_DIR: workspaces,
  };
  return Object.fromEntries(Object.entries(composeEnv).map(([name, value]) => [name, local[name] ?? value]));
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const workspaces = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-compose-workspaces-'));

beforeAll(async () => {
  s3 = await startS3();
  database = await createTestDatabase();
  // Both join the database made here (sameDatabaseAs), with the same settings.
  const shared = { databaseUrl: database.url, adminToken: ADMIN_TOKEN } as TestApp;
  one = await startTestApp(localEnv(database.url), { sameDatabaseAs: shared });
  two = await startTestApp(localEnv(database.url), { sameDatabaseAs: shared });
}, 60_000);

afterAll(async () => {
  await one?.close();
  await two?.close();
  await database?.drop();
  await s3?.close();
  fs.rmSync(workspaces, { recursive: true, force: true });
});

test('the test runs every setting of compose.yaml, and only those', () => {
  expect(Object.keys(localEnv('postgres://x')).sort()).toEqual(Object.keys(composeEnv).sort());
  expect(compose.services['labdesk-2'].environment).toEqual(composeEnv);
});

test('behind the proxy: client addresses trusted, one image, one workspace volume, long Range headers', () => {
  expect(composeEnv.TRUST_PROXY).toBe('true');
  // Blobs in the shared bucket: with the default file store each instance would keep its own.
  expect(composeEnv.BLOB_STORE).toBe('s3');
  const [first, second] = [compose.services['labdesk-1'], compose.services['labdesk-2']];
  expect(first.image).toBe('${LABDESK_IMAGE:-labdesk:local}');
  expect(second.image).toBe(first.image);
  // Both mount the same volume where AGENT_WORKSPACE_DIR points; each keeps its own DATA_DIR.
  const shared = `workspaces:${composeEnv.AGENT_WORKSPACE_DIR}`;
  expect([first.volumes, second.volumes]).toEqual([
    ['labdesk-1:/data', shared],
    ['labdesk-2:/data', shared],
  ]);
  expect(fs.readFileSync(path.join(ROOT, 'deploy', 'nginx.conf'), 'utf8')).toMatch(/^\s*large_client_header_buffers 4 64k;$/m);
});

test("the image's HEALTHCHECK asks /readyz on the PORT the service listens on", async () => {
  const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const [command, flag, script] = JSON.parse(/HEALTHCHECK[^\n]*\\\n\s*CMD (\[.*\])/.exec(dockerfile)![1]) as string[];
  expect([command, flag]).toEqual(['node', '-e']);
  const check = (port: string) =>
    new Promise<number | null>((resolve) =>
      execFile(process.execPath, ['-e', script], { env: { ...process.env, PORT: port } }, (error) =>
        resolve(error ? ((error as { code?: number }).code ?? 1) : 0),
      ),
    );
  const port = new URL(one.url).port;
  expect(port).not.toBe('8080');
  expect(await check(port)).toBe(0);
  const unused = String(Number(port) === 1 ? 2 : 1);
  expect(await check(unused)).toBe(1);
});

const cardStatus = async (t: TestApp) => (await fetch(`${t.url}/.well-known/agent-card.json`)).status;
const getTask = (t: TestApp, key: string) => rpc(t, key, rpcCall(1, 'GetTask', { id: 'turn_unknown' }));

test("A2A enabled through one instance's CLI answers on both at once; a key created there is accepted by both, and refused by both once revoked", async () => {
  expect([await cardStatus(one), await cardStatus(two)]).toEqual([404, 404]);
  await enableA2a(one);
  const key = await createA2aKey(one, 'compose');
  expect([await cardStatus(one), await cardStatus(two)]).toEqual([200, 200]);
  for (const t of [one, two]) expect((await getTask(t, key.plaintext)).body).toMatchObject({ error: { code: -32001 } });

  expect(await a2aCli(one, ['key', 'revoke', key.id])).toMatchObject({ status: 0 });
  for (const t of [one, two]) expect(await getTask(t, key.plaintext)).toMatchObject({ status: 401 });
});

test('two `key create` at the same instant both survive, and both keys work on both instances', async () => {
  const created = await Promise.all([createA2aKey(two, 'same-instant-a'), createA2aKey(two, 'same-instant-b')]);
  const listed = await a2aCli(one, ['key', 'list']);
  for (const key of created) {
    expect(listed.stdout).toContain(key.id);
    for (const t of [one, two]) expect((await getTask(t, key.plaintext)).body).toMatchObject({ error: { code: -32001 } });
  }
});
