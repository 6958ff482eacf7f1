import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { ChildServer, startChildServer } from './support/child';
import { labOfTwo, makeUser, Reply, startTestApp, TestApp, TestLab, TestUser, useTestApp } from './support/app';
import { createTestDatabase, query } from './support/databases';
import { useFakeLlm, SeenRequest, Step } from './support/fake-llm';
import { newSessionId, newUuid, sessionPath, trajectoryCalls } from './support/trajectories';

/**
 * Model summaries made by durable background jobs (pg-boss on the test database), against the
 * scripted model server over loopback: the lifecycle pending → ready → stale → refreshed, chunking
 * within the window with one ledger row per call, retries then a dead job whose error the owner
 * sees, a job taken over by another instance after a stop, and two instances refreshing the same
 * session without ever running it twice at once.
 */

/** Not in the catalog: the service assumes an 8,192-token window, so long sessions are chunked. */
const MODEL = 'summary-test-model';
const WINDOW_CHARS = (8192 - 1024) * 3;

/** The session a prompt is about (each prompt names it right before its data block). */
const sessionOf = (request: SeenRequest) =>
  /session (\S+) \(data/.exec(request.body.messages[request.body.messages.length - 1].content)?.[1] ?? '';
const isCombine = (request: SeenRequest) => request.body.messages[0].content.includes('You combine summaries');
const promptChars = (request: SeenRequest) => request.body.messages.reduce((sum, m) => sum + m.content.length, 0);

/** How the scripted model answers a session's calls: a summary (optionally slow), a 500, or no answer at all. */
const behaviour = new Map<string, 'fail' | 'hang' | 'hang-once' | 'slow' | 'verbose'>();
/** Sessions whose calls are answered only once their gate opens (so a test sees the job still running). */
const gates = new Map<string, Promise<void>>();

/** Holds the answers to `session`'s calls until the returned function is called. */
function gate(session: string): () => void {
  let open!: () => void;
  gates.set(session, new Promise<void>((resolve) => (open = resolve)));
  return () => {
    open();
    gates.delete(session);
  };
}
/** Summary calls in flight per session, and the most seen at once. */
const inFlight = new Map<string, number>();
const mostAtOnce = new Map<string, number>();
const SLOW_MS = 150;

function scriptedModel(request: SeenRequest): Step {
  const session = sessionOf(request);
  const mode = behaviour.get(session);
  if (mode === 'fail') return { kind: 'status', status: 500 };
  if (mode === 'hang') return { kind: 'hang' };
  if (mode === 'hang-once') {
    behaviour.delete(session);
    return { kind: 'hang' };
  }
  const text = isCombine(request)
    ? `combined summary of ${session}`
    : `part summary of ${session}${mode === 'verbose' ? ` "<quoted>" ${'z'.repeat(5000)}` : ''}`;
  const answer: Step = { kind: 'answer', text, tokensIn: Math.ceil(promptChars(request) / 4), tokensOut: 40, after: gates.get(session) };
  if (mode !== 'slow') return answer;
  // Counted from arrival until just before the answer is written (this timer fires before the server's).
  const now = (inFlight.get(session) ?? 0) + 1;
  inFlight.set(session, now);
  mostAtOnce.set(session, Math.max(mostAtOnce.get(session) ?? 0, now));
  setTimeout(() => inFlight.set(session, inFlight.get(session)! - 1), SLOW_MS);
  return { ...answer, delayMs: SLOW_MS };
}

const { env, fake } = useFakeLlm(scriptedModel, {
  LLM_PROVIDER: 'openai',
  LLM_MODEL: MODEL,
  LLM_API_KEY: 'sk-test-key',
  LLM_TIMEOUT_SECONDS: '30',
  LLM_MAX_RETRIES: '0',
  SUMMARY_JOB_RETRIES: '1',
  SUMMARY_JOB_RETRY_DELAY_SECONDS: '1',
  SUMMARY_JOB_TIMEOUT_SECONDS: '60',
});

const t = useTestApp(env);
const { append, setVisibility } = trajectoryCalls(t);

let lab: TestLab;
let owner: TestUser;
let member: TestUser;

beforeAll(async () => {
  ({ lab, owner, member } = await labOfTwo(t));
});

const summary = (app: TestApp, who: TestUser, id: string) => app.call('GET', sessionPath(id, '/summary'), { token: who.token });
const refresh = (app: TestApp, who: TestUser, id: string) => app.call('POST', sessionPath(id, '/summary/refresh'), { token: who.token });

/** Polls GET …/summary until it is no longer pending (at most about a minute of short sleeps). */
async function settled(app: TestApp, who: TestUser, id: string): Promise<Reply> {
  for (let i = 0; i < 300; i++) {
    const reply = await summary(app, who, id);
    expect(reply.status).toBe(200);
    if (reply.body.status !== 'pending') return reply;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the summary of ${id} stayed pending`);
}

/** A session of `count` records of about `size` characters each, shared with the lab; answers its records' uuids. */
async function makeSession(count: number, size = 100): Promise<{ id: string; uuids: string[] }> {
  const id = newSessionId();
  const uuids: string[] = [];
  const records = [];
  for (let i = 0; i < count; i++) {
    const uuid = newUuid();
    records.push({
      uuid,
      parentUuid: uuids[i - 1] ?? null,
      type: i % 2 ? 'assistant' : 'user',
      message: { content: `step ${i} ${'y'.repeat(size)}` },
    });
    uuids.push(uuid);
  }
  expect((await append(owner, id, null, records, { lab_id: lab.id })).status).toBe(200);
  expect((await setVisibility(owner, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
  return { id, uuids };
}

const callsFor = (id: string) => fake.seen.filter((request) => sessionOf(request) === id);

test('refresh → pending → ready; appends make it stale; refresh again → ready with the new head', async () => {
  const { id, uuids } = await makeSession(4);
  const release = gate(id);
  const refreshed = await refresh(t, owner, id);
  expect(refreshed).toMatchObject({ status: 200, body: { status: 'pending' } });
  expect((await summary(t, owner, id)).body).toEqual({ enabled: true, status: 'pending' });
  release();

  const ready = await settled(t, owner, id);
  expect(ready.body).toEqual({
    enabled: true,
    status: 'ready',
    summary: { text: `part summary of ${id}`, head_uuid: uuids[3], generated_at: expect.any(String) },
    stale: false,
  });
  // A short session is one call, with the whole-session instructions.
  expect(callsFor(id)).toHaveLength(1);
  expect(callsFor(id)[0].body.messages[0].content).toContain('You summarise one recorded session');
  // Anyone who may view the session reads it.
  expect((await summary(t, member, id)).body).toEqual(ready.body);

  const added = newUuid();
  expect(
    (await append(owner, id, uuids[3], [{ uuid: added, parentUuid: uuids[3], type: 'user', message: { content: 'one more step' } }]))
      .status,
  ).toBe(200);
  expect((await summary(t, owner, id)).body).toMatchObject({ status: 'ready', summary: { head_uuid: uuids[3] }, stale: true });

  expect((await refresh(t, owner, id)).body).toEqual({ status: 'pending' });
  const again = await settled(t, owner, id);
  expect(again.body).toMatchObject({ enabled: true, status: 'ready', summary: { head_uuid: added }, stale: false });
  expect(callsFor(id)).toHaveLength(2);
  expect(callsFor(id)[1].body.messages[1].content).toContain('one more step');
});

test('POST …/summary {parent_uuid} with a provider: the model summarises the records up to parent_uuid, and the record is appended', async () => {
  const { id, uuids } = await makeSession(5);
  const reply = await t.call('POST', sessionPath(id, '/summary'), { token: owner.token, body: { parent_uuid: uuids[2] } });
  expect(reply.status).toBe(201);
  expect(reply.body).toEqual({
    type: 'summary',
    uuid: expect.any(String),
    parentUuid: uuids[2],
    summary: `part summary of ${id}`,
    leafUuid: uuids[2],
  });
  const [call] = callsFor(id);
  expect(callsFor(id)).toHaveLength(1);
  // Records 1-3 only, quoted inside the data block.
  const ask = call.body.messages[1].content;
  expect(ask).toContain('Records 1 to 3 of session');
  expect(ask.slice(ask.indexOf('<session-records>'), ask.indexOf('</session-records>'))).toMatch(/step 0 .*\n.*step 1 .*\n.*step 2 /);
  expect(ask).not.toContain('step 3 ');
  expect(await t.sql(`select user_id, feature, outcome from usage_entries where session_id = $1 and source = 'model_call'`, [id])).toEqual([
    { user_id: owner.id, feature: 'summary', outcome: 'ok' },
  ]);
  expect((await t.call('GET', sessionPath(id, '/meta'), { token: owner.token })).body).toMatchObject({ head_uuid: reply.body.uuid });
  // A member cannot append one.
  expect((await t.call('POST', sessionPath(id, '/summary'), { token: member.token, body: { parent_uuid: uuids[2] } })).status).toBe(403);
});

test('records appended while a job runs, then a refresh: the queued job runs after it and the summary ends fresh', async () => {
  const { id, uuids } = await makeSession(3);
  const release = gate(id);
  await refresh(t, owner, id);
  for (let i = 0; i < 100 && callsFor(id).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const added = newUuid();
  expect(
    (
      await append(owner, id, uuids[2], [
        { uuid: added, parentUuid: uuids[2], type: 'user', message: { content: 'appended during the run' } },
      ])
    ).status,
  ).toBe(200);
  expect((await refresh(t, owner, id)).body).toEqual({ status: 'pending' });
  expect((await refresh(t, owner, id)).body).toEqual({ status: 'pending' });
  // One running, one queued behind it: the third refresh added nothing.
  expect(await t.sql(`select state from pgboss.job where singleton_key = $1 order by created_on`, [id])).toEqual([
    { state: 'active' },
    { state: 'created' },
  ]);
  release();
  const ready = await settled(t, owner, id);
  expect(ready.body).toMatchObject({ status: 'ready', summary: { head_uuid: added }, stale: false });
  expect(callsFor(id)).toHaveLength(2);
  expect(callsFor(id)[0].body.messages[1].content).not.toContain('appended during the run');
  expect(callsFor(id)[1].body.messages[1].content).toContain('appended during the run');
});

test('a GET with nothing cached and no job queues one (pending means a job will run); a second GET does not queue another', async () => {
  const { id } = await makeSession(3);
  const release = gate(id);
  expect((await summary(t, member, id)).body).toEqual({ enabled: true, status: 'pending' });
  expect((await summary(t, member, id)).body).toEqual({ enabled: true, status: 'pending' });
  expect(await t.sql(`select count(*)::int as n from pgboss.job where singleton_key = $1`, [id])).toEqual([{ n: 1 }]);
  release();
  expect((await settled(t, member, id)).body).toMatchObject({ status: 'ready', stale: false });
  expect(callsFor(id)).toHaveLength(1);
  // Paid by the owner, whoever asked.
  const rows = await t.sql(`select user_id from usage_entries where session_id = $1 and feature = 'summary'`, [id]);
  expect(rows).toEqual([{ user_id: owner.id }]);
});

test('only the owner refreshes: a lab member gets 403, an outsider 404, and nothing is queued', async () => {
  const { id } = await makeSession(2);
  const outsider = await makeUser(t);
  expect((await refresh(t, member, id)).status).toBe(403);
  expect((await refresh(t, outsider, id)).status).toBe(404);
  expect((await summary(t, outsider, id)).status).toBe(404);
  expect(await t.sql(`select count(*)::int as n from pgboss.job where singleton_key = $1`, [id])).toEqual([{ n: 0 }]);
});

test('a long session: several chunk calls then a combine call, every prompt within the window; one ledger row per call with the reported usage', async () => {
  const { id, uuids } = await makeSession(80, 1000);
  await refresh(t, owner, id);
  const ready = await settled(t, owner, id);
  expect(ready.body).toMatchObject({ status: 'ready', summary: { text: `combined summary of ${id}`, head_uuid: uuids[79] }, stale: false });

  const calls = callsFor(id);
  const chunks = calls.filter((request) => !isCombine(request));
  const combines = calls.filter(isCombine);
  expect(chunks.length).toBeGreaterThanOrEqual(3);
  expect(combines).toHaveLength(1);
  expect(calls[calls.length - 1]).toBe(combines[0]);
  for (const request of calls) expect(promptChars(request)).toBeLessThanOrEqual(WINDOW_CHARS);
  // Every record was read once, in order: the chunks' record ranges tile 1..80.
  const ranges = chunks.map((request) => /Records (\d+) to (\d+) of session/.exec(request.body.messages[1].content)!.slice(1).map(Number));
  expect(ranges[0][0]).toBe(1);
  expect(ranges[ranges.length - 1][1]).toBe(80);
  for (let i = 1; i < ranges.length; i++) expect(ranges[i][0]).toBe(ranges[i - 1][1] + 1);
  // The combine call quotes each part's summary as data.
  expect(combines[0].body.messages[1].content.match(/part summary of/g)).toHaveLength(chunks.length);

  const rows = await t.sql<{ user_id: string; feature: string; model: string; tokens_in: string; tokens_out: string; outcome: string }>(
    `select user_id, feature, model, tokens_in, tokens_out, outcome from usage_entries where session_id = $1 and source = 'model_call' order by id`,
    [id],
  );
  expect(rows).toEqual(
    calls.map((request) => ({
      user_id: owner.id,
      feature: 'summary',
      model: `openai/${MODEL}`,
      tokens_in: String(Math.ceil(promptChars(request) / 4)),
      tokens_out: '40',
      outcome: 'ok',
    })),
  );
});

test('part summaries too long to combine at once are combined in groups, then the groups; every prompt within the window', async () => {
  const { id } = await makeSession(80, 1000);
  behaviour.set(id, 'verbose');
  await refresh(t, owner, id);
  expect((await settled(t, owner, id)).body).toMatchObject({ status: 'ready', summary: { text: `combined summary of ${id}` } });
  const calls = callsFor(id);
  const chunks = calls.filter((request) => !isCombine(request)).length;
  const combines = calls.filter(isCombine).length;
  // Each part (over 5,000 characters, cut to a third of the room) does not fit with all the others: more than one round.
  expect(combines).toBeGreaterThanOrEqual(2);
  expect(combines).toBeLessThan(chunks);
  expect(isCombine(calls[calls.length - 1])).toBe(true);
  for (const request of calls) expect(promptChars(request)).toBeLessThanOrEqual(WINDOW_CHARS);
});

test('a session longer than 24 chunks: its first 12 and last 12 chunks are read, the combine is told how many records were not', async () => {
  const { id, uuids } = await makeSession(700, 1000);
  await refresh(t, owner, id);
  expect((await settled(t, owner, id)).body).toMatchObject({ status: 'ready', summary: { head_uuid: uuids[699] } });
  const calls = callsFor(id);
  const ranges = calls
    .filter((request) => !isCombine(request))
    .map((request) => /Records (\d+) to (\d+) of session/.exec(request.body.messages[1].content)!.slice(1).map(Number));
  expect(ranges).toHaveLength(24);
  expect(ranges[0][0]).toBe(1);
  expect(ranges[23][1]).toBe(700);
  const skipped = ranges[12][0] - ranges[11][1] - 1;
  expect(skipped).toBeGreaterThan(0);
  expect(calls.filter(isCombine)).toHaveLength(1);
  expect(calls[calls.length - 1].body.messages[1].content).toContain(`${skipped} records between part 12 and part 13 were not read`);
  expect(calls.length).toBeLessThanOrEqual(47);
});

test('a model that fails every time: retried, then failed with an error naming provider and model; a refresh with the model healthy → ready', async () => {
  const { id } = await makeSession(3);
  behaviour.set(id, 'fail');
  await refresh(t, owner, id);
  const failed = await settled(t, owner, id);
  expect(failed.body).toEqual({ enabled: true, status: 'failed', error: `openai model ${MODEL} failed: HTTP 500 after 1 attempt` });
  // 1 + SUMMARY_JOB_RETRIES attempts, each one error row in the ledger.
  expect(callsFor(id)).toHaveLength(2);
  expect(await t.sql(`select outcome from usage_entries where session_id = $1 and feature = 'summary'`, [id])).toEqual([
    { outcome: 'error' },
    { outcome: 'error' },
  ]);
  // A dead job is not queued again by reading it.
  expect((await summary(t, member, id)).body).toMatchObject({ status: 'failed' });
  expect(callsFor(id)).toHaveLength(2);

  behaviour.delete(id);
  expect((await refresh(t, owner, id)).body).toEqual({ status: 'pending' });
  expect((await settled(t, owner, id)).body).toMatchObject({ status: 'ready', summary: { text: `part summary of ${id}` }, stale: false });
}, 60_000);

test('an instance stopped while its job waits on the model: a new instance on the same database finishes the summary', async () => {
  const database = await createTestDatabase();
  const shared = {
    databaseUrl: database.url,
    adminToken: `ldk_pat_testadmin${process.pid}xrestartxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`,
  } as TestApp;
  let first: TestApp | undefined;
  let second: TestApp | undefined;
  try {
    // The model call would wait 30 s: only the stop ends it.
    first = await startTestApp({ ...env, LLM_TIMEOUT_SECONDS: '30' }, { sameDatabaseAs: shared });
    const user = await makeUser(first);
    const id = newSessionId();
    const head = newUuid();
    expect(
      (
        await first.call('PUT', sessionPath(id, '/append'), {
          token: user.token,
          body: { base_uuid: null, records: [{ uuid: head, parentUuid: null, type: 'user', message: { content: 'restart me' } }] },
        })
      ).status,
    ).toBe(200);
    behaviour.set(id, 'hang');
    expect((await refresh(first, user, id)).body).toEqual({ status: 'pending' });
    for (let i = 0; i < 100 && callsFor(id).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(callsFor(id)).toHaveLength(1);
    await first.close();
    first = undefined;

    behaviour.delete(id);
    second = await startTestApp(env, { sameDatabaseAs: shared });
    const ready = await settled(second, user, id);
    expect(ready.body).toMatchObject({
      enabled: true,
      status: 'ready',
      summary: { text: `part summary of ${id}`, head_uuid: head },
      stale: false,
    });
    expect(callsFor(id)).toHaveLength(2);
  } finally {
    await first?.close();
    await second?.close();
    await database.drop();
  }
}, 60_000);

test('two instances, many refreshes of one session from both: never two runs of it at once, and it ends ready', async () => {
  const other = await startTestApp(env, { sameDatabaseAs: t });
  try {
    // Two chunks and a combine per run: a run is several calls, so an overlap of runs would show.
    const { id, uuids } = await makeSession(30, 1000);
    behaviour.set(id, 'slow');
    for (let round = 0; round < 6; round++) {
      const replies = await Promise.all([
        refresh(t, owner, id),
        refresh(other, owner, id),
        refresh(t, owner, id),
        refresh(other, owner, id),
      ]);
      for (const reply of replies) expect(reply.body).toEqual({ status: 'pending' });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const ready = await settled(other, owner, id);
    expect(ready.body).toMatchObject({
      status: 'ready',
      summary: { text: `combined summary of ${id}`, head_uuid: uuids[29] },
      stale: false,
    });
    expect((await summary(t, owner, id)).body).toEqual(ready.body);
    expect(mostAtOnce.get(id)).toBe(1);
    // 24 refreshes made far fewer runs: at most one queued behind the running one.
    const runs = callsFor(id).filter(isCombine).length;
    expect(runs).toBeGreaterThanOrEqual(1);
    expect(runs).toBeLessThan(24);
  } finally {
    await other.close();
  }
}, 60_000);

test('a session whose job runs with another queued behind it does not hold up other sessions', async () => {
  const stuck = await makeSession(2);
  // Its model call does not answer (until the app stops): its job stays running, and a refresh queues a second one.
  behaviour.set(stuck.id, 'hang');
  await refresh(t, owner, stuck.id);
  for (let i = 0; i < 100 && callsFor(stuck.id).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  await refresh(t, owner, stuck.id);
  expect(await t.sql(`select state from pgboss.job where singleton_key = $1 order by created_on`, [stuck.id])).toEqual([
    { state: 'active' },
    { state: 'created' },
  ]);

  const other = await makeSession(2);
  await refresh(t, owner, other.id);
  expect((await settled(t, owner, other.id)).body).toMatchObject({ status: 'ready', stale: false });
  expect((await summary(t, owner, stuck.id)).body).toEqual({ enabled: true, status: 'pending' });
  expect(callsFor(stuck.id)).toHaveLength(1);
});

test('an attempt past SUMMARY_JOB_TIMEOUT_SECONDS is cancelled and retried: the retry makes the summary', async () => {
  // This instance's jobs carry a 2 s time-out, whichever instance runs them; the model call alone would wait 30 s.
  const short = await startTestApp({ ...env, SUMMARY_JOB_TIMEOUT_SECONDS: '2', LLM_TIMEOUT_SECONDS: '30' }, { sameDatabaseAs: t });
  try {
    const { id, uuids } = await makeSession(3);
    behaviour.set(id, 'hang-once');
    expect((await refresh(short, owner, id)).body).toEqual({ status: 'pending' });
    const ready = await settled(short, owner, id);
    expect(ready.body).toMatchObject({ status: 'ready', summary: { text: `part summary of ${id}`, head_uuid: uuids[2] }, stale: false });
    expect(callsFor(id)).toHaveLength(2);
    // The cancelled call is an error row; the retry's an ok row.
    expect(await t.sql(`select outcome from usage_entries where session_id = $1 and feature = 'summary' order by id`, [id])).toEqual([
      { outcome: 'error' },
      { outcome: 'ok' },
    ]);
  } finally {
    await short.close();
  }
}, 60_000);

test('an instance killed while its job runs (no stop): after the time-out another instance takes the job over and finishes it', async () => {
  const database = await createTestDatabase();
  const adminToken = `ldk_pat_testadmin${process.pid}xkilledxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-test-'));
  // A 3 s time-out: the job's row expires 3 s after it started, and maintenance runs every 3 s.
  const jobEnv = { ...env, SUMMARY_JOB_TIMEOUT_SECONDS: '3', LLM_TIMEOUT_SECONDS: '30' };
  let child: ChildServer | undefined;
  let survivor: TestApp | undefined;
  try {
    child = await startChildServer({ ...jobEnv, DATABASE_URL: database.url, DATA_DIR: dataDir, BOOTSTRAP_ADMIN_TOKEN: adminToken });
    const killed = { databaseUrl: database.url, adminToken, call: child.call } as unknown as TestApp;
    const user = await makeUser(killed);
    const id = newSessionId();
    const head = newUuid();
    expect(
      (
        await killed.call('PUT', sessionPath(id, '/append'), {
          token: user.token,
          body: { base_uuid: null, records: [{ uuid: head, parentUuid: null, type: 'user', message: { content: 'survive me' } }] },
        })
      ).status,
    ).toBe(200);
    behaviour.set(id, 'hang');
    expect((await refresh(killed, user, id)).body).toEqual({ status: 'pending' });
    for (let i = 0; i < 100 && callsFor(id).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(callsFor(id)).toHaveLength(1);
    await child.kill();
    // The job is still `active` in the table: nothing ran its stop. Should this have been its last attempt, its error says why.
    expect(await query(database.url, `select state from pgboss.job where singleton_key = $1`, [id])).toEqual([{ state: 'active' }]);
    expect(await query(database.url, `select summary_error from trajectories where id = $1`, [id])).toEqual([
      { summary_error: 'the summary did not finish: the instance making it stopped' },
    ]);

    behaviour.delete(id);
    survivor = await startTestApp(jobEnv, { sameDatabaseAs: { databaseUrl: database.url, adminToken } as TestApp });
    const ready = await settled(survivor, user, id);
    expect(ready.body).toMatchObject({
      enabled: true,
      status: 'ready',
      summary: { text: `part summary of ${id}`, head_uuid: head },
      stale: false,
    });
    expect(callsFor(id)).toHaveLength(2);
  } finally {
    await child?.kill();
    await survivor?.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);

test('without a provider: GET says enabled false, refresh only drops the cache (no job), POST …/summary is extractive', async () => {
  const withoutModel = { ...env };
  delete withoutModel.LLM_PROVIDER;
  delete withoutModel.LLM_MODEL;
  const plain = await startTestApp(withoutModel, { sameDatabaseAs: t });
  try {
    const { id, uuids } = await makeSession(3);
    expect((await summary(plain, member, id)).body).toEqual({
      enabled: false,
      reason: 'no language model is configured (LLM_PROVIDER is unset)',
    });
    expect((await refresh(plain, owner, id)).body).toEqual({ status: 'pending' });
    expect(await t.sql(`select count(*)::int as n from pgboss.job where singleton_key = $1`, [id])).toEqual([{ n: 0 }]);
    const appended = await plain.call('POST', sessionPath(id, '/summary'), { token: owner.token, body: { parent_uuid: uuids[2] } });
    expect(appended.status).toBe(201);
    expect(appended.body.summary).toMatch(/^Task: step 0 y+\nSteps: 3 records, 0 tool calls, 0 failures\.\nLatest answer: step 1 y+$/);
    expect(callsFor(id)).toHaveLength(0);
  } finally {
    await plain.close();
  }
});

test('SUMMARY_JOB_* settings: defaults, and out-of-range values stop the start naming the setting', () => {
  expect(loadConfig({}).summaryJobs).toEqual({ timeoutSeconds: 1800, retries: 3, retryDelaySeconds: 30 });
  expect(
    loadConfig({ SUMMARY_JOB_TIMEOUT_SECONDS: '5', SUMMARY_JOB_RETRIES: '0', SUMMARY_JOB_RETRY_DELAY_SECONDS: '1' }).summaryJobs,
  ).toEqual({ timeoutSeconds: 5, retries: 0, retryDelaySeconds: 1 });
  expect(() => loadConfig({ SUMMARY_JOB_TIMEOUT_SECONDS: '0' })).toThrow('SUMMARY_JOB_TIMEOUT_SECONDS must be a positive integer');
  expect(() => loadConfig({ SUMMARY_JOB_TIMEOUT_SECONDS: '86400' })).toThrow('SUMMARY_JOB_TIMEOUT_SECONDS must be less than 86400');
  expect(() => loadConfig({ SUMMARY_JOB_RETRIES: '11' })).toThrow('SUMMARY_JOB_RETRIES must be an integer 0-10 (got "11")');
  expect(() => loadConfig({ SUMMARY_JOB_RETRIES: '-1' })).toThrow('SUMMARY_JOB_RETRIES must be an integer 0-10 (got "-1")');
  expect(() => loadConfig({ SUMMARY_JOB_RETRY_DELAY_SECONDS: 'soon' })).toThrow(
    'SUMMARY_JOB_RETRY_DELAY_SECONDS must be a positive integer',
  );
});
