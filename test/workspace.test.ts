import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { ConfigError, loadConfig } from '../src/config';
import { CodeJail } from '../src/modules/agent/workspace/jail';
import { Workspaces } from '../src/modules/agent/workspace/workspace';
import { JobStatus, WorkspaceJobs } from '../src/modules/agent/workspace/workspace-jobs';
import { startTestApp, TestApp } from './support/app';

/**
 * The analysis agent's code workspace with real processes in real bubblewrap: output and exit
 * codes, isolation (environment, files, network), limits, the file tools' confinement, background
 * jobs across two instances on one database, and outputs. Without bwrap these tests say so and
 * are skipped, unless LABDESK_SANDBOX_TESTS=required (CI), where a missing bwrap fails them.
 */

const BWRAP_PRESENT = fs.existsSync('/usr/bin/bwrap');
const REQUIRED = process.env.LABDESK_SANDBOX_TESTS === 'required';
if (!BWRAP_PRESENT && !REQUIRED) {
  process.stdout.write(
    '\nworkspace tests skipped: bubblewrap is not installed (apt-get install bubblewrap; LABDESK_SANDBOX_TESTS=required makes this a failure)\n',
  );
}
const describeSandbox = BWRAP_PRESENT || REQUIRED ? describe : describe.skip;

/** A secret in the service's environment the code must never see. */
const SECRET_NAME = 'LABDESK_TEST_SECRET_TOKEN';
const SECRET = `sekrit-${randomUUID()}`;
process.env[SECRET_NAME] = SECRET;

const MiB = 1024 * 1024;
/** The workspace root lives in a directory the sandbox's user may search (mkdtemp makes 0700). */
const ROOT_PARENT = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-ws-'));
fs.chmodSync(ROOT_PARENT, 0o711);
const WORKSPACE_ROOT = path.join(ROOT_PARENT, 'workspaces');
const ENV = {
  AGENT_WORKSPACE_DIR: WORKSPACE_ROOT,
  AGENT_SANDBOX_MEMORY_BYTES: String(256 * MiB),
  AGENT_SANDBOX_MAX_FILE_BYTES: String(8 * MiB),
  AGENT_WORKSPACE_MAX_BYTES: String(20 * MiB),
  AGENT_WORKSPACE_MAX_FILES: '200',
  AGENT_SANDBOX_OUTPUT_BYTES: '4096',
  AGENT_JOB_LOG_BYTES: '2048',
  AGENT_JOB_TIMEOUT_SECONDS: '4',
  AGENT_SANDBOX_CONCURRENCY: '3',
  AGENT_JOBS_PER_WORKSPACE: '3',
  AGENT_SANDBOX_MAX_PROCESSES: '32',
};

let t: TestApp;
let workspaces: Workspaces;
let jobs: WorkspaceJobs;
const ctx = () => `ctx-${randomUUID()}`;

afterAll(() => {
  fs.rmSync(ROOT_PARENT, { recursive: true, force: true });
  delete process.env[SECRET_NAME];
});

test('a sandbox that was never checked refuses to run code (never unisolated)', async () => {
  const config = loadConfig({ DATA_DIR: ROOT_PARENT, ...ENV }).agent;
  const unchecked = new Workspaces(config, new CodeJail(config, quiet));
  expect(unchecked.sandboxAvailable()).toBe(false);
  await expect(unchecked.run({ workspace: ctx(), language: 'shell', code: 'echo hi' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
});

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

test('the settings are validated at start; the workspaces default to DATA_DIR/workspaces', () => {
  expect(loadConfig({ DATA_DIR: '/srv/labdesk' }).agent).toMatchObject({
    rootDir: '/srv/labdesk/workspaces',
    networkAllowed: false,
    concurrency: 4,
    sandboxUid: 65534,
  });
  const bad = () =>
    loadConfig({
      AGENT_WORKSPACE_DIR: 'relative/dir',
      AGENT_SANDBOX_NETWORK: 'sometimes',
      AGENT_SANDBOX_UID: '0',
      AGENT_SANDBOX_MEMORY_BYTES: '1000',
      AGENT_SANDBOX_CONCURRENCY: '0',
    });
  expect(bad).toThrow(ConfigError);
  for (const problem of [
    'AGENT_WORKSPACE_DIR must be an absolute path',
    'AGENT_SANDBOX_NETWORK must be one of deny, allow',
    'AGENT_SANDBOX_UID must be a user id other than 0',
    'AGENT_SANDBOX_CONCURRENCY must be a positive integer',
    'AGENT_SANDBOX_MEMORY_BYTES must be at least',
  ]) {
    expect(bad).toThrow(problem);
  }
});

test('a workspace root that cannot be made leaves code execution unavailable, with the reason', async () => {
  // Below a regular file: no directory can be made there.
  const file = path.join(ROOT_PARENT, 'a-file');
  fs.writeFileSync(file, '');
  const config = loadConfig({ DATA_DIR: ROOT_PARENT, ...ENV, AGENT_WORKSPACE_DIR: path.join(file, 'workspaces') }).agent;
  const broken = new Workspaces(config, new CodeJail(config, quiet));
  expect(await broken.checkSandbox()).toBe(false);
  expect(broken.sandbox.unavailable).toMatch(
    /^code execution is unavailable: (AGENT_WORKSPACE_DIR cannot be prepared|bubblewrap \(bwrap\) is not installed)/,
  );
  await expect(broken.run({ workspace: ctx(), language: 'shell', code: 'echo hi' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  await expect(broken.readFile(ctx(), 'notes.txt')).rejects.toMatchObject({
    code: 'UNAVAILABLE',
    message: 'the workspace cannot be prepared (ENOTDIR under AGENT_WORKSPACE_DIR)',
  });
});

describeSandbox('agent workspace (bubblewrap)', () => {
  beforeAll(async () => {
    t = await startTestApp(ENV);
    workspaces = t.app.services.agent.workspaces;
    jobs = t.app.services.agent.jobs;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Processes of the sandbox's user on this host (after a run, none may be left). */
  const sandboxProcesses = () => {
    const uid = workspaces.sandbox.switchTo?.uid;
    if (uid === undefined) return [];
    return fs
      .readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
          // A zombie is dead already: it waits for the host's init to reap it.
          return new RegExp(`^Uid:\\s+${uid}\\s`, 'm').test(status) && !/^State:\s+Z/m.test(status);
        } catch {
          return false;
        }
      });
  };

  /** The sandbox user's live processes once the kernel has finished killing them (SIGKILL is delivered, exit takes a moment). */
  const processesLeft = async () => {
    for (let attempt = 0; attempt < 100 && sandboxProcesses().length > 0; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    return sandboxProcesses();
  };

  test('the sandbox checked at start is available', () => {
    expect(workspaces.sandboxAvailable()).toBe(true);
  });

  test('as root, a workspace root the sandbox user cannot reach fails the probe, which says why; nothing runs', async () => {
    if (process.getuid?.() !== 0) return void process.stdout.write('not run: needs the tests to run as root\n');
    const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-closed-')); // mode 0700, root's
    try {
      const config = loadConfig({ DATA_DIR: closed, ...ENV, AGENT_WORKSPACE_DIR: path.join(closed, 'workspaces') }).agent;
      const unreachable = new Workspaces(config, new CodeJail(config, quiet));
      expect(await unreachable.checkSandbox()).toBe(false);
      expect(unreachable.sandbox.unavailable).toContain('needs search permission on every directory above AGENT_WORKSPACE_DIR');
      await expect(unreachable.run({ workspace: ctx(), language: 'shell', code: 'echo hi' })).rejects.toMatchObject({
        code: 'UNAVAILABLE',
      });
    } finally {
      fs.rmSync(closed, { recursive: true, force: true });
    }
  });

  describe('running code', () => {
    test('python and shell answer their output and exit code', async () => {
      const workspace = ctx();
      const python = await workspaces.run({
        workspace,
        language: 'python',
        code: 'import sys\nprint("hello", 6 * 7)\nprint("oops", file=sys.stderr)\nsys.exit(3)',
      });
      expect(python).toMatchObject({
        exitCode: 3,
        signal: null,
        timedOut: false,
        stdout: 'hello 42\n',
        stderr: 'oops\n',
        truncated: false,
      });
      const shell = await workspaces.run({ workspace, language: 'shell', code: 'echo "$((6 * 7))"; pwd; echo "$HOME"; exit 0' });
      expect(shell).toMatchObject({ exitCode: 0, stdout: '42\n/workspace\n/workspace\n', stderr: '' });
    });

    test("a syntax error is the interpreter's exit and message", async () => {
      const run = await workspaces.run({ workspace: ctx(), language: 'python', code: 'def broken(:\n  pass' });
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toContain('SyntaxError');
    });

    test('stdin is closed: a read meets end of input at once', async () => {
      const python = await workspaces.run({
        workspace: ctx(),
        language: 'python',
        code: 'try:\n  input()\nexcept EOFError:\n  print("eof")',
      });
      expect(python.stdout).toBe('eof\n');
      const shell = await workspaces.run({ workspace: ctx(), language: 'shell', code: 'read line; echo "read=$?"' });
      expect(shell.stdout).toBe('read=1\n');
    });

    test('a bad request is refused before anything runs (422)', async () => {
      const workspace = ctx();
      await expect(workspaces.run({ workspace, language: 'ruby' as never, code: 'puts 1' })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(workspaces.run({ workspace, language: 'shell', code: '' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(workspaces.run({ workspace, language: 'shell', code: 'true', timeoutSeconds: 100000 })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(workspaces.run({ workspace: '../etc', language: 'shell', code: 'true' })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      // The operator did not allow the network here.
      await expect(workspaces.run({ workspace, language: 'shell', code: 'true', network: true })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
    });
  });

  describe('isolation', () => {
    test("the code sees none of the service's environment", async () => {
      const run = await workspaces.run({ workspace: ctx(), language: 'shell', code: 'env | cut -d= -f1 | sort' });
      expect(process.env[SECRET_NAME]).toBe(SECRET);
      expect(run.stdout.trim().split('\n')).toEqual(
        ['HOME', 'LANG', 'PATH', 'PWD', 'PYTHONDONTWRITEBYTECODE', 'PYTHONPATH', 'PYTHONUNBUFFERED', 'SHLVL', 'TMPDIR', '_'].sort(),
      );
      const python = await workspaces.run({
        workspace: ctx(),
        language: 'python',
        code: `import os\nprint(os.environ.get("${SECRET_NAME}"), os.environ.get("DATABASE_URL"))`,
      });
      expect(python.stdout).toBe('None None\n');
    });

    test("no file outside the workspace can be read: the test's own file, /etc/shadow, /root, the service's data", async () => {
      const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-outside-')), 'secret.txt');
      fs.writeFileSync(outside, SECRET, { mode: 0o644 });
      fs.chmodSync(path.dirname(outside), 0o755);
      const other = ctx();
      await workspaces.writeFile(other, 'theirs.txt', SECRET);
      const targets = [
        outside,
        '/etc/shadow',
        '/etc/passwd',
        '/root',
        '/work',
        process.cwd(),
        t.app.services.config.dataDir,
        path.join(WORKSPACE_ROOT, other, 'theirs.txt'),
      ];
      const code = targets
        .map((target) => `if cat "${target}" >/dev/null 2>&1 || ls "${target}" >/dev/null 2>&1; then echo "reached ${target}"; fi`)
        .join('\n');
      const run = await workspaces.run({ workspace: ctx(), language: 'shell', code: `${code}\ncat /proc/*/environ; ls /; ls /etc` });
      expect(run.stdout).not.toContain('reached');
      expect(run.stdout).not.toContain(SECRET);
      expect(run.stdout.split('\n')).toEqual(expect.arrayContaining(['alternatives', 'ld.so.cache']));
      expect(run.stdout.split('\n')).not.toContain('shadow');
      fs.rmSync(path.dirname(outside), { recursive: true, force: true });
    });

    test('nothing outside /workspace and /tmp can be written', async () => {
      const code = ['/usr/labdesk-x', '/etc/labdesk-x', '/labdesk-x', '/proc/labdesk-x', '/tmp/ok', '/workspace/ok']
        .map((target) => `if echo x > "${target}" 2>/dev/null; then echo "wrote ${target}"; fi`)
        .join('\n');
      const run = await workspaces.run({ workspace: ctx(), language: 'shell', code });
      expect(run.stdout).toBe('wrote /tmp/ok\nwrote /workspace/ok\n');
      expect(fs.existsSync('/usr/labdesk-x')).toBe(false);
    });

    test('no network: a loopback server of this host is not reachable and names do not resolve', async () => {
      const server = net.createServer((socket) => socket.end('hello from the host'));
      let connections = 0;
      server.on('connection', () => connections++);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as net.AddressInfo;
      try {
        const run = await workspaces.run({
          workspace: ctx(),
          language: 'python',
          code: [
            'import socket',
            'try:',
            `  print(socket.create_connection(("127.0.0.1", ${port}), timeout=3).recv(100))`,
            'except OSError as e:',
            '  print("connect failed", type(e).__name__)',
            'try:',
            '  socket.getaddrinfo("example.org", 443)',
            '  print("resolved")',
            'except OSError as e:',
            '  print("dns failed")',
          ].join('\n'),
        });
        expect(run.stdout).toMatch(/^connect failed \w+\ndns failed\n$/);
        expect(connections).toBe(0);
      } finally {
        server.close();
      }
    });

    test("with the network allowed (AGENT_SANDBOX_NETWORK=allow) the code shares the host's network, loopback included", async () => {
      const open = await startTestApp({ ...ENV, AGENT_SANDBOX_NETWORK: 'allow' }, { sameDatabaseAs: t });
      const server = net.createServer((socket) => socket.end('hello from the host'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as net.AddressInfo;
      try {
        const code = `import socket\nprint(socket.create_connection(("127.0.0.1", ${port}), timeout=3).recv(100).decode())`;
        const run = await open.app.services.agent.workspaces.run({ workspace: ctx(), language: 'python', code, network: true });
        expect(run.stdout).toBe('hello from the host\n');
        // Still no network unless the run asks for it.
        const closed = await open.app.services.agent.workspaces.run({ workspace: ctx(), language: 'python', code });
        expect(closed.exitCode).not.toBe(0);
      } finally {
        server.close();
        await open.close();
      }
    });
  });

  describe('limits', () => {
    test('an endless loop is killed at its time-out, with everything it started', async () => {
      const run = await workspaces.run({
        workspace: ctx(),
        language: 'shell',
        code: 'sleep 1000 & while true; do :; done',
        timeoutSeconds: 1,
      });
      expect(run).toMatchObject({ timedOut: true, signal: 'SIGKILL', exitCode: null });
      expect(await processesLeft()).toEqual([]);
    });

    test('a print flood is cut to the kept bytes and the rest counted', async () => {
      const run = await workspaces.run({
        workspace: ctx(),
        language: 'python',
        code: 'while True:\n  print("x" * 1000)',
        timeoutSeconds: 2,
      });
      expect(run.timedOut).toBe(true);
      expect(run.truncated).toBe(true);
      expect(Buffer.byteLength(run.stdout)).toBeLessThan(4096 + 100);
      expect(run.stdout).toMatch(/\[… \d+ bytes dropped …\]/);
      const dropped = Number(/(\d+) bytes dropped/.exec(run.stdout)![1]);
      expect(dropped).toBeGreaterThan(100_000);
    });

    test('allocating beyond the memory limit fails inside the code', async () => {
      const run = await workspaces.run({
        workspace: ctx(),
        language: 'python',
        code: 'try:\n  b = bytearray(512 * 1024 * 1024)\n  print("allocated")\nexcept MemoryError:\n  print("MemoryError")',
      });
      expect(run.stdout).toBe('MemoryError\n');
    });

    test('a fork bomb is contained by the process limit; the host is fine afterwards', async () => {
      const run = await workspaces.run({
        workspace: ctx(),
        language: 'shell',
        code: 'bomb() { bomb | bomb & }; bomb; sleep 2; echo survived',
        timeoutSeconds: 4,
      });
      expect(run.stdout + run.stderr).toMatch(/fork|Resource temporarily unavailable/i);
      expect(await processesLeft()).toEqual([]);
      const counted = await workspaces.run({
        workspace: ctx(),
        language: 'python',
        code: 'import os, time\nn = 0\nfor _ in range(100):\n  try:\n    if os.fork() == 0:\n      time.sleep(2); os._exit(0)\n    n += 1\n  except BlockingIOError:\n    break\nprint(n)',
      });
      const forked = Number(counted.stdout.trim());
      expect(forked).toBeGreaterThan(0);
      expect(forked).toBeLessThan(32);
      const after = await workspaces.run({ workspace: ctx(), language: 'shell', code: 'echo fine' });
      expect(after.stdout).toBe('fine\n');
    });

    /** Four processes that each take 150 MiB and hold it a second: their exit statuses as waitpid gives them. */
    const FOUR_HOLDERS = [
      'import os, time',
      'children = []',
      'for _ in range(4):',
      '    pid = os.fork()',
      '    if pid == 0:',
      '        try:',
      '            held = bytearray(150 * 1024 * 1024)',
      '            for i in range(0, len(held), 4096): held[i] = 1',
      '            time.sleep(1)',
      '            os._exit(0)',
      '        except MemoryError:',
      '            os._exit(3)',
      '    children.append(pid)',
      'print(" ".join(str(os.waitpid(pid, 0)[1]) for pid in children))',
    ].join('\n');

    test('one cgroup per sandbox (issue 21): four processes of 150 MiB cannot all hold their memory in a sandbox of 256 MiB', async () => {
      const cgroupsHere = process.getuid?.() === 0 && fs.existsSync('/sys/fs/cgroup/memory') && fs.existsSync('/sys/fs/cgroup/pids');
      if (!cgroupsHere && !REQUIRED)
        return void process.stdout.write('not run: needs root and the cgroup v1 memory and pids controllers\n');
      expect(workspaces.sandbox.cgroupsEnabled).toBe(true);
      expect(workspaces.sandbox.limitsDescription).toBe(
        `one cgroup per sandbox: ${256 * MiB} bytes of memory and 32 processes for all its processes`,
      );
      const run = await workspaces.run({ workspace: ctx(), language: 'python', code: FOUR_HOLDERS, timeoutSeconds: 20 });
      const statuses = run.stdout.trim().split(' ').map(Number);
      expect(statuses).toHaveLength(4);
      // The kernel's OOM killer ends some (SIGKILL, status 9) once the sandbox's 256 MiB are taken.
      expect(statuses.filter((status) => status !== 0).length).toBeGreaterThan(0);
      expect(await processesLeft()).toEqual([]);
      // And the sandbox's processes share one process budget: the fork count test above holds too.
      expect((await workspaces.run({ workspace: ctx(), language: 'shell', code: 'echo fine' })).stdout).toBe('fine\n');
    });

    test('with AGENT_SANDBOX_CGROUPS=off the limits are per process (the fallback, and its worst case): all four hold 150 MiB', async () => {
      const config = loadConfig({ DATA_DIR: ROOT_PARENT, ...ENV, AGENT_SANDBOX_CGROUPS: 'off' }).agent;
      const perProcess = new Workspaces(config, new CodeJail(config, quiet));
      expect(await perProcess.checkSandbox()).toBe(true);
      expect(perProcess.sandbox.cgroupsEnabled).toBe(false);
      expect(perProcess.sandbox.limitsDescription).toBe(
        `per-process limits only (AGENT_SANDBOX_CGROUPS=off): a sandbox may use up to 32 × ${256 * MiB} bytes of address space`,
      );
      const run = await perProcess.run({ workspace: ctx(), language: 'python', code: FOUR_HOLDERS, timeoutSeconds: 20 });
      expect(run.stdout).toBe('0 0 0 0\n');
      expect(await processesLeft()).toEqual([]);
    });

    test('a file beyond AGENT_SANDBOX_MAX_FILE_BYTES cannot be written', async () => {
      const workspace = ctx();
      const run = await workspaces.run({ workspace, language: 'shell', code: 'head -c 20971520 /dev/zero > big.bin; echo "status=$?"' });
      expect(run.stdout).toMatch(/^status=(1|153)\n$/);
      expect(fs.statSync(path.join(WORKSPACE_ROOT, workspace, 'big.bin')).size).toBeLessThanOrEqual(8 * MiB);
    });

    test('over the workspace cap, runs and writes are refused until files are removed', async () => {
      const workspace = ctx();
      // Three files of 7 MiB: each under the file limit, together over the 20 MiB cap.
      const fill = await workspaces.run({
        workspace,
        language: 'shell',
        code: 'for i in 1 2 3; do head -c 7340032 /dev/zero > fill$i.bin; done',
      });
      expect(fill.usage).toMatchObject({ overQuota: true });
      await expect(workspaces.run({ workspace, language: 'shell', code: 'true' })).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      await expect(workspaces.writeFile(workspace, 'more.txt', 'x')).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      await expect(jobs.start({ workspace, language: 'shell', code: 'true' })).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      await workspaces.remove(workspace, 'fill3.bin');
      expect((await workspaces.run({ workspace, language: 'shell', code: 'echo back' })).stdout).toBe('back\n');
    });

    test('a run that keeps writing files under the file limit is killed once the workspace is over its cap', async () => {
      const workspace = ctx();
      const run = await workspaces.run({
        workspace,
        language: 'shell',
        code: 'i=0; while true; do head -c 1048576 /dev/zero > f$i.bin; i=$((i+1)); sleep 0.05; done',
        timeoutSeconds: 120,
      });
      expect(run).toMatchObject({ diskExceeded: true, timedOut: false, signal: 'SIGKILL', usage: { overQuota: true } });
      await expect(workspaces.run({ workspace, language: 'shell', code: 'true' })).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    });

    test('at most AGENT_SANDBOX_CONCURRENCY sandboxes at once; beyond, a run is refused (503)', async () => {
      const workspace = ctx();
      const started = await Promise.all([1, 2, 3].map(() => jobs.start({ workspace, language: 'shell', code: 'sleep 2' })));
      await expect(workspaces.run({ workspace, language: 'shell', code: 'true' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      // A job refused for want of a slot leaves no row and no log behind.
      const elsewhere = ctx();
      await expect(jobs.start({ workspace: elsewhere, language: 'shell', code: 'true' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      expect(await t.sql(`select id from agent_workspace_jobs where context_id = $1`, [elsewhere])).toEqual([]);
      expect((await workspaces.list(elsewhere, 'jobs')).entries).toEqual([]);
      await waitForJobs(
        workspace,
        started.map((job) => job.id),
      );
      expect((await workspaces.run({ workspace, language: 'shell', code: 'echo free' })).stdout).toBe('free\n');
    });
  });

  describe('file tools', () => {
    test('write, read (text and base64, bounded) and list', async () => {
      const workspace = ctx();
      await workspaces.writeFile(workspace, 'data/notes.txt', 'hello workspace');
      await workspaces.writeFile(workspace, 'data/raw.bin', Buffer.from([0, 1, 2, 255]));
      expect(await workspaces.readFile(workspace, 'data/notes.txt')).toMatchObject({
        content: 'hello workspace',
        size: 15,
        truncated: false,
      });
      expect(await workspaces.readFile(workspace, 'data/notes.txt', { maxBytes: 5, offset: 6 })).toMatchObject({
        content: 'works',
        truncated: true,
      });
      expect(await workspaces.readFile(workspace, 'data/raw.bin', { encoding: 'base64' })).toMatchObject({ content: 'AAEC/w==' });
      expect((await workspaces.list(workspace)).entries).toEqual([
        { name: 'data', type: 'directory', size: 0 },
        { name: 'outputs', type: 'directory', size: 0 },
      ]);
      expect((await workspaces.list(workspace, 'data')).entries.map((entry) => [entry.name, entry.size])).toEqual([
        ['notes.txt', 15],
        ['raw.bin', 4],
      ]);
      // The code can change what the tools wrote, and the tools read what the code wrote.
      const run = await workspaces.run({
        workspace,
        language: 'shell',
        code: 'cat data/notes.txt; echo " and more" >> data/notes.txt; echo made > made.txt',
      });
      expect(run).toMatchObject({ exitCode: 0, stdout: 'hello workspace' });
      expect((await workspaces.readFile(workspace, 'data/notes.txt')).content).toBe('hello workspace and more\n');
      expect((await workspaces.readFile(workspace, 'made.txt')).content).toBe('made\n');
      await expect(workspaces.readFile(workspace, 'missing.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(workspaces.readFile(workspace, 'data')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(workspaces.readFile(workspace, 'data/notes.txt', { maxBytes: 2 * MiB })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(workspaces.readFile(workspace, 'data/notes.txt', { encoding: 'hex' as never })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(workspaces.writeFile(workspace, 'data/n.txt', { not: 'text' } as never)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(workspaces.readFile(workspace, 'data/notes.txt/below')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(workspaces.writeFile(workspace, 'made.txt/below', 'x')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(workspaces.list(workspace, 'missing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      // A named pipe the code made is no file to read or write (and nothing blocks on it).
      expect((await workspaces.run({ workspace, language: 'shell', code: 'mkfifo pipe' })).exitCode).toBe(0);
      await expect(workspaces.readFile(workspace, 'pipe')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(workspaces.writeFile(workspace, 'pipe', 'x')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    test('size caps: a file over AGENT_SANDBOX_MAX_FILE_BYTES is refused (413), nothing written', async () => {
      const workspace = ctx();
      await expect(workspaces.writeFile(workspace, 'big.bin', Buffer.alloc(8 * MiB + 1))).rejects.toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
      });
      expect((await workspaces.list(workspace)).entries.map((entry) => entry.name)).toEqual(['outputs']);
    });

    test('paths leaving the workspace are refused: "..", absolute, and links the code made', async () => {
      const workspace = ctx();
      const outsideDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-escape-'));
      fs.writeFileSync(path.join(outsideDir, 'secret.txt'), SECRET);
      await workspaces.writeFile(workspace, 'inside.txt', 'inside');
      const made = await workspaces.run({
        workspace,
        language: 'shell',
        code: `ln -s /etc/passwd passwd-link; ln -s "${outsideDir}" outside-dir; ln -s "${outsideDir}/secret.txt" outside-file; ln -s inside.txt good-link; ln -s /nonexistent/dir dangling`,
      });
      expect(made.exitCode).toBe(0);
      const refused = [
        () => workspaces.readFile(workspace, '../inside.txt'),
        () => workspaces.readFile(workspace, 'outputs/../../x'),
        () => workspaces.readFile(workspace, '/etc/passwd'),
        () => workspaces.readFile(workspace, 'passwd-link'),
        () => workspaces.readFile(workspace, 'outside-file'),
        () => workspaces.readFile(workspace, 'outside-dir/secret.txt'),
        () => workspaces.list(workspace, 'outside-dir'),
        () => workspaces.writeFile(workspace, 'outside-dir/planted.txt', 'x'),
        () => workspaces.writeFile(workspace, 'outside-file', 'x'),
        () => workspaces.writeFile(workspace, 'dangling/planted.txt', 'x'),
        () => workspaces.writeFile(workspace, '../planted.txt', 'x'),
        () => workspaces.remove(workspace, '../' + workspace),
        () => workspaces.remove(workspace, '.'),
        () => workspaces.remove(workspace, 'outputs'),
        () => workspaces.readOutput(workspace, '../inside.txt', MiB),
      ];
      for (const attempt of refused) await expect(attempt()).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(fs.readdirSync(outsideDir)).toEqual(['secret.txt']);
      expect(fs.readFileSync(path.join(outsideDir, 'secret.txt'), 'utf8')).toBe(SECRET);
      expect(fs.existsSync('/nonexistent')).toBe(false);
      // A link that stays inside is followed.
      expect((await workspaces.readFile(workspace, 'good-link')).content).toBe('inside');
      // Removing a link removes the link, not what it points at.
      await workspaces.remove(workspace, 'outside-file');
      expect(fs.readFileSync(path.join(outsideDir, 'secret.txt'), 'utf8')).toBe(SECRET);
      fs.rmSync(outsideDir, { recursive: true, force: true });
    });
  });

  /** Resolves once every one of `ids` has ended (this instance's finish events, or a check finding it over). */
  async function waitForJobs(workspace: string, ids: string[], on: WorkspaceJobs = jobs): Promise<JobStatus[]> {
    const done = new Map<string, JobStatus>();
    await new Promise<void>((resolve) => {
      const stop = on.onFinish((job) => {
        if (ids.includes(job.id)) done.set(job.id, job);
        if (done.size === ids.length) {
          stop();
          resolve();
        }
      });
      // Those that ended before the listener was there.
      void Promise.all(ids.map((id) => on.check(workspace, id))).then((statuses) => {
        for (const status of statuses) if (status.state !== 'running') done.set(status.id, status);
        if (done.size === ids.length) {
          stop();
          resolve();
        }
      });
    });
    return ids.map((id) => done.get(id)!);
  }

  describe('background jobs', () => {
    test('a job runs apart from the request; its state and log tail are seen from a second instance', async () => {
      const workspace = ctx();
      const second = await startTestApp(ENV, { sameDatabaseAs: t });
      try {
        const started = await jobs.start({
          workspace,
          language: 'python',
          code: 'import time\nprint("step 1")\ntime.sleep(1)\nprint("step 2")',
        });
        expect(started).toMatchObject({ state: 'running', exitCode: null, logPath: `jobs/${started.id}.log` });
        const seen = await second.app.services.agent.jobs.check(workspace, started.id);
        expect(seen.id).toBe(started.id);
        expect((await jobs.running(workspace)).map((job) => job.id)).toEqual([started.id]);
        const [finished] = await waitForJobs(workspace, [started.id]);
        expect(finished).toMatchObject({ state: 'succeeded', exitCode: 0, outputTail: 'step 1\nstep 2\n' });
        expect(await second.app.services.agent.jobs.check(workspace, started.id)).toMatchObject({
          state: 'succeeded',
          exitCode: 0,
          outputTail: 'step 1\nstep 2\n',
        });
        expect(await second.app.services.agent.jobs.running(workspace)).toEqual([]);
        expect((await workspaces.readFile(workspace, started.logPath)).content).toBe('step 1\nstep 2\n');
      } finally {
        await second.close();
      }
    });

    test('at most AGENT_JOBS_PER_WORKSPACE jobs of one workspace run at once, counted over all instances (409)', async () => {
      const workspace = ctx();
      const second = await startTestApp({ ...ENV, AGENT_SANDBOX_CONCURRENCY: '4' }, { sameDatabaseAs: t });
      try {
        // Started at once from both instances: the count and the insert are one step under the workspace's lock.
        const attempts = await Promise.allSettled(
          [jobs, second.app.services.agent.jobs, jobs, second.app.services.agent.jobs].map((on) =>
            on.start({ workspace, language: 'shell', code: 'sleep 1' }),
          ),
        );
        const started = attempts.filter((attempt) => attempt.status === 'fulfilled').map((attempt) => attempt.value);
        const refused = attempts.filter((attempt) => attempt.status === 'rejected').map((attempt) => attempt.reason);
        expect(started).toHaveLength(3);
        expect(refused).toEqual([expect.objectContaining({ code: 'CONFLICT' })]);
        const [{ rows }] = await t.sql(`select count(*)::int as rows from agent_workspace_jobs where context_id = $1`, [workspace]);
        expect(rows).toBe(3);
        // Once they are over, the workspace may start jobs again.
        for (let attempt = 0; attempt < 200 && (await jobs.running(workspace)).length > 0; attempt++)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await jobs.running(workspace)).toEqual([]);
        const again = await jobs.start({ workspace, language: 'shell', code: 'true' });
        expect((await waitForJobs(workspace, [again.id]))[0].state).toBe('succeeded');
      } finally {
        await second.close();
      }
    });

    test('failing, timing out, and a flooding log capped', async () => {
      const workspace = ctx();
      const failing = await jobs.start({ workspace, language: 'shell', code: 'echo bad >&2; exit 7' });
      const endless = await jobs.start({ workspace, language: 'shell', code: 'while true; do :; done' });
      const flood = await jobs.start({ workspace, language: 'shell', code: 'yes flood | head -c 100000; echo; echo last line' });
      const [failed, timedOut, flooded] = await waitForJobs(workspace, [failing.id, endless.id, flood.id]);
      expect(failed).toMatchObject({ state: 'failed', exitCode: 7, outputTail: 'bad\n' });
      expect(timedOut).toMatchObject({ state: 'timed_out', signal: 'SIGKILL' });
      expect(flooded.state).toBe('succeeded');
      expect(flooded.outputTail).toMatch(/\[… \d+ bytes of output dropped: the log keeps 2048 bytes\]\n$/);
      expect(fs.statSync(path.join(WORKSPACE_ROOT, workspace, flood.logPath)).size).toBeLessThan(2048 + 200);
    });

    test('a job whose process is killed from outside is failed', async () => {
      const workspace = ctx();
      const started = await jobs.start({ workspace, language: 'shell', code: 'echo started; sleep 60' });
      for (let attempt = 0; attempt < 200 && (await jobs.check(workspace, started.id)).outputTail === ''; attempt++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const workspaceDir = path.join(WORKSPACE_ROOT, workspace);
      // The code's shell: bubblewrap (our child) → the sandbox's init → bash.
      const bwrap = childProcessesOf(process.pid).find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(workspaceDir));
      let shell: number | undefined;
      for (let attempt = 0; attempt < 100 && shell === undefined; attempt++) {
        shell = childProcessesOf(bwrap!)
          .flatMap(childProcessesOf)
          .find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('/usr/bin/bash'));
        if (shell === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(shell).toBeDefined();
      process.kill(shell!, 'SIGKILL');
      const [ended] = await waitForJobs(workspace, [started.id]);
      // bubblewrap passes on the code's death by signal 9 as the shell does: 128 + 9.
      expect(ended).toMatchObject({ state: 'failed', signal: null, exitCode: 137, outputTail: 'started\n' });
      expect(await processesLeft()).toEqual([]);
    });

    test('jobs of an instance that shuts down are killed and reported lost to the others', async () => {
      const workspace = ctx();
      const leaving = await startTestApp(ENV, { sameDatabaseAs: t });
      const started = await leaving.app.services.agent.jobs.start({ workspace, language: 'shell', code: 'sleep 60' });
      expect((await jobs.check(workspace, started.id)).state).toBe('running');
      await leaving.close();
      expect(await jobs.check(workspace, started.id)).toMatchObject({ state: 'lost', signal: 'SIGKILL' });
      expect(await processesLeft()).toEqual([]);
    });

    test('an instance that dies takes its job with it, and the others report the job lost', async () => {
      // The other instance is a real process (the built service, as `npm test` builds it first), killed with SIGKILL.
      const dist = path.resolve(__dirname, '..', 'dist', 'src');
      const workspace = ctx();
      const script = `
        const { loadConfig } = require(${JSON.stringify(`${dist}/config`)});
        const { openDatabase } = require(${JSON.stringify(`${dist}/db/orm`)});
        const { CodeJail } = require(${JSON.stringify(`${dist}/modules/agent/workspace/jail`)});
        const { Workspaces } = require(${JSON.stringify(`${dist}/modules/agent/workspace/workspace`)});
        const { WorkspaceJobs } = require(${JSON.stringify(`${dist}/modules/agent/workspace/workspace-jobs`)});
        (async () => {
          const quiet = { debug() {}, info() {}, warn() {}, error() {} };
          const config = loadConfig(${JSON.stringify({ DATA_DIR: ROOT_PARENT, ...ENV })}).agent;
          const workspaces = new Workspaces(config, new CodeJail(config, quiet));
          if (!(await workspaces.checkSandbox())) throw new Error(workspaces.sandbox.unavailable);
          const orm = await openDatabase(${JSON.stringify(t.databaseUrl)}, { migrate: false, poolMax: 2 });
          const jobs = new WorkspaceJobs(workspaces, orm, quiet, { heartbeatSeconds: 1, lostAfterSeconds: 3 });
          const job = await jobs.start({ workspace: ${JSON.stringify(workspace)}, language: 'shell', code: 'echo started; sleep 60' });
          process.stdout.write(job.id + '\\n');
        })().catch((error) => { process.stderr.write(String(error)); process.exit(1); });`;
      const instance = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      let errors = '';
      instance.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      const jobId = await new Promise<string>((resolve, reject) => {
        instance.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
        instance.once('exit', () => reject(new Error(`the other instance ended: ${errors}`)));
      });
      const observer = new WorkspaceJobs(workspaces, t.app.services.orm, quiet, { heartbeatSeconds: 1, lostAfterSeconds: 3 });
      try {
        for (let attempt = 0; attempt < 200 && (await observer.check(workspace, jobId)).outputTail === ''; attempt++)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await observer.check(workspace, jobId)).toMatchObject({ state: 'running', outputTail: 'started\n' });
        instance.kill('SIGKILL');
        expect(await processesLeft()).toEqual([]);
        let seen = await observer.check(workspace, jobId);
        for (let attempt = 0; attempt < 100 && seen.state === 'running'; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          seen = await observer.check(workspace, jobId);
        }
        expect(seen).toMatchObject({ state: 'lost', exitCode: null, outputTail: 'started\n' });
      } finally {
        await observer.close();
        instance.kill('SIGKILL');
      }
    });

    test('a running job of an instance that stopped heartbeating is reported lost, never running for ever', async () => {
      const workspace = ctx();
      await workspaces.open(workspace);
      const id = randomUUID();
      await t.sql(
        `insert into agent_workspace_jobs (id, context_id, instance_id, language, log_path, started_at, heartbeat_at) values ($1, $2, $3, 'python', $4, now() - interval '10 minutes', now() - interval '5 minutes')`,
        [id, workspace, randomUUID(), `jobs/${id}.log`],
      );
      expect(await jobs.check(workspace, id)).toMatchObject({ state: 'lost', outputTail: '' });
      expect(await jobs.running(workspace)).toEqual([]);
      const [row] = await t.sql(`select state, finished_at from agent_workspace_jobs where id = $1`, [id]);
      expect(row.state).toBe('lost');
      expect(row.finished_at).not.toBeNull();
      await expect(jobs.check(workspace, randomUUID())).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(jobs.check(ctx(), id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(jobs.check(workspace, 'not-a-uuid')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    });
  });

  describe('outputs', () => {
    test('files under outputs/ are listed with sizes and media types, and read as bytes (bounded)', async () => {
      const workspace = ctx();
      const run = await workspaces.run({
        workspace,
        language: 'python',
        code: [
          'import os',
          'os.makedirs("outputs/tables", exist_ok=True)',
          'open("outputs/plot.png", "wb").write(bytes(range(256)))',
          'open("outputs/tables/data.csv", "w").write("a,b\\n1,2\\n")',
          'os.symlink("/etc/passwd", "outputs/passwd.txt")',
        ].join('\n'),
      });
      expect(run.exitCode).toBe(0);
      expect(await workspaces.listOutputs(workspace)).toEqual([
        { name: 'plot.png', size: 256, mediaType: 'image/png', modifiedMs: expect.any(Number) },
        { name: 'tables/data.csv', size: 8, mediaType: 'text/csv', modifiedMs: expect.any(Number) },
      ]);
      const png = await workspaces.readOutput(workspace, 'plot.png', 1024 * 1024);
      expect(png.mediaType).toBe('image/png');
      expect([...png.bytes]).toEqual([...Array(256).keys()]);
      expect((await workspaces.readOutput(workspace, 'tables/data.csv', 1024)).bytes.toString()).toBe('a,b\n1,2\n');
      await expect(workspaces.readOutput(workspace, 'plot.png', 100)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      await expect(workspaces.readOutput(workspace, 'passwd.txt', 1024 * 1024)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(workspaces.readOutput(workspace, 'missing.png', 1024)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    test('an outputs/ the code replaced with a link to elsewhere is refused, not followed', async () => {
      const workspace = ctx();
      const outsideDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-outputs-'));
      fs.chmodSync(outsideDir, 0o755);
      fs.writeFileSync(path.join(outsideDir, 'secret.txt'), SECRET, { mode: 0o644 });
      try {
        const run = await workspaces.run({ workspace, language: 'shell', code: `rmdir outputs && ln -s "${outsideDir}" outputs` });
        expect(run.exitCode).toBe(0);
        await expect(workspaces.listOutputs(workspace)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
        await expect(workspaces.readOutput(workspace, 'secret.txt', MiB)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      } finally {
        fs.rmSync(outsideDir, { recursive: true, force: true });
      }
    });
  });
});

/** The direct children of a process, from /proc (none once it is gone). */
function childProcessesOf(pid: number): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [];
  }
}
