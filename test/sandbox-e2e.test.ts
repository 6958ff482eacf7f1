import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeUser, Reply, startTestApp, TestApp, TestUser } from './support/app';

/**
 * Sandbox compute end to end (docs/api/compute.md), with the real sandbox runtime: the BUILT CLI
 * (`labdesk sandbox run`, from dist/; `npm test` builds first). Leases are metered every second
 * and sandboxes heartbeat every second; the ceiling is reached by moving the service's clock
 * forward, never by waiting.
 *
 * - local provider: the service starts the sandbox itself when a plan is approved; what the
 *   sandbox prints reaches the service's logger, which this file reads off stdout.
 * - manual provider: this file starts `labdesk sandbox run` as a person would, with the claim
 *   token in the environment, and reads its stdout.
 */

const CLI = path.resolve(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
/** Generous: polling ends as soon as the condition holds. */
const WAIT_MS = 15_000;
const STEP_TIMEOUT = 25_000;
/** One compute app each: meter and heartbeats every second; idle clocks far longer than any clock jump here. */
const FAST = { SANDBOX_HEARTBEAT_SECONDS: '1', METER_INTERVAL_SECONDS: '1', LEASE_IDLE_MINUTES: '240' };

type Lease = {
  lease_id: number;
  plan_id: number | null;
  state: string;
  provider: string;
  machine: { rate_credits_per_minute: number };
  ceiling_credits: number | null;
  spent_credits: number;
  idle_expires_at: string;
  idle_refreshes: { source: string; at: string; idle_expires_at: string }[];
  claim_token?: string;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `promise`'s value, or `fallback` after `ms` (the timer does not outlive the race). */
async function within<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `probe` until `done` holds; on timeout fails with what was awaited and the last value seen. */
async function until<T>(what: string, probe: () => T | Promise<T>, done: (value: T) => boolean, ms = WAIT_MS): Promise<T> {
  const deadline = Date.now() + ms;
  let last: T = await probe();
  while (!done(last)) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${ms} ms waiting for ${what}; last seen:\n${JSON.stringify(last, null, 2)}`);
    await sleep(150);
    last = await probe();
  }
  return last;
}

function expectStatus(reply: Reply, status: number) {
  // The whole reply is printed when the status is wrong.
  expect({ status: reply.status, body: reply.body }).toEqual({ status, body: expect.anything() });
}

async function getLease(t: TestApp, user: TestUser, leaseId: number): Promise<Lease> {
  const reply = await t.call<Lease>('GET', `/api/compute/sessions/${leaseId}`, { token: user.token });
  expectStatus(reply, 200);
  return reply.body;
}

/** Oldest first (the API lists them newest first). */
const sourcesOf = (lease: Lease) => lease.idle_refreshes.map((r) => r.source).reverse();
const count = (list: string[], item: string) => list.filter((x) => x === item).length;

/** Drafts and approves a plan for `user`: the new lease, with its claim token. */
async function approvedLease(t: TestApp, user: TestUser): Promise<Lease> {
  const drafted = await t.call('POST', '/api/compute/plans', {
    token: user.token,
    body: { goal: 'Fit the model. Plot the residuals.', inputs: [{ name: 'data.csv', bytes: 2_000_000 }] },
  });
  expectStatus(drafted, 201);
  expect(drafted.body).toEqual(expect.objectContaining({ status: 'awaiting_decision', spend_ceiling_credits: expect.any(Number) }));
  const approved = await t.call<Lease>('POST', `/api/compute/plans/${drafted.body.plan_id}/approve`, { token: user.token });
  expectStatus(approved, 201);
  expect(approved.body).toEqual(
    expect.objectContaining({
      plan_id: drafted.body.plan_id,
      state: 'awaiting_sandbox',
      ceiling_credits: drafted.body.spend_ceiling_credits,
      spent_credits: 0,
      claim_token: expect.stringMatching(/^ldk_ct_/),
    }),
  );
  expect(sourcesOf(approved.body)).toEqual(['approve']);
  return approved.body;
}

/**
 * Moves the service's clock far enough ahead that the next meter pass owes more than the whole
 * ceiling: the lease's running time until then costs its rate per minute.
 */
function jumpPastCeiling(t: TestApp, lease: Lease) {
  const minutes = lease.ceiling_credits! / lease.machine.rate_credits_per_minute;
  const offsetMs = Math.ceil(minutes + 5) * 60_000;
  expect(offsetMs).toBeLessThan(Number(FAST.LEASE_IDLE_MINUTES) * 60_000); // the lease must not idle out instead
  t.app.services.clock.now = () => new Date(Date.now() + offsetMs);
}

beforeAll(() => {
  if (!fs.existsSync(CLI)) throw new Error('dist/ is missing: run npm run build first (npm test builds before running)');
});

/** The `labdesk sandbox run` processes this test process (its services) started that are still alive. */
function sandboxChildren(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return (
          Number(ppid) === process.pid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes(' sandbox run ')
        );
      } catch {
        return false; // exited meanwhile
      }
    })
    .map(Number);
}

/** Secrets a server's environment typically holds (set in this process while the local provider's app runs). */
const SERVER_SECRETS: Record<string, string> = {
  RELEASE_TOKEN: 'rel_e2e_release_token_must_not_leak',
  LLM_API_KEY: 'sk-e2e-llm-key-must-not-leak',
  S3_ACCESS_KEY_ID: 'e2e-s3-key-id-must-not-leak',
  S3_SECRET_ACCESS_KEY: 'e2e-s3-secret-must-not-leak',
  BOOTSTRAP_ADMIN_TOKEN: 'ldk_pat_e2e_bootstrap_admin_token_must_not_leak_xxxxxxxx',
  LABDESK_INVITE_KEY: 'e2e-some-future-secret-must-not-leak',
};

describe('local provider: the service starts the sandbox of an approved plan', () => {
  let t: TestApp;
  let user: TestUser;
  let lease: Lease;
  /** The service's log entries about its sandboxes: `sandbox` (one printed line) and `sandbox exited`. */
  const logged: { msg: string; leaseId: number; line?: string; code?: number | null }[] = [];
  let stdout: jest.SpyInstance | undefined;
  const printed = () => logged.filter((e) => e.msg === 'sandbox' && e.leaseId === lease.lease_id).map((e) => e.line!);

  beforeAll(async () => {
    // The service logs JSON lines on stdout (info level here, to carry the sandbox's lines): read
    // them, and print only the warnings and errors among them.
    const write = process.stdout.write.bind(process.stdout) as (...args: unknown[]) => boolean;
    stdout = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      let entry: { level?: string; msg?: string } | undefined;
      try {
        entry = text.startsWith('{') ? JSON.parse(text) : undefined;
      } catch {
        entry = undefined;
      }
      if (!entry?.level) return write(chunk, ...rest);
      if (entry.msg === 'sandbox' || entry.msg === 'sandbox exited') logged.push(entry as (typeof logged)[number]);
      return entry.level === 'warn' || entry.level === 'error' ? write(chunk, ...rest) : true;
    });
    for (const [name, value] of Object.entries(SERVER_SECRETS)) {
      savedEnv[name] = process.env[name];
      process.env[name] = value;
    }
    t = await startTestApp({ COMPUTE_PROVIDER: 'local', COMPUTE_PROVIDERS: 'manual,local', ...FAST, LOG_LEVEL: 'info' });
    user = await makeUser(t, { name: 'Local sandbox user' });
  });

  const savedEnv: Record<string, string | undefined> = {};
  afterAll(async () => {
    await t?.close(); // stops the sandboxes it started
    stdout?.mockRestore();
    for (const [name, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  test(
    'the approved lease is bootstrapped by the real child process: ready, refreshed by bootstrap',
    async () => {
      lease = await approvedLease(t, user);
      expect(lease.provider).toBe('local');
      const ready = await until(
        'the lease to be bootstrapped',
        () => getLease(t, user, lease.lease_id),
        (l) => l.state === 'ready' && sourcesOf(l).includes('bootstrap'),
      );
      expect(sourcesOf(ready).slice(0, 2)).toEqual(['approve', 'bootstrap']);
      expect(ready.ceiling_credits).toBe(lease.ceiling_credits);
      // The claim token was exchanged once: it opens nothing any more.
      const again = await t.call('POST', '/api/compute/bootstrap', { body: { claim_token: lease.claim_token } });
      expectStatus(again, 401);
      await until('the sandbox to say it is ready', printed, (lines) =>
        lines.some((l) => l === `lease ${lease.lease_id} ready; heartbeat every 1s`),
      );
      expect(printed()[0]).toBe(`bootstrapping against ${t.url}…`);
    },
    STEP_TIMEOUT,
  );

  test(
    "its environment holds the allowlisted variables and its claim token, none of the server's secrets",
    async () => {
      const pids = sandboxChildren();
      expect(pids).toHaveLength(1);
      const environ = fs.readFileSync(`/proc/${pids[0]}/environ`, 'utf8').split('\0').filter(Boolean);
      const names = environ.map((entry) => entry.slice(0, entry.indexOf('='))).sort();
      console.log(`sandbox environment: ${names.join(' ')} (the server's: ${Object.keys(process.env).length} variables)`);
      expect(
        names.filter((name) => !['HOME', 'LABDESK_CLAIM_TOKEN', 'LANG', 'LC_ALL', 'PATH', 'TMPDIR', 'TZ', 'USER'].includes(name)),
      ).toEqual([]);
      expect(environ).toContain(`LABDESK_CLAIM_TOKEN=${lease.claim_token}`);
      const text = environ.join('\n');
      for (const secret of [...Object.values(SERVER_SECRETS), t.databaseUrl, t.adminToken]) expect(text).not.toContain(secret);
      if (process.env.PATH) expect(environ).toContain(`PATH=${process.env.PATH}`);
    },
    STEP_TIMEOUT,
  );

  test(
    'its heartbeats keep refreshing the idle clock',
    async () => {
      const beating = await until(
        'three heartbeats',
        () => getLease(t, user, lease.lease_id),
        (l) => count(sourcesOf(l), 'heartbeat') >= 3,
      );
      expect(beating.state).toBe('ready');
      const sources = sourcesOf(beating);
      // After the bootstrap, only heartbeats (the newest ten refreshes are listed).
      expect(sources.slice(sources.lastIndexOf('bootstrap') + 1).every((s) => s === 'heartbeat')).toBe(true);
      const times = beating.idle_refreshes.map((r) => Date.parse(r.idle_expires_at)).reverse();
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      // The lease is read just before its refreshes: a heartbeat may land in between.
      expect(times.slice(-2)).toContain(Date.parse(beating.idle_expires_at));
      expect(printed().some((l) => /^heartbeat: ready, spent [\d.]+ of [\d.]+ credits( \(low credit\))?$/.test(l))).toBe(true);
    },
    STEP_TIMEOUT,
  );

  test(
    'at its ceiling the meter pauses the lease, and the sandbox checkpoints and pauses',
    async () => {
      jumpPastCeiling(t, lease);
      const paused = await until(
        'the lease to pause',
        () => getLease(t, user, lease.lease_id),
        (l) => l.state !== 'ready',
      );
      expect(paused.state).toBe('paused');
      expect(paused.spent_credits).toBe(paused.ceiling_credits);
      await until('the sandbox to checkpoint', printed, (lines) => lines.some((l) => l.includes('checkpointing and pausing')));
      expect(printed().find((l) => l.includes('checkpointing and pausing'))).toBe(
        // Nothing is left under the ceiling: always low credit.
        `ceiling reached, spent ${paused.ceiling_credits} of ${paused.ceiling_credits} credits (low credit): checkpointing and pausing until a top-up`,
      );
      // Paused is not over: the sandbox is still running.
      expect(logged.some((e) => e.msg === 'sandbox exited' && e.leaseId === lease.lease_id)).toBe(false);
    },
    STEP_TIMEOUT,
  );

  test(
    'a top-up resumes it: ready again, and the sandbox heartbeats as active',
    async () => {
      const before = await getLease(t, user, lease.lease_id);
      const topped = await t.call<Lease>('POST', `/api/compute/sessions/${lease.lease_id}/topup`, {
        token: user.token,
        body: { credits: 1 },
      });
      expectStatus(topped, 200);
      expect(topped.body.state).toBe('ready');
      expect(topped.body.ceiling_credits).toBeCloseTo(before.ceiling_credits! + 1, 4);
      await until('the sandbox to resume', printed, (lines) => lines.some((l) => l.startsWith('resumed, spent ')));
      const resumed = await until(
        'a heartbeat after the top-up',
        () => getLease(t, user, lease.lease_id),
        (l) => sourcesOf(l).lastIndexOf('heartbeat') > sourcesOf(l).lastIndexOf('topup'),
      );
      expect(resumed.state).toBe('ready');
      expect(sourcesOf(resumed)).toContain('topup');
    },
    STEP_TIMEOUT,
  );

  test(
    'releasing the lease stops its sandbox (exit 0)',
    async () => {
      const released = await t.call<Lease>('DELETE', `/api/compute/sessions/${lease.lease_id}`, { token: user.token });
      expectStatus(released, 200);
      expect(released.body.state).toBe('released');
      const exited = await until(
        'the sandbox to exit',
        () => logged.find((e) => e.msg === 'sandbox exited' && e.leaseId === lease.lease_id),
        (e) => e !== undefined,
      );
      // Its last output may be read after its exit is seen.
      await until('its last line', printed, (lines) => lines.some((l) => /: stopping$|; exiting$/.test(l)), 5_000);
      const lines = printed();
      expect({ code: exited!.code, last: lines[lines.length - 1] }).toEqual({
        code: 0,
        last: `lease ${lease.lease_id} is released: stopping`,
      });
    },
    STEP_TIMEOUT,
  );
});

describe('manual provider: a person runs labdesk sandbox run with the claim token', () => {
  let t: TestApp;
  let user: TestUser;
  let lease: Lease;
  let child: ChildProcessWithoutNullStreams | undefined;
  let exit: Promise<number | null>;
  const lines: string[] = [];
  let stderr = '';

  beforeAll(async () => {
    t = await startTestApp(FAST); // COMPUTE_PROVIDER unset: manual
    user = await makeUser(t, { name: 'Manual sandbox user' });
  });

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exit;
    }
    await t?.close();
  });

  test(
    'the approved lease waits for a sandbox; the CLI bootstraps it and heartbeats',
    async () => {
      lease = await approvedLease(t, user);
      expect(lease.provider).toBe('manual');
      expect((await getLease(t, user, lease.lease_id)).state).toBe('awaiting_sandbox');

      child = spawn(process.execPath, [CLI, 'sandbox', 'run', '--server', t.url, '--interval', '1'], {
        env: { ...process.env, LABDESK_CLAIM_TOKEN: lease.claim_token },
      });
      let partial = '';
      child.stdout.on('data', (chunk: Buffer) => {
        const parts = (partial + chunk.toString('utf8')).split('\n');
        partial = parts.pop()!;
        lines.push(...parts);
      });
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const started = child;
      // 'close': exited, and all of its output read.
      exit = new Promise((resolve) => started.once('close', (code) => resolve(code)));

      await until(
        'two heartbeats printed',
        () => ({ lines, stderr, exitCode: started.exitCode }),
        (s) =>
          count(
            s.lines.map((l) => l.split(',')[0]),
            'heartbeat: ready',
          ) >= 2,
      );
      expect(lines.slice(0, 2)).toEqual([`bootstrapping against ${t.url}…`, `lease ${lease.lease_id} ready; heartbeat every 1s`]);
      expect(lines[2]).toMatch(/^heartbeat: ready, spent [\d.]+ of [\d.]+ credits( \(low credit\))?$/);
      const ready = await getLease(t, user, lease.lease_id);
      expect(ready.state).toBe('ready');
      expect(sourcesOf(ready).slice(0, 3)).toEqual(['approve', 'bootstrap', 'heartbeat']);
    },
    STEP_TIMEOUT,
  );

  test(
    'after the clock passes the ceiling it prints that it checkpoints and pauses',
    async () => {
      jumpPastCeiling(t, lease);
      await until(
        'the CLI to pause',
        () => ({ lines, stderr }),
        (s) => s.lines.some((l) => l.includes('checkpointing and pausing')),
      );
      const paused = await getLease(t, user, lease.lease_id);
      expect(paused.state).toBe('paused');
      expect(paused.spent_credits).toBe(paused.ceiling_credits);
      expect(lines.find((l) => l.includes('checkpointing and pausing'))).toBe(
        // Nothing is left under the ceiling: always low credit.
        `ceiling reached, spent ${paused.ceiling_credits} of ${paused.ceiling_credits} credits (low credit): checkpointing and pausing until a top-up`,
      );
      expect(child!.exitCode).toBeNull();
    },
    STEP_TIMEOUT,
  );

  test(
    'after a top-up it prints that it resumed',
    async () => {
      const topped = await t.call<Lease>('POST', `/api/compute/sessions/${lease.lease_id}/topup`, {
        token: user.token,
        body: { credits: 1 },
      });
      expectStatus(topped, 200);
      expect(topped.body.state).toBe('ready');
      await until(
        'the CLI to resume',
        () => ({ lines, stderr }),
        (s) => s.lines.some((l) => l.startsWith('resumed, spent ')),
      );
      expect(lines.find((l) => l.startsWith('resumed, spent '))).toMatch(/^resumed, spent [\d.]+ of [\d.]+ credits/);
      expect(child!.exitCode).toBeNull();
    },
    STEP_TIMEOUT,
  );

  test(
    'after DELETE /api/compute/sessions/{id} it prints that it stops and exits 0',
    async () => {
      const released = await t.call<Lease>('DELETE', `/api/compute/sessions/${lease.lease_id}`, { token: user.token });
      expectStatus(released, 200);
      expect(released.body.state).toBe('released');
      const code = await within(exit, WAIT_MS, 'still running');
      expect({ code, last: lines[lines.length - 1], stderr }).toEqual({
        code: 0,
        last: `lease ${lease.lease_id} is released: stopping`,
        stderr: '',
      });
    },
    STEP_TIMEOUT,
  );
});
