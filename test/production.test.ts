import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { ChildServer, startChildServer } from './support/child';
import { createTestDatabase } from './support/databases';
import { startFakeLlm } from './support/fake-llm';
import { closeServer, sdkPeer, SdkPeer } from './support/peers';
import { rpc, rpcCall, userMessage } from './support/a2a';

/**
 * The production tree (scripts/production/build.sh: built, pruned to the run-time dependencies,
 * sources removed) runs the service as the container does: as the ordinary user `labdesk`
 * (scripts/production/runtime.sh creates it), with no dev dependency present and nothing compiled.
 * .ci/run builds the tree from a copy of the checkout and names it in LABDESK_PRODUCTION_TREE.
 */
const TREE = process.env.LABDESK_PRODUCTION_TREE;
const required = process.env.LABDESK_PRODUCTION_TESTS === 'required';
if (required && !TREE) throw new Error('LABDESK_PRODUCTION_TESTS=required but LABDESK_PRODUCTION_TREE names no tree (see .ci/run)');
const describeTree = TREE ? describe : describe.skip;

describeTree('the production tree', () => {
  const tree = TREE ?? '';
  const manifest = JSON.parse(fs.readFileSync(path.join(tree, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  // The lockfile marks `dev` every package that only the dev dependencies need.
  const lock = JSON.parse(fs.readFileSync(path.join(tree, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  const devOnly = Object.entries(lock.packages)
    .filter(([, entry]) => entry.dev)
    .map(([where]) => where);

  test('holds every run-time dependency, no dev dependency, and no sources to compile', () => {
    for (const name of Object.keys(manifest.dependencies))
      expect([name, fs.existsSync(path.join(tree, 'node_modules', name, 'package.json'))]).toEqual([name, true]);
    expect(devOnly.length).toBeGreaterThan(600);
    expect(devOnly.filter((where) => fs.existsSync(path.join(tree, where)))).toEqual([]);
    for (const folder of ['src', 'facade', 'migrations', 'test', 'web/console'])
      expect([folder, fs.existsSync(path.join(tree, folder))]).toEqual([folder, false]);
    expect(fs.existsSync(path.join(tree, 'dist', 'src', 'cli', 'main.js'))).toBe(true);
    expect(fs.existsSync(path.join(tree, 'dist', 'console', 'index.html'))).toBe(true); // the web console, built
  });

  describe('serving', () => {
    let server: ChildServer;
    let peer: SdkPeer;
    let fake: Awaited<ReturnType<typeof startFakeLlm>>;
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let dataDir: string;
    const adminToken = `ldk_pat_testadmin${process.pid}xproductionxxxxxxxxxxxxxxxxxxxxxxxxxxxx`;
    let key: string;

    beforeAll(async () => {
      fake = await startFakeLlm(() => ({ kind: 'answer', text: 'Answered from the production tree.', tokensIn: 2, tokensOut: 3 }));
      peer = await sdkPeer();
      database = await createTestDatabase();
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-production-'));
      // As root (CI, the container's build), run as the image's user; otherwise as whoever runs the tests.
      const user =
        process.getuid?.() === 0
          ? { uid: Number(execFileSync('id', ['-u', 'labdesk']).toString()), gid: Number(execFileSync('id', ['-g', 'labdesk']).toString()) }
          : {};
      if (user.uid !== undefined) fs.chownSync(dataDir, user.uid, user.gid);
      const env = {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        BOOTSTRAP_ADMIN_TOKEN: adminToken,
        LLM_PROVIDER: 'openai',
        LLM_MODEL: 'gpt-5',
        LLM_API_KEY: 'sk-test',
        LLM_BASE_URL: fake.baseUrl,
      };
      const cli = (args: string[]) => {
        const run = spawnSync(process.execPath, [path.join(tree, 'bin', 'labdesk.js'), ...args], {
          cwd: tree,
          env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
          encoding: 'utf8',
          ...user,
        });
        expect({ args, status: run.status, stderr: run.stderr }).toEqual({ args, status: 0, stderr: '' });
        return run.stdout;
      };
      cli(['a2a', 'enable']);
      key = /^key: +(ldk_a2a_\S+)$/m.exec(cli(['a2a', 'key', 'create', '--label', 'production']))![1];
      server = await startChildServer(env, { tree, ...user });
    }, 120_000);

    afterAll(async () => {
      await server?.kill();
      if (peer) await closeServer(peer);
      await fake?.close();
      await database?.drop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    test('is ready, and started without compiling anything', async () => {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect(server.stderr()).not.toMatch(/compil|building/i);
    });

    test("serves the web console's files", async () => {
      const index = fs.readFileSync(path.join(tree, 'dist', 'console', 'index.html'), 'utf8');
      const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(index)![1];
      const reply = await fetch(`${server.url}${script}`);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('cache-control')).toContain('immutable');
    });

    test('answers an A2A turn with the model', async () => {
      const sent = await rpc(server, key, rpcCall(1, 'SendMessage', { message: userMessage('hello') }));
      expect(sent.body).toMatchObject({
        result: {
          task: { status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [{ parts: [{ text: 'Answered from the production tree.' }] }] },
        },
      });
    });

    test('tests an outbound agent with the A2A client library', async () => {
      const entry = { id: 'peer', name: 'Peer', url: peer.url, allow_private: true };
      expect((await server.call('POST', '/api/a2a/agents', { token: adminToken, body: entry })).status).toBe(200);
      const tested = await server.call('POST', '/api/a2a/agents/peer/test', { token: adminToken });
      expect(tested).toMatchObject({ status: 200, body: { ok: true, name: 'Loopback peer', skill_count: 2 } });
    });
  });
});
