import type { TestApp, TestUser } from './app';
import { rpc, rpcCall, userMessage } from './a2a';
import { type Stack, untilReady } from './compose';
import { newSessionId, newUuid } from './trajectories';
import { until } from './until';

/**
 * Faults injected into the compose stack while a load runs through its proxy, as
 * test/deployment.test.ts runs them: appends (each worker syncs its own trajectory), sign-ins and
 * A2A turns. Each phase's figures: what was sent, acknowledged (a success answer), refused
 * (by status), lost (acknowledged, then missing: must be 0), and for A2A what the model saw.
 */
export interface PhaseFigures {
  sent: number;
  acknowledged: number;
  /** Answers that were not a success, by status (`network` when no answer came). */
  refused: Record<string, number>;
  /** Acknowledged appends missing afterwards, or acknowledged turns whose task did not stay completed. */
  lost: number;
  /** Turns answered more than once (two tasks for one message, or two answers in one task). */
  duplicatedAnswers: number;
  /** A2A turns sent, and model calls made for them. */
  turns: number;
  modelCalls: number;
  /** Calls made again for a turn whose first call was in flight on the killed instance (at most one per takeover, docs/api/a2a-tasks.md, "What a takeover bills"). */
  takeoverCalls: number;
  /** Any other repeated model call: must be 0. */
  duplicatedModelCalls: number;
  /** Those calls, for the log: the turn's text, and each call's instance and time (ms after the kill, when there was one). */
  repeated: { text: string; calls: { from: string; at: number }[] }[];
  /** Turns that ended FAILED (the documented outcome when a turn's instance dies twice). */
  failedTurns: number;
  /** The slowest answer in ms: nothing hangs. */
  slowestMs: number;
}

export type ModelCalls = Record<string, { from: string; at: number }[]>;

interface Load {
  stop(): Promise<void>;
  figures: Omit<
    PhaseFigures,
    'lost' | 'duplicatedAnswers' | 'turns' | 'modelCalls' | 'takeoverCalls' | 'duplicatedModelCalls' | 'repeated' | 'failedTurns'
  >;
  acknowledgedRecords: Map<string, string[]>;
  turnTexts: { text: string; taskId?: string }[];
}

/** Between two requests of a worker; after a failure, a client's back-off. Two appenders at this pace stay under the per-token limit (1,200 a minute). */
const PAUSE_MS = 100;
const BACK_OFF_MS = 1000;
const REQUEST_LIMIT_MS = 90_000;

function startLoad(proxy: TestApp, who: TestUser, key: string, phase: string): Load {
  const figures: Load['figures'] = { sent: 0, acknowledged: 0, refused: {}, slowestMs: 0 };
  const acknowledgedRecords = new Map<string, string[]>();
  const turnTexts: Load['turnTexts'] = [];
  let running = true;

  /** One request: counted, timed, bounded (a hung request fails the phase instead of the run). */
  const send = async <T>(call: () => Promise<{ status: number; body?: T }>, ok: number) => {
    figures.sent++;
    const started = Date.now();
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`a request hung for ${REQUEST_LIMIT_MS} ms`)), REQUEST_LIMIT_MS).unref(),
    );
    try {
      const reply = await Promise.race([call(), timeout]);
      figures.slowestMs = Math.max(figures.slowestMs, Date.now() - started);
      if (reply.status === ok) figures.acknowledged++;
      else figures.refused[reply.status] = (figures.refused[reply.status] ?? 0) + 1;
      return reply;
    } catch (error) {
      if ((error as Error).message.includes('hung')) throw error;
      figures.slowestMs = Math.max(figures.slowestMs, Date.now() - started);
      figures.refused.network = (figures.refused.network ?? 0) + 1;
      return undefined;
    }
  };
  const pause = () => new Promise((resolve) => setTimeout(resolve, PAUSE_MS));

  const appender = async (worker: number) => {
    const id = newSessionId(`fault-${phase}-${worker}`);
    const acknowledged: string[] = [];
    acknowledgedRecords.set(id, acknowledged);
    let head: string | null = null;
    while (running) {
      const uuid = newUuid();
      const reply = await send(
        () =>
          proxy.call('PUT', `/api/trajectories/${encodeURIComponent(id)}/append`, {
            token: who.token,
            body: { base_uuid: head, records: [{ uuid, parentUuid: head, type: 'user', message: { content: `record ${uuid}` } }] },
          }),
        200,
      );
      if (reply?.status === 200) {
        acknowledged.push(uuid);
        head = uuid;
      } else {
        // Not acknowledged: it may have been written anyway (the answer lost). Sync from the head the service has.
        const meta = await proxy
          .call('GET', `/api/trajectories/${encodeURIComponent(id)}/meta`, { token: who.token })
          .catch(() => undefined);
        if (meta?.status === 200) head = meta.body.head_uuid;
        await new Promise((resolve) => setTimeout(resolve, BACK_OFF_MS));
      }
      await pause();
    }
  };

  const signer = async () => {
    while (running) {
      await send(() => proxy.call('POST', '/api/auth/login', { body: { email: who.email, password: FAULT_PASSWORD } }), 200);
      // Under the per-address sign-in limit (30 a minute).
      await new Promise((resolve) => setTimeout(resolve, 2_500));
    }
  };

  const asker = async (worker: number) => {
    for (let n = 0; running; n++) {
      const turn: Load['turnTexts'][number] = { text: `fault ${phase} turn ${worker}.${n} ${Math.random().toString(36).slice(2, 8)}` };
      turnTexts.push(turn);
      const reply = await send(async () => {
        const sent = await rpc(proxy, key, rpcCall(n, 'SendMessage', { message: userMessage(turn.text) }));
        // A JSON-RPC error is a refusal too, counted by its code.
        if (sent.status === 200 && sent.body.error) return { status: sent.body.error.code as number, body: sent.body };
        const task = sent.body?.result?.task;
        if (task) turn.taskId = task.id;
        return { status: task?.status?.state === 'TASK_STATE_COMPLETED' ? 200 : sent.status === 200 ? 202 : sent.status, body: sent.body };
      }, 200);
      if (reply?.status !== 200) await new Promise((resolve) => setTimeout(resolve, BACK_OFF_MS));
      await pause();
    }
  };

  const workers = [appender(1), appender(2), signer(), asker(1), asker(2)];
  return {
    figures,
    acknowledgedRecords,
    turnTexts,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

/** The password the load signs in with (set on the load's user by `faultRun`). */
const FAULT_PASSWORD = 'fault load pass phrase 0001';

interface FaultContext {
  stack: Stack;
  proxy: TestApp;
  world: { owner: TestUser; key: string };
  modelCalls: () => Promise<ModelCalls>;
}

/** Every task of the key, with its history (ListTasks, all pages). */
async function allTasks(proxy: TestApp, key: string) {
  const tasks: { id: string; status: { state: string }; history?: { role: string; parts: { text?: string }[] }[] }[] = [];
  let pageToken = '';
  do {
    const page = await rpc(proxy, key, rpcCall(1, 'ListTasks', { pageSize: 100, pageToken, historyLength: 20 }));
    tasks.push(...page.body.result.tasks);
    pageToken = page.body.result.nextPageToken ?? '';
  } while (pageToken);
  return tasks;
}

const TERMINAL = new Set(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED']);

/**
 * After a phase: every acknowledged record is there once; every turn sent has settled, each message
 * has at most one task with at most one answer; the model calls are each turn's one call, plus at
 * most one per turn whose call was in flight on the killed instance.
 */
async function settle(ctx: FaultContext, load: Load, killed?: { address: string; at: number }): Promise<PhaseFigures> {
  const { proxy, world } = ctx;
  let lost = 0;
  for (const [id, acknowledged] of load.acknowledgedRecords) {
    const read = await proxy.call('GET', `/api/trajectories/${encodeURIComponent(id)}`, {
      token: world.owner.token,
      query: { download: true },
    });
    if (read.status !== 200) throw new Error(`${id}: ${read.status} ${read.text}`);
    const uuids = read.text
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { uuid: string }).uuid);
    if (new Set(uuids).size !== uuids.length) throw new Error(`${id}: a record stored twice`);
    lost += acknowledged.filter((uuid) => !uuids.includes(uuid)).length;
  }

  const texts = new Set(load.turnTexts.map((turn) => turn.text));
  let tasks: Awaited<ReturnType<typeof allTasks>> = [];
  await until(
    "the phase's turns to settle",
    async () => {
      tasks = (await allTasks(proxy, world.key)).filter((task) => texts.has(task.history?.[0]?.parts?.[0]?.text ?? ''));
      return tasks.every((task) => TERMINAL.has(task.status.state));
    },
    { seconds: 180, intervalMs: 1000 },
  );
  const byText = new Map<string, typeof tasks>();
  for (const task of tasks) {
    const text = task.history![0].parts[0].text!;
    byText.set(text, [...(byText.get(text) ?? []), task]);
  }
  let duplicatedAnswers = 0;
  for (const found of byText.values()) {
    if (found.length > 1) duplicatedAnswers += found.length - 1;
    for (const task of found) if ((task.history ?? []).filter((message) => message.role === 'ROLE_AGENT').length > 1) duplicatedAnswers++;
  }
  const acknowledgedTurns = load.turnTexts.filter((turn) => turn.taskId);
  const completed = new Set(tasks.filter((task) => task.status.state === 'TASK_STATE_COMPLETED').map((task) => task.id));
  lost += acknowledgedTurns.filter((turn) => !completed.has(turn.taskId!)).length;

  const calls = await ctx.modelCalls();
  let modelCalls = 0;
  let takeoverCalls = 0;
  let duplicatedModelCalls = 0;
  const repeated: PhaseFigures['repeated'] = [];
  for (const text of texts) {
    const made = (calls[text] ?? []).sort((a, b) => a.at - b.at);
    modelCalls += made.length;
    const [first, ...again] = made;
    if (!again.length) continue;
    const takenOver = killed && first.from === killed.address && first.at <= killed.at;
    if (takenOver) takeoverCalls++;
    if (again.length > (takenOver ? 1 : 0))
      repeated.push({ text, calls: made.map(({ from, at }) => ({ from, at: killed ? at - killed.at : at })) });
    duplicatedModelCalls += again.length - (takenOver ? 1 : 0);
  }
  return {
    ...load.figures,
    lost,
    duplicatedAnswers,
    turns: texts.size,
    modelCalls,
    takeoverCalls,
    duplicatedModelCalls,
    repeated,
    failedTurns: tasks.filter((task) => task.status.state === 'TASK_STATE_FAILED').length,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The three faults, one after the other, each under its own load. */
export async function faultRun(ctx: FaultContext): Promise<Record<string, PhaseFigures>> {
  const { stack, proxy, world } = ctx;
  const link = await proxy.call('POST', `/api/admin/users/${world.owner.id}/password-link`, { token: proxy.adminToken });
  await proxy.call('POST', '/api/auth/password-link', { body: { token: link.body.url.split('#')[1], new_password: FAULT_PASSWORD } });
  const ready = () => untilReady(proxy.url);
  const figures: Record<string, PhaseFigures> = {};

  // 1. One instance killed (SIGKILL): the proxy fails over, its turns are taken over by the other.
  {
    const victim = stack.container('labdesk-1');
    const address = (await stack.engine$(['inspect', '-f', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', victim])).trim();
    const load = startLoad(proxy, world.owner, world.key, 'kill');
    await sleep(8_000);
    await stack.engine$(['kill', '--signal', 'KILL', victim]);
    // Dead by the time the command returns, not when it was sent: a call the victim made in between was in flight too.
    const at = Date.now();
    await sleep(20_000);
    await load.stop();
    figures['instance killed (SIGKILL)'] = await settle(ctx, load, { address, at });
    await stack.engine$(['start', victim]);
    await ready();
  }

  // 2. PostgreSQL restarted: 503 while it is down, then served again without restarting labdesk.
  {
    const load = startLoad(proxy, world.owner, world.key, 'postgres');
    await sleep(5_000);
    await stack.engine$(['stop', '-t', '10', stack.container('postgres')]);
    await sleep(8_000);
    await stack.engine$(['start', stack.container('postgres')]);
    await ready();
    await sleep(8_000);
    await load.stop();
    figures['PostgreSQL restarted'] = await settle(ctx, load);
  }

  // 3. Redis stopped: limits counted in each instance's memory, events re-read from PostgreSQL; nothing hangs.
  {
    const load = startLoad(proxy, world.owner, world.key, 'redis');
    await sleep(5_000);
    await stack.engine$(['stop', '-t', '5', stack.container('redis')]);
    await sleep(15_000);
    await stack.engine$(['start', stack.container('redis')]);
    await sleep(5_000);
    await load.stop();
    figures['Redis stopped, then started'] = await settle(ctx, load);
  }
  return figures;
}
