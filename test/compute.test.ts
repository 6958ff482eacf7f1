import type { EntityManager } from '@mikro-orm/postgresql';
import fs from 'node:fs';
import { Client } from 'pg';
import { meterOnce } from '../src/modules/compute/compute.service';
import { meterPass } from '../src/modules/compute/meter';
import type { LeaseChanged } from '../src/pubsub';
import { makeUser, Reply, startTestApp, TestApp, TestUser, useTestApp } from './support/app';
import { newSessionId, newUuid, trajectoryCalls } from './support/trajectories';
import { until } from './support/until';

/**
 * Sandbox compute (docs/api/compute.md): plans, leases, the credits ledger and the meter.
 *
 * Time is injected: every test moves `services.clock.now` itself and runs meter passes with
 * `meterOnce(em, at)`; the app's own meter timer (60 s) never fires within this file.
 */
const IDLE_MINUTES = 30;
const BOOTSTRAP_MINUTES = 10;
const t = useTestApp({
  METER_INTERVAL_SECONDS: '60',
  LEASE_IDLE_MINUTES: String(IDLE_MINUTES),
  LEASE_BOOTSTRAP_MINUTES: String(BOOTSTRAP_MINUTES),
  COMPUTE_PROVIDER: 'manual',
  // The concurrent meter tests hold 25 open leases per user; the cap has its own tests below.
  COMPUTE_MAX_OPEN_LEASES: '25',
});

const MINUTE = 60_000;
/** The default machine: 2 CPUs × 0.01 + 8 GB × 0.0025 credits per minute. */
const DEFAULT_RATE = 0.04;
/** The same with a GPU (+0.5). */
const GPU_RATE = 0.54;
const GPU_MACHINE = { cpus: 2, memory_gb: 8, gpu: true };

/** Credits carry four decimals. */
const r4 = (value: number) => Math.round(value * 1e4) / 1e4;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

let era = 0;
/**
 * A test's own stretch of time, a week after the previous test's: leases left over by earlier
 * tests are long idle by then, and a pass at a later time never reaches back into this one.
 */
function timeline() {
  const base = Date.UTC(2031, 0, 6, 9, 0, 0) + ++era * 7 * 24 * 60 * MINUTE;
  const at = (minutes: number) => new Date(base + minutes * MINUTE);
  return {
    at,
    iso: (minutes: number) => at(minutes).toISOString(),
    /** Moves the service's clock. */
    now(minutes: number) {
      const fixed = at(minutes);
      t.app.services.clock.now = () => new Date(fixed);
    },
    meter: (minutes: number) => meterOnce(forkEm(), at(minutes)),
  };
}

const forkEm = () => t.app.services.orm.em.fork() as EntityManager;

// ---------------------------------------------------------------------------------------------
// API helpers

interface Plan {
  plan_id: number;
  status: string;
  spend_ceiling_credits: number;
  token_charge: { tokens_in: number; tokens_out: number; credits: number };
  machine: { cpus: number; memory_gb: number; gpu: boolean; rate_credits_per_minute: number };
  [key: string]: unknown;
}

async function draft(user: TestUser, body: Record<string, unknown> = { goal: 'Align the reads. Call variants.' }): Promise<Plan> {
  const reply = await t.call('POST', '/api/compute/plans', { token: user.token, body });
  if (reply.status !== 201) throw new Error(`draft: ${reply.status} ${reply.text}`);
  return reply.body;
}

const approve = (user: TestUser, planId: number) => t.call('POST', `/api/compute/plans/${planId}/approve`, { token: user.token });
const decline = (user: TestUser, planId: number) => t.call('POST', `/api/compute/plans/${planId}/decline`, { token: user.token });
const directSession = (user: TestUser, body: Record<string, unknown> = {}) =>
  t.call('POST', '/api/compute/sessions', { token: user.token, body });
const bootstrap = (claimToken: string) => t.call('POST', '/api/compute/bootstrap', { body: { claim_token: claimToken } });
const getSession = (user: TestUser, leaseId: number) => t.call('GET', `/api/compute/sessions/${leaseId}`, { token: user.token });
const release = (user: TestUser, leaseId: number) => t.call('DELETE', `/api/compute/sessions/${leaseId}`, { token: user.token });
const topUp = (user: TestUser, leaseId: number, credits: number) =>
  t.call('POST', `/api/compute/sessions/${leaseId}/topup`, { token: user.token, body: { credits } });
const grant = (userId: string, credits: number, reason = 'test grant') =>
  t.call('POST', `/api/admin/users/${userId}/credits`, { token: t.adminToken, body: { credits, reason } });

/** A heartbeat with the process token as the bearer (default) or in the body. */
function heartbeat(leaseId: number, processToken: string | undefined, active = true, via: 'bearer' | 'body' = 'bearer') {
  return via === 'bearer'
    ? t.call('POST', `/api/compute/sessions/${leaseId}/heartbeat`, { token: processToken, body: { active } })
    : t.call('POST', `/api/compute/sessions/${leaseId}/heartbeat`, { body: { active, process_token: processToken } });
}

async function creditsOf(user: TestUser) {
  const reply = await t.call('GET', '/api/compute/credits', { token: user.token });
  if (reply.status !== 200) throw new Error(`credits: ${reply.status} ${reply.text}`);
  return reply.body;
}

/** Approves a plan and bootstraps its lease: a ready lease with its process token. */
async function readyLease(user: TestUser, plan: Plan) {
  const approved = await approve(user, plan.plan_id);
  if (approved.status !== 201) throw new Error(`approve: ${approved.status} ${approved.text}`);
  const booted = await bootstrap(approved.body.claim_token);
  if (booted.status !== 200) throw new Error(`bootstrap: ${booted.status} ${booted.text}`);
  return { leaseId: approved.body.lease_id as number, processToken: booted.body.process_token as string, lease: approved.body };
}

/**
 * The ledger holds: the sum of a user's credit entries is their balance, and their reservation
 * is what the ceilings of their open leases have not spent yet.
 */
async function expectLedgerConsistent(userId: string) {
  const [row] = await t.sql<{ balance: number; reserved: number; ledger: number; open_reservations: number }>(
    `select a.balance::float8 as balance, a.reserved::float8 as reserved,
            (select coalesce(sum(e.credits), 0)::float8 from credit_entries e where e.user_id = a.user_id) as ledger,
            (select coalesce(sum(l.ceiling_credits - l.spent_credits), 0)::float8 from compute_leases l
              where l.user_id = a.user_id and l.ceiling_credits is not null and l.state in ('awaiting_sandbox', 'ready', 'paused')) as open_reservations
       from credit_accounts a where a.user_id = $1`,
    [userId],
  );
  expect({ ledger: r4(row.ledger), reserved: r4(row.open_reservations) }).toEqual({ ledger: r4(row.balance), reserved: r4(row.reserved) });
  return row;
}

/** Balance and reservation as the API shows them, rounded to the four decimals credits carry. */
async function money(user: TestUser) {
  const credits = await creditsOf(user);
  return { balance: r4(credits.balance_credits), reserved: r4(credits.reserved_credits) };
}

async function entries(userId: string) {
  return t.sql<{ kind: string; credits: number; reserved: number; lease_id: number | null; plan_id: number | null; reason: string | null }>(
    `select kind, credits::float8 as credits, reserved::float8 as reserved, lease_id, plan_id, reason from credit_entries where user_id = $1 order by id`,
    [userId],
  );
}

const expectStatus = (reply: Reply, status: number) => expect({ status: reply.status, body: reply.body }).toMatchObject({ status });

// ---------------------------------------------------------------------------------------------

describe('the lease state table', () => {
  test('draft → approve → bootstrap → ready → ceiling → paused → top-up → ready → release, with exact credits', async () => {
    const tl = timeline();
    const user = await makeUser(t);
    expect(await money(user)).toEqual({ balance: 10, reserved: 0 });
    expect((await t.call('GET', '/api/compute/plans/current', { token: user.token })).status).toBe(204);
    expect((await t.call('GET', '/api/compute/sessions/current', { token: user.token })).status).toBe(204);

    // Draft: a quote at the default machine rate; only the token line is charged.
    tl.now(0);
    const plan = await draft(user, { goal: 'Align the reads. Call variants.' });
    expect(plan).toMatchObject({
      plan_id: expect.any(Number),
      status: 'awaiting_decision',
      goal: 'Align the reads. Call variants.',
      steps: ['Prepare the workspace', 'Run: Align the reads', 'Run: Call variants', 'Collect outputs and figures'],
      machine: { cpus: 2, memory_gb: 8, gpu: false, rate_credits_per_minute: DEFAULT_RATE },
      estimated_minutes: 10,
      estimated_credits: 0.4,
      spend_ceiling_credits: 0.6,
      token_charge: { tokens_in: expect.any(Number), tokens_out: expect.any(Number), credits: expect.any(Number) },
    });
    const c = plan.token_charge.credits;
    expect(c).toBeGreaterThan(0);
    expect(c).toBe(r4(((plan.token_charge.tokens_in + plan.token_charge.tokens_out) / 1000) * 0.002));
    const current = await t.call('GET', '/api/compute/plans/current', { token: user.token });
    expect(current.status).toBe(200);
    expect(current.body).toEqual(plan);
    expect(await creditsOf(user)).toEqual({
      balance_credits: r4(10 - c),
      reserved_credits: 0,
      token_line: { tokens_in: plan.token_charge.tokens_in, tokens_out: plan.token_charge.tokens_out, credits: c },
      leases: [],
    });

    // Approve: the ceiling is reserved, the lease waits for its sandbox; the claim token is shown once.
    const approved = await approve(user, plan.plan_id);
    expect(approved.status).toBe(201);
    expect(approved.body).toMatchObject({
      lease_id: expect.any(Number),
      plan_id: plan.plan_id,
      state: 'awaiting_sandbox',
      provider: 'manual',
      machine: plan.machine,
      ceiling_credits: 0.6,
      spent_credits: 0,
      balance_credits: r4(10 - c - 0.6),
      idle_expires_at: tl.iso(IDLE_MINUTES),
      created_at: tl.iso(0),
      released_at: null,
      claim_token: expect.stringMatching(/^ldk_ct_/),
    });
    expect(approved.body.idle_refreshes).toEqual([{ source: 'approve', at: tl.iso(0), idle_expires_at: tl.iso(IDLE_MINUTES) }]);
    const leaseId: number = approved.body.lease_id;
    expect((await t.call('GET', '/api/compute/plans/current', { token: user.token })).status).toBe(204);
    const currentLease = await t.call('GET', '/api/compute/sessions/current', { token: user.token });
    expect(currentLease.status).toBe(200);
    expect(currentLease.body).toMatchObject({ lease_id: leaseId, state: 'awaiting_sandbox' });
    expect(currentLease.body).not.toHaveProperty('claim_token');
    expect(await money(user)).toEqual({ balance: r4(10 - c), reserved: 0.6 });
    await expectLedgerConsistent(user.id);

    // Bootstrap a minute later: ready, metered from then.
    tl.now(1);
    const booted = await bootstrap(approved.body.claim_token);
    expect(booted.status).toBe(200);
    expect(booted.body).toEqual({
      status: 'approved',
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'bearer',
      expires_in: expect.any(Number),
      lease_id: leaseId,
      process_token: expect.stringMatching(/^ldk_pt_/),
    });
    const me = await t.call('GET', '/api/me', { token: booted.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body.user_id).toBe(user.id);
    const processToken: string = booted.body.process_token;
    let lease = await getSession(user, leaseId);
    expect(lease.body).toMatchObject({ state: 'ready', spent_credits: 0, idle_expires_at: tl.iso(1 + IDLE_MINUTES) });
    expect(lease.body.idle_refreshes[0]).toEqual({ source: 'bootstrap', at: tl.iso(1), idle_expires_at: tl.iso(1 + IDLE_MINUTES) });

    // Ten minutes of running: 10 × 0.04 from the reservation.
    await tl.meter(11);
    lease = await getSession(user, leaseId);
    expect(lease.body).toMatchObject({ state: 'ready', spent_credits: 0.4, ceiling_credits: 0.6 });
    expect(await money(user)).toEqual({ balance: r4(10 - c - 0.4), reserved: 0.2 });

    // An active heartbeat refreshes the idle clock, and the lease shows why it is alive.
    tl.now(11);
    const beat = await heartbeat(leaseId, processToken, true, 'bearer');
    expect(beat.status).toBe(200);
    expect(beat.body).toEqual({
      lease_id: leaseId,
      state: 'ready',
      balance_credits: r4(10 - c - 0.6),
      spent_credits: 0.4,
      ceiling_credits: 0.6,
      low_credit: true, // 0.2 left, under max(1, 20% of 0.6)
      idle_expires_at: tl.iso(11 + IDLE_MINUTES),
      action: 'continue',
    });
    lease = await getSession(user, leaseId);
    expect(lease.body.idle_expires_at).toBe(tl.iso(11 + IDLE_MINUTES));
    expect(lease.body.idle_refreshes[0]).toEqual({ source: 'heartbeat', at: tl.iso(11), idle_expires_at: tl.iso(11 + IDLE_MINUTES) });
    expect(lease.body.idle_refreshes.map((r: { source: string }) => r.source)).toEqual(['heartbeat', 'bootstrap', 'approve']);

    // Ten more minutes would cost 0.4, only 0.2 of the ceiling is left: charged 0.2, paused.
    await tl.meter(21);
    lease = await getSession(user, leaseId);
    expect(lease.body).toMatchObject({ state: 'paused', spent_credits: 0.6, ceiling_credits: 0.6 });
    expect(await money(user)).toEqual({ balance: r4(10 - c - 0.6), reserved: 0 });
    tl.now(22);
    const pausedBeat = await heartbeat(leaseId, processToken, true, 'body');
    expect(pausedBeat.status).toBe(200);
    expect(pausedBeat.body).toMatchObject({
      state: 'paused',
      action: 'checkpoint_and_pause',
      spent_credits: 0.6,
      ceiling_credits: 0.6,
      low_credit: true,
    });
    // A paused lease's idle clock is not refreshed, and it is never killed for idling.
    expect(pausedBeat.body.idle_expires_at).toBe(tl.iso(11 + IDLE_MINUTES));
    await tl.meter(60);
    lease = await getSession(user, leaseId);
    expect(lease.body).toMatchObject({ state: 'paused', spent_credits: 0.6 });
    expect(await money(user)).toEqual({ balance: r4(10 - c - 0.6), reserved: 0 });
    await expectLedgerConsistent(user.id);

    // Top-up: the ceiling rises by 1, the lease runs again, metered from the top-up time.
    tl.now(61);
    const topped = await topUp(user, leaseId, 1);
    expect(topped.status).toBe(200);
    expect(topped.body).toMatchObject({
      lease_id: leaseId,
      state: 'ready',
      ceiling_credits: 1.6,
      spent_credits: 0.6,
      idle_expires_at: tl.iso(61 + IDLE_MINUTES),
    });
    expect(topped.body.idle_refreshes[0]).toEqual({ source: 'topup', at: tl.iso(61), idle_expires_at: tl.iso(61 + IDLE_MINUTES) });
    expect(await money(user)).toEqual({ balance: r4(10 - c - 0.6), reserved: 1 });
    const resumedBeat = await heartbeat(leaseId, processToken, true);
    expect(resumedBeat.body).toMatchObject({ state: 'ready', action: 'continue', ceiling_credits: 1.6 });

    // Ten minutes after the top-up: 0.4 (the 40 paused minutes would have cost 1.6 and paused it again).
    await tl.meter(71);
    lease = await getSession(user, leaseId);
    expect(lease.body).toMatchObject({ state: 'ready', spent_credits: 1, ceiling_credits: 1.6 });
    expect(await money(user)).toEqual({ balance: r4(10 - c - 1), reserved: 0.6 });

    // Release: the unspent 0.6 of the reservation comes back; nothing else moves.
    tl.now(71);
    const released = await release(user, leaseId);
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({
      lease_id: leaseId,
      state: 'released',
      spent_credits: 1,
      ceiling_credits: 1.6,
      released_at: tl.iso(71),
      balance_credits: r4(10 - c - 1),
    });
    expect(await creditsOf(user)).toMatchObject({ balance_credits: r4(10 - c - 1), reserved_credits: 0, leases: [] });
    expect((await t.call('GET', '/api/compute/sessions/current', { token: user.token })).status).toBe(204);

    // Releasing again changes nothing; a released lease cannot be topped up; the meter leaves it alone.
    const again = await release(user, leaseId);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ state: 'released', released_at: tl.iso(71), spent_credits: 1 });
    expectStatus(await topUp(user, leaseId, 1), 409);
    await tl.meter(200);
    expect((await getSession(user, leaseId)).body).toMatchObject({ state: 'released', spent_credits: 1 });
    expect(await money(user)).toEqual({ balance: r4(10 - c - 1), reserved: 0 });

    // The ledger, entry by entry.
    const ledger = await entries(user.id);
    expect(
      ledger.map(({ kind, credits, reserved, lease_id, plan_id }) => ({
        kind,
        credits: r4(credits),
        reserved: r4(reserved),
        lease_id,
        plan_id,
      })),
    ).toEqual([
      { kind: 'allowance', credits: 10, reserved: 0, lease_id: null, plan_id: null },
      { kind: 'token_charge', credits: -c, reserved: 0, lease_id: null, plan_id: plan.plan_id },
      { kind: 'reservation', credits: 0, reserved: 0.6, lease_id: leaseId, plan_id: null }, // ceiling reserved
      { kind: 'lease_spend', credits: -0.4, reserved: -0.4, lease_id: leaseId, plan_id: null },
      { kind: 'lease_spend', credits: -0.2, reserved: -0.2, lease_id: leaseId, plan_id: null },
      { kind: 'reservation', credits: 0, reserved: 1, lease_id: leaseId, plan_id: null }, // top-up reserved
      { kind: 'lease_spend', credits: -0.4, reserved: -0.4, lease_id: leaseId, plan_id: null },
      { kind: 'reservation', credits: 0, reserved: -0.6, lease_id: leaseId, plan_id: null }, // reservation returned
    ]);
    // Reservation moves are in the ledger too: their sum is what is still reserved (nothing now).
    expect(r4(ledger.reduce((sum, e) => sum + e.reserved, 0))).toBe(0);
    const row = await expectLedgerConsistent(user.id);
    expect(r4(row.balance)).toBe(r4(10 - c - 1));
  });

  test('decline: the plan is dropped, its token charge stands; deciding again is 409', async () => {
    const user = await makeUser(t);
    const plan = await draft(user, { goal: 'Cluster cells', inputs: [{ name: 'counts.h5ad', bytes: 2e9 }] });
    expect(plan).toMatchObject({ estimated_minutes: 22, estimated_credits: 0.88, spend_ceiling_credits: 1.32 });
    const c = plan.token_charge.credits;

    const declined = await decline(user, plan.plan_id);
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ plan_id: plan.plan_id, status: 'declined', token_charge: plan.token_charge });
    expect((await t.call('GET', '/api/compute/plans/current', { token: user.token })).status).toBe(204);
    expectStatus(await decline(user, plan.plan_id), 409);
    expectStatus(await approve(user, plan.plan_id), 409);
    expect(await t.sql('select 1 from compute_leases where plan_id = $1', [plan.plan_id])).toHaveLength(0);

    expect(await creditsOf(user)).toEqual({
      balance_credits: r4(10 - c),
      reserved_credits: 0,
      token_line: { tokens_in: plan.token_charge.tokens_in, tokens_out: plan.token_charge.tokens_out, credits: c },
      leases: [],
    });
    const charges = (await entries(user.id)).filter((e) => e.kind === 'token_charge');
    expect(charges.map((e) => ({ credits: r4(e.credits), plan_id: e.plan_id }))).toEqual([{ credits: -c, plan_id: plan.plan_id }]);
    const usage = await t.sql(
      `select source, tokens_in::int as tokens_in, tokens_out::int as tokens_out from usage_entries where user_id = $1`,
      [user.id],
    );
    expect(usage).toEqual([{ source: 'planner', tokens_in: plan.token_charge.tokens_in, tokens_out: plan.token_charge.tokens_out }]);
    await expectLedgerConsistent(user.id);
  });

  test('a newer draft supersedes the undecided one, which can then no longer be approved', async () => {
    const user = await makeUser(t);
    const first = await draft(user, { goal: 'First idea' });
    const second = await draft(user, { goal: 'Second idea' });
    const statuses = await t.sql(`select id, status from compute_plans where user_id = $1 order by id`, [user.id]);
    expect(statuses).toEqual([
      { id: first.plan_id, status: 'superseded' },
      { id: second.plan_id, status: 'awaiting_decision' },
    ]);
    const refused = await approve(user, first.plan_id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ status: 'superseded', detail: expect.any(String) });
    expect((await t.call('GET', '/api/compute/plans/current', { token: user.token })).body.plan_id).toBe(second.plan_id);
    expect(await money(user)).toEqual({ balance: r4(10 - first.token_charge.credits - second.token_charge.credits), reserved: 0 });
    await expectLedgerConsistent(user.id);
  });

  test('a direct session has no ceiling: never paused by one, but capped at the free credits', async () => {
    const tl = timeline();
    const user = await makeUser(t);
    tl.now(0);
    const created = await directSession(user, { machine: GPU_MACHINE });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      plan_id: null,
      state: 'awaiting_sandbox',
      provider: 'manual',
      machine: { ...GPU_MACHINE, rate_credits_per_minute: GPU_RATE },
      ceiling_credits: null,
      spent_credits: 0,
      balance_credits: 10,
      claim_token: expect.stringMatching(/^ldk_ct_/),
    });
    expect(created.body.idle_refreshes).toEqual([{ source: 'session', at: tl.iso(0), idle_expires_at: tl.iso(IDLE_MINUTES) }]);
    const leaseId: number = created.body.lease_id;
    expect(await money(user)).toEqual({ balance: 10, reserved: 0 }); // nothing reserved
    const processToken: string = (await bootstrap(created.body.claim_token)).body.process_token;

    // 10 minutes × 0.54 = 5.4 credits: far past any plan's ceiling, still running.
    await tl.meter(10);
    expect((await getSession(user, leaseId)).body).toMatchObject({
      state: 'ready',
      spent_credits: 5.4,
      ceiling_credits: null,
      balance_credits: 4.6,
    });
    tl.now(10);
    const beat = await heartbeat(leaseId, processToken, true);
    expect(beat.body).toMatchObject({
      state: 'ready',
      action: 'continue',
      ceiling_credits: null,
      balance_credits: 4.6,
      spent_credits: 5.4,
      low_credit: false,
    });
    expect(await money(user)).toEqual({ balance: 4.6, reserved: 0 });

    // The next 10 minutes would cost 5.4; only 4.6 are free: charged 4.6 and paused at zero.
    await tl.meter(20);
    expect((await getSession(user, leaseId)).body).toMatchObject({ state: 'paused', spent_credits: 10, balance_credits: 0 });
    expect(await money(user)).toEqual({ balance: 0, reserved: 0 });
    tl.now(21);
    const pausedBeat = await heartbeat(leaseId, processToken, true);
    expect(pausedBeat.body).toMatchObject({ state: 'paused', action: 'checkpoint_and_pause', balance_credits: 0, low_credit: true });

    // Without a ceiling there is nothing to top up (409); without free credits no new direct session (402).
    expectStatus(await topUp(user, leaseId, 1), 409);
    expectStatus(await directSession(user), 402);
    // A draft at zero credits is still drafted; its token line records the tokens but no credits.
    const plan = await draft(user, { goal: 'Later' });
    const credits = await creditsOf(user);
    expect(credits).toMatchObject({ balance_credits: 0, reserved_credits: 0, token_line: { credits: 0 } });
    expect(credits.token_line.tokens_in).toBe(plan.token_charge.tokens_in);
    expect(credits.leases.map((l: { lease_id: number }) => l.lease_id)).toEqual([leaseId]);

    // Paused time costs nothing.
    await tl.meter(40);
    expect((await getSession(user, leaseId)).body).toMatchObject({ state: 'paused', spent_credits: 10 });
    tl.now(41);
    expect((await release(user, leaseId)).body).toMatchObject({ state: 'released', spent_credits: 10 });
    expect(await money(user)).toEqual({ balance: 0, reserved: 0 });
    const ledger = await entries(user.id);
    expect(ledger.filter((e) => e.lease_id === leaseId).map((e) => r4(e.credits))).toEqual([-5.4, -4.6]);
    expect(ledger.filter((e) => e.kind === 'token_charge')).toEqual([]);
    await expectLedgerConsistent(user.id);
  });

  test('idle expiry: a running lease without an active heartbeat past the idle limit expires, charged up to its idle deadline', async () => {
    const tl = timeline();
    const user = await makeUser(t);
    tl.now(0);
    // 10 GB of input: 70 estimated minutes, ceiling 1.5 × 2.8 = 4.2.
    const plan = await draft(user, { goal: 'Assemble', inputs: [{ name: 'reads.fastq', bytes: 10e9 }] });
    expect(plan.spend_ceiling_credits).toBe(4.2);
    const c = plan.token_charge.credits;
    const { leaseId, processToken } = await readyLease(user, plan);

    await tl.meter(10);
    expect((await getSession(user, leaseId)).body).toMatchObject({ state: 'ready', spent_credits: 0.4 });
    // An inactive heartbeat does not refresh the idle clock.
    tl.now(20);
    const idleBeat = await heartbeat(leaseId, processToken, false);
    expect(idleBeat.body).toMatchObject({ state: 'ready', action: 'continue', idle_expires_at: tl.iso(IDLE_MINUTES) });
    // A live sandbox's heartbeat is its owner's activity (the owner made no request since minute 0).
    expect((await t.call('GET', `/api/admin/users/${user.id}`, { token: t.adminToken })).body.last_active_at).toBe(tl.iso(20));
    await tl.meter(29);
    expect((await getSession(user, leaseId)).body).toMatchObject({ state: 'ready', spent_credits: r4(29 * DEFAULT_RATE) });

    // 45 minutes in: charged up to the idle deadline (minute 30) only, then expired.
    await tl.meter(45);
    const expired = await getSession(user, leaseId);
    expect(expired.body).toMatchObject({
      state: 'expired',
      spent_credits: r4(30 * DEFAULT_RATE),
      ceiling_credits: 4.2,
      released_at: tl.iso(45),
    });
    expect(await creditsOf(user)).toMatchObject({ balance_credits: r4(10 - c - 1.2), reserved_credits: 0, leases: [] });
    expect((await t.call('GET', '/api/compute/sessions/current', { token: user.token })).status).toBe(204);
    // A heartbeat told to stop is not activity.
    tl.now(50);
    expect((await heartbeat(leaseId, processToken, true)).body.action).toBe('stop');
    expect((await t.call('GET', `/api/admin/users/${user.id}`, { token: t.adminToken })).body.last_active_at).toBe(tl.iso(20));
    expectStatus(await topUp(user, leaseId, 1), 409);
    // Another pass later changes nothing.
    await tl.meter(90);
    expect((await getSession(user, leaseId)).body).toMatchObject({ state: 'expired', spent_credits: 1.2 });
    const row = await expectLedgerConsistent(user.id);
    expect(r4(row.balance)).toBe(r4(10 - c - 1.2));
  });

  test('a lease that is over tells its sandbox to stop: heartbeat after idle expiry and after release → 200 action stop', async () => {
    const tl = timeline();
    const user = await makeUser(t);
    tl.now(0);
    // A ceiling (4.2) the idle half hour does not reach (1.2).
    const idle = await readyLease(user, await draft(user, { goal: 'Idle one', inputs: [{ name: 'reads.fastq', bytes: 10e9 }] }));
    await tl.meter(IDLE_MINUTES + 5);
    expect((await getSession(user, idle.leaseId)).body.state).toBe('expired');
    tl.now(IDLE_MINUTES + 6);
    const afterExpiry = await heartbeat(idle.leaseId, idle.processToken, true);
    expect({ status: afterExpiry.status, body: afterExpiry.body }).toMatchObject({
      status: 200,
      body: { lease_id: idle.leaseId, state: 'expired', action: 'stop' },
    });

    const released = await readyLease(user, await draft(user, { goal: 'Released one' }));
    expect((await release(user, released.leaseId)).body.state).toBe('released');
    const afterRelease = await heartbeat(released.leaseId, released.processToken, false);
    expect({ status: afterRelease.status, body: afterRelease.body }).toMatchObject({
      status: 200,
      body: { lease_id: released.leaseId, state: 'released', action: 'stop' },
    });
  });

  test('a lease never bootstrapped is reaped after the bootstrap deadline; its reservation returns and its claim token is dead', async () => {
    const tl = timeline();
    const user = await makeUser(t);
    tl.now(0);
    const plan = await draft(user);
    const c = plan.token_charge.credits;
    const approved = await approve(user, plan.plan_id);
    expect(approved.status).toBe(201);
    const direct = await directSession(user);
    expect(direct.status).toBe(201);
    expect(await money(user)).toEqual({ balance: r4(10 - c), reserved: 0.6 });

    await tl.meter(BOOTSTRAP_MINUTES); // at the deadline: still waiting
    expect((await getSession(user, approved.body.lease_id)).body.state).toBe('awaiting_sandbox');
    expect((await getSession(user, direct.body.lease_id)).body.state).toBe('awaiting_sandbox');
    await tl.meter(BOOTSTRAP_MINUTES + 1);
    for (const leaseId of [approved.body.lease_id, direct.body.lease_id]) {
      expect((await getSession(user, leaseId)).body).toMatchObject({
        state: 'expired',
        spent_credits: 0,
        released_at: tl.iso(BOOTSTRAP_MINUTES + 1),
      });
    }
    expect(await money(user)).toEqual({ balance: r4(10 - c), reserved: 0 });

    tl.now(BOOTSTRAP_MINUTES + 2);
    const late = await bootstrap(approved.body.claim_token);
    const unknown = await bootstrap(`ldk_ct_${'x'.repeat(40)}`);
    expect(late.status).toBe(401);
    expect(late.body).toEqual(unknown.body);
    expect((await bootstrap(direct.body.claim_token)).body).toEqual(unknown.body);
    await expectLedgerConsistent(user.id);
  });

  test('other users’ sessions are 404 to read, release or top up', async () => {
    const owner = await makeUser(t);
    const other = await makeUser(t);
    const created = await directSession(owner);
    const leaseId: number = created.body.lease_id;
    expectStatus(await getSession(other, leaseId), 404);
    expectStatus(await release(other, leaseId), 404);
    expectStatus(await topUp(other, leaseId, 1), 404);
    expectStatus(await getSession(owner, 999_999_999), 404);
    expect((await getSession(owner, leaseId)).body.state).toBe('awaiting_sandbox');
    const plan = await draft(owner);
    expectStatus(await approve(other, plan.plan_id), 404);
    expectStatus(await decline(other, plan.plan_id), 404);
    expect((await t.call('GET', '/api/compute/plans/current', { token: owner.token })).body.status).toBe('awaiting_decision');
  });

  test('errors about a lease call it a lease (the paths keep "sessions"): 404, 409 when over or without a ceiling, 401 for a wrong process token', async () => {
    const owner = await makeUser(t);
    const other = await makeUser(t);
    const leaseId: number = (await directSession(owner)).body.lease_id;
    const reply = (r: { status: number; body: unknown }) => ({ status: r.status, body: r.body });
    for (const notTheirs of [await getSession(other, leaseId), await release(other, leaseId), await topUp(other, leaseId, 1)]) {
      expect(reply(notTheirs)).toEqual({ status: 404, body: { detail: 'lease not found' } });
    }
    expect(reply(await topUp(owner, leaseId, 1))).toEqual({ status: 409, body: { detail: 'this lease has no spend ceiling to raise' } });
    expect(reply(await heartbeat(leaseId, 'ldk_pt_notthisleasesprocesstoken'))).toEqual({
      status: 401,
      body: { detail: 'invalid process token for this lease' },
    });
    expectStatus(await release(owner, leaseId), 200);
    expect(reply(await topUp(owner, leaseId, 1))).toEqual({ status: 409, body: { detail: 'this lease is released' } });
  });
});

describe('bootstrap is single use', () => {
  test('100 concurrent bootstraps of one claim token: exactly one 200, 99 identical 401s', async () => {
    const tl = timeline();
    tl.now(0);
    const user = await makeUser(t);
    const approved = await approve(user, (await draft(user)).plan_id);
    expect(approved.status).toBe(201);
    const claim: string = approved.body.claim_token;

    const replies = await Promise.all(Array.from({ length: 100 }, () => bootstrap(claim)));
    const ok = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status === 401);
    expect({ ok: ok.length, refused: refused.length }).toEqual({ ok: 1, refused: 99 });
    expect(ok[0].body).toMatchObject({
      status: 'approved',
      lease_id: approved.body.lease_id,
      process_token: expect.stringMatching(/^ldk_pt_/),
    });
    const unknown = await bootstrap(`ldk_ct_${'y'.repeat(40)}`);
    expect(unknown.status).toBe(401);
    for (const reply of refused) {
      expect(reply.text).toBe(unknown.text);
      expect(reply.headers.get('www-authenticate')).toBe('Bearer');
    }
    // A replay later is the same 401.
    expect((await bootstrap(claim)).text).toBe(unknown.text);

    expect((await getSession(user, approved.body.lease_id)).body.state).toBe('ready');
    const refreshes = await t.sql(`select source from lease_idle_refreshes where lease_id = $1 and source = 'bootstrap'`, [
      approved.body.lease_id,
    ]);
    expect(refreshes).toHaveLength(1);
    const minted = await t.sql(`select kind from auth_tokens where family_id like $1 order by kind`, [`lease_${approved.body.lease_id}_%`]);
    expect(minted.map((r) => r.kind)).toEqual(['access', 'refresh']);
    // The one winner's process token works.
    expect((await heartbeat(approved.body.lease_id, ok[0].body.process_token)).status).toBe(200);
  });

  test('a released lease’s claim token is refused like an unknown one', async () => {
    const user = await makeUser(t);
    const created = await directSession(user);
    expect((await release(user, created.body.lease_id)).body.state).toBe('released');
    const unknown = await bootstrap(`ldk_ct_${'z'.repeat(40)}`);
    const refused = await bootstrap(created.body.claim_token);
    expect(refused.status).toBe(401);
    expect(refused.text).toBe(unknown.text);
    expect((await bootstrap('not-a-claim-token')).text).toBe(unknown.text);
  });
});

describe('deciding a plan happens once', () => {
  test('approve twice → 409; decline after approve → 409', async () => {
    const user = await makeUser(t);
    const plan = await draft(user);
    expect((await approve(user, plan.plan_id)).status).toBe(201);
    const twice = await approve(user, plan.plan_id);
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ status: 'approved', detail: expect.any(String) });
    const declined = await decline(user, plan.plan_id);
    expect(declined.status).toBe(409);
    expect(declined.body).toMatchObject({ status: 'approved' });
    expect(await t.sql('select status from compute_plans where id = $1', [plan.plan_id])).toEqual([{ status: 'approved' }]);
    expect(await money(user)).toEqual({ balance: r4(10 - plan.token_charge.credits), reserved: 0.6 });
    await expectLedgerConsistent(user.id);
  });

  test('10 concurrent approves: exactly one 201 and one reservation', async () => {
    const user = await makeUser(t);
    const plan = await draft(user);
    const replies = await Promise.all(Array.from({ length: 10 }, () => approve(user, plan.plan_id)));
    expect(replies.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    const winner = replies.find((r) => r.status === 201)!;
    expect(await t.sql('select id from compute_leases where plan_id = $1', [plan.plan_id])).toEqual([{ id: winner.body.lease_id }]);
    expect(await money(user)).toEqual({ balance: r4(10 - plan.token_charge.credits), reserved: 0.6 });
    const reservations = (await entries(user.id)).filter((e) => e.kind === 'reservation');
    expect(reservations).toHaveLength(1);
    await expectLedgerConsistent(user.id);
  });
});

describe('a page reload buys nothing', () => {
  test('20 concurrent GET plans/current never create a plan; 10 concurrent drafts leave exactly one awaiting a decision', async () => {
    const user = await makeUser(t);
    const empty = await Promise.all(Array.from({ length: 20 }, () => t.call('GET', '/api/compute/plans/current', { token: user.token })));
    expect(empty.map((r) => r.status)).toEqual(Array(20).fill(204));
    expect(await t.sql('select 1 from compute_plans where user_id = $1', [user.id])).toHaveLength(0);
    expect(await entries(user.id)).toHaveLength(1); // the allowance only

    const first = await draft(user, { goal: 'Reloaded page' });
    const reloads = await Promise.all(Array.from({ length: 20 }, () => t.call('GET', '/api/compute/plans/current', { token: user.token })));
    expect(reloads.map((r) => r.status)).toEqual(Array(20).fill(200));
    for (const reply of reloads) expect(reply.body).toEqual(first);
    expect(await t.sql('select 1 from compute_plans where user_id = $1', [user.id])).toHaveLength(1);

    const drafts = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.call('POST', '/api/compute/plans', { token: user.token, body: { goal: `Draft ${i}` } })),
    );
    expect(drafts.map((r) => r.status)).toEqual(Array(10).fill(201));
    const rows = await t.sql<{ id: number; status: string }>(`select id, status from compute_plans where user_id = $1 order by id`, [
      user.id,
    ]);
    expect(rows).toHaveLength(11);
    const waiting = rows.filter((r) => r.status === 'awaiting_decision');
    expect(waiting).toHaveLength(1);
    expect(rows.filter((r) => r.status === 'superseded')).toHaveLength(10);
    expect(waiting[0].id).toBe(Math.max(...rows.map((r) => r.id)));
    const current = await t.call('GET', '/api/compute/plans/current', { token: user.token });
    expect(current.body).toMatchObject({ plan_id: waiting[0].id, status: 'awaiting_decision' });

    // Each draft was charged once on the token line.
    const charged = [first, ...drafts.map((r) => r.body as Plan)];
    const charges = (await entries(user.id)).filter((e) => e.kind === 'token_charge');
    expect(charges.map((e) => e.plan_id).sort()).toEqual(charged.map((p) => p.plan_id).sort());
    expect(await money(user)).toEqual({ balance: r4(10 - sum(charged.map((p) => p.token_charge.credits))), reserved: 0 });
    await expectLedgerConsistent(user.id);
  });
});

describe('concurrent meter passes', () => {
  interface MeteredLease {
    id: number;
    rate: number;
  }

  /** A lease through a plan (with a ceiling) or a direct one with a machine of its own rate; bootstrapped. */
  async function runningLease(user: TestUser, kind: 'plan' | 'direct', n: number): Promise<MeteredLease> {
    const created =
      kind === 'plan'
        ? await approve(user, (await draft(user, { goal: `Job ${n}` })).plan_id)
        : await directSession(user, { machine: { cpus: 1 + (n % 4), memory_gb: 1 + ((n * 3) % 16) } });
    if (created.status !== 201) throw new Error(`lease: ${created.status} ${created.text}`);
    const booted = await bootstrap(created.body.claim_token);
    if (booted.status !== 200) throw new Error(`bootstrap: ${booted.status} ${booted.text}`);
    return { id: created.body.lease_id, rate: created.body.machine.rate_credits_per_minute };
  }

  async function meteredRows(ids: number[]) {
    const rows = await t.sql<{ id: number; state: string; spent: number; charged: number; charges: number; last_metered_at: Date }>(
      `select l.id, l.state, l.spent_credits::float8 as spent, l.last_metered_at,
              coalesce((select -sum(e.credits) from credit_entries e where e.lease_id = l.id and e.kind = 'lease_spend'), 0)::float8 as charged,
              (select count(*) from credit_entries e where e.lease_id = l.id and e.kind = 'lease_spend' and e.credits <> 0)::int as charges
         from compute_leases l where l.id = any($1::int[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * Runs two passes at once at `minutes` (each on its own fork), then checks every lease was
   * metered by exactly one of them and charged exactly rate × elapsed over all rounds so far.
   */
  async function meterPairAndCheck(tl: ReturnType<typeof timeline>, leases: MeteredLease[], minutes: number, rounds: number[]) {
    const settled = await Promise.allSettled([meterOnce(forkEm(), tl.at(minutes)), meterOnce(forkEm(), tl.at(minutes))]);
    const failures = settled
      .filter((s): s is PromiseRejectedResult => s.status === 'rejected')
      .map((s) => String(s.reason?.message ?? s.reason));
    expect(failures).toEqual([]);
    const [a, b] = settled.map((s) => (s as PromiseFulfilledResult<Awaited<ReturnType<typeof meterOnce>>>).value);
    const ids = leases.map((l) => l.id);
    const ours = new Set(ids);
    const changedA = a.changed.filter((l) => ours.has(l.id)).map((l) => l.id);
    const changedB = b.changed.filter((l) => ours.has(l.id)).map((l) => l.id);
    expect(changedA.filter((id) => changedB.includes(id))).toEqual([]);
    expect([...changedA, ...changedB].sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));

    const rows = await meteredRows(ids);
    for (const lease of leases) {
      const row = rows.get(lease.id)!;
      const due = r4(sum(rounds.map((elapsed) => r4(lease.rate * elapsed))));
      expect({
        id: lease.id,
        state: row.state,
        spent: r4(row.spent),
        charged: r4(row.charged),
        charges: row.charges,
        metered: new Date(row.last_metered_at).toISOString(),
      }).toEqual({
        id: lease.id,
        state: 'ready',
        spent: due,
        charged: due,
        charges: rounds.length,
        metered: tl.iso(minutes),
      });
    }
    const total = sum([...rows.values()].map((r) => r.charged));
    expect(r4(total)).toBe(r4(sum(leases.map((l) => sum(rounds.map((elapsed) => r4(l.rate * elapsed)))))));
  }

  test('two passes at the same time never charge a period twice: 150 leases, two rounds, and a repeat of the same moment', async () => {
    const tl = timeline();
    tl.now(0);
    // Leases left by earlier tests are metered up to the first pair's moment beforehand (the
    // over ones expire, the paused ones wait), so the pairs below meet only this test's leases.
    await meterOnce(forkEm(), tl.at(7));
    const users = await Promise.all(Array.from({ length: 6 }, () => makeUser(t, { plan_code: 'lab' })));
    // 6 users × 25 leases (every fifth through a plan, with a ceiling): more than one meter batch (100).
    // Each user's leases are made together, so their ids are contiguous and both passes meet the
    // accounts in the same order (opposite orders are the next test).
    const leases: MeteredLease[] = [];
    for (const [u, user] of users.entries()) {
      for (let i = 0; i < 5; i++) leases.push(await runningLease(user, 'plan', u * 100 + i));
      leases.push(...(await Promise.all(Array.from({ length: 20 }, (_, i) => runningLease(user, 'direct', u * 100 + i)))));
    }
    expect(leases).toHaveLength(150);

    await meterPairAndCheck(tl, leases, 7, [7]);
    await meterPairAndCheck(tl, leases, 12, [7, 5]);
    // The same moment again: nothing is left to charge.
    await Promise.all([meterOnce(forkEm(), tl.at(12)), meterOnce(forkEm(), tl.at(12))]);
    const rows = await meteredRows(leases.map((l) => l.id));
    for (const lease of leases) expect(r4(rows.get(lease.id)!.charged)).toBe(r4(r4(lease.rate * 7) + r4(lease.rate * 5)));
    for (const user of users) await expectLedgerConsistent(user.id);
  });

  test('two passes that meet the same users’ accounts in opposite orders both complete (no deadlock) and charge each period once', async () => {
    const tl = timeline();
    tl.now(0);
    // Leases left by earlier tests are metered up to the passes' moment beforehand (the over ones
    // expire, the paused ones wait), so the passes below meet only this test's leases.
    await meterOnce(forkEm(), tl.at(5));
    const [x, y, z] = await Promise.all([makeUser(t), makeUser(t), makeUser(t)]);
    // Made one after another, so the ids run X Y Z | Z Y X: with batches of three, one pass
    // meets the accounts as X, Y, Z and the other as Z, Y, X.
    const leases: (MeteredLease & { user: TestUser })[] = [];
    for (const user of [x, y, z, z, y, x]) leases.push({ ...(await runningLease(user, 'direct', leases.length)), user });
    const ids = leases.map((l) => l.id);
    // So the two batches of three are exactly these.
    const others = await t.sql(
      `select id from compute_leases where state in ('awaiting_sandbox', 'ready', 'paused') and last_metered_at < $1 and not (id = any($2::int[]))`,
      [tl.at(5), ids],
    );
    expect(others).toEqual([]);

    // Y's account is busy (say, a top-up in flight) while both passes start: each pass locks
    // its batch and the first account of it, then waits for Y.
    const blocker = new Client({ connectionString: t.databaseUrl });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select 1 from credit_accounts where user_id = $1 for update', [y.id]);
      const passes = Promise.allSettled([meterOnce(forkEm(), tl.at(5), 3), meterOnce(forkEm(), tl.at(5), 3)]);
      for (let i = 0; i < 200; i++) {
        const [{ waiting }] = await t.sql<{ waiting: number }>(
          `select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if (waiting >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await blocker.query('commit');
      const settled = await passes;
      const failures = settled
        .filter((s): s is PromiseRejectedResult => s.status === 'rejected')
        .map((s) => String(s.reason?.message ?? s.reason));
      expect(failures).toEqual([]);
    } finally {
      await blocker.end();
    }
    const rows = await meteredRows(ids);
    for (const lease of leases) {
      const row = rows.get(lease.id)!;
      expect({ id: lease.id, state: row.state, charged: r4(row.charged), charges: row.charges }).toEqual({
        id: lease.id,
        state: 'ready',
        charged: r4(lease.rate * 5),
        charges: 1,
      });
    }
    for (const user of [x, y, z]) await expectLedgerConsistent(user.id);
  });
});

describe('process tokens', () => {
  test('a process token cannot heartbeat another lease, and a user token is not a process token (401)', async () => {
    const tl = timeline();
    tl.now(0);
    const alice = await makeUser(t);
    const bob = await makeUser(t);
    const aliceLease = await readyLease(alice, await draft(alice));
    const created = await directSession(alice);
    const aliceOther = { leaseId: created.body.lease_id as number, boot: (await bootstrap(created.body.claim_token)).body };
    const bobCreated = await directSession(bob);
    const bobBoot = (await bootstrap(bobCreated.body.claim_token)).body;

    const own = await heartbeat(aliceLease.leaseId, aliceLease.processToken);
    expect(own.status).toBe(200);
    const refusedReplies = [
      // Another lease's process token, as bearer and in the body, of the same user and of another.
      await heartbeat(aliceLease.leaseId, aliceOther.boot.process_token, true, 'bearer'),
      await heartbeat(aliceLease.leaseId, aliceOther.boot.process_token, true, 'body'),
      await heartbeat(aliceLease.leaseId, bobBoot.process_token, true, 'bearer'),
      await heartbeat(bobCreated.body.lease_id, aliceLease.processToken, true, 'body'),
      // User tokens: a personal access token and the access token minted at bootstrap.
      await heartbeat(aliceLease.leaseId, alice.token, true, 'bearer'),
      await heartbeat(aliceLease.leaseId, alice.token, true, 'body'),
      await heartbeat(aliceOther.leaseId, aliceOther.boot.access_token, true, 'bearer'),
      await heartbeat(aliceLease.leaseId, t.adminToken, true, 'bearer'),
      // No token at all; a lease that does not exist.
      await heartbeat(aliceLease.leaseId, undefined, true, 'bearer'),
      await heartbeat(999_999_999, aliceLease.processToken, true, 'bearer'),
    ];
    expect(refusedReplies.map((r) => r.status)).toEqual(Array(refusedReplies.length).fill(401));
    for (const reply of refusedReplies) expect(reply.body).toEqual(refusedReplies[0].body);
    // The refused heartbeats refreshed nothing.
    const refreshes = await t.sql(`select source from lease_idle_refreshes where lease_id = $1 order by id`, [aliceLease.leaseId]);
    expect(refreshes.map((r) => r.source)).toEqual(['approve', 'bootstrap', 'heartbeat']);
    // The claim token is spent; it is no process token either.
    expect((await heartbeat(aliceOther.leaseId, created.body.claim_token, true)).status).toBe(401);
  });
});

describe('credits: 402 and grants', () => {
  test('402 when free credits do not cover a ceiling or a top-up; an admin grant then allows it', async () => {
    const user = await makeUser(t);
    // A GPU machine and 10 GB: 70 minutes × 0.54 = 37.8 estimated, ceiling 56.7.
    const plan = await draft(user, { goal: 'Train', inputs: [{ name: 'images.tar', bytes: 10e9 }], machine: GPU_MACHINE });
    expect(plan).toMatchObject({ estimated_minutes: 70, estimated_credits: 37.8, spend_ceiling_credits: 56.7 });
    const c = plan.token_charge.credits;

    const refused = await approve(user, plan.plan_id);
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ detail: expect.any(String), balance_credits: r4(10 - c) });
    expect((await t.call('GET', '/api/compute/plans/current', { token: user.token })).body).toMatchObject({
      plan_id: plan.plan_id,
      status: 'awaiting_decision',
    });
    expect(await t.sql('select 1 from compute_leases where user_id = $1', [user.id])).toHaveLength(0);
    expect(await money(user)).toEqual({ balance: r4(10 - c), reserved: 0 });

    const granted = await grant(user.id, 50, 'GPU project');
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ balance_credits: r4(60 - c), reserved_credits: 0 });
    const approved = await approve(user, plan.plan_id);
    expect(approved.status).toBe(201);
    expect(approved.body).toMatchObject({ ceiling_credits: 56.7, balance_credits: r4(60 - c - 56.7) });
    const leaseId: number = approved.body.lease_id;

    // A top-up bigger than the free credits: 402, nothing moves.
    const tooMuch = await topUp(user, leaseId, 10);
    expect(tooMuch.status).toBe(402);
    expect((await getSession(user, leaseId)).body).toMatchObject({ ceiling_credits: 56.7 });
    expect(await money(user)).toEqual({ balance: r4(60 - c), reserved: 56.7 });
    expect((await grant(user.id, 10)).status).toBe(200);
    const topped = await topUp(user, leaseId, 10);
    expect(topped.status).toBe(200);
    expect(topped.body).toMatchObject({ ceiling_credits: 66.7, state: 'awaiting_sandbox' });
    expect(await money(user)).toEqual({ balance: r4(70 - c), reserved: 66.7 });

    // Invalid amounts are 422.
    expect((await topUp(user, leaseId, 0)).status).toBe(422);
    expect((await topUp(user, leaseId, -5)).status).toBe(422);
    const row = await expectLedgerConsistent(user.id);
    expect(r4(row.balance)).toBe(r4(70 - c));
  });

  test('a plan change brings the new allowance and an admin grant shows up, both as ledger entries', async () => {
    const user = await makeUser(t);
    expect(await entries(user.id)).toEqual([
      { kind: 'allowance', credits: 10, reserved: 0, lease_id: null, plan_id: null, reason: expect.any(String) },
    ]);

    const patched = await t.call('PATCH', `/api/admin/users/${user.id}`, { token: t.adminToken, body: { plan_code: 'pro' } });
    expect(patched.status).toBe(200);
    expect(patched.body.plan_code).toBe('pro');
    expect(await money(user)).toEqual({ balance: 110, reserved: 0 });
    // The same plan again is no change: no allowance.
    expect((await t.call('PATCH', `/api/admin/users/${user.id}`, { token: t.adminToken, body: { plan_code: 'pro' } })).status).toBe(200);
    expect(await money(user)).toEqual({ balance: 110, reserved: 0 });
    expect((await t.call('PATCH', `/api/admin/users/${user.id}`, { token: t.adminToken, body: { plan_code: 'enterprise' } })).status).toBe(
      200,
    );
    expect(await money(user)).toEqual({ balance: 1110, reserved: 0 });

    const granted = await grant(user.id, 12.5, 'conference demo');
    expect(granted.status).toBe(200);
    expect(granted.body).toEqual({ balance_credits: 1122.5, reserved_credits: 0, token_line: { tokens_in: 0, tokens_out: 0, credits: 0 } });
    expect(await money(user)).toEqual({ balance: 1122.5, reserved: 0 });

    expect((await entries(user.id)).map(({ kind, credits, reason }) => ({ kind, credits, reason }))).toEqual([
      { kind: 'allowance', credits: 10, reason: 'free plan allowance' },
      { kind: 'allowance', credits: 100, reason: 'pro plan allowance' },
      { kind: 'allowance', credits: 1000, reason: 'enterprise plan allowance' },
      { kind: 'grant', credits: 12.5, reason: 'conference demo' },
    ]);
    // Only admins grant; an unknown user is 404.
    const self = await t.call('POST', `/api/admin/users/${user.id}/credits`, { token: user.token, body: { credits: 5 } });
    expect(self.status).toBe(403);
    expectStatus(await grant('usr_doesnotexist', 5), 404);
    expect((await grant(user.id, 0)).status).toBe(422);
    await expectLedgerConsistent(user.id);
  });
});

/** The processes this test process (and the services it runs) started and that are still alive. */
function childProcesses(): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // "pid (comm) state ppid …": the command may hold spaces and parentheses.
    const [, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(ppid) === process.pid) children.push(Number(entry));
  }
  return children;
}

describe('what a request may start: enabled providers and open leases per user', () => {
  // A server as an operator gets it by default: COMPUTE_PROVIDERS unset (manual only), 3 open leases per user.
  let s: TestApp;
  beforeAll(async () => {
    s = await startTestApp();
  });
  afterAll(async () => {
    await s?.close();
  });
  const leasesOf = async (userId: string) => (await s.sql(`select id from compute_leases where user_id = $1`, [userId])).length;

  test('provider local on a server that did not enable it: 422 naming the allowed values; no lease, no process (10 requests)', async () => {
    const user = await makeUser(s);
    const childrenBefore = childProcesses();
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => s.call('POST', '/api/compute/sessions', { token: user.token, body: { provider: 'local' } })),
    );
    const started = childProcesses().filter((pid) => !childrenBefore.includes(pid));
    console.log(
      `10 requests for provider local on a manual-only server: ${started.length} processes started, statuses ${[...new Set(replies.map((r) => r.status))].join(',')}`,
    );
    expect(started).toEqual([]);
    for (const reply of replies) {
      expect({ status: reply.status, body: reply.body }).toEqual({
        status: 422,
        body: { detail: [{ loc: ['body', 'provider'], msg: 'must be one of manual (the providers this server enables)', type: 'enum' }] },
      });
    }
    expect(await leasesOf(user.id)).toBe(0);
    // An unknown provider is the same 422; the enabled one works.
    expect((await s.call('POST', '/api/compute/sessions', { token: user.token, body: { provider: 'cloud' } })).status).toBe(422);
    const manual = await s.call('POST', '/api/compute/sessions', { token: user.token, body: { provider: 'manual' } });
    expect({ status: manual.status, provider: manual.body.provider }).toEqual({ status: 201, provider: 'manual' });
  });

  test('open leases per user are capped under the account lock: 10 parallel direct sessions with a cap of 3 → 3 created, 7 refused (409)', async () => {
    const user = await makeUser(s);
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => s.call('POST', '/api/compute/sessions', { token: user.token, body: {} })),
    );
    const statuses = replies.map((r) => r.status).sort();
    console.log(
      `10 parallel direct sessions with COMPUTE_MAX_OPEN_LEASES=3: ${statuses.filter((x) => x === 201).length} created, ${statuses.filter((x) => x === 409).length} refused`,
    );
    expect(statuses).toEqual([...Array(3).fill(201), ...Array(7).fill(409)]);
    const refused = replies.find((r) => r.status === 409)!;
    expect(refused.body).toEqual({
      detail: 'you have 3 open compute sessions, the most this server allows; release one first',
      open_leases: 3,
      max_open_leases: 3,
    });
    expect(await leasesOf(user.id)).toBe(3);

    // A plan approval is a lease too: refused at the cap, and nothing moves (the plan still waits, nothing is reserved).
    const drafted = await s.call('POST', '/api/compute/plans', { token: user.token, body: { goal: 'One more' } });
    expect(drafted.status).toBe(201);
    const approval = await s.call('POST', `/api/compute/plans/${drafted.body.plan_id}/approve`, { token: user.token });
    expect({ status: approval.status, detail: approval.body.detail }).toEqual({
      status: 409,
      detail: expect.stringContaining('3 open compute sessions'),
    });
    expect((await s.call('GET', '/api/compute/plans/current', { token: user.token })).body).toMatchObject({
      plan_id: drafted.body.plan_id,
      status: 'awaiting_decision',
    });
    expect((await s.call('GET', '/api/compute/credits', { token: user.token })).body.reserved_credits).toBe(0);

    // A released lease frees its place.
    const first = replies.find((r) => r.status === 201)!;
    expect((await s.call('DELETE', `/api/compute/sessions/${first.body.lease_id}`, { token: user.token })).status).toBe(200);
    const approved = await s.call('POST', `/api/compute/plans/${drafted.body.plan_id}/approve`, { token: user.token });
    expect(approved.status).toBe(201);
    expect((await s.call('POST', '/api/compute/sessions', { token: user.token, body: {} })).status).toBe(409);
    // The cap is per user: another user is not affected.
    expect((await s.call('POST', '/api/compute/sessions', { token: (await makeUser(s)).token, body: {} })).status).toBe(201);
  });
});

describe('sandbox tokens: the pair minted at bootstrap', () => {
  const refresh = (refreshToken: string) => t.call('POST', '/api/auth/refresh', { body: { refresh_token: refreshToken } });

  /** A direct session of `user`, bootstrapped: its lease id and the sandbox's token pair. */
  async function sandboxOf(user: TestUser) {
    const created = await directSession(user);
    expect(created.status).toBe(201);
    const booted = await bootstrap(created.body.claim_token);
    expect(booted.status).toBe(200);
    expect(booted.body.expires_in).toBe(15 * 60); // docs/api/authentication.md: access tokens live 15 minutes
    return {
      leaseId: created.body.lease_id as number,
      accessToken: booted.body.access_token as string,
      refreshToken: booted.body.refresh_token as string,
    };
  }

  test("of an admin owner: the owner's API, but no admin operation and no token minting (403)", async () => {
    const owner = await makeUser(t, { is_admin: true });
    const sandbox = await sandboxOf(owner);
    const me = await t.call('GET', '/api/me', { token: sandbox.accessToken });
    expect({ status: me.status, user_id: me.body.user_id, is_admin: me.body.is_admin }).toEqual({
      status: 200,
      user_id: owner.id,
      is_admin: true,
    });
    expect((await getSession({ ...owner, token: sandbox.accessToken }, sandbox.leaseId)).status).toBe(200);

    // The owner's own token is admin; the sandbox's is not.
    expect((await t.call('GET', '/api/admin/users', { token: owner.token })).status).toBe(200);
    const refusedAdmin = [
      await t.call('GET', '/api/admin/users', { token: sandbox.accessToken }),
      await t.call('POST', `/api/admin/users/${owner.id}/tokens`, { token: sandbox.accessToken, body: { label: 'escape' } }),
      await t.call('POST', `/api/admin/users/${owner.id}/credits`, {
        token: sandbox.accessToken,
        body: { credits: 1000, reason: 'escape' },
      }),
    ];
    expect(refusedAdmin.map((r) => r.status)).toEqual([403, 403, 403]);
    expect(await t.sql(`select 1 from auth_tokens where user_id = $1 and label = 'escape'`, [owner.id])).toHaveLength(0);

    // A device login approved with the sandbox token would hand the sandbox a full login.
    const started = await t.call('POST', '/api/auth/cli/start');
    const approval = await t.call('POST', '/api/auth/cli/approve', {
      token: sandbox.accessToken,
      body: { user_code: started.body.user_code },
    });
    expect({ status: approval.status, detail: approval.body.detail }).toEqual({ status: 403, detail: expect.stringContaining('sandbox') });
    // Nor may it deny one: device logins are none of its business.
    const denial = await t.call('POST', '/api/auth/cli/deny', { token: sandbox.accessToken, body: { user_code: started.body.user_code } });
    expect({ status: denial.status, detail: denial.body.detail }).toEqual({ status: 403, detail: expect.stringContaining('sandbox') });
    const poll = await t.call('POST', '/api/auth/cli/poll', { body: { device_code: started.body.device_code } });
    expect(poll.body).toMatchObject({ status: 'pending' });

    // Admins read every trajectory; the admin's sandbox reads only its owner's own and shared ones.
    const trajectories = trajectoryCalls(t);
    const stranger = await makeUser(t);
    const privateId = newSessionId('private');
    expect((await trajectories.append(stranger, privateId, null, [{ uuid: newUuid(), parentUuid: null, type: 'user' }])).status).toBe(200);
    expect((await trajectories.meta(owner, privateId)).status).toBe(200);
    expect((await trajectories.meta({ token: sandbox.accessToken }, privateId)).status).toBe(404);
    const ownId = newSessionId('own');
    expect(
      (await trajectories.append({ token: sandbox.accessToken }, ownId, null, [{ uuid: newUuid(), parentUuid: null, type: 'user' }]))
        .status,
    ).toBe(200);
    expect((await trajectories.meta(owner, ownId)).body.owner_id).toBe(owner.id);
  });

  test('released: the access token and the refresh token (also a rotated pair) answer 401', async () => {
    const user = await makeUser(t);
    const first = await sandboxOf(user);
    const other = await sandboxOf(user); // another lease of the same owner keeps its tokens
    const rotated = await refresh(first.refreshToken);
    expect(rotated.status).toBe(200);
    const second = { accessToken: rotated.body.access_token as string, refreshToken: rotated.body.refresh_token as string };
    expect((await t.call('GET', '/api/me', { token: second.accessToken })).status).toBe(200);

    expect((await release(user, first.leaseId)).status).toBe(200);
    expect((await t.call('GET', '/api/me', { token: first.accessToken })).status).toBe(401);
    expect((await t.call('GET', '/api/me', { token: second.accessToken })).status).toBe(401);
    expect((await refresh(second.refreshToken)).status).toBe(401);
    expect((await t.call('GET', '/api/me', { token: other.accessToken })).status).toBe(200);
    expect((await t.call('GET', '/api/me', { token: user.token })).status).toBe(200);
  });

  test('a refresh racing the release never leaves a live pair behind', async () => {
    const user = await makeUser(t);
    const outcomes: number[] = [];
    for (let round = 0; round < 10; round++) {
      const sandbox = await sandboxOf(user);
      const [rotated, released] = await Promise.all([refresh(sandbox.refreshToken), release(user, sandbox.leaseId)]);
      expect(released.status).toBe(200);
      outcomes.push(rotated.status);
      if (rotated.status === 200) {
        expect((await t.call('GET', '/api/me', { token: rotated.body.access_token })).status).toBe(401);
        expect((await refresh(rotated.body.refresh_token)).status).toBe(401);
      }
    }
    console.log(
      `refresh racing release, 10 rounds: ${outcomes.filter((s) => s === 200).length} refreshes first (their pair revoked by the release), ${outcomes.filter((s) => s === 401).length} after`,
    );
    expect(outcomes.filter((s) => s !== 200 && s !== 401)).toEqual([]);
    expect(await t.sql(`select id from auth_tokens where user_id = $1 and lease_id is not null and revoked_at is null`, [user.id])).toEqual(
      [],
    );
  });

  test('expired by the meter (idle): the access token and the refresh token answer 401', async () => {
    const tl = timeline();
    tl.now(0);
    const user = await makeUser(t);
    const sandbox = await sandboxOf(user);
    expect((await t.call('GET', '/api/me', { token: sandbox.accessToken })).status).toBe(200);
    await tl.meter(IDLE_MINUTES + 1);
    expect((await getSession(user, sandbox.leaseId)).body.state).toBe('expired');
    expect((await t.call('GET', '/api/me', { token: sandbox.accessToken })).status).toBe(401);
    expect((await refresh(sandbox.refreshToken)).status).toBe(401);
  });
});

describe('live lease events and past leases (issue 37)', () => {
  /** Collects the LEASE_CHANGED events of one lease as this instance's subscribers get them. */
  async function watchLease(leaseId: number) {
    const events: LeaseChanged[] = [];
    const subscription = t.app.services.pubsub.subscribe('LEASE_CHANGED', String(leaseId));
    const reading = (async () => {
      for await (const event of subscription) events.push(event);
    })();
    await new Promise((resolve) => setImmediate(resolve)); // the listener is registered on the first read
    return {
      events,
      async stop() {
        await subscription.return?.();
        await reading;
      },
    };
  }

  test('a bootstrap, an active heartbeat, a meter pass that charges, a top-up and the release each publish the lease as it is now', async () => {
    const tl = timeline();
    const user = await makeUser(t);
    tl.now(0);
    const plan = await draft(user);
    const approved = await approve(user, plan.plan_id);
    expectStatus(approved, 201);
    const leaseId: number = approved.body.lease_id;
    const watch = await watchLease(leaseId);
    const booted = await bootstrap(approved.body.claim_token);
    expectStatus(booted, 200);
    await until('the bootstrap event', () => watch.events.length === 1);

    tl.now(2);
    expectStatus(await heartbeat(leaseId, booted.body.process_token), 200);
    await until('the heartbeat event', () => watch.events.length === 2);

    tl.now(5);
    await meterPass(t.app.services);
    await until('the meter event', () => watch.events.length === 3);
    // A second pass at the same moment charges nothing, and says nothing.
    await meterPass(t.app.services);

    expectStatus(await topUp(user, leaseId, 1), 200);
    expectStatus(await release(user, leaseId), 200);
    await until('the top-up and release events', () => watch.events.length >= 5);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await watch.stop();

    const idle = (minutes: number) => tl.iso(minutes + IDLE_MINUTES);
    expect(watch.events.map(({ at: _at, ...event }) => event)).toEqual([
      { leaseId, state: 'ready', spentCredits: 0, ceilingCredits: plan.spend_ceiling_credits, idleExpiresAt: idle(0) },
      { leaseId, state: 'ready', spentCredits: 0, ceilingCredits: plan.spend_ceiling_credits, idleExpiresAt: idle(2) },
      { leaseId, state: 'ready', spentCredits: r4(5 * DEFAULT_RATE), ceilingCredits: plan.spend_ceiling_credits, idleExpiresAt: idle(2) },
      {
        leaseId,
        state: 'ready',
        spentCredits: r4(5 * DEFAULT_RATE),
        ceilingCredits: plan.spend_ceiling_credits + 1,
        idleExpiresAt: idle(5),
      },
      {
        leaseId,
        state: 'released',
        spentCredits: r4(5 * DEFAULT_RATE),
        ceilingCredits: plan.spend_ceiling_credits + 1,
        idleExpiresAt: idle(5),
      },
    ]);
  });

  test('a lease the meter ends (never claimed) is published as expired', async () => {
    const tl = timeline();
    const user = await makeUser(t);
    tl.now(0);
    const leaseId: number = (await directSession(user)).body.lease_id;
    const watch = await watchLease(leaseId);
    tl.now(BOOTSTRAP_MINUTES + 1);
    await meterPass(t.app.services);
    await until('the expiry event', () => watch.events.length === 1);
    await watch.stop();
    expect(watch.events[0]).toMatchObject({ leaseId, state: 'expired', spentCredits: 0 });
  });

  const PAST = `query ($first: Int, $after: String) {
    computeSessionsPast(first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes { leaseId goal state endReason releasedAt createdAt bootstrapDeadline spentCredits machine { cpus } }
    }
  }`;
  const past = (token: string | undefined, variables: Record<string, unknown> = {}) =>
    t.call('POST', '/graphql', { token, body: { query: PAST, variables } });

  test('past leases: the owner’s released and expired ones, newest ended first, a page at a time, with why each ended; open ones are not there; others see only their own', async () => {
    const tl = timeline();
    const owner = await makeUser(t);
    const other = await makeUser(t);
    tl.now(0);
    const unclaimed: number = (await approve(owner, (await draft(owner)).plan_id)).body.lease_id;
    await tl.meter(BOOTSTRAP_MINUTES + 1);

    tl.now(12);
    const idleSession = await directSession(owner);
    expectStatus(await bootstrap(idleSession.body.claim_token), 200);
    await tl.meter(12 + IDLE_MINUTES + 1);

    tl.now(50);
    const released: number = (await directSession(owner)).body.lease_id;
    expectStatus(await release(owner, released), 200);
    const othersLease: number = (await directSession(other)).body.lease_id;
    expectStatus(await release(other, othersLease), 200);
    tl.now(51);
    const open: number = (await directSession(owner)).body.lease_id;

    const first = await past(owner.token, { first: 2 });
    expect(first.body.errors).toBeUndefined();
    const page1 = first.body.data.computeSessionsPast;
    expect(page1.totalCount).toBe(3);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    expect(
      page1.nodes.map((n: { leaseId: number; state: string; endReason: string; releasedAt: string }) => [
        n.leaseId,
        n.state,
        n.endReason,
        n.releasedAt,
      ]),
    ).toEqual([
      [released, 'released', 'released', tl.iso(50)],
      [idleSession.body.lease_id, 'expired', 'idle', tl.iso(12 + IDLE_MINUTES + 1)],
    ]);
    expect(page1.nodes.map((n: { goal: string | null }) => n.goal)).toEqual([null, null]); // direct sessions have no plan
    // Charged up to its idle deadline, not beyond.
    expect(page1.nodes[1].spentCredits).toBeCloseTo(IDLE_MINUTES * DEFAULT_RATE, 4);
    const page2 = (await past(owner.token, { first: 2, after: page1.pageInfo.endCursor })).body.data.computeSessionsPast;
    expect(page2.pageInfo.hasNextPage).toBe(false);
    expect(page2.nodes).toEqual([
      expect.objectContaining({
        leaseId: unclaimed,
        goal: 'Align the reads. Call variants.', // what it was for: its plan's goal
        state: 'expired',
        endReason: 'unclaimed',
        releasedAt: tl.iso(BOOTSTRAP_MINUTES + 1),
      }),
    ]);
    // The bootstrap deadline says how long a sandbox had to claim it.
    const { createdAt, bootstrapDeadline } = page2.nodes[0];
    expect((Date.parse(bootstrapDeadline) - Date.parse(createdAt)) / MINUTE).toBe(BOOTSTRAP_MINUTES);
    expect(JSON.stringify([page1, page2])).not.toContain(`"leaseId":${open},`);

    // Another user: their own past lease, none of the owner's.
    const theirs = (await past(other.token)).body.data.computeSessionsPast;
    expect({ total: theirs.totalCount, ids: theirs.nodes.map((n: { leaseId: number }) => n.leaseId) }).toEqual({
      total: 1,
      ids: [othersLease],
    });

    // An open lease has no reason to have ended.
    const current = await t.call('POST', '/graphql', {
      token: owner.token,
      body: { query: 'query ($id: Int!) { computeSession(leaseId: $id) { state endReason } }', variables: { id: open } },
    });
    expect(current.body.data.computeSession).toEqual({ state: 'awaiting_sandbox', endReason: null });
  });

  test('past leases: anonymous is refused (UNAUTHENTICATED); a page size out of range or a forged cursor is refused (VALIDATION_FAILED)', async () => {
    const user = await makeUser(t);
    const anonymous = await past(undefined);
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    for (const variables of [{ first: 0 }, { first: 101 }, { after: 'bm90LWEtY3Vyc29y' }]) {
      const refused = await past(user.token, variables);
      expect({ variables, code: refused.body.errors?.[0]?.extensions?.code }).toEqual({ variables, code: 'VALIDATION_FAILED' });
    }
  });
});
