import { createClient, Client } from 'graphql-ws';
import WebSocket from 'ws';
import { meterPass } from '../src/modules/compute/meter';
import { addMember, makeLab, makeUser, startTestApp, TestApp } from './support/app';

/**
 * Two service instances on one database and one Redis: a change made through instance A reaches
 * a subscriber on instance B, and the policy is checked on subscribe and again for every event.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

let a: TestApp;
let b: TestApp;
const clients: Client[] = [];

beforeAll(async () => {
  a = await startTestApp({ REDIS_URL });
  b = await startTestApp({ REDIS_URL }, { sameDatabaseAs: a });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => Promise.resolve(c.dispose())));
  await b.close();
  await a.close();
});

function connect(app: TestApp, token: string): Client {
  return connectWith(app, { authorization: `Bearer ${token}` });
}

function connectWith(app: TestApp, connectionParams: Record<string, unknown>): Client {
  const client = createClient({
    url: `${app.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
  });
  clients.push(client);
  return client;
}

const SUBSCRIPTION = 'subscription ($labId: ID!) { labMemberEvents(labId: $labId) { labId memberUserId action status role at } }';

/** Collects the events of one subscription; `waitFor` waits until a condition on them holds. */
function subscribeTo(client: Client, query: string, variables: Record<string, unknown>, field: string) {
  const events: any[] = [];
  const errors: any[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  client.subscribe(
    { query, variables },
    {
      next: (value) => {
        if (value.errors) errors.push(...value.errors);
        else events.push((value.data as Record<string, unknown>)[field]);
        wake?.();
      },
      error: (error) => {
        errors.push(error);
        wake?.();
      },
      complete: () => {
        done = true;
        wake?.();
      },
    },
  );
  return {
    events,
    errors,
    isDone: () => done,
    async waitFor(predicate: () => boolean, ms = 5000) {
      const deadline = Date.now() + ms;
      while (!predicate() && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
      return predicate();
    },
  };
}

const subscribe = (client: Client, labId: string) => subscribeTo(client, SUBSCRIPTION, { labId }, 'labMemberEvents');

test('an approval made on instance A reaches the owner subscribed on instance B', async () => {
  const lab = await makeLab(a);
  const ann = await makeUser(a);
  const stream = subscribe(connect(b, lab.owner.token), lab.id);
  // Give the subscription time to register with Redis before the change.
  await new Promise((resolve) => setTimeout(resolve, 300));

  await a.call('POST', '/api/labs/join', { token: ann.token, body: { code: lab.code } });
  await a.call('PATCH', `/api/labs/${lab.id}/members/${ann.id}`, { token: lab.owner.token, body: { status: 'active', role: 'mentor' } });

  expect(await stream.waitFor(() => stream.events.length >= 2)).toBe(true);
  expect(stream.events.map((e) => [e.action, e.status, e.role])).toEqual([
    ['join', 'pending', 'member'],
    ['approve+role', 'active', 'mentor'],
  ]);
  expect(stream.events[0]).toMatchObject({ labId: lab.id, memberUserId: ann.id });
});

test('connectionParams.Authorization (as many clients spell it) works like authorization; a token without "Bearer " or anonymous is UNAUTHENTICATED', async () => {
  const lab = await makeLab(a);
  const stream = subscribe(connectWith(b, { Authorization: `Bearer ${lab.owner.token}` }), lab.id);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const applicant = await makeUser(a);
  await a.call('POST', '/api/labs/join', { token: applicant.token, body: { code: lab.code } });
  expect(await stream.waitFor(() => stream.events.length >= 1)).toBe(true);
  expect(stream.events[0]).toMatchObject({ labId: lab.id, memberUserId: applicant.id, action: 'join' });

  for (const params of [{ authorization: lab.owner.token }, { Authorization: lab.owner.token }, { authorization: 42 }, {}]) {
    const refused = subscribe(connectWith(b, params), lab.id);
    expect(await refused.waitFor(() => refused.errors.length > 0 || refused.isDone())).toBe(true);
    expect({ params, code: refused.errors[0]?.extensions?.code }).toEqual({ params, code: 'UNAUTHENTICATED' });
  }
  const bare = subscribe(connectWith(b, { authorization: lab.owner.token }), lab.id);
  expect(await bare.waitFor(() => bare.errors.length > 0)).toBe(true);
  expect(bare.errors[0].message).toMatch(/Bearer <token>/);
});

test('a plain member may not subscribe; an outsider gets not found', async () => {
  const lab = await makeLab(a);
  const member = await makeUser(a);
  await addMember(a, lab, member);
  const outsider = await makeUser(a);

  const asMember = subscribe(connect(b, member.token), lab.id);
  expect(await asMember.waitFor(() => asMember.errors.length > 0 || asMember.isDone())).toBe(true);
  expect(asMember.errors[0]?.extensions?.code).toBe('FORBIDDEN');

  const asOutsider = subscribe(connect(b, outsider.token), lab.id);
  expect(await asOutsider.waitFor(() => asOutsider.errors.length > 0 || asOutsider.isDone())).toBe(true);
  expect(asOutsider.errors[0]?.extensions?.code).toBe('NOT_FOUND');
});

test('a mentor demoted to member stops receiving events', async () => {
  const lab = await makeLab(a);
  const mentor = await makeUser(a);
  await addMember(a, lab, mentor, 'mentor');
  const stream = subscribe(connect(b, mentor.token), lab.id);
  await new Promise((resolve) => setTimeout(resolve, 300));

  const applicant = await makeUser(a);
  await a.call('POST', '/api/labs/join', { token: applicant.token, body: { code: lab.code } });
  expect(await stream.waitFor(() => stream.events.length >= 1)).toBe(true);

  await a.call('PATCH', `/api/labs/${lab.id}/members/${mentor.id}`, { token: lab.owner.token, body: { role: 'member' } });
  await a.call('PATCH', `/api/labs/${lab.id}/members/${applicant.id}`, { token: lab.owner.token, body: { status: 'active' } });
  // The demotion event itself is the first one checked after the change: the stream ends.
  expect(await stream.waitFor(() => stream.isDone())).toBe(true);
  expect(stream.events).toHaveLength(1);
});

test('a subscriber whose token is revoked stops receiving', async () => {
  const lab = await makeLab(a);
  const stream = subscribe(connect(b, lab.owner.token), lab.id);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const first = await makeUser(a);
  await a.call('POST', '/api/labs/join', { token: first.token, body: { code: lab.code } });
  expect(await stream.waitFor(() => stream.events.length >= 1)).toBe(true);

  const [{ id: tokenId }] = await a.sql<{ id: string }>(
    `select id from auth_tokens where secret_hash = encode(sha256(convert_to($1, 'utf8')), 'hex')`,
    [lab.owner.token],
  );
  expect((await a.call('DELETE', `/api/admin/users/${lab.owner.id}/tokens/${tokenId}`, { token: a.adminToken })).status).toBe(204);
  const second = await makeUser(a);
  await a.call('POST', '/api/labs/join', { token: second.token, body: { code: lab.code } });
  expect(await stream.waitFor(() => stream.isDone())).toBe(true);
  expect(stream.events).toHaveLength(1);
});

const RECORDS_SUBSCRIPTION =
  'subscription ($sessionId: ID!) { trajectoryRecordsAppended(sessionId: $sessionId) { sessionId records headUuid count } }';

test('records appended on A reach a lab member watching the shared session on B, until it turns private', async () => {
  const lab = await makeLab(a);
  const member = await makeUser(a);
  await addMember(a, lab, member);
  const owner = lab.owner;
  const append = (base: string | null, uuid: string) =>
    a.call('PUT', '/api/trajectories/live-1/append', {
      token: owner.token,
      rawBody: `{"base_uuid":${JSON.stringify(base)},"records":[{"uuid":"${uuid}", "type":"user"}]}`,
    });
  expect((await append(null, 'r1')).status).toBe(200);
  expect(
    (await a.call('PATCH', '/api/trajectories/live-1/visibility', { token: owner.token, body: { visibility: 'lab', lab_id: lab.id } }))
      .status,
  ).toBe(200);

  const events: any[] = [];
  let done = false;
  connect(b, member.token).subscribe(
    { query: RECORDS_SUBSCRIPTION, variables: { sessionId: 'live-1' } },
    {
      next: (value) => void events.push(value.data?.trajectoryRecordsAppended ?? value.errors),
      error: () => (done = true),
      complete: () => (done = true),
    },
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect((await append('r1', 'r2')).status).toBe(200);
  for (let i = 0; i < 50 && events.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(events).toEqual([{ sessionId: 'live-1', records: ['{"uuid":"r2", "type":"user"}'], headUuid: 'r2', count: 2 }]);

  expect(
    (await a.call('PATCH', '/api/trajectories/live-1/visibility', { token: owner.token, body: { visibility: 'private' } })).status,
  ).toBe(200);
  expect((await append('r2', 'r3')).status).toBe(200);
  for (let i = 0; i < 50 && !done; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(done).toBe(true);
  expect(events).toHaveLength(1);
});

const LEASE_SUBSCRIPTION =
  'subscription ($leaseId: Int!) { computeLeaseChanged(leaseId: $leaseId) { leaseId state spentCredits ceilingCredits at } }';

test('lease changes made on instance A (bootstrap, top-up, release) reach the owner subscribed on instance B; others are refused', async () => {
  const owner = await makeUser(a);
  const stranger = await makeUser(a);
  const plan = await a.call('POST', '/api/compute/plans', { token: owner.token, body: { goal: 'Cluster cells.' } });
  const lease = await a.call('POST', `/api/compute/plans/${plan.body.plan_id}/approve`, { token: owner.token });
  expect(lease.status).toBe(201);
  const leaseId = lease.body.lease_id as number;

  const asStranger = subscribeTo(connect(b, stranger.token), LEASE_SUBSCRIPTION, { leaseId }, 'computeLeaseChanged');
  expect(await asStranger.waitFor(() => asStranger.errors.length > 0 || asStranger.isDone())).toBe(true);
  expect(asStranger.errors[0]?.extensions?.code).toBe('NOT_FOUND');

  const stream = subscribeTo(connect(b, owner.token), LEASE_SUBSCRIPTION, { leaseId }, 'computeLeaseChanged');
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect((await a.call('POST', '/api/compute/bootstrap', { body: { claim_token: lease.body.claim_token } })).status).toBe(200);
  expect((await a.call('POST', `/api/compute/sessions/${leaseId}/topup`, { token: owner.token, body: { credits: 1 } })).status).toBe(200);
  expect((await a.call('DELETE', `/api/compute/sessions/${leaseId}`, { token: owner.token })).status).toBe(200);

  expect(await stream.waitFor(() => stream.events.length >= 3)).toBe(true);
  expect(stream.events.map((e) => e.state)).toEqual(['ready', 'ready', 'released']);
  expect(stream.events[1].ceilingCredits).toBeCloseTo(lease.body.ceiling_credits + 1, 4);
  expect(stream.events.every((e) => e.leaseId === leaseId)).toBe(true);
});

test('a meter pass and a heartbeat on instance A reach the owner watching the lease on instance B: the console’s live meter', async () => {
  const owner = await makeUser(a);
  const plan = await a.call('POST', '/api/compute/plans', { token: owner.token, body: { goal: 'Count the reads.' } });
  const lease = await a.call('POST', `/api/compute/plans/${plan.body.plan_id}/approve`, { token: owner.token });
  expect(lease.status).toBe(201);
  const leaseId = lease.body.lease_id as number;
  const stream = subscribeTo(
    connect(b, owner.token),
    LEASE_SUBSCRIPTION.replace('at }', 'idleExpiresAt at }'),
    { leaseId },
    'computeLeaseChanged',
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  const booted = await a.call('POST', '/api/compute/bootstrap', { body: { claim_token: lease.body.claim_token } });
  expect(booted.status).toBe(200);
  expect(await stream.waitFor(() => stream.events.length >= 1)).toBe(true);

  const heartbeat = await a.call('POST', `/api/compute/sessions/${leaseId}/heartbeat`, {
    token: booted.body.process_token,
    body: { active: true },
  });
  expect(heartbeat.status).toBe(200);
  expect(await stream.waitFor(() => stream.events.length >= 2)).toBe(true);
  // A's meter, three minutes on: the lease is charged, and B's subscriber sees the spend.
  const later = new Date(Date.now() + 3 * 60_000);
  await meterPass({ ...a.app.services, clock: { now: () => later } });
  expect(await stream.waitFor(() => stream.events.length >= 3)).toBe(true);

  expect(stream.events.map((e) => e.state)).toEqual(['ready', 'ready', 'ready']);
  expect(stream.events[1].idleExpiresAt).toBe(heartbeat.body.idle_expires_at);
  expect(stream.events[2].spentCredits).toBeGreaterThanOrEqual(0.12); // 3 minutes at 0.04 a minute
  const [{ spent }] = await a.sql<{ spent: number }>('select spent_credits::float8 as spent from compute_leases where id = $1', [leaseId]);
  expect(stream.events[2].spentCredits).toBe(spent);
});

test('50 subscribers who leave a quiet session leave no listener behind (no event needed to free them)', async () => {
  const owner = await makeUser(a);
  expect(
    (
      await a.call('PUT', '/api/trajectories/quiet-1/append', {
        token: owner.token,
        body: { base_uuid: null, records: [{ uuid: 'q1', type: 'user' }] },
      })
    ).status,
  ).toBe(200);
  const pubsub = a.app.services.pubsub;
  const before = pubsub.listenerCount();
  const client = connect(a, owner.token);
  const leave = Array.from({ length: 50 }, () =>
    client.subscribe(
      { query: RECORDS_SUBSCRIPTION, variables: { sessionId: 'quiet-1' } },
      { next: () => undefined, error: () => undefined, complete: () => undefined },
    ),
  );
  const settled = async (expected: number) => {
    for (let i = 0; i < 100 && pubsub.listenerCount() !== expected; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    return pubsub.listenerCount();
  };
  expect(await settled(before + 50)).toBe(before + 50);
  for (const unsubscribe of leave) unsubscribe();
  // Nothing is appended meanwhile: each listener goes as its subscriber leaves.
  expect(await settled(before)).toBe(before);
});
