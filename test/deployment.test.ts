import { Task } from '@a2a-js/sdk';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../src/db/embedded';
import { httpCaller, makeLab, makeUser, addMember, TestApp, TestUser } from './support/app';
import { officialClient, rpc, rpcCall, sendRequest, userMessage } from './support/a2a';
import { composeStack, Engine, engineRun, Stack, untilReady } from './support/compose';
import { startFakeLlm } from './support/fake-llm';
import { closeServer, sdkPeer } from './support/peers';
import { faultRun, ModelCalls } from './support/faults';
import { newSessionId, newUuid } from './support/trajectories';
import { until } from './support/until';

/**
 * The deployment as shipped, run: the image the Dockerfile builds, on its own, and compose.yaml's
 * stack (PostgreSQL, Redis, the S3 store, two instances, nginx) with deploy/compose.ci.yaml on top,
 * checked through the proxy's port as a team would use it: an upgrade from the previous image,
 * faults under load, a backup inside the container restored into a fresh stack.
 * scripts/ci/deployment.sh builds the images (scripts/ci/images.sh) and runs this with
 * LABDESK_DEPLOYMENT_TESTS=required; docs/operations.md ("Checking a deployment") tells how to run
 * it on a Docker host. Skipped otherwise: it needs a container engine and its images.
 */
const required = process.env.LABDESK_DEPLOYMENT_TESTS === 'required';
const ENGINE = (process.env.CONTAINER_ENGINE ?? 'podman') as Engine;
const IMAGE = process.env.LABDESK_IMAGE ?? 'labdesk:local';
const OLD_IMAGE = process.env.LABDESK_UPGRADE_FROM_IMAGE ?? '';
if (required && !OLD_IMAGE) throw new Error('LABDESK_UPGRADE_FROM_IMAGE names no image (scripts/ci/deployment.sh builds one)');
const describeDeployment = required ? describe : describe.skip;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const engine = (args: string[]) => engineRun(ENGINE, args);
const RELEASE_TOKEN = 'rel_deployment_check_0123456789abcdefghij';
const PASSWORD = 'a long pass phrase for the check';

/** A service reached over HTTP, as the support helpers take it. */
const at = (url: string, adminToken: string) => ({ url, adminToken, call: httpCaller(url) }) as unknown as TestApp;

const FIGURE = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(4000)]);
const RELEASE = { product: 'desktop', version: '2.0.1', filename: 'labdesk-2.0.1.AppImage', bytes: randomBytes(256 * 1024 + 3) };

async function expectStatus(
  what: string,
  reply: { status: number; text?: string } | Promise<{ status: number; text?: string }>,
  status: number,
) {
  const got = await reply;
  if (got.status !== status) throw new Error(`${what}: ${got.status} ${got.text ?? ''}`);
}

/** A trajectory of three records with a figure, as a desktop client syncs it. */
async function syncTrajectory(t: TestApp, owner: TestUser, labId?: string) {
  const id = newSessionId('deploy');
  const [r1, r2, r3] = [newUuid(), newUuid(), newUuid()];
  const records = [
    { uuid: r1, parentUuid: null, type: 'user', message: { content: 'Plot the growth curve' } },
    {
      uuid: r2,
      parentUuid: r1,
      type: 'assistant',
      message: {
        content: [
          { type: 'text', text: 'Here.' },
          { type: 'image', path: '/plots/growth.png' },
        ],
      },
    },
    { uuid: r3, parentUuid: r2, type: 'user', message: { content: 'Thanks' } },
  ];
  await expectStatus(
    'append',
    t.call('PUT', `/api/trajectories/${encodeURIComponent(id)}/append`, {
      token: owner.token,
      body: { base_uuid: null, lab_id: labId, records },
    }),
    200,
  );
  const form = new FormData();
  form.append('canonical_path', '/plots/growth.png');
  form.append('mime', 'image/png');
  form.append('file', new Blob([FIGURE], { type: 'image/png' }), 'growth.png');
  const uploaded = await fetch(new URL(`/api/trajectories/${encodeURIComponent(id)}/figures/upload`, t.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.token}` },
    body: form,
  });
  await expectStatus('figure upload', { status: uploaded.status, text: await uploaded.text() }, 200);
  return id;
}

/** The figure's bytes as a browser gets them: the redirect, then the store (the S3 server, or the service's own blob route). */
async function figureBytes(t: TestApp, token: string, id: string) {
  const raw = await fetch(
    new URL(`/api/trajectories/${encodeURIComponent(id)}/figures/raw?path=${encodeURIComponent('/plots/growth.png')}`, t.url),
    {
      headers: { authorization: `Bearer ${token}` },
      redirect: 'manual',
    },
  );
  expect(raw.status).toBe(302);
  const blob = await fetch(raw.headers.get('location')!);
  expect(blob.status).toBe(200);
  return Buffer.from(await blob.arrayBuffer());
}

async function publishRelease(t: TestApp) {
  const put = await fetch(new URL(`/admin/api/release/${RELEASE.product}/files/${RELEASE.version}/${RELEASE.filename}`, t.url), {
    method: 'PUT',
    headers: { authorization: `Bearer ${RELEASE_TOKEN}`, 'content-type': 'application/octet-stream' },
    body: RELEASE.bytes,
  });
  await expectStatus('release file', { status: put.status, text: await put.text() }, 201);
  await expectStatus(
    'release manifest',
    t.call('PUT', `/admin/api/release/${RELEASE.product}/manifest`, {
      token: RELEASE_TOKEN,
      body: {
        version: RELEASE.version,
        notes: 'Deployment check',
        pub_date: '2026-11-01T00:00:00.000Z',
        files: [{ filename: RELEASE.filename, size: RELEASE.bytes.length, signature: 'sig', platform: 'linux', arch: 'x64' }],
      },
    }),
    200,
  );
}

/** A ranged download, with `ranges` byte ranges in one header (electron-updater asks for many blocks at once). */
async function rangedDownload(t: TestApp, ranges: [number, number][]) {
  const response = await fetch(new URL(`/admin/api/public/app/${RELEASE.product}/download/${RELEASE.version}/${RELEASE.filename}`, t.url), {
    headers: { range: `bytes=${ranges.map(([from, to]) => `${from}-${to}`).join(',')}` },
  });
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

/** Signs in with a password as the console does, and reads who that is with the cookie it got. */
async function signIn(t: TestApp, email: string, password: string) {
  const login = await fetch(new URL('/api/auth/login', t.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return (await t.call('GET', '/api/me', { headers: { cookie } })).body as { email: string };
}

/** Sets a person's password through a one-time link (the path the console's set-password page takes). */
async function usePasswordLink(t: TestApp, link: string, password: string) {
  const token = link.split('#')[1];
  await expectStatus('password link', t.call('POST', '/api/auth/password-link', { body: { token, new_password: password } }), 200);
}

// ---------------------------------------------------------------------------------------------

describeDeployment(`the image ${IMAGE}, on its own (${ENGINE}, the embedded database in its volume)`, () => {
  const name = 'labdesk-ci-image';
  const volume = 'labdesk-ci-image-data';
  let t: TestApp;
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  const exec = (args: string[]) => engine(['exec', name, ...args]);

  beforeAll(async () => {
    fake = await startFakeLlm(() => ({ kind: 'answer', text: 'Answered by the image.', tokensIn: 3, tokensOut: 4 }));
    await engine(['rm', '-f', name]);
    await engine(['volume', 'rm', '-f', volume]);
    // The host's network, so the container reaches the scripted model on loopback; a PORT other
    // than 8080 shows the HEALTHCHECK follows it.
    const port = await freePort();
    await engine([
      'run',
      '-d',
      '--name',
      name,
      '--network',
      'host',
      '-v',
      `${volume}:/data`,
      '--security-opt',
      'seccomp=unconfined',
      '--security-opt',
      'apparmor=unconfined',
      '--security-opt',
      'systempaths=unconfined',
      '-e',
      `PORT=${port}`,
      '-e',
      'HOST=127.0.0.1',
      '-e',
      `PUBLIC_URL=http://127.0.0.1:${port}`,
      '-e',
      `RELEASE_TOKEN=${RELEASE_TOKEN}`,
      '-e',
      'LLM_PROVIDER=openai',
      '-e',
      'LLM_MODEL=scripted',
      '-e',
      'LLM_API_KEY=sk-scripted',
      '-e',
      `LLM_BASE_URL=${fake.baseUrl}`,
      IMAGE,
    ]);
    const url = `http://127.0.0.1:${port}`;
    await untilReady(url);
    t = at(url, (await exec(['cat', '/data/admin-token'])).trim());
  }, 240_000);

  afterAll(async () => {
    if (required) {
      await engine(['rm', '-f', '-t', '5', name]);
      await engine(['volume', 'rm', '-f', volume]);
    }
    await fake?.close();
  }, 60_000);

  test('is healthy by its own HEALTHCHECK, on the PORT it was given', async () => {
    const check = JSON.parse(await engine(['image', 'inspect', '--format', '{{json .Config.Healthcheck}}', IMAGE])) as { Test: string[] };
    expect(check.Test.join(' ')).toContain('/readyz');
    if (ENGINE === 'podman')
      await engine(['healthcheck', 'run', name]); // fails unless healthy
    else
      await until(
        'docker to call it healthy',
        async () => (await engine(['inspect', '-f', '{{.State.Health.Status}}', name])).trim() === 'healthy',
        { seconds: 90 },
      );
  });

  test("runs as the image's user, with the database and the first-start secrets in its volume", async () => {
    expect((await exec(['id', '-un'])).trim()).toBe('labdesk');
    expect((await exec(['stat', '-c', '%U %a', '/data/admin-token', '/data/admin-password-link'])).trim().split('\n')).toEqual([
      'labdesk 600',
      'labdesk 600',
    ]);
    expect((await exec(['stat', '-c', '%U', '/data/pg/PG_VERSION'])).trim()).toBe('labdesk');
    // The log names the files and holds neither secret; the agent's sandbox works in the container.
    const logs = await engine(['logs', name]);
    expect(logs).toContain('code sandbox ready');
    expect(logs).toContain('/data/admin-token');
    expect(logs).not.toContain(t.adminToken);
    for (const line of logs.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });

  test('holds the production tree: every run-time dependency, no dev dependency, no sources, nothing compiled at start', async () => {
    const manifest = JSON.parse(await exec(['cat', '/app/package.json'])) as { dependencies: Record<string, string> };
    // The lockfile marks `dev` every package that only the dev dependencies need.
    const lock = JSON.parse(await exec(['cat', '/app/package-lock.json'])) as { packages: Record<string, { dev?: boolean }> };
    const devOnly = Object.entries(lock.packages)
      .filter(([, entry]) => entry.dev)
      .map(([where]) => where);
    expect(devOnly.length).toBeGreaterThan(600);
    const present = async (paths: string[]) =>
      (await exec(['sh', '-c', 'cd /app && for p in "$@"; do [ -e "$p" ] && echo "$p"; done; true', 'sh', ...paths]))
        .split('\n')
        .filter(Boolean);
    const needed = Object.keys(manifest.dependencies).map((name) => `node_modules/${name}/package.json`);
    expect(await present(needed)).toEqual(needed);
    expect(await present(devOnly)).toEqual([]);
    expect(await present(['src', 'facade', 'migrations', 'test', 'web/console', 'tsconfig.json'])).toEqual([]);
    expect(await present(['dist/src/cli/main.js', 'dist/console/index.html'])).toEqual(['dist/src/cli/main.js', 'dist/console/index.html']);
    const size = await exec([
      'sh',
      '-c',
      'du -sm /app | cut -f1; ls -d /app/node_modules/* /app/node_modules/@*/* | grep -v "/@[^/]*$" | wc -l',
    ]);
    const [megabytes, packages] = size.trim().split('\n');
    console.log(`the production tree in the image: ${megabytes} MB, ${packages} top-level packages`);
    expect(await engine(['logs', name])).not.toMatch(/compil|building/i);
    // The console's files, served with their long cache lifetime.
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(await exec(['cat', '/app/dist/console/index.html']))![1];
    const asset = await fetch(new URL(script, t.url));
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  test('the administrator sets a password with the first-start link and signs in', async () => {
    await usePasswordLink(t, (await exec(['cat', '/data/admin-password-link'])).trim(), PASSWORD);
    expect(await signIn(t, 'admin@localhost', PASSWORD)).toMatchObject({ email: 'admin@localhost' });
  });

  test('answers an A2A turn with the model, enabled with the CLI inside the container', async () => {
    await exec(['labdesk', 'a2a', 'enable']);
    const key = /^key: +(ldk_a2a_\S+)$/m.exec(await exec(['labdesk', 'a2a', 'key', 'create', '--label', 'image']))![1];
    const sent = await rpc(t, key, rpcCall(1, 'SendMessage', { message: userMessage('hello from the image check') }));
    expect(sent.body.result.task).toMatchObject({
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [{ parts: [{ text: 'Answered by the image.' }] }],
    });
  });

  test('tests an outbound agent with the A2A client library', async () => {
    const peer = await sdkPeer();
    try {
      const entry = { id: 'peer', name: 'Peer', url: peer.url, allow_private: true };
      expect((await t.call('POST', '/api/a2a/agents', { token: t.adminToken, body: entry })).status).toBe(200);
      const tested = await t.call('POST', '/api/a2a/agents/peer/test', { token: t.adminToken });
      expect(tested).toMatchObject({ status: 200, body: { ok: true, name: 'Loopback peer', skill_count: 2 } });
    } finally {
      await closeServer(peer);
    }
  });

  test('keeps a figure and serves a release download by byte ranges', async () => {
    const owner = await makeUser(t, { name: 'Ida Image' });
    const id = await syncTrajectory(t, owner);
    expect(sha256(await figureBytes(t, owner.token, id))).toBe(sha256(FIGURE));
    await publishRelease(t);
    const ranged = await rangedDownload(t, [[100, 199]]);
    expect(ranged).toMatchObject({ status: 206 });
    expect(ranged.bytes.equals(RELEASE.bytes.subarray(100, 200))).toBe(true);
    // Written as the image's user, in the volume.
    expect((await exec(['sh', '-c', 'find /data/blobs -type f -not -user labdesk | wc -l'])).trim()).toBe('0');
  });
});

// ---------------------------------------------------------------------------------------------

interface World {
  owner: TestUser;
  member: TestUser;
  labId: string;
  trajectory: string;
  key: string;
  taskId: string;
}

/** A lab with two people, a trajectory with a figure, a release, an A2A key with a completed task. */
async function buildWorld(t: TestApp, cli: (args: string[]) => Promise<string>): Promise<World> {
  const owner = await makeUser(t, { name: 'Olga Owner' });
  const member = await makeUser(t, { name: 'Milo Member' });
  const lab = await makeLab(t, { owner, name: 'Deployment Lab', seatQuota: 5 });
  await addMember(t, lab, member);
  const trajectory = await syncTrajectory(t, owner, lab.id);
  await expectStatus(
    'share',
    t.call('PATCH', `/api/trajectories/${encodeURIComponent(trajectory)}/visibility`, { token: owner.token, body: { visibility: 'lab' } }),
    200,
  );
  await publishRelease(t);
  await cli(['a2a', 'enable']);
  const key = /^key: +(ldk_a2a_\S+)$/m.exec(await cli(['a2a', 'key', 'create', '--label', 'deployment']))![1];
  const sent = await rpc(t, key, rpcCall(1, 'SendMessage', { message: userMessage('What does the deployment keep?') }));
  expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  return { owner, member, labId: lab.id, trajectory, key, taskId: sent.body.result.task.id };
}

/** Reads that depend on time or on the reads themselves. */
const VOLATILE = new Set(['last_active_at', 'last_used_at', 'generated_at']);
const stable = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(stable)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([key]) => !VOLATILE.has(key))
            .map(([key, item]) => [key, stable(item)]),
        )
      : value;

/** What the people, the admin, the public and the A2A client read of the world: comparable. */
async function readWorld(t: TestApp, w: World) {
  const s = `/api/trajectories/${encodeURIComponent(w.trajectory)}`;
  const read = async (route: string, token?: string) => {
    const reply = await t.call('GET', route, { token });
    return { status: reply.status, body: stable(reply.body) };
  };
  const tasks = await rpc(t, w.key, rpcCall(1, 'ListTasks', {}));
  return {
    ownerMe: await read('/api/me', w.owner.token),
    memberLab: await read(`/api/labs/${w.labId}`, w.member.token),
    ownerTrajectory: await read(s, w.owner.token),
    memberTrajectory: await read(s, w.member.token),
    annotations: await read(`${s}/annotations`, w.member.token),
    adminUsers: await read('/api/admin/users?limit=100', t.adminToken),
    adminLabs: await read('/api/admin/labs?limit=100', t.adminToken),
    manifest: await read(`/admin/api/public/app/${RELEASE.product}/manifest`),
    figure: sha256(await figureBytes(t, w.member.token, w.trajectory)),
    release: sha256((await rangedDownload(t, [[0, RELEASE.bytes.length - 1]])).bytes),
    tasks: { status: tasks.status, body: stable(tasks.body) },
  };
}

describeDeployment('compose.yaml, up with deploy/compose.ci.yaml, through the proxy', () => {
  const files = ['compose.yaml', 'deploy/compose.ci.yaml'];
  const adminToken = `ldk_pat_${randomBytes(24).toString('hex')}`;
  const stackOf = (image: string) => composeStack(ENGINE, 'labdesk-ci', files, { LABDESK_ADMIN_TOKEN: adminToken, LABDESK_IMAGE: image });
  let stack: Stack;
  const proxy = at('http://127.0.0.1:8080', adminToken);
  /** The CLI in the first instance (`node bin/labdesk.js`: images before this one have no `labdesk` on PATH). */
  const labdesk = (...args: string[]) => stack.engine$(['exec', stack.container('labdesk-1'), 'node', 'bin/labdesk.js', ...args]);
  const psql = async (sql: string) =>
    (await stack.engine$(['exec', stack.container('postgres'), 'psql', '-U', 'labdesk', '-At', '-c', sql]))
      .trim()
      .split('\n')
      .filter(Boolean);
  let world: World;
  let before: Awaited<ReturnType<typeof readWorld>>;
  /** Each step builds on the one before: after a failure the rest say so at once instead of waiting for a stack that is not there. */
  let failed: string | undefined;
  const step = (title: string, body: () => Promise<void>, timeout: number) =>
    test(
      title,
      async () => {
        if (failed) throw new Error(`not run: "${failed}" failed`);
        try {
          await body();
        } catch (error) {
          failed = title;
          throw error;
        }
      },
      timeout,
    );

  beforeAll(async () => {
    stack = stackOf(OLD_IMAGE);
    await stack.down({ volumes: true });
  }, 120_000);
  afterAll(async () => {
    if (!stack) return;
    if (process.env.LABDESK_DEPLOYMENT_KEEP !== '1') await stack.down({ volumes: true });
  }, 120_000);

  step(
    `upgrade: the previous image (${OLD_IMAGE}) serves a team's data`,
    async () => {
      await stack.up();
      await untilReady(proxy.url);
      world = await buildWorld(proxy, (args) => labdesk(...args));
      before = await readWorld(proxy, world);
      expect(before.memberTrajectory).toMatchObject({ status: 200, body: { records: expect.any(Array) } });
      expect(before.tasks.body).toMatchObject({ result: { tasks: [{ id: world.taskId }] } });
    },
    600_000,
  );

  step(
    'upgrade: the new image starts on the same database and volumes, both instances at once; migrations apply once; everything reads the same',
    async () => {
      const migrationsBefore = await psql('select name from mikro_orm_migrations order by id');
      await stack.engine$(['rm', '-f', '-t', '10', stack.container('labdesk-1'), stack.container('labdesk-2')]);
      stack = stackOf(IMAGE);
      await stack.up(['labdesk-1', 'labdesk-2']); // created, then started by one command
      await untilReady(proxy.url);
      for (const service of ['labdesk-1', 'labdesk-2']) {
        expect((await stack.engine$(['inspect', '-f', '{{.ImageName}}', stack.container(service)])).trim()).toMatch(
          new RegExp(`${IMAGE.replace(/[.:]/g, '\\$&')}$`),
        );
        expect(await stack.engine$(['logs', stack.container(service)])).toContain('code sandbox ready');
      }
      const migrationsAfter = await psql('select name from mikro_orm_migrations order by id');
      const added = migrationsAfter.slice(migrationsBefore.length);
      expect(migrationsAfter.slice(0, migrationsBefore.length)).toEqual(migrationsBefore);
      expect(new Set(migrationsAfter).size).toBe(migrationsAfter.length);
      // One instance applied them (under the advisory lock); the other found the schema current.
      const appliedBy = [];
      for (const service of ['labdesk-1', 'labdesk-2']) {
        const lines = (await stack.engine$(['logs', stack.container(service)])).split('\n').filter((line) => line.includes('migration(s)'));
        appliedBy.push(...lines.map((line) => ({ service, migrations: (JSON.parse(line) as { migrations: string[] }).migrations })));
      }
      console.log(
        `upgrade ${OLD_IMAGE} → ${IMAGE}: ${added.length} migration(s) applied (${added.join(', ') || 'none'}) by ${appliedBy.map((a) => a.service).join(', ') || 'no instance'}`,
      );
      // The old image is older than a migration (scripts/ci/deployment.sh picks it so).
      expect(added.length).toBeGreaterThan(0);
      expect(appliedBy.map((a) => a.migrations)).toEqual([added]);
      expect(await readWorld(proxy, world)).toEqual(before);
    },
    600_000,
  );

  step(
    'through the proxy: a person signs in, an A2A turn with the official client, a figure, a release by many ranges',
    async () => {
      const person = await makeUser(proxy, { name: 'Pia Person' });
      const link = await proxy.call('POST', `/api/admin/users/${person.id}/password-link`, { token: adminToken });
      expect(link.status).toBe(201);
      await usePasswordLink(proxy, link.body.url, PASSWORD);
      expect(await signIn(proxy, person.email, PASSWORD)).toMatchObject({ email: person.email });

      const client = await officialClient(proxy, world.key);
      const answered = Task.toJSON((await client.sendMessage(sendRequest('Through the proxy?'))) as Task);
      expect(answered).toMatchObject({
        status: { state: 'TASK_STATE_COMPLETED' },
        artifacts: [{ parts: [{ text: 'Scripted answer to: Through the proxy?' }] }],
      });

      const id = await syncTrajectory(proxy, person);
      expect(sha256(await figureBytes(proxy, person.token, id))).toBe(sha256(FIGURE));

      // 2,000 ranges: a header of about 25 KiB, as electron-updater's differential download sends.
      const ranges = Array.from({ length: 2000 }, (_, i) => [i * 100, i * 100 + 9] as [number, number]);
      const ranged = await rangedDownload(proxy, ranges);
      expect(ranged.status).toBe(206);
      expect(ranged.type).toMatch(/^multipart\/byteranges/);
    },
    120_000,
  );

  step(
    'faults under load through the proxy: an instance killed, PostgreSQL restarted, Redis stopped',
    async () => {
      const figures = await faultRun({
        stack,
        proxy,
        world,
        modelCalls: async () => (await fetch('http://127.0.0.1:8090/calls')).json() as Promise<ModelCalls>,
      });
      console.log(`faults: ${JSON.stringify(figures, null, 2)}`);
      for (const [name, phase] of Object.entries(figures)) {
        expect({
          name,
          lost: phase.lost,
          duplicatedAnswers: phase.duplicatedAnswers,
          duplicatedModelCalls: phase.duplicatedModelCalls,
        }).toEqual({
          name,
          lost: 0,
          duplicatedAnswers: 0,
          duplicatedModelCalls: 0,
        });
        expect(phase.acknowledged).toBeGreaterThan(phase.sent / 2);
      }
      // Through all of it, each instance wrote JSON lines only (no driver's own text on an outage).
      for (const service of ['labdesk-1', 'labdesk-2'])
        for (const line of (await stack.engine$(['logs', stack.container(service)])).trim().split('\n'))
          expect(() => JSON.parse(line)).not.toThrow();
      // While PostgreSQL is down the answer is 503 (retry), never an internal error.
      expect(Object.keys(figures['PostgreSQL restarted'].refused).filter((status) => /^5/.test(status) && status !== '503')).toEqual([]);
      expect(figures['PostgreSQL restarted'].refused['503']).toBeGreaterThan(0);
    },
    900_000,
  );

  step(
    'backup inside the running container, restored into a fresh stack: the data reads back equal',
    async () => {
      await untilReady(proxy.url);
      const beforeBackup = await readWorld(proxy, world);
      const out = `/data/backup-${Date.now()}`;
      // As docs/operations.md writes it, inside the running container.
      expect(await stack.engine$(['exec', stack.container('labdesk-1'), 'labdesk', 'backup', '--out', out])).toContain(
        `backup written to ${out}`,
      );
      const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-ci-backup-'));
      await stack.engine$(['cp', `${stack.container('labdesk-1')}:${out}`, `${copy}/backup`]);
      // A fresh stack: new PostgreSQL and instance volumes. The S3 bucket stays: a backup lists its
      // object versions and does not copy them (docs/operations.md, "Backup and restore").
      await stack.engine$([
        'rm',
        '-f',
        '-t',
        '10',
        ...['labdesk-1', 'labdesk-2', 'proxy', 'postgres'].map((service) => stack.container(service)),
      ]);
      for (const volume of ['postgres', 'labdesk-1', 'labdesk-2', 'workspaces'])
        await stack.engine$(['volume', 'rm', '-f', `${stack.project}_${volume}`]);
      await stack.up(['postgres']);
      const restored = await stack.engine$([
        'run',
        '--rm',
        '--no-healthcheck',
        '--network',
        `${stack.project}_default`,
        '-v',
        `${copy}/backup:/backup:ro`,
        '--user',
        'root',
        '-e',
        'DATABASE_URL=postgres://labdesk:labdesk@postgres:5432/labdesk',
        '-e',
        'BLOB_STORE=s3',
        '-e',
        'S3_ENDPOINT=http://minio:9000',
        '-e',
        'S3_BUCKET=labdesk',
        '-e',
        'S3_ACCESS_KEY_ID=S3RVER',
        '-e',
        'S3_SECRET_ACCESS_KEY=S3RVER',
        '-e',
        'S3_FORCE_PATH_STYLE=true',
        '-e',
        'S3_REGION=us-east-1',
        IMAGE,
        'labdesk',
        'restore',
        '--from',
        '/backup',
      ]);
      expect(restored).toMatch(/restored/);
      fs.rmSync(copy, { recursive: true, force: true });
      await stack.up();
      await untilReady(proxy.url);
      expect(await readWorld(proxy, world)).toEqual(beforeBackup);
    },
    600_000,
  );

  step(
    "behind the proxy each client has its own sign-in limit (TRUST_PROXY): one address's 429 is not another's",
    async () => {
      let status = 0;
      for (let i = 0; i < 40 && status !== 429; i++)
        status = (await proxy.call('POST', '/api/auth/login', { body: { email: world.owner.email, password: 'wrong password, again' } }))
          .status;
      expect(status).toBe(429);
      // From another container: another address on the stack's network.
      const other = await stack.engine$([
        'exec',
        stack.container('model'),
        'node',
        '-e',
        "fetch('http://proxy:8080/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'nobody@example.org', password: 'wrong' }) }).then((r) => console.log(r.status))",
      ]);
      expect(other.trim()).toBe('401');
    },
    120_000,
  );
});
