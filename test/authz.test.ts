import { ROUTES } from '../facade/routes';
import { addMember, CallOptions, makeLab, makeUser, Reply, startTestApp, TestApp, TestLab, TestUser } from './support/app';

/**
 * Authorization matrix: every labs endpoint and every admin users/labs/stats/segmentation endpoint of
 * facade/routes.ts, for every kind of caller, with the exact status each must get.
 *
 * Fixtures are built once, up front: one world for the reads, one for the refused writes, and
 * one of its own for every write that succeeds (leave, rotate, approve, join, …), so that no row
 * depends on another.
 */

type Actor =
  | 'anonymous' // no Authorization header
  | 'malformed' // an Authorization header that is not a valid bearer token
  | 'revoked' // a revoked personal access token (of the lab owner, or of an admin on /api/admin)
  | 'outsider' // signed in, no relation to the lab
  | 'pending' // asked to join, not approved
  | 'left' // was a member, left
  | 'rejected' // asked to join, was rejected
  | 'member'
  | 'mentor'
  | 'owner'
  | 'admin'; // the bootstrap admin, not a member of the lab

const SIGNED_OUT = ['anonymous', 'malformed', 'revoked'] as const;
type SignedIn = Exclude<Actor, (typeof SIGNED_OUT)[number]>;
const RELATED: SignedIn[] = ['outsider', 'pending', 'left', 'rejected', 'member', 'mentor', 'owner'];

interface Target extends TestUser {
  /** A second token of the target, for the admin revoke route. */
  tokenId: string;
}

interface World {
  lab: TestLab;
  /** The lab's name, unique to this world. */
  name: string;
  /** A pending requester of the lab: the subject of member approval and of the admin user routes. */
  target?: Target;
  users: Partial<Record<SignedIn, TestUser>>;
  revoked: { labs?: string; admin?: string };
}

interface Endpoint {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  route: string;
  area: 'labs' | 'admin';
  /** The verb phrase of the row names: "<actor> can/cannot <does> (<status>)". */
  does: string;
  path(w: World): string;
  body?(w: World): unknown;
  query?(w: World): Record<string, string>;
  /** The expected status of every signed-in actor (signed-out actors always get 401). */
  outcomes: Record<SignedIn, number>;
  /** Whether the path or the checks use the world's target. */
  target?: boolean;
  /** Extra assertions on a successful reply. */
  check?(reply: Reply, w: World, actor: SignedIn): void;
}

let t: TestApp;
let notFoundBody: unknown;
let seq = 0;

// ─── fixtures ────────────────────────────────────────────────────────────────────────────────

function must(reply: Reply, status: number, what: string): Reply {
  if (reply.status !== status) throw new Error(`fixture ${what}: ${reply.status} ${reply.text}`);
  return reply;
}

async function mintToken(userId: string): Promise<{ token_id: string; token: string }> {
  const minted = must(
    await t.call('POST', `/api/admin/users/${userId}/tokens`, { token: t.adminToken, body: { label: 'matrix' } }),
    201,
    'mint token',
  );
  return minted.body;
}

async function revokedTokenOf(userId: string): Promise<string> {
  const { token_id, token } = await mintToken(userId);
  must(await t.call('DELETE', `/api/admin/users/${userId}/tokens/${token_id}`, { token: t.adminToken }), 204, 'revoke token');
  return token;
}

async function join(lab: TestLab, user: TestUser) {
  must(await t.call('POST', '/api/labs/join', { token: user.token, body: { code: lab.code } }), 200, 'join');
}

async function decide(lab: TestLab, user: TestUser, status: 'rejected') {
  must(await t.call('PATCH', `/api/labs/${lab.id}/members/${user.id}`, { token: lab.owner.token, body: { status } }), 200, status);
}

/** A user standing in `relation` to the lab. */
async function relate(lab: TestLab, relation: SignedIn): Promise<TestUser | undefined> {
  if (relation === 'owner') return lab.owner;
  if (relation === 'admin') return undefined;
  const user = await makeUser(t);
  if (relation === 'pending') await join(lab, user);
  if (relation === 'rejected') {
    await join(lab, user);
    await decide(lab, user, 'rejected');
  }
  if (relation === 'member' || relation === 'mentor') await addMember(t, lab, user, relation);
  if (relation === 'left') {
    await addMember(t, lab, user);
    must(await t.call('DELETE', `/api/labs/${lab.id}/membership`, { token: user.token }), 200, 'leave');
  }
  return user;
}

async function makeTarget(lab: TestLab): Promise<Target> {
  const user = await makeUser(t);
  await join(lab, user);
  const { token_id } = await mintToken(user.id);
  return { ...user, tokenId: token_id };
}

/** A lab, its pending target if asked for, and the given actors (users built concurrently). */
async function buildWorld(actors: Actor[], area: Endpoint['area'] | 'both', withTarget = true): Promise<World> {
  const name = `Matrix Lab ${process.pid}x${++seq}`;
  const lab = await makeLab(t, { name });
  const users: World['users'] = {};
  const revoked: World['revoked'] = {};
  const [target] = await Promise.all([
    withTarget ? makeTarget(lab) : undefined,
    ...actors.map(async (actor) => {
      if (actor === 'anonymous' || actor === 'malformed') return;
      if (actor === 'revoked') {
        // The strongest case: a token that would otherwise have the most power on the route.
        if (area !== 'admin') revoked.labs = await revokedTokenOf(lab.owner.id);
        if (area !== 'labs') revoked.admin = await revokedTokenOf((await makeUser(t, { is_admin: true })).id);
        return;
      }
      users[actor] = await relate(lab, actor);
    }),
  ]);
  return { lab, name, target, users, revoked };
}

/** The ways `actor` presents itself; more than one for `malformed`. */
function credentials(w: World, actor: Actor, area: Endpoint['area']): CallOptions[] {
  switch (actor) {
    case 'anonymous':
      return [{}];
    case 'malformed':
      return [
        { token: 'not-a-token' },
        { token: `ldk_pat_${'A'.repeat(12)}${'b'.repeat(32)}` }, // well formed, never issued
        { token: t.adminToken.slice(0, -1) }, // a valid token, truncated
        { headers: { authorization: `Token ${t.adminToken}` } }, // a valid token, wrong scheme
        { headers: { authorization: 'Bearer' } },
      ];
    case 'revoked':
      return [{ token: w.revoked[area]! }];
    case 'admin':
      return [{ token: t.adminToken }];
    default:
      return [{ token: w.users[actor]!.token }];
  }
}

// ─── the table ───────────────────────────────────────────────────────────────────────────────

/** Who can see the lab at all: everyone else gets the 404 of a lab that does not exist. */
const SEES_LAB = { outsider: 404, pending: 404, left: 404, rejected: 404 } as const;
const ADMIN_ONLY: Record<SignedIn, number> = {
  outsider: 403,
  pending: 403,
  left: 403,
  rejected: 403,
  member: 403,
  mentor: 403,
  owner: 403,
  admin: 200,
};

const lab = (w: World) => `/api/labs/${w.lab.id}`;

const ENDPOINTS: Endpoint[] = [
  // Labs: lab-scoped
  {
    method: 'GET',
    route: '/api/labs/{lab_id}',
    area: 'labs',
    does: 'read the lab',
    path: lab,
    outcomes: { ...SEES_LAB, member: 200, mentor: 200, owner: 200, admin: 200 },
    check(reply, w, actor) {
      expect(reply.body).toMatchObject({ lab_id: w.lab.id, name: w.name, role: actor === 'admin' ? null : actor });
      if (actor === 'member') expect(reply.body.members).toBeNull();
      else {
        // Every row, any status.
        expect(reply.body.members).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ member_user_id: w.lab.owner.id, role: 'owner', status: 'active' }),
            expect.objectContaining({ member_user_id: w.target!.id, status: 'pending' }),
          ]),
        );
      }
      // Shown to the owner only; everyone else's answer omits both (absent, not null).
      if (actor === 'owner') expect(reply.body).toMatchObject({ invitation_code: w.lab.code, code_expires_at: expect.any(String) });
      else {
        expect(reply.body).not.toHaveProperty('invitation_code');
        expect(reply.body).not.toHaveProperty('code_expires_at');
      }
    },
  },
  {
    method: 'GET',
    route: '/api/labs/{lab_id}/usage',
    area: 'labs',
    does: 'read the usage report',
    path: (w) => `${lab(w)}/usage`,
    outcomes: { ...SEES_LAB, member: 403, mentor: 403, owner: 200, admin: 403 },
    check(reply, w) {
      expect(reply.body).toMatchObject({ lab_id: w.lab.id, members: expect.any(Array), totals: expect.any(Object) });
    },
  },
  {
    method: 'GET',
    route: '/api/labs/{lab_id}/board',
    area: 'labs',
    does: 'read the board',
    path: (w) => `${lab(w)}/board`,
    outcomes: { ...SEES_LAB, member: 200, mentor: 200, owner: 200, admin: 200 },
    check(reply) {
      expect(reply.body).toEqual({ items: [], total: 0, limit: 200 });
    },
  },
  {
    method: 'GET',
    route: '/api/labs/{lab_id}/reviews',
    area: 'labs',
    does: 'read the reviews',
    path: (w) => `${lab(w)}/reviews`,
    outcomes: { ...SEES_LAB, member: 200, mentor: 200, owner: 200, admin: 200 },
    check(reply) {
      expect(reply.body).toMatchObject({ for_me: [], by_me: [] });
    },
  },
  {
    method: 'POST',
    route: '/api/labs/{lab_id}/rotate_code',
    area: 'labs',
    does: 'rotate the code',
    path: (w) => `${lab(w)}/rotate_code`,
    outcomes: { ...SEES_LAB, member: 403, mentor: 403, owner: 200, admin: 403 },
    check(reply, w) {
      expect(reply.body.invitation_code).toMatch(/^[0-9A-HJKMNP-TV-Z]{12}$/);
      expect(reply.body.invitation_code).not.toBe(w.lab.code);
    },
  },
  {
    method: 'POST',
    route: '/api/admin/users/{user_id}/password-link',
    target: true,
    area: 'admin',
    does: 'issue a set-password link',
    path: (w) => `/api/admin/users/${w.target!.id}/password-link`,
    outcomes: { ...ADMIN_ONLY, admin: 201 },
    check(reply) {
      expect(reply.body).toEqual({ url: expect.stringMatching(/\/set-password#ldk_pwl_/), expires_at: expect.any(String), mailed: false });
    },
  },
  {
    method: 'DELETE',
    route: '/api/labs/{lab_id}/membership',
    area: 'labs',
    does: 'leave the lab',
    path: (w) => `${lab(w)}/membership`,
    // Acting on one's own row reveals nothing: a pending requester withdraws the request (200),
    // leaving twice is idempotent (200), a rejected requester has nothing to leave (409).
    outcomes: { outsider: 404, pending: 200, left: 200, rejected: 409, member: 200, mentor: 200, owner: 409, admin: 404 },
    check(reply, w, actor) {
      expect(reply.body).toMatchObject({ member_user_id: w.users[actor]!.id, status: 'left' });
    },
  },
  {
    method: 'PATCH',
    route: '/api/labs/{lab_id}/members/{member_user_id}',
    target: true,
    area: 'labs',
    does: 'approve a member',
    path: (w) => `${lab(w)}/members/${w.target!.id}`,
    body: () => ({ status: 'active' }),
    outcomes: { ...SEES_LAB, member: 403, mentor: 403, owner: 200, admin: 403 },
    check(reply, w) {
      expect(reply.body).toMatchObject({ member_user_id: w.target!.id, status: 'active', role: 'member' });
    },
  },

  // Labs: not lab-scoped
  {
    method: 'POST',
    route: '/api/labs',
    area: 'labs',
    does: 'create a lab',
    path: () => '/api/labs',
    body: () => ({ name: 'Another Lab' }),
    outcomes: { outsider: 200, pending: 200, left: 200, rejected: 200, member: 200, mentor: 200, owner: 200, admin: 200 },
    check(reply) {
      expect(reply.body).toMatchObject({ name: 'Another Lab', role: 'owner', status: 'active', invitation_code: expect.any(String) });
    },
  },
  {
    method: 'GET',
    route: '/api/labs',
    area: 'labs',
    does: 'list their labs',
    path: () => '/api/labs',
    outcomes: { outsider: 200, pending: 200, left: 200, rejected: 200, member: 200, mentor: 200, owner: 200, admin: 200 },
    check(reply, w, actor) {
      const ids = reply.body.items.map((item: { lab_id: string }) => item.lab_id);
      // Only active members list the lab.
      if (actor === 'member' || actor === 'mentor' || actor === 'owner') expect(ids).toContain(w.lab.id);
      else expect(ids).not.toContain(w.lab.id);
    },
  },
  {
    method: 'GET',
    route: '/api/labs/preview',
    area: 'labs',
    does: 'preview a code',
    path: () => '/api/labs/preview',
    query: (w) => ({ code: w.lab.code }),
    outcomes: { outsider: 200, pending: 200, left: 200, rejected: 200, member: 200, mentor: 200, owner: 200, admin: 200 },
    check(reply, w) {
      expect(reply.body).toEqual({ name: w.name });
    },
  },
  {
    method: 'POST',
    route: '/api/labs/join',
    area: 'labs',
    does: 'ask to join',
    path: () => '/api/labs/join',
    body: (w) => ({ code: w.lab.code }),
    // Active members (the owner included) are already in: 409 (docs/api/labs.md, joining again).
    outcomes: { outsider: 200, pending: 200, left: 200, rejected: 200, member: 409, mentor: 409, owner: 409, admin: 200 },
    check(reply, w) {
      expect(reply.body).toEqual({ lab_id: w.lab.id, status: 'pending' });
    },
  },

  // Admin: users and labs
  {
    method: 'GET',
    route: '/api/admin/sync/users',
    area: 'admin',
    does: 'stream the user table',
    path: () => '/api/admin/sync/users',
    outcomes: ADMIN_ONLY,
    check(reply, w) {
      expect(reply.body.users).toEqual(expect.arrayContaining([expect.objectContaining({ user_id: w.target!.id })]));
    },
  },
  {
    method: 'GET',
    route: '/api/admin/stats',
    area: 'admin',
    does: 'read the ops stats',
    path: () => '/api/admin/stats',
    outcomes: ADMIN_ONLY,
    check(reply) {
      expect(reply.body).toMatchObject({
        online_users: expect.any(Number),
        mau: expect.any(Number),
        registrations: { total: expect.any(Number) },
      });
    },
  },
  {
    method: 'GET',
    route: '/api/admin/segmentation',
    area: 'admin',
    does: 'read the segmentation',
    path: () => '/api/admin/segmentation',
    outcomes: ADMIN_ONLY,
    check(reply) {
      expect(reply.body).toMatchObject({ domain: 'omics', users: expect.any(Number), unresolved: expect.any(Array) });
    },
  },
  {
    method: 'GET',
    route: '/api/admin/users',
    area: 'admin',
    does: 'search users',
    path: () => '/api/admin/users',
    query: (w) => ({ q: w.target!.email }),
    outcomes: ADMIN_ONLY,
    check(reply, w) {
      expect(reply.body).toMatchObject({ items: [expect.objectContaining({ user_id: w.target!.id })], total: 1 });
    },
  },
  {
    method: 'POST',
    route: '/api/admin/users',
    area: 'admin',
    does: 'create a user',
    path: () => '/api/admin/users',
    body: () => ({ email: `matrix${process.pid}x${++seq}@example.org`, name: 'Created' }),
    outcomes: { ...ADMIN_ONLY, admin: 201 },
    check(reply) {
      expect(reply.body).toMatchObject({ user_id: expect.stringMatching(/^usr_/), name: 'Created', is_admin: false });
    },
  },
  {
    method: 'GET',
    route: '/api/admin/users/{user_id}',
    target: true,
    area: 'admin',
    does: 'read a user',
    path: (w) => `/api/admin/users/${w.target!.id}`,
    outcomes: ADMIN_ONLY,
    check(reply, w) {
      expect(reply.body).toMatchObject({ user_id: w.target!.id, email: w.target!.email });
    },
  },
  {
    method: 'PATCH',
    route: '/api/admin/users/{user_id}',
    target: true,
    area: 'admin',
    does: 'update a user',
    path: (w) => `/api/admin/users/${w.target!.id}`,
    body: () => ({ name: 'Renamed' }),
    outcomes: ADMIN_ONLY,
    check(reply, w) {
      expect(reply.body).toMatchObject({ user_id: w.target!.id, name: 'Renamed' });
    },
  },
  {
    method: 'POST',
    route: '/api/admin/users/{user_id}/credits',
    target: true,
    area: 'admin',
    does: 'grant credits',
    path: (w) => `/api/admin/users/${w.target!.id}/credits`,
    body: () => ({ credits: 5, reason: 'matrix' }),
    outcomes: ADMIN_ONLY,
    check(reply) {
      expect(reply.body).toEqual({
        balance_credits: expect.any(Number),
        reserved_credits: 0,
        token_line: { tokens_in: 0, tokens_out: 0, credits: 0 },
      });
    },
  },
  {
    method: 'POST',
    route: '/api/admin/users/{user_id}/tokens',
    target: true,
    area: 'admin',
    does: 'mint a token',
    path: (w) => `/api/admin/users/${w.target!.id}/tokens`,
    body: () => ({ label: 'matrix' }),
    outcomes: { ...ADMIN_ONLY, admin: 201 },
    check(reply) {
      expect(reply.body).toEqual({ token_id: expect.stringMatching(/^tok_/), token: expect.stringMatching(/^ldk_pat_/) });
    },
  },
  {
    method: 'DELETE',
    route: '/api/admin/users/{user_id}/tokens/{token_id}',
    target: true,
    area: 'admin',
    does: 'revoke a token',
    path: (w) => `/api/admin/users/${w.target!.id}/tokens/${w.target!.tokenId}`,
    outcomes: { ...ADMIN_ONLY, admin: 204 },
    check(reply) {
      expect(reply.text).toBe('');
    },
  },
  {
    method: 'GET',
    route: '/api/admin/labs',
    area: 'admin',
    does: 'search labs',
    path: () => '/api/admin/labs',
    query: (w) => ({ q: w.name }),
    outcomes: ADMIN_ONLY,
    check(reply, w) {
      expect(reply.body.items).toEqual(expect.arrayContaining([expect.objectContaining({ lab_id: w.lab.id })]));
    },
  },
  {
    method: 'GET',
    route: '/api/admin/labs/{lab_id}',
    area: 'admin',
    does: 'read a lab',
    path: (w) => `/api/admin/labs/${w.lab.id}`,
    outcomes: ADMIN_ONLY,
    check(reply, w) {
      expect(reply.body).toMatchObject({ lab_id: w.lab.id, members: expect.any(Array) });
    },
  },
  {
    method: 'PATCH',
    route: '/api/admin/labs/{lab_id}',
    area: 'admin',
    does: 'update a lab',
    path: (w) => `/api/admin/labs/${w.lab.id}`,
    body: () => ({ name: 'Renamed Lab' }),
    outcomes: ADMIN_ONLY,
    check(reply, w) {
      expect(reply.body).toMatchObject({ lab_id: w.lab.id, name: 'Renamed Lab' });
    },
  },
];

interface Row {
  name: string;
  endpoint: Endpoint;
  actor: Actor;
  status: number;
}

const ROWS: Row[] = ENDPOINTS.flatMap((endpoint) => {
  const decided = Object.entries(endpoint.outcomes) as [Actor, number][];
  const outcomes: [Actor, number][] = [...SIGNED_OUT.map((actor): [Actor, number] => [actor, 401]), ...decided];
  return outcomes.map(([actor, status]) => ({
    name: `${endpoint.method} ${endpoint.route}: ${actor} ${status < 300 ? 'can' : 'cannot'} ${endpoint.does} (${status})`,
    endpoint,
    actor,
    status,
  }));
});

// ─── the run ─────────────────────────────────────────────────────────────────────────────────

/** Runs `work` over `items`, `size` at a time. */
async function pool<T>(items: T[], size: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** A row whose call changes state when it succeeds. */
const writes = (row: Row) => row.endpoint.method !== 'GET' && row.status < 300;

/** Where each row runs; see worldOf. */
let reads: World;
let refusals: World;
const ownWorlds = new Map<Row, World>();

/**
 * Reads share one world. Refused writes (401/403/404/409) change nothing, so they share another
 * one (kept apart from the reads, so that a wrongly allowed write cannot disturb a read row).
 * Every write that succeeds has a world of its own.
 */
const worldOf = (row: Row): World => (row.endpoint.method === 'GET' ? reads : writes(row) ? ownWorlds.get(row)! : refusals);

beforeAll(async () => {
  t = await startTestApp();
  [reads, refusals] = await Promise.all([buildWorld(['revoked', ...RELATED], 'both'), buildWorld(['revoked', ...RELATED], 'both')]);
  await pool(ROWS.filter(writes), 6, async (row) => {
    ownWorlds.set(row, await buildWorld([row.actor], row.endpoint.area, row.endpoint.target ?? false));
  });
  notFoundBody = (await t.call('GET', '/api/labs/lab_doesnotexist', { token: reads.lab.owner.token })).body;
});
afterAll(async () => {
  await t?.close();
});

test('the table covers every labs and admin users/labs/stats/segmentation route, each for every actor', () => {
  const adminReads = ['/api/admin/sync/users', '/api/admin/stats', '/api/admin/segmentation'];
  const inScope = ROUTES.filter(
    (r) =>
      r.path.startsWith('/api/labs') ||
      r.path.startsWith('/api/admin/users') ||
      r.path.startsWith('/api/admin/labs') ||
      adminReads.includes(r.path),
  );
  expect(ENDPOINTS.map((e) => `${e.method} ${e.route}`).sort()).toEqual(inScope.map((r) => `${r.method} ${r.path}`).sort());
  for (const endpoint of ENDPOINTS) expect(Object.keys(endpoint.outcomes).sort()).toEqual([...RELATED, 'admin'].sort());
  expect(notFoundBody).toEqual({ detail: 'lab not found' });
});

test.each(ROWS)('$name', async (row) => {
  const { endpoint, actor, status } = row;
  const w = worldOf(row);
  for (const auth of credentials(w, actor, endpoint.area)) {
    const reply = await t.call(endpoint.method, endpoint.path(w), { ...auth, body: endpoint.body?.(w), query: endpoint.query?.(w) });
    expect({ status: reply.status, auth: auth.headers ?? auth.token ?? null, text: reply.text }).toMatchObject({ status });
    if (status === 401) {
      expect(reply.headers.get('www-authenticate')).toBe('Bearer');
      expect(reply.body).toEqual({ detail: expect.any(String) });
    } else if (status === 404 && endpoint.route.startsWith('/api/labs/{lab_id}')) {
      // The same answer as for a lab that does not exist.
      expect(reply.body).toEqual(notFoundBody);
    } else if (status >= 400) {
      expect(reply.body).toMatchObject({ detail: expect.any(String) });
    } else {
      endpoint.check?.(reply, w, actor as SignedIn);
    }
  }
});

describe('credentials are checked before the request is read', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  test.each([
    ['an invalid body', { method: 'POST', path: '/api/labs', opts: { body: {} } }],
    ['malformed JSON', { method: 'POST', path: '/api/labs', opts: { rawBody: '{bad' } }],
    ['an out-of-range query', { method: 'GET', path: '/api/admin/users', opts: { query: { limit: 0 } } }],
    ['a missing query parameter', { method: 'GET', path: '/api/labs/preview', opts: {} }],
  ])('a bad token with %s gets 401', async (_name, { method, path, opts }) => {
    const reply = await t.call(method, path, { ...opts, token: 'ldk_pat_neverissuedxxxxxxxxxxxxxxxxxxxx' });
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toBe('Bearer');
  });
});
