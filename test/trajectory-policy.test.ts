/**
 * The trajectory rules as tables of actor × action, run against both forms of each rule: the
 * TypeScript policy (with the viewer's role as the service looks it up) and the SQL fragment
 * beside it (on the real database), so the two cannot drift apart.
 */
import { addMember, makeLab, makeUser, TestLab, TestUser, useTestApp } from './support/app';
import { newSessionId, newUuid, trajectoryCalls } from './support/trajectories';
import type { Viewer } from '../src/modules/auth/viewer';
import type { Query } from '../src/db/sql';
import { activeRoleIn } from '../src/modules/labs/membership.repository';
import { canTrajectory, canViewSql, fastForwardSql, isFastForward, TrajectoryAction } from '../src/modules/trajectories/trajectory.policy';

const t = useTestApp();
const { append, setVisibility } = trajectoryCalls(t);

/** The repository's `?` placeholders over the test's own connection. */
const q: Query = (sql, params = []) => {
  let n = 0;
  return t.sql(
    sql.replace(/\?/g, () => `$${++n}`),
    params,
  );
};

type ActorName = 'owner' | 'member' | 'mentor' | 'labOwner' | 'pending' | 'left' | 'outsider' | 'admin';
type TrajectoryName = 'private' | 'shared' | 'sharedSuspended';

let actors: Record<ActorName, { user: TestUser; admin: boolean }>;
let trajectories: Record<TrajectoryName, { id: string; head: string }>;
let lab: TestLab;
let suspended: TestLab;

const viewerOf = (name: ActorName) => ({ user: { id: actors[name].user.id, isAdmin: actors[name].admin } }) as Viewer;

async function facts(name: TrajectoryName) {
  const [row] = await t.sql<{ owner_id: string; lab_id: string | null; visibility: string; head_uuid: string | null }>(
    'select owner_id, lab_id, visibility, head_uuid from trajectories where id = $1',
    [trajectories[name].id],
  );
  return { ownerId: row.owner_id, labId: row.lab_id, visibility: row.visibility, headUuid: row.head_uuid };
}

/** The actor's role in a lab as the service reads it (null: not active there, or the lab is not active). */
const roleOf = (actor: ActorName, labId: string | null) => (labId ? activeRoleIn(q, labId, actors[actor].user.id) : Promise.resolve(null));

beforeAll(async () => {
  const labOwner = await makeUser(t);
  lab = await makeLab(t, { owner: labOwner });
  suspended = await makeLab(t, { owner: labOwner });
  const [owner, member, mentor, pending, left, outsider] = await Promise.all([1, 2, 3, 4, 5, 6].map(() => makeUser(t)));
  for (const l of [lab, suspended]) {
    await addMember(t, l, owner);
    await addMember(t, l, member);
    await addMember(t, l, mentor, 'mentor');
  }
  await t.call('POST', '/api/labs/join', { token: pending.token, body: { code: lab.code } });
  await addMember(t, lab, left);
  await t.call('DELETE', `/api/labs/${lab.id}/membership`, { token: left.token });
  const admin = { id: (await t.sql<{ id: string }>('select id from users where is_admin limit 1'))[0].id, email: '', token: t.adminToken };
  actors = {
    owner: { user: owner, admin: false },
    member: { user: member, admin: false },
    mentor: { user: mentor, admin: false },
    labOwner: { user: labOwner, admin: false },
    pending: { user: pending, admin: false },
    left: { user: left, admin: false },
    outsider: { user: outsider, admin: false },
    admin: { user: admin, admin: true },
  };
  const make = async (labId: string, shared: boolean) => {
    const id = newSessionId('policy');
    const head = newUuid();
    expect((await append(owner, id, null, [{ type: 'user', uuid: head, message: { content: 'hi' } }], { lab_id: labId })).status).toBe(200);
    if (shared) expect((await setVisibility(owner, id, { visibility: 'lab' })).status).toBe(200);
    return { id, head };
  };
  trajectories = { private: await make(lab.id, false), shared: await make(lab.id, true), sharedSuspended: await make(suspended.id, true) };
  expect((await t.call('PATCH', `/api/admin/labs/${suspended.id}`, { token: t.adminToken, body: { status: 'suspended' } })).status).toBe(
    200,
  );
});

const ACTORS: ActorName[] = ['owner', 'member', 'mentor', 'labOwner', 'pending', 'left', 'outsider', 'admin'];

/** Who may do what, per trajectory: the one table both forms answer to. */
const EXPECTED: Record<TrajectoryName, Record<TrajectoryAction, ActorName[]>> = {
  private: { view: ['owner', 'admin'], write: ['owner'], annotate: ['owner'], share: ['owner'], requestReview: [] },
  shared: {
    view: ['owner', 'member', 'mentor', 'labOwner', 'admin'],
    write: ['owner'],
    annotate: ['owner', 'mentor', 'labOwner'],
    share: ['owner', 'mentor', 'labOwner'],
    // The lab's mentors and owner ask for reviews; the author, a member, does not.
    requestReview: ['mentor', 'labOwner'],
  },
  // A suspended lab's members are no longer active there: only the owner (and admins) see it.
  sharedSuspended: { view: ['owner', 'admin'], write: ['owner'], annotate: ['owner'], share: ['owner'], requestReview: [] },
};

describe.each(Object.keys(EXPECTED) as TrajectoryName[])('trajectory policy on a %s trajectory', (trajectory) => {
  for (const action of ['view', 'write', 'annotate', 'share', 'requestReview'] as TrajectoryAction[]) {
    test(`${action}: the policy function allows exactly ${EXPECTED[trajectory][action].join(', ')}`, async () => {
      const s = await facts(trajectory);
      const allowed: ActorName[] = [];
      for (const actor of ACTORS) if (canTrajectory(viewerOf(actor), action, s, await roleOf(actor, s.labId))) allowed.push(actor);
      expect(allowed).toEqual(EXPECTED[trajectory][action]);
    });
  }

  test(`view: the SQL fragment (canViewSql) allows exactly ${EXPECTED[trajectory].view.join(', ')}`, async () => {
    const allowed: ActorName[] = [];
    for (const actor of ACTORS) {
      const [{ ok }] = await t.sql<{ ok: boolean }>(
        `select ${canViewSql('t', '$1', actors[actor].admin)} as ok, $1::text as viewer from trajectories t where t.id = $2`,
        [actors[actor].user.id, trajectories[trajectory].id],
      );
      if (ok) allowed.push(actor);
    }
    expect(allowed).toEqual(EXPECTED[trajectory].view);
  });
});

describe('the fast-forward rule: the TypeScript and the SQL agree on every case', () => {
  test('writer × trajectory × base × lab named', async () => {
    const cases: string[] = [];
    for (const writer of ['owner', 'member', 'left'] as ActorName[]) {
      for (const trajectory of Object.keys(EXPECTED) as TrajectoryName[]) {
        for (const base of ['head', 'other', null] as const) {
          for (const given of [null, 'lab', 'suspended', 'lab_unknown'] as const) {
            const s = await facts(trajectory);
            const baseUuid = base === 'head' ? s.headUuid : base === 'other' ? 'not-the-head' : null;
            const givenLab = given === 'lab' ? lab.id : given === 'suspended' ? suspended.id : given;
            const ts = isFastForward(viewerOf(writer), {
              trajectory: s,
              baseUuid,
              inGivenLab: givenLab === null ? null : (await roleOf(writer, givenLab)) !== null,
              inTrajectoryLab: (await roleOf(writer, s.labId)) !== null,
            });
            const [{ ok }] = await t.sql<{ ok: boolean }>(
              `select ${fastForwardSql('t', { user: '$1', base: '$2::text', givenLab: '$3::text' })} as ok from trajectories t where t.id = $4`,
              [actors[writer].user.id, baseUuid, givenLab, trajectories[trajectory].id],
            );
            expect({ writer, trajectory, base, given, sql: ok }).toEqual({ writer, trajectory, base, given, sql: ts });
            if (ts) cases.push(`${trajectory} ${given ?? '-'}`);
          }
        }
      }
    }
    // Only the owner, on the head, naming no lab or an active one, and not on a shared trajectory of a suspended lab.
    expect(cases).toEqual(['private -', 'private lab', 'shared -', 'shared lab']);
  });
});

describe('listing another member’s trajectories (owner=)', () => {
  test('a mentor of a suspended lab → 403, as an outsider would get; of an active lab → 200', async () => {
    const mentor = await makeUser(t);
    const member = await makeUser(t);
    const active = await makeLab(t);
    const gone = await makeLab(t);
    await addMember(t, gone, mentor, 'mentor');
    await addMember(t, gone, member);
    const list = (who: TestUser) => t.call('GET', '/api/trajectories', { token: who.token, query: { owner: member.id } });
    expect((await list(mentor)).status).toBe(200);
    expect((await t.call('PATCH', `/api/admin/labs/${gone.id}`, { token: t.adminToken, body: { status: 'suspended' } })).status).toBe(200);
    const refused = await list(mentor);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'only mentors may list the sessions of another member' });
    // Mentoring the member in an active lab lists again.
    await addMember(t, active, mentor, 'mentor');
    await addMember(t, active, member);
    expect((await list(mentor)).status).toBe(200);
  });
});
