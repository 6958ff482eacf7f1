import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addMember, makeLab, makeUser, TestApp, TestUser } from './support/app';
import { newMessageId, rpc, rpcCall, userMessage } from './support/a2a';
import { ChildServer, startChildServer } from './support/child';
import { runLabdesk } from './support/cli';
import { createTestDatabase, query, testDatabaseInfo, withDatabase } from './support/databases';
import { FakeLlm, SeenRequest, startFakeLlm, Step } from './support/fake-llm';
import { newSessionId, newUuid } from './support/trajectories';
import { until } from './support/until';

/**
 * `labdesk backup` and `labdesk restore` (src/cli/backup.ts) end to end, on real `labdesk serve`
 * processes: a service is given users, a lab with a member, trajectories with records, a figure,
 * an annotation, a discussion, a summary, a release, a replaced model catalog, an outbound agent,
 * A2A with a key and its tasks (one with a file artifact kept on disk when the sandbox is there);
 * every GET a user of that data would make is recorded; the running service is backed up, stopped,
 * restored into a new one and the same reads must answer the same. Then: the A2A key still works,
 * a damaged backup and a non-empty target are refused and change nothing. Once on the embedded
 * default (DATA_DIR, no DATABASE_URL) and once on DATABASE_URL.
 */

const ADMIN_TOKEN = 'ldk_pat_backuptestadmin0123456789abcdefghijklmnop';
const RELEASE_TOKEN = 'rel_backup_test_token_0123456789abcdefghij';
/**
 * Both servers of a pair answer for the same public origin, as a restored service would: then the
 * URLs they hand out (manifest file URLs, signed blob URLs, A2A artifact URLs, the agent card) are
 * built the same, and differ only where they legitimately must (a signed URL's expiry and signature).
 */
const PUBLIC_URL = 'http://labdesk-backup.test';
const BWRAP_PRESENT = fs.existsSync('/usr/bin/bwrap');
/**
 * Both cases make their own databases (an embedded cluster, and databases on the test server), so
 * they do not depend on which database the run's other suites use: .ci/run's second pass, on the
 * embedded test server, skips them (LABDESK_TESTS_ONCE=done) rather than repeat them.
 */
const describeOnce = process.env.LABDESK_TESTS_ONCE === 'done' ? describe.skip : describe;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const seconds = (started: bigint) => (Number(process.hrtime.bigint() - started) / 1e9).toFixed(2);

// ---------------------------------------------------------------------------------------------
// The scripted model: answers everything with one text, except the A2A request that asks for the
// big output file, which it answers with a run_code call (once: after the tool result it answers).

const BIG_FILE_ASK = 'Write the big output file';
/** 1.5 MiB (over the 1 MiB inline bound, so the artifact is copied to `.a2a-artifacts` and served by URL). */
const BIG_FILE = Buffer.alloc(1536 * 1024, Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
const BIG_FILE_CODE = 'open("outputs/big.bin", "wb").write(bytes(range(256)) * 6144)';
const ANSWER = 'Everything is in order.';

const modelFallback = (request: SeenRequest): Step => {
  const asked = request.body.messages
    .filter((m) => m.role === 'user')
    .some((m) => typeof m.content === 'string' && m.content.includes(BIG_FILE_ASK));
  if (asked && request.tools.some((tool) => tool.name === 'run_code') && request.toolResults.length === 0) {
    return {
      kind: 'tools',
      calls: [{ id: 'call-big', name: 'run_code', input: { language: 'python', code: BIG_FILE_CODE } }],
      tokensIn: 11,
      tokensOut: 7,
    };
  }
  return { kind: 'answer', text: ANSWER, tokensIn: 13, tokensOut: 5 };
};

/** The settings both servers of a pair share (the restored one is started "as usual", with the same ones). */
const serviceSettings = (fake: FakeLlm): Record<string, string> => ({
  BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
  RELEASE_TOKEN,
  PUBLIC_URL,
  BLOB_STORE: 'file',
  LLM_PROVIDER: 'openai',
  LLM_MODEL: 'gpt-5',
  LLM_API_KEY: 'sk-test',
  LLM_BASE_URL: fake.baseUrl,
  LLM_TIMEOUT_SECONDS: '30',
  LLM_MAX_RETRIES: '0',
});

// ---------------------------------------------------------------------------------------------
// Processes and directories

/** SIGTERM, as an operator stops the service (it stops its embedded PostgreSQL too); SIGKILL if it hangs. */
async function stopServer(server: ChildServer | undefined): Promise<void> {
  if (!server || server.process.exitCode !== null || server.process.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.process.once('exit', () => resolve()));
  server.process.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const hung = await Promise.race([
    exited.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), 30_000))),
  ]);
  clearTimeout(timer);
  if (hung) await server.kill();
}

/** A postgres an embedded service under `dataDir` left running (only if a server had to be killed): stopped by its pid. */
function stopOrphanPostgres(dataDir: string) {
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    if (pid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres')) process.kill(pid, 'SIGINT');
  } catch {
    // not running
  }
}

/** Every file and directory under `dir` with size and modification time: equal listings = nothing changed. */
function listing(dir: string, relative = ''): string[] {
  const at = path.join(dir, relative);
  if (!fs.existsSync(at)) return [];
  const lines: string[] = [];
  for (const entry of fs.readdirSync(at, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const name = path.join(relative, entry.name);
    const stat = fs.lstatSync(path.join(dir, name));
    if (entry.isDirectory()) lines.push(`${name}/`, ...listing(dir, name));
    else lines.push(`${name} ${stat.size} ${stat.mtimeMs}`);
  }
  return lines;
}

interface Manifest {
  format: string;
  database: { path: string; bytes: number; sha256: string; source: string };
  blobStore: string;
  files: { path: string; bytes: number; sha256: string }[];
}
const readManifest = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;

/** Runs `labdesk backup`/`restore`, printing its wall time and the backup's sizes (for information only). */
async function timed(what: string, args: string[], env: Record<string, string>, backupDir: string) {
  const started = process.hrtime.bigint();
  const result = await runLabdesk(args, { LOG_LEVEL: 'silent', ...env });
  const took = seconds(started);
  if (result.status === 0) {
    const manifest = readManifest(backupDir);
    const fileBytes = manifest.files.reduce((sum, file) => sum + file.bytes, 0);
    console.log(
      `${what}: ${took} s wall; database.dump ${manifest.database.bytes} bytes, ${manifest.files.length} files of ${fileBytes} bytes`,
    );
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// HTTP as the reads make it: no redirects followed, the body as bytes.

interface Got {
  status: number;
  contentType: string | null;
  location: string | null;
  cacheControl: string | null;
  bytes: Buffer;
}

async function get(server: ChildServer, route: string, opts: { token?: string; headers?: Record<string, string> } = {}): Promise<Got> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const response = await fetch(new URL(route, server.url), { headers, redirect: 'manual' });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    location: response.headers.get('location'),
    cacheControl: response.headers.get('cache-control'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** A read as compared: status, media type, and the body (JSON parsed; text as is; anything else by size and SHA-256). */
function described(got: Got) {
  const type = got.contentType?.split(';')[0].trim() ?? null;
  let body: unknown;
  if (got.bytes.length === 0) body = null;
  else if (type === 'application/json') body = JSON.parse(got.bytes.toString('utf8'));
  else if (type && (type.startsWith('text/') || /yaml|ndjson/.test(type))) body = got.bytes.toString('utf8');
  else body = { bytes: got.bytes.length, sha256: sha256(got.bytes) };
  return { status: got.status, type, body };
}

const gql = async (server: ChildServer, token: string, queryText: string) =>
  server.call('POST', '/graphql', { token, body: { query: queryText } });

// ---------------------------------------------------------------------------------------------
// The data

interface World {
  owner: TestUser;
  member: TestUser;
  lab: { id: string; code: string };
  shared: string;
  private: string;
  figure: { path: string; bytes: Buffer };
  release: { product: string; version: string; filename: string; bytes: Buffer };
  agentId: string;
  key: { id: string; plaintext: string };
  tasks: string[];
  /** The task whose file artifact is kept on disk (when the sandbox is there). */
  artifact?: { taskId: string; url: string };
}

const ok = (what: string, reply: { status: number; text?: string }, status = 200) => {
  if (reply.status !== status) throw new Error(`${what}: ${reply.status} ${reply.text ?? ''}`);
};

/**
 * Gives a running service its data through its API (and `labdesk a2a` for what only the CLI
 * does): `cli` runs the CLI on that service's database.
 */
async function buildData(server: ChildServer, cli: (args: string[]) => ReturnType<typeof runLabdesk>): Promise<World> {
  const t = { url: server.url, adminToken: ADMIN_TOKEN, call: server.call } as unknown as TestApp;
  const owner = await makeUser(t, { name: 'Olivia Owner', institution: 'MIT', plan_code: 'pro' });
  const member = await makeUser(t, { name: 'Max Member' });
  const lab = await makeLab(t, { owner, name: 'Backup Lab', seatQuota: 5 });
  await addMember(t, lab, member);

  // A session shared with the lab: records (with model usage), a figure, a later record, an annotation, a member's question, a summary.
  const shared = newSessionId('bk.shared');
  const figure = {
    path: '/plots/growth.png',
    bytes: Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256)),
    ]),
  };
  const [r1, r2, r3] = [newUuid(), newUuid(), newUuid()];
  ok(
    'append shared',
    await server.call('PUT', `/api/trajectories/${encodeURIComponent(shared)}/append`, {
      token: owner.token,
      body: {
        base_uuid: null,
        lab_id: lab.id,
        records: [
          { uuid: r1, parentUuid: null, type: 'user', message: { content: 'Plot the growth curve' } },
          {
            uuid: r2,
            parentUuid: r1,
            type: 'assistant',
            message: {
              content: [
                { type: 'text', text: 'Here it is.' },
                { type: 'image', path: figure.path },
              ],
              usage: { input_tokens: 120, output_tokens: 30 },
            },
          },
        ],
      },
    }),
  );
  ok(
    'share',
    await server.call('PATCH', `/api/trajectories/${encodeURIComponent(shared)}/visibility`, {
      token: owner.token,
      body: { visibility: 'lab' },
    }),
  );
  const form = new FormData();
  form.append('canonical_path', figure.path);
  form.append('mime', 'image/png');
  form.append('file', new Blob([figure.bytes], { type: 'image/png' }), 'growth.png');
  const uploaded = await fetch(new URL(`/api/trajectories/${encodeURIComponent(shared)}/figures/upload`, server.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.token}` },
    body: form,
  });
  ok('figure upload', { status: uploaded.status, text: await uploaded.text() });
  ok(
    'append shared 2',
    await server.call('PUT', `/api/trajectories/${encodeURIComponent(shared)}/append`, {
      token: owner.token,
      body: { base_uuid: r2, records: [{ uuid: r3, parentUuid: r2, type: 'user', message: { content: 'Thanks, looks right.' } }] },
    }),
  );
  ok(
    'annotate',
    await server.call('POST', `/api/trajectories/${encodeURIComponent(shared)}/annotations`, {
      token: owner.token,
      body: { record_uuid: r2, body: 'Check the axis units.' },
    }),
    201,
  );
  ok(
    'discuss',
    await server.call('POST', `/api/trajectories/${encodeURIComponent(shared)}/discuss`, {
      token: member.token,
      body: { question: 'What does the plot show?' },
    }),
  );

  // A private session of three records.
  const priv = newSessionId('bk.private');
  const uuids = [newUuid(), newUuid(), newUuid()];
  ok(
    'append private',
    await server.call('PUT', `/api/trajectories/${encodeURIComponent(priv)}/append`, {
      token: owner.token,
      headers: { 'X-Client-Kind': 'cli' },
      body: {
        base_uuid: null,
        records: uuids.map((uuid, i) => ({
          uuid,
          parentUuid: i ? uuids[i - 1] : null,
          type: i % 2 ? 'assistant' : 'user',
          message: { content: `step ${i} ✓ \u00e9`, ...(i % 2 ? { usage: { input_tokens: 40 + i, output_tokens: 9 } } : {}) },
        })),
      },
    }),
  );

  // A desktop release: the binary, then its manifest.
  const release = {
    product: 'desktop',
    version: '1.2.3',
    filename: 'labdesk-1.2.3.AppImage',
    bytes: Buffer.from(Array.from({ length: 64 * 1024 + 17 }, (_, i) => (i * 31 + 5) % 256)),
  };
  const put = await fetch(new URL(`/admin/api/release/${release.product}/files/${release.version}/${release.filename}`, server.url), {
    method: 'PUT',
    headers: { authorization: `Bearer ${RELEASE_TOKEN}`, 'content-type': 'application/octet-stream' },
    body: release.bytes,
  });
  ok('release file', { status: put.status, text: await put.text() }, 201);
  ok(
    'release manifest',
    await server.call('PUT', `/admin/api/release/${release.product}/manifest`, {
      token: RELEASE_TOKEN,
      body: {
        version: release.version,
        notes: 'Backed up and restored',
        pub_date: '2026-01-02T03:04:05.000Z',
        files: [{ filename: release.filename, size: release.bytes.length, signature: 'sig-appimage', platform: 'linux', arch: 'x64' }],
      },
    }),
  );

  // The model catalog as an admin replaced it (kept in the database).
  const shipped = (await server.call('GET', '/admin/api/public/models')).body;
  ok('models', await server.call('PUT', '/api/admin/models', { token: ADMIN_TOKEN, body: { ...shipped, version: '2030-01-01' } }));

  // An outbound agent of the admin (its key is sealed with the database's key). Registering does
  // not call it (only its address must resolve): a loopback address nothing listens on will do,
  // which takes allow_private, which only an admin may set.
  const agentId = 'peer';
  ok(
    'outbound agent',
    await server.call('POST', '/api/a2a/agents', {
      token: ADMIN_TOKEN,
      body: { id: agentId, name: 'A peer', url: 'http://127.0.0.1:9/a2a', api_key: 'peer-secret-key-0123456789', allow_private: true },
    }),
  );

  // A2A: enabled, a key, a completed task, and (with the sandbox) one whose output file is an artifact on disk.
  expect(await cli(['a2a', 'enable'])).toMatchObject({ status: 0 });
  const created = await cli(['a2a', 'key', 'create', '--label', 'backup']);
  expect(created).toMatchObject({ status: 0 });
  const key = { id: /^key id: +(\S+)$/m.exec(created.stdout)![1], plaintext: /^key: +(ldk_a2a_\S+)$/m.exec(created.stdout)![1] };
  const sent = await rpc(server, key.plaintext, rpcCall(1, 'SendMessage', { message: userMessage('What is kept in a backup?') }));
  expect(sent.body.result?.task?.status?.state).toBe('TASK_STATE_COMPLETED');
  const tasks = [sent.body.result.task.id as string];
  let artifact: World['artifact'];
  if (BWRAP_PRESENT) {
    const waiting = await rpc(server, key.plaintext, rpcCall(2, 'SendMessage', { message: userMessage(BIG_FILE_ASK) }));
    expect(waiting.body.result?.task?.status?.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const taskId = waiting.body.result.task.id as string;
    const decided = await rpc(
      server,
      key.plaintext,
      rpcCall(3, 'SendMessage', {
        message: { messageId: newMessageId(), role: 'ROLE_USER', taskId, parts: [{ data: { decision: 'allow_once' } }] },
      }),
    );
    const done = decided.body.result?.task;
    expect(done?.status?.state).toBe('TASK_STATE_COMPLETED');
    const part = done.artifacts.flatMap((a: { parts: { url?: string }[] }) => a.parts).find((p: { url?: string }) => p.url);
    expect(part).toMatchObject({ url: expect.stringContaining(`/a2a/v1/artifacts/${encodeURIComponent(taskId)}/`), filename: 'big.bin' });
    tasks.push(taskId);
    artifact = { taskId, url: part.url };
  } else {
    console.log('bubblewrap is missing: the backup is tested without an A2A file artifact on disk');
  }

  // The summaries the model writes (jobs, queued by the first read): waited for, so nothing is
  // queued when the backup is taken and the reads find them ready on both servers.
  for (const id of [shared, priv]) {
    await until(
      `the summary of ${id} to be ready`,
      async () => {
        const summary = await server.call('GET', `/api/trajectories/${encodeURIComponent(id)}/summary`, { token: owner.token });
        if (summary.body?.status === 'failed') throw new Error(`summary failed: ${summary.text}`);
        return summary.body?.status === 'ready';
      },
      { seconds: 60, intervalMs: 100 },
    );
  }

  return { owner, member, lab: { id: lab.id, code: lab.code }, shared, private: priv, figure, release, agentId, key, tasks, artifact };
}

// ---------------------------------------------------------------------------------------------
// The reads

/**
 * Fields stripped before comparing two servers' reads, each for a reason that holds whatever the
 * backup does. Everything else must be equal.
 * - `last_active_at`: the reads themselves make their users active (an authenticated request
 *   moves it forward, written once per user per minute per instance): the restored server's first
 *   reads write it anew, at their own time.
 */
const STRIPPED_KEYS = new Set(['last_active_at']);

function stripped(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripped);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !STRIPPED_KEYS.has(key))
      .map(([key, item]) => [key, stripped(item)]),
  );
}

/**
 * `GET /api/admin/stats` is measured at the service clock's "now" (`generated_at`), and most of
 * its figures are windows back from it fed by the reads' own activity: `online_users` (active in
 * the last 5 minutes), `dau`/`wau`/`mau` (UTC days back from today), `registrations.today`, the LLM
 * windows (last 5 minutes, last hour). They depend on when the stats are asked, not on what was
 * restored, so only the parts that do not are compared: the users in all, and the monthly active
 * users per plan (every user here was active seconds before either read).
 */
const statsWithoutClock = (body: any) => ({ registrations_total: body?.registrations?.total, plans: body?.plans });

/** Every GET a user, the admin, the public and the A2A client make over this data: a comparable structure. */
async function reads(server: ChildServer, w: World): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const read = async (label: string, route: string, token?: string, headers?: Record<string, string>) => {
    const got = described(await get(server, route, { token, headers }));
    out[label] = { ...got, body: stripped(got.body) };
    return got;
  };
  const s = (id: string) => `/api/trajectories/${encodeURIComponent(id)}`;

  // The admin.
  await read('admin me', '/api/me', ADMIN_TOKEN);
  await read('admin users', '/api/admin/users?limit=100', ADMIN_TOKEN);
  for (const user of [w.owner, w.member]) await read(`admin user ${user.email}`, `/api/admin/users/${user.id}`, ADMIN_TOKEN);
  await read('admin users sync', '/api/admin/sync/users', ADMIN_TOKEN);
  await read('admin labs', '/api/admin/labs?limit=100', ADMIN_TOKEN);
  await read('admin lab', `/api/admin/labs/${w.lab.id}`, ADMIN_TOKEN);
  await read('admin trajectories', '/api/admin/trajectories?limit=100', ADMIN_TOKEN);
  await read('admin storage summary', '/api/admin/storage_summary', ADMIN_TOKEN);
  await read('admin segmentation', '/api/admin/segmentation', ADMIN_TOKEN);
  const stats = described(await get(server, '/api/admin/stats', { token: ADMIN_TOKEN }));
  out['admin stats (clock-free part)'] = { ...stats, body: statsWithoutClock(stats.body) };
  // The A2A contexts' trajectories, owned by the A2A owner (the admin).
  const a2aSessions = await read('admin a2a trajectories', '/api/trajectories?source=a2a&limit=100', ADMIN_TOKEN);
  for (const item of (a2aSessions.body as { items?: { session_id: string }[] })?.items ?? [])
    await read(`a2a trajectory ${item.session_id}`, s(item.session_id), ADMIN_TOKEN);

  // The lab owner and the member.
  for (const [who, user] of [
    ['owner', w.owner],
    ['member', w.member],
  ] as const) {
    await read(`${who} me`, '/api/me', user.token);
    await read(`${who} labs`, '/api/labs', user.token);
    await read(`${who} lab`, `/api/labs/${w.lab.id}`, user.token);
    await read(`${who} lab usage`, `/api/labs/${w.lab.id}/usage`, user.token);
    await read(`${who} lab board`, `/api/labs/${w.lab.id}/board`, user.token);
    await read(`${who} lab reviews`, `/api/labs/${w.lab.id}/reviews`, user.token);
    await read(`${who} lab preview`, `/api/labs/preview?code=${encodeURIComponent(w.lab.code)}`, user.token);
    await read(`${who} trajectories`, '/api/trajectories?limit=100&include_archived=true', user.token);
    await read(`${who} lab trajectories`, `/api/trajectories?lab_id=${w.lab.id}&limit=100`, user.token);
    await read(`${who} shared trajectories`, `/api/trajectories?lab_id=${w.lab.id}&shared_only=true`, user.token);
    for (const [name, id] of [
      ['shared', w.shared],
      ['private', w.private],
    ] as const) {
      await read(`${who} ${name} records`, s(id), user.token);
      await read(`${who} ${name} records (download)`, `${s(id)}?download=true`, user.token);
      await read(`${who} ${name} records (cloud client)`, s(id), user.token, { 'X-Client-Kind': 'cloud' });
      await read(`${who} ${name} meta`, `${s(id)}/meta`, user.token);
      await read(`${who} ${name} annotations`, `${s(id)}/annotations`, user.token);
      await read(`${who} ${name} summary`, `${s(id)}/summary`, user.token);
      await read(`${who} ${name} discussions`, `${s(id)}/discussions`, user.token);
    }
    // The figure's bytes, through the redirect: with the file store it points at this service's
    // own `/blobs/…` route, on PUBLIC_URL, with an expiry and a signature in its query.
    const raw = await get(server, `${s(w.shared)}/figures/raw?path=${encodeURIComponent(w.figure.path)}`, { token: user.token });
    const location = raw.location ? new URL(raw.location) : undefined;
    const blob = location ? described(await get(server, location.pathname + location.search)) : null;
    // The query string (expires, type, signature) is stripped: a signed URL is minted per request,
    // valid 5 minutes from then, so two reads never give the same one. The bytes it serves are compared.
    out[`${who} figure`] = {
      status: raw.status,
      cacheControl: raw.cacheControl,
      location: location && `${location.origin}${location.pathname}`,
      query: location && [...location.searchParams.keys()].sort(),
      blob,
    };
    await read(`${who} compute credits`, '/api/compute/credits', user.token);
    await read(`${who} compute plan`, '/api/compute/plans/current', user.token);
    await read(`${who} compute session`, '/api/compute/sessions/current', user.token);
    await read(`${who} outbound agents`, '/api/a2a/agents', user.token);
  }
  await read('admin outbound agents', '/api/a2a/agents', ADMIN_TOKEN);
  await read('admin outbound agent', `/api/a2a/agents/${w.agentId}`, ADMIN_TOKEN);

  // Public: releases, the update feed, the model catalog, the agent card.
  // Downloads are counted in the database when they start at byte 0, so the count is read before
  // this read's own download: the restored server then shows one more than the source showed (checked by the caller).
  const counts = await gql(server, ADMIN_TOKEN, `query { releaseFiles(product: "${w.release.product}") { filename version downloads } }`);
  out['release download counts'] = { status: counts.status, body: counts.body };
  await read('release manifest', `/admin/api/public/app/${w.release.product}/manifest`);
  await read('release manifest of the other product', '/admin/api/public/app/core/manifest');
  await read('release download', `/admin/api/public/app/${w.release.product}/download/${w.release.version}/${w.release.filename}`);
  await read('update feed', '/admin/api/public/app/desktop/update/latest-linux.yml');
  await read('model catalog', '/admin/api/public/models');
  await read('model catalog manifest', '/admin/api/public/models/manifest');
  await read('agent card', '/.well-known/agent-card.json');

  // A2A, with the key.
  for (const id of w.tasks) {
    const task = await rpc(server, w.key.plaintext, rpcCall(1, 'GetTask', { id, historyLength: 20 }));
    out[`a2a GetTask ${id}`] = { status: task.status, body: task.body };
  }
  const list = await rpc(server, w.key.plaintext, rpcCall(1, 'ListTasks', { includeArtifacts: true, historyLength: 20 }));
  out['a2a ListTasks'] = { status: list.status, body: list.body };
  if (w.artifact) {
    const url = new URL(w.artifact.url);
    await read('a2a artifact', url.pathname + url.search, w.key.plaintext);
  }
  return out;
}

/** The reads that do not answer 200: nothing there (204), a redirect (302), or not the caller's to read. */
const NOT_200: Record<string, number> = {
  'owner compute plan': 204,
  'owner compute session': 204,
  'member compute plan': 204,
  'member compute session': 204,
  'release manifest of the other product': 204,
  'owner figure': 302,
  'member figure': 302,
  // The usage report and the discussions are the owner's; the private session is not the member's to see.
  'member lab usage': 403,
  'member shared discussions': 403,
  'member private records': 404,
  'member private records (download)': 404,
  'member private records (cloud client)': 404,
  'member private meta': 404,
  'member private annotations': 404,
  'member private summary': 404,
  'member private discussions': 404,
};

/** The reads of the source, checked to be about the data (not 401s or empty lists), so that equal means something. */
function expectMeaningful(before: Record<string, any>, w: World) {
  const notOk = Object.fromEntries(
    Object.entries(before)
      .filter(([, value]) => value.status !== 200)
      .map(([label, value]) => [label, value.status]),
  );
  expect(notOk).toEqual(NOT_200);
  expect(before['owner figure']).toMatchObject({
    location: expect.stringMatching(new RegExp(`^${PUBLIC_URL}/blobs/sha256/${sha256(w.figure.bytes)}$`)),
    blob: { status: 200, body: { bytes: w.figure.bytes.length, sha256: sha256(w.figure.bytes) } },
  });
  expect(before['member figure']).toMatchObject({ blob: { status: 200, body: { sha256: sha256(w.figure.bytes) } } });
  expect(before['release download']).toMatchObject({
    status: 200,
    body: { bytes: w.release.bytes.length, sha256: sha256(w.release.bytes) },
  });
  expect(before['owner shared records'].body.records).toHaveLength(3);
  expect(before['owner private records'].body.records).toHaveLength(3);
  expect(before['owner lab'].body.members.length).toBeGreaterThanOrEqual(2);
  // The invitation code is sealed with the database's key: shown to the owner only if that key came along.
  expect(before['owner lab'].body.invitation_code).toBe(w.lab.code);
  expect(before['member lab preview'].body).toMatchObject({ name: 'Backup Lab' });
  expect(before['admin a2a trajectories'].body.items.length).toBeGreaterThanOrEqual(1);
  expect(before['admin stats (clock-free part)'].body).toMatchObject({ registrations_total: expect.any(Number), plans: expect.any(Array) });
  expect(before['owner shared annotations'].body.items).toEqual(
    expect.arrayContaining([expect.objectContaining({ body: 'Check the axis units.' })]),
  );
  expect(before['owner shared summary'].body).toMatchObject({ status: 'ready', summary: { text: ANSWER } });
  expect(before['owner private summary'].body).toMatchObject({ status: 'ready', summary: { text: ANSWER } });
  expect(before['admin outbound agent'].body).toMatchObject({ id: w.agentId, name: 'A peer' });
  expect(before['a2a ListTasks']).toMatchObject({ status: 200, body: { result: { tasks: expect.any(Array) } } });
  expect(before['a2a ListTasks'].body.result.tasks).toHaveLength(w.tasks.length);
  for (const id of w.tasks)
    expect(before[`a2a GetTask ${id}`]).toMatchObject({ body: { result: { id, status: { state: 'TASK_STATE_COMPLETED' } } } });
  if (w.artifact) expect(before['a2a artifact']).toMatchObject({ status: 200, body: { bytes: BIG_FILE.length, sha256: sha256(BIG_FILE) } });
}

const downloadsOf = (reads: Record<string, any>) =>
  (reads['release download counts'].body.data.releaseFiles as { downloads: number }[])[0].downloads;

/**
 * The source's reads downloaded the release file once more after reading its count: waits until
 * that download is counted (the count is written after the bytes are sent), so the backup holds it.
 */
async function untilReadDownloadCounted(server: ChildServer, before: Record<string, any>, w: World) {
  await until("the reads' download to be counted", async () => {
    const counts = await gql(server, ADMIN_TOKEN, `query { releaseFiles(product: "${w.release.product}") { downloads } }`);
    return counts.body.data.releaseFiles[0].downloads === downloadsOf(before) + 1;
  });
}

/** Equal reads, but for the download counts, which the source's own reads moved on by one download of the release file. */
function expectSameReads(after: Record<string, any>, before: Record<string, any>, w: World) {
  const counted = (reads: Record<string, any>) =>
    reads['release download counts'].body.data.releaseFiles as { filename: string; version: string; downloads: number }[];
  expect(counted(before)).toEqual([{ filename: w.release.filename, version: w.release.version, downloads: expect.any(Number) }]);
  expect(counted(after)).toEqual(counted(before).map((file) => ({ ...file, downloads: file.downloads + 1 })));
  const restAfter = { ...after };
  delete restAfter['release download counts'];
  const restBefore = { ...before };
  delete restBefore['release download counts'];
  expect(restAfter).toEqual(restBefore);
}

/** After restore, the A2A key still works: a new task completes through the model. */
async function expectKeyWorks(server: ChildServer, w: World) {
  const sent = await rpc(server, w.key.plaintext, rpcCall(9, 'SendMessage', { message: userMessage('Are you back?') }));
  expect(sent.body.result?.task).toMatchObject({
    status: { state: 'TASK_STATE_COMPLETED' },
    artifacts: [expect.objectContaining({ parts: [{ text: ANSWER }] })],
  });
  const listed = await rpc(server, w.key.plaintext, rpcCall(10, 'ListTasks', {}));
  expect(listed.body.result.tasks).toHaveLength(w.tasks.length + 1);
  // And a wrong key is still refused (the key check is real, not open).
  const wrong = await rpc(server, `${w.key.plaintext.slice(0, -4)}zzzz`, rpcCall(11, 'ListTasks', {}));
  expect(wrong.status).toBe(401);
}

/** A copy of the backup with one byte of database.dump flipped. */
function damagedCopy(backupDir: string, into: string) {
  fs.cpSync(backupDir, into, { recursive: true });
  const dump = path.join(into, 'database.dump');
  const bytes = fs.readFileSync(dump);
  bytes[Math.floor(bytes.length / 2)] ^= 0xff;
  fs.writeFileSync(dump, bytes);
}

// ---------------------------------------------------------------------------------------------

describeOnce('backup and restore on the embedded default database (DATA_DIR, no DATABASE_URL)', () => {
  let root: string;
  let sourceDir: string;
  let targetDir: string;
  let backupDir: string;
  // No DATABASE_URL (this process may have one: the suite's), so the service runs the embedded database.
  const noDatabaseUrl = { DATABASE_URL: '' };
  let fake: FakeLlm;
  let source: ChildServer | undefined;
  let target: ChildServer | undefined;
  let world: World;
  let before: Record<string, any>;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-backup-embedded-'));
    // The embedded postgres (as root: the postgres user) and the sandbox must be able to enter it.
    fs.chmodSync(root, 0o711);
    [sourceDir, targetDir, backupDir] = ['source', 'target', 'backup'].map((name) => path.join(root, name));
    for (const dir of [sourceDir, targetDir]) fs.mkdirSync(dir, { mode: 0o711 });
    fake = await startFakeLlm(modelFallback);
  });
  afterAll(async () => {
    await stopServer(source);
    await stopServer(target);
    for (const dir of [sourceDir, targetDir]) if (dir) stopOrphanPostgres(dir);
    await fake?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  }, 60_000);

  test('a running service with data is backed up: the dump of its embedded database, its blobs and A2A artifacts, with checksums', async () => {
    source = await startChildServer({ ...serviceSettings(fake), ...noDatabaseUrl, DATA_DIR: sourceDir });
    expect(fs.existsSync(path.join(sourceDir, 'pg', 'PG_VERSION'))).toBe(true); // really the embedded database
    world = await buildData(source, (args) => runLabdesk(args, { DATA_DIR: sourceDir, LOG_LEVEL: 'silent', ...noDatabaseUrl }));
    before = await reads(source, world);
    expectMeaningful(before, world);
    await untilReadDownloadCounted(source, before, world);

    // Taken while the service runs: the CLI joins its embedded database.
    const backup = await timed('backup (embedded)', ['backup', '--out', backupDir], { DATA_DIR: sourceDir, ...noDatabaseUrl }, backupDir);
    expect(backup).toMatchObject({ status: 0, stdout: expect.stringContaining(`backup written to ${backupDir}`) });
    expect((await source.call('GET', '/readyz')).status).toBe(200);
    const manifest = readManifest(backupDir);
    expect(manifest).toMatchObject({
      format: 'labdesk-backup/1',
      blobStore: 'file',
      database: { path: 'database.dump', source: 'embedded' },
    });
    const paths = manifest.files.map((file) => file.path);
    expect(manifest.files).toEqual(
      expect.arrayContaining([expect.objectContaining({ sha256: sha256(world.figure.bytes), bytes: world.figure.bytes.length })]),
    );
    expect(manifest.files).toEqual(
      expect.arrayContaining([expect.objectContaining({ sha256: sha256(world.release.bytes), bytes: world.release.bytes.length })]),
    );
    expect(paths.every((p) => p.startsWith('files/blobs/') || p.startsWith('files/a2a-artifacts/'))).toBe(true);
    if (world.artifact)
      expect(manifest.files).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: expect.stringMatching(/^files\/a2a-artifacts\//), sha256: sha256(BIG_FILE) }),
        ]),
      );
    for (const file of [manifest.database, ...manifest.files])
      expect(sha256(fs.readFileSync(path.join(backupDir, file.path)))).toBe(file.sha256);
    // A backup never overwrites: the same directory again is refused.
    expect(await runLabdesk(['backup', '--out', backupDir], { DATA_DIR: sourceDir, LOG_LEVEL: 'silent', ...noDatabaseUrl })).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('is not empty'),
    });
    await stopServer(source);
  }, 300_000);

  test('a damaged backup is refused, naming the file, and the target stays empty', async () => {
    const damaged = path.join(root, 'damaged');
    damagedCopy(backupDir, damaged);
    const result = await runLabdesk(['restore', '--from', damaged], { DATA_DIR: targetDir, LOG_LEVEL: 'silent', ...noDatabaseUrl });
    expect(result).toMatchObject({ status: 2, stderr: expect.stringContaining('database.dump is missing or differs from the manifest') });
    expect(fs.readdirSync(targetDir)).toEqual([]);
  }, 60_000);

  test('restored into a new DATA_DIR, a service started as usual answers every read the same; the A2A key works', async () => {
    const restore = await timed(
      'restore (embedded)',
      ['restore', '--from', backupDir],
      { DATA_DIR: targetDir, ...noDatabaseUrl },
      backupDir,
    );
    expect(restore).toMatchObject({ status: 0, stdout: expect.stringContaining(`restored into ${targetDir}`) });
    target = await startChildServer({ ...serviceSettings(fake), ...noDatabaseUrl, DATA_DIR: targetDir });
    const after = await reads(target, world);
    expectSameReads(after, before, world);
    await expectKeyWorks(target, world);
    await stopServer(target);
  }, 300_000);

  test('restore into a DATA_DIR that is not empty exits 2 and changes nothing', async () => {
    for (const dir of [targetDir, sourceDir]) {
      const was = listing(dir);
      const result = await runLabdesk(['restore', '--from', backupDir], { DATA_DIR: dir, LOG_LEVEL: 'silent', ...noDatabaseUrl });
      expect(result).toMatchObject({
        status: 2,
        stderr: expect.stringMatching(/is not empty: restore into a new DATA_DIR|already holds a database/),
      });
      expect(listing(dir)).toEqual(was);
    }
    // A DATA_DIR holding only a database (no files yet) is refused too.
    const onlyDatabase = path.join(root, 'only-database');
    fs.mkdirSync(path.join(onlyDatabase, 'pg'), { recursive: true });
    fs.writeFileSync(path.join(onlyDatabase, 'pg', 'PG_VERSION'), '15\n');
    const was = listing(onlyDatabase);
    expect(
      await runLabdesk(['restore', '--from', backupDir], { DATA_DIR: onlyDatabase, LOG_LEVEL: 'silent', ...noDatabaseUrl }),
    ).toMatchObject({ status: 2, stderr: expect.stringContaining('already holds a database') });
    expect(listing(onlyDatabase)).toEqual(was);
  }, 60_000);
});

describeOnce('backup and restore on DATABASE_URL', () => {
  let root: string;
  let sourceDir: string;
  let targetDir: string;
  let backupDir: string;
  const emptyDatabases: string[] = [];
  let fake: FakeLlm;
  let sourceDb: { url: string; drop(): Promise<void> } | undefined;
  let migratedDb: { url: string; drop(): Promise<void> } | undefined;
  let targetUrl: string;
  let source: ChildServer | undefined;
  let target: ChildServer | undefined;
  let world: World;
  let before: Record<string, any>;

  /** A new database with nothing in it (createTestDatabase's are copies of the migrated template). */
  async function emptyDatabase(): Promise<string> {
    const { adminUrl } = testDatabaseInfo();
    const name = `labdesk_bk_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    await query(adminUrl, `create database "${name}"`);
    emptyDatabases.push(name);
    return withDatabase(adminUrl, name);
  }
  const tableCount = async (url: string) =>
    (
      await query<{ n: number }>(
        url,
        `select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
      )
    )[0].n;
  /** What a restore would change in a database: its tables and their row counts. */
  async function fingerprint(url: string) {
    const tables = await query<{ schemaname: string; tablename: string }>(
      url,
      `select schemaname, tablename from pg_tables where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2`,
    );
    const rows: Record<string, number> = {};
    for (const { schemaname, tablename } of tables)
      rows[`${schemaname}.${tablename}`] = (
        await query<{ n: number }>(url, `select count(*)::int as n from "${schemaname}"."${tablename}"`)
      )[0].n;
    return rows;
  }

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-backup-external-'));
    fs.chmodSync(root, 0o711); // the sandbox must be able to enter DATA_DIR/workspaces
    [sourceDir, targetDir, backupDir] = ['source', 'target', 'backup'].map((name) => path.join(root, name));
    for (const dir of [sourceDir, targetDir]) fs.mkdirSync(dir, { mode: 0o711 });
    fake = await startFakeLlm(modelFallback);
    sourceDb = await createTestDatabase();
    targetUrl = await emptyDatabase();
  });
  afterAll(async () => {
    await stopServer(source);
    await stopServer(target);
    await fake?.close();
    await sourceDb?.drop();
    await migratedDb?.drop();
    const { adminUrl } = testDatabaseInfo();
    for (const name of emptyDatabases) await query(adminUrl, `drop database if exists "${name}" with (force)`);
    if (root) fs.rmSync(root, { recursive: true, force: true });
  }, 60_000);

  test('a running service with data is backed up: pg_dump of DATABASE_URL, its blobs and A2A artifacts, with checksums', async () => {
    source = await startChildServer({ ...serviceSettings(fake), DATABASE_URL: sourceDb!.url, DATA_DIR: sourceDir });
    expect(fs.existsSync(path.join(sourceDir, 'pg'))).toBe(false); // really the external database
    world = await buildData(source, (args) => runLabdesk(args, { DATA_DIR: sourceDir, DATABASE_URL: sourceDb!.url, LOG_LEVEL: 'silent' }));
    before = await reads(source, world);
    expectMeaningful(before, world);
    await untilReadDownloadCounted(source, before, world);

    const backup = await timed(
      'backup (DATABASE_URL)',
      ['backup', '--out', backupDir],
      { DATA_DIR: sourceDir, DATABASE_URL: sourceDb!.url },
      backupDir,
    );
    expect(backup).toMatchObject({ status: 0, stdout: expect.stringContaining(`backup written to ${backupDir}`) });
    const manifest = readManifest(backupDir);
    expect(manifest).toMatchObject({
      format: 'labdesk-backup/1',
      blobStore: 'file',
      database: { path: 'database.dump', source: 'external' },
    });
    expect(manifest.files).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sha256: sha256(world.figure.bytes) }),
        expect.objectContaining({ sha256: sha256(world.release.bytes) }),
      ]),
    );
    if (world.artifact)
      expect(manifest.files).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: expect.stringMatching(/^files\/a2a-artifacts\//), sha256: sha256(BIG_FILE) }),
        ]),
      );
    for (const file of [manifest.database, ...manifest.files])
      expect(sha256(fs.readFileSync(path.join(backupDir, file.path)))).toBe(file.sha256);
    await stopServer(source);
  }, 300_000);

  test('a damaged backup is refused, naming the file; the empty target database and DATA_DIR stay empty', async () => {
    expect(await tableCount(targetUrl)).toBe(0);
    const damaged = path.join(root, 'damaged');
    damagedCopy(backupDir, damaged);
    const result = await runLabdesk(['restore', '--from', damaged], { DATA_DIR: targetDir, DATABASE_URL: targetUrl, LOG_LEVEL: 'silent' });
    expect(result).toMatchObject({ status: 2, stderr: expect.stringContaining('database.dump is missing or differs from the manifest') });
    expect(await tableCount(targetUrl)).toBe(0);
    expect(fs.readdirSync(targetDir)).toEqual([]);
  }, 60_000);

  test('restore into a database that is not empty, or a DATA_DIR that is not, exits 2 and changes nothing', async () => {
    // A migrated database (as a service leaves it after its first start).
    migratedDb = await createTestDatabase();
    const was = await fingerprint(migratedDb.url);
    expect(Object.keys(was).length).toBeGreaterThan(0);
    const emptyDir = path.join(root, 'empty-data-dir');
    fs.mkdirSync(emptyDir);
    const refused = await runLabdesk(['restore', '--from', backupDir], {
      DATA_DIR: emptyDir,
      DATABASE_URL: migratedDb.url,
      LOG_LEVEL: 'silent',
    });
    expect(refused).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/the database already has \d+ tables: restore into an empty database/),
    });
    expect(await fingerprint(migratedDb.url)).toEqual(was);
    expect(fs.readdirSync(emptyDir)).toEqual([]);

    // An empty database, but the source's DATA_DIR (blobs there already).
    const sourceListing = listing(sourceDir);
    const refusedDir = await runLabdesk(['restore', '--from', backupDir], {
      DATA_DIR: sourceDir,
      DATABASE_URL: targetUrl,
      LOG_LEVEL: 'silent',
    });
    expect(refusedDir).toMatchObject({ status: 2, stderr: expect.stringContaining('is not empty: restore into a new DATA_DIR') });
    expect(listing(sourceDir)).toEqual(sourceListing);
    expect(await tableCount(targetUrl)).toBe(0);
  }, 60_000);

  test('restored into an empty database and a new DATA_DIR, a service started as usual answers every read the same; the A2A key works', async () => {
    const restore = await timed(
      'restore (DATABASE_URL)',
      ['restore', '--from', backupDir],
      { DATA_DIR: targetDir, DATABASE_URL: targetUrl },
      backupDir,
    );
    expect(restore).toMatchObject({ status: 0, stdout: expect.stringContaining('restored into the database at DATABASE_URL') });
    target = await startChildServer({ ...serviceSettings(fake), DATABASE_URL: targetUrl, DATA_DIR: targetDir });
    const after = await reads(target, world);
    expectSameReads(after, before, world);
    await expectKeyWorks(target, world);
    await stopServer(target);

    // The restored database is not empty any more: a second restore into it is refused and changes nothing.
    const was = await fingerprint(targetUrl);
    const again = await runLabdesk(['restore', '--from', backupDir], {
      DATA_DIR: path.join(root, 'another-data-dir'),
      DATABASE_URL: targetUrl,
      LOG_LEVEL: 'silent',
    });
    expect(again).toMatchObject({ status: 2, stderr: expect.stringContaining('restore into an empty database') });
    expect(await fingerprint(targetUrl)).toEqual(was);
  }, 300_000);
});

/**
 * Security issue 36, finding 8: a crafted backup (a link to a host file among its blobs, a root
 * named `__proto__`) is refused, naming the bad entry, before the database or DATA_DIR is touched.
 * Each case is a real backup of a migrated database with one blob, changed as an attacker would,
 * with a manifest that matches the change (sizes and checksums of what the links point at).
 */
describeOnce('restore refuses a crafted backup before it changes anything', () => {
  let root: string;
  let backupDir: string;
  let targetDir: string;
  let targetUrl: string;
  let hostFile: string;
  let sourceDb: { url: string; drop(): Promise<void> } | undefined;
  let emptyDb: string | undefined;
  const HOST_SECRET = Buffer.from('a host file the backup must not reach: s3cr3t-36\n');

  const tableCount = async (url: string) =>
    (
      await query<{ n: number }>(
        url,
        `select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
      )
    )[0].n;
  /** A copy of the genuine backup, changed by `change`, with its manifest as `change` leaves it. */
  function crafted(name: string, change: (dir: string, manifest: Manifest) => void): string {
    const dir = path.join(root, name);
    fs.cpSync(backupDir, dir, { recursive: true });
    const manifest = readManifest(dir);
    change(dir, manifest);
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    return dir;
  }
  const entryOf = (file: string, bytes: Buffer) => ({ path: file, bytes: bytes.length, sha256: sha256(bytes) });
  const restoreFrom = (dir: string, env: Record<string, string> = {}) =>
    runLabdesk(['restore', '--from', dir], { DATA_DIR: targetDir, DATABASE_URL: targetUrl, LOG_LEVEL: 'silent', ...env });
  /** Refused in one line naming `entry`; the database has no table, DATA_DIR nothing, and no copy of the host file is anywhere under it. */
  async function expectRefusedUntouched(result: Awaited<ReturnType<typeof runLabdesk>>, entry: string) {
    expect(result).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(new RegExp(`^labdesk: [^\\n]*${entry.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\n]*\\n$`)),
    });
    expect(result.stdout).not.toContain('database restored');
    expect(await tableCount(targetUrl)).toBe(0);
    expect(listing(targetDir)).toEqual([]);
  }

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-backup-crafted-'));
    const sourceDir = path.join(root, 'source');
    const blob = Buffer.from('a genuine blob');
    fs.mkdirSync(path.join(sourceDir, 'blobs', 'sha256'), { recursive: true });
    fs.writeFileSync(path.join(sourceDir, 'blobs', 'sha256', sha256(blob)), blob);
    hostFile = path.join(root, 'host-secret.txt');
    fs.writeFileSync(hostFile, HOST_SECRET);
    targetDir = path.join(root, 'target');
    fs.mkdirSync(targetDir);
    backupDir = path.join(root, 'backup');
    sourceDb = await createTestDatabase();
    const backup = await runLabdesk(['backup', '--out', backupDir], {
      DATA_DIR: sourceDir,
      DATABASE_URL: sourceDb.url,
      LOG_LEVEL: 'silent',
    });
    expect(backup).toMatchObject({ status: 0 });
    expect(readManifest(backupDir).files).toEqual([entryOf(`files/blobs/sha256/${sha256(blob)}`, blob)]);
    const { adminUrl } = testDatabaseInfo();
    emptyDb = `labdesk_bk_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    await query(adminUrl, `create database "${emptyDb}"`);
    targetUrl = withDatabase(adminUrl, emptyDb);
  }, 120_000);
  afterAll(async () => {
    await sourceDb?.drop();
    if (emptyDb) await query(testDatabaseInfo().adminUrl, `drop database if exists "${emptyDb}" with (force)`);
    if (root) fs.rmSync(root, { recursive: true, force: true });
  }, 60_000);

  test('a blob that is a symbolic link to a host file is refused; the file is not copied and the database stays empty', async () => {
    const dir = crafted('symlinked-blob', (at, manifest) => {
      fs.symlinkSync(hostFile, path.join(at, 'files', 'blobs', 'sha256', 'evil'));
      manifest.files.push(entryOf('files/blobs/sha256/evil', HOST_SECRET));
    });
    const result = await restoreFrom(dir);
    await expectRefusedUntouched(result, 'files/blobs/sha256/evil is a symbolic link');
  }, 60_000);

  test('a directory of the backup that is a symbolic link to a host directory is refused', async () => {
    const hostDir = path.join(root, 'host-dir');
    fs.mkdirSync(hostDir);
    fs.copyFileSync(hostFile, path.join(hostDir, '0'));
    const dir = crafted('symlinked-dir', (at, manifest) => {
      fs.mkdirSync(path.join(at, 'files', 'a2a-artifacts'), { recursive: true });
      fs.symlinkSync(hostDir, path.join(at, 'files', 'a2a-artifacts', 'task'));
      manifest.files.push(entryOf('files/a2a-artifacts/task/0', HOST_SECRET));
    });
    await expectRefusedUntouched(await restoreFrom(dir), 'files/a2a-artifacts/task is a symbolic link');
  }, 60_000);

  test('a blob that is a hard link to a host file is refused', async () => {
    const dir = crafted('hard-linked-blob', (at, manifest) => {
      fs.linkSync(hostFile, path.join(at, 'files', 'blobs', 'sha256', 'evil'));
      manifest.files.push(entryOf('files/blobs/sha256/evil', HOST_SECRET));
    });
    await expectRefusedUntouched(await restoreFrom(dir), 'files/blobs/sha256/evil has 2 hard links');
  }, 60_000);

  test('a root named __proto__, constructor or prototype, or one this configuration does not keep, is refused before the database is restored', async () => {
    const bytes = Buffer.from('x');
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      const dir = crafted(`root-${name}`, (at, manifest) => {
        fs.mkdirSync(path.join(at, 'files', name));
        fs.writeFileSync(path.join(at, 'files', name, 'x'), bytes);
        manifest.files.push(entryOf(`files/${name}/x`, bytes));
      });
      await expectRefusedUntouched(await restoreFrom(dir), `files/${name}/x, not a path of a backup`);
    }
    // Blobs, but BLOB_STORE=none: said before the database is restored, not after.
    await expectRefusedUntouched(await restoreFrom(backupDir, { BLOB_STORE: 'none' }), 'the backup holds blobs files');
    // The genuine backup is restored: the refusals were for what was changed.
    expect(await restoreFrom(backupDir)).toMatchObject({ status: 0 });
    expect(await tableCount(targetUrl)).toBeGreaterThan(0);
  }, 120_000);
});
