/**
 * `labdesk sandbox run`: the runtime inside a sandbox. It exchanges its claim token once,
 * then heartbeats; told to pause it checkpoints and waits (still heartbeating, so a top-up
 * resumes it); told to stop, or released, it exits. Everything it does is printed.
 */
export interface SandboxOptions {
  server: string;
  claimToken: string;
  intervalSeconds: number;
  /** Where lines go (stdout by default). */
  print?: (line: string) => void;
}

type Json = Record<string, unknown>;

/** The `detail` of an error answer, or `fallback`. */
const detailOf = (payload: Json, fallback: string) => (typeof payload.detail === 'string' ? payload.detail : fallback);
/** A number of credits as the server sent it. */
const credits = (value: unknown) => (typeof value === 'number' ? String(value) : '?');

async function post(server: string, route: string, body: unknown, token?: string): Promise<{ status: number; payload: Json }> {
  const response = await fetch(`${server.replace(/\/+$/, '')}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, payload: (await response.json().catch(() => ({}))) as Json };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs until the lease is over; resolves with the exit code. */
export async function runSandbox({
  server,
  claimToken,
  intervalSeconds,
  print = (line) => process.stdout.write(`${line}\n`),
}: SandboxOptions): Promise<number> {
  print(`bootstrapping against ${server}…`);
  const boot = await post(server, '/api/compute/bootstrap', { claim_token: claimToken });
  if (boot.status !== 200) {
    print(`bootstrap refused (${boot.status}): ${detailOf(boot.payload, 'unknown error')}`);
    return 1;
  }
  const leaseId = boot.payload.lease_id as number;
  const processToken = boot.payload.process_token as string;
  print(`lease ${leaseId} ready; heartbeat every ${intervalSeconds}s`);
  let paused = false;
  let failures = 0;
  for (;;) {
    const beat = await post(server, `/api/compute/sessions/${leaseId}/heartbeat`, { active: !paused }, processToken).catch(
      (error: Error): { status: number; payload: Json } => ({ status: 0, payload: { detail: error.message } }),
    );
    if (beat.status !== 200) {
      // A server restart or a network blip is not the end of the lease: retry a few times.
      if (++failures >= 5 || beat.status === 401) {
        print(`heartbeat failed (${beat.status}): ${detailOf(beat.payload, '')}; exiting`);
        return 1;
      }
      print(`heartbeat failed (${beat.status}); retrying`);
    } else {
      failures = 0;
      const { action, state, spent_credits: spent, ceiling_credits: ceiling, low_credit: low } = beat.payload;
      const spend = `spent ${credits(spent)}${ceiling === null ? '' : ` of ${credits(ceiling)}`} credits${low ? ' (low credit)' : ''}`;
      if (action === 'stop') {
        print(`lease ${leaseId} is ${typeof state === 'string' ? state : '?'}: stopping`);
        return 0;
      }
      if (action === 'checkpoint_and_pause' && !paused) {
        paused = true;
        print(`ceiling reached, ${spend}: checkpointing and pausing until a top-up`);
      } else if (action === 'continue' && paused) {
        paused = false;
        print(`resumed, ${spend}`);
      } else {
        print(`heartbeat: ${String(state)}, ${spend}`);
      }
    }
    await sleep(intervalSeconds * 1000);
  }
}
