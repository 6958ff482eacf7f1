import { enableA2a } from './support/a2a';
import { addMember, makeLab, makeUser, useTestApp, type TestLab, type TestUser } from './support/app';
import { newSessionId, newUuid, trajectoryCalls } from './support/trajectories';

/**
 * viewerCan agrees with the mutations (issue 37, 2): for every actor on every kind of object, each
 * viewerCan field is true exactly when its mutation, run for real over HTTP on a fresh object,
 * succeeds. A field the actor cannot read (the object is not found for them) counts as false.
 * The expected tables pin the rules themselves as well, so a change to a policy shows here.
 */

const t = useTestApp();

type GraphQLReply = { data?: Record<string, any> | null; errors?: { message: string; extensions?: { code?: string } }[] };

async function gql(token: string, query: string, variables: Record<string, unknown> = {}): Promise<GraphQLReply> {
  const reply = await t.call<GraphQLReply>('POST', '/graphql', { token, body: { query, variables } });
  expect(reply.status).toBe(200);
  return reply.body;
}

/** Whether a GraphQL call succeeded (no errors). A refusal must be a refusal, not a crash. */
function succeeded(reply: GraphQLReply): boolean {
  if (!reply.errors?.length) return true;
  for (const error of reply.errors) expect(['FORBIDDEN', 'NOT_FOUND']).toContain(error.extensions?.code);
  return false;
}

type Actor = 'owner' | 'mentor' | 'member' | 'outsider' | 'admin';
const ACTORS: Actor[] = ['owner', 'mentor', 'member', 'outsider', 'admin'];

describe('trajectories: viewerCan agrees with the mutations', () => {
  const FIELDS = ['annotate', 'resolve', 'fork', 'changeVisibility', 'delete', 'refreshSummary', 'share', 'requestReview'] as const;
  type Field = (typeof FIELDS)[number];
  type Kind = 'shared' | 'private';

  /** Who may do what, by the rules (the owner is a plain member of the lab; the admin is in no lab). */
  const EXPECTED: Record<Kind, Record<Actor, Field[]>> = {
    shared: {
      // The owner is a plain member: a review is asked for by the lab's mentors and owner.
      owner: FIELDS.filter((field) => field !== 'requestReview'),
      mentor: ['annotate', 'resolve', 'fork', 'share', 'requestReview'],
      member: ['fork'],
      outsider: [],
      admin: ['fork'],
    },
    private: { owner: FIELDS.filter((field) => field !== 'requestReview'), mentor: [], member: [], outsider: [], admin: ['fork'] },
  };

  let lab: TestLab;
  const users = {} as Record<Actor, { token: string }>;
  beforeAll(async () => {
    lab = await makeLab(t, { name: 'Agreement Lab' });
    const [owner, mentor, member, outsider] = await Promise.all(
      ['Olga Owner', 'Mia Mentor', 'Max Member', 'Otis Outsider'].map((name) => makeUser(t, { name })),
    );
    await addMember(t, lab, owner);
    await addMember(t, lab, mentor, 'mentor');
    await addMember(t, lab, member);
    Object.assign(users, { owner, mentor, member, outsider, admin: { token: t.adminToken } });
  });

  /** A fresh trajectory of the owner's, in the lab, shared with it or private, with two records and a note on the first. */
  async function freshTrajectory(kind: Kind) {
    const calls = trajectoryCalls(t);
    const id = newSessionId('agree');
    const [first, second] = [newUuid(), newUuid()];
    const records = [
      { uuid: first, parentUuid: null, type: 'user', message: { role: 'user', content: 'hello' } },
      { uuid: second, parentUuid: first, type: 'assistant', message: { role: 'assistant', content: 'hi' } },
    ];
    expect((await calls.append(users.owner, id, null, records, { lab_id: lab.id, title: 'Agreement' })).status).toBe(200);
    if (kind === 'shared') expect((await calls.setVisibility(users.owner, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
    const note = await gql(
      users.owner.token,
      `mutation($id: ID!, $input: AnnotationInput!) { trajectoryAnnotate(sessionId: $id, input: $input) { annotationId } }`,
      { id, input: { recordUuid: first, body: 'a note to resolve' } },
    );
    expect(note.errors).toBeUndefined();
    return { id, head: second, record: first, annotationId: note.data!.trajectoryAnnotate.annotationId as string };
  }

  /** Each field's mutation, run by `token` on the trajectory. */
  const MUTATIONS: Record<Field, (token: string, s: Awaited<ReturnType<typeof freshTrajectory>>, kind: Kind) => Promise<GraphQLReply>> = {
    annotate: (token, s) =>
      gql(token, `mutation($id: ID!, $input: AnnotationInput!) { trajectoryAnnotate(sessionId: $id, input: $input) { annotationId } }`, {
        id: s.id,
        input: { recordUuid: s.record, body: 'a reply', replyTo: s.annotationId },
      }),
    resolve: (token, s) =>
      gql(token, `mutation($id: ID!, $a: ID!) { trajectoryAnnotationResolve(sessionId: $id, annotationId: $a) { status } }`, {
        id: s.id,
        a: s.annotationId,
      }),
    fork: (token, s) =>
      gql(token, `mutation($id: ID!, $input: ForkInput!) { trajectoryFork(sessionId: $id, input: $input) { sessionId } }`, {
        id: s.id,
        input: { headUuid: s.head },
      }),
    changeVisibility: (token, s, kind) =>
      gql(token, `mutation($id: ID!, $input: VisibilityInput!) { trajectoryVisibilitySet(sessionId: $id, input: $input) { visibility } }`, {
        id: s.id,
        input: kind === 'shared' ? { visibility: 'private' } : { visibility: 'lab', labId: lab.id },
      }),
    delete: (token, s) => gql(token, `mutation($id: ID!) { trajectoryDelete(sessionId: $id) }`, { id: s.id }),
    refreshSummary: (token, s) => gql(token, `mutation($id: ID!) { trajectorySummaryRefresh(sessionId: $id) { status } }`, { id: s.id }),
    share: (token, s) => gql(token, `mutation($id: ID!) { trajectoryShareLinkCreate(sessionId: $id) { url } }`, { id: s.id }),
    requestReview: (token, s) =>
      gql(
        token,
        `mutation($id: ID!, $input: ReviewRequestInput!) { trajectoryReviewRequest(sessionId: $id, input: $input) { reviewId } }`,
        {
          id: s.id,
          input: { reviewerId: lab.owner.id },
        },
      ),
  };

  /** viewerCan as `token` reads it; all false when the trajectory is not found for them. */
  async function viewerCan(token: string, id: string): Promise<Record<Field, boolean>> {
    const reply = await gql(token, `query($id: ID!) { trajectoryMeta(sessionId: $id) { viewerCan { ${FIELDS.join(' ')} } } }`, { id });
    if (reply.errors) {
      expect(reply.errors[0].extensions?.code).toBe('NOT_FOUND');
      return Object.fromEntries(FIELDS.map((field) => [field, false])) as Record<Field, boolean>;
    }
    return reply.data!.trajectoryMeta.viewerCan;
  }

  for (const kind of ['shared', 'private'] as Kind[])
    for (const actor of ACTORS)
      test(`${actor} on a ${kind} trajectory: each mutation succeeds exactly when viewerCan says so`, async () => {
        const said: Field[] = [];
        const done: Field[] = [];
        for (const field of FIELDS) {
          const fresh = await freshTrajectory(kind);
          const can = await viewerCan(users[actor].token, fresh.id);
          if (can[field]) said.push(field);
          if (succeeded(await MUTATIONS[field](users[actor].token, fresh, kind))) done.push(field);
        }
        expect(done).toEqual(said);
        expect(said).toEqual(EXPECTED[kind][actor]);
      });
});

describe('reviews: viewerCan agrees with the review mutations', () => {
  const FIELDS = ['start', 'decide', 'rerequest', 'withdraw'] as const;
  type Field = (typeof FIELDS)[number];
  type Person = 'author' | 'requester' | 'reviewer' | 'labOwner' | 'member' | 'outsider' | 'admin';
  /**
   * On a review just requested (changes asked for, for `rerequest`): the reviewer takes or decides
   * it; who asked, or the author, asks for another look; who asked, or the lab owner, withdraws it.
   */
  const EXPECTED: Record<Person, Field[]> = {
    author: ['rerequest'],
    requester: ['rerequest', 'withdraw'],
    reviewer: ['start', 'decide'],
    labOwner: ['withdraw'],
    member: [],
    outsider: [],
    admin: [],
  };
  let lab: TestLab;
  const people = {} as Record<Person, { token: string }>;
  let reviewerId: string;
  beforeAll(async () => {
    lab = await makeLab(t, { name: 'Review Agreement Lab' });
    const [author, requester, reviewer, member, outsider] = await Promise.all(
      ['Ava Author', 'Rita Requester', 'Ravi Reviewer', 'Meg Member', 'Oli Outsider'].map((name) => makeUser(t, { name })),
    );
    await addMember(t, lab, author);
    await addMember(t, lab, requester, 'mentor');
    await addMember(t, lab, reviewer, 'mentor');
    await addMember(t, lab, member);
    reviewerId = reviewer.id;
    Object.assign(people, { author, requester, reviewer, labOwner: lab.owner, member, outsider, admin: { token: t.adminToken } });
  });

  /** A fresh review of a fresh lab-shared trajectory: just requested, or with changes asked for. */
  async function freshReview(changesAsked = false) {
    const calls = trajectoryCalls(t);
    const id = newSessionId('agree-review');
    const records = [{ uuid: newUuid(), parentUuid: null, type: 'user', message: { role: 'user', content: 'hello' } }];
    expect((await calls.append(people.author, id, null, records, { lab_id: lab.id })).status).toBe(200);
    expect((await calls.setVisibility(people.author, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
    const asked = await gql(
      people.requester.token,
      `mutation($id: ID!, $input: ReviewRequestInput!) { trajectoryReviewRequest(sessionId: $id, input: $input) { reviewId } }`,
      { id, input: { reviewerId } },
    );
    expect(asked.errors).toBeUndefined();
    const reviewId = asked.data!.trajectoryReviewRequest.reviewId as string;
    if (changesAsked) {
      const decided = await gql(
        people.reviewer.token,
        `mutation($id: ID!) { trajectoryReviewDecide(reviewId: $id, input: { verdict: changes_requested, note: "redo" }) { state } }`,
        { id: reviewId },
      );
      expect(decided.errors).toBeUndefined();
    }
    return { sessionId: id, reviewId };
  }

  const MUTATIONS: Record<Field, (token: string, reviewId: string) => Promise<GraphQLReply>> = {
    start: (token, id) => gql(token, `mutation($id: ID!) { trajectoryReviewStart(reviewId: $id) { state } }`, { id }),
    decide: (token, id) =>
      gql(token, `mutation($id: ID!) { trajectoryReviewDecide(reviewId: $id, input: { verdict: approved }) { state } }`, { id }),
    rerequest: (token, id) => gql(token, `mutation($id: ID!) { trajectoryReviewRerequest(reviewId: $id) { state } }`, { id }),
    withdraw: (token, id) => gql(token, `mutation($id: ID!) { trajectoryReviewWithdraw(reviewId: $id) { state } }`, { id }),
  };

  /** viewerCan of the review as `token` reads it on the trajectory; all false when they cannot read it. */
  async function viewerCan(token: string, sessionId: string): Promise<Record<Field, boolean>> {
    const reply = await gql(token, `query($id: ID!) { trajectoryMeta(sessionId: $id) { reviews { viewerCan { ${FIELDS.join(' ')} } } } }`, {
      id: sessionId,
    });
    if (reply.errors) {
      expect(reply.errors[0].extensions?.code).toBe('NOT_FOUND');
      return { start: false, decide: false, rerequest: false, withdraw: false };
    }
    return reply.data!.trajectoryMeta.reviews[0].viewerCan;
  }

  for (const person of Object.keys(EXPECTED) as Person[])
    test(`${person}: each review mutation succeeds exactly when viewerCan says so`, async () => {
      const said: Field[] = [];
      const done: Field[] = [];
      for (const field of FIELDS) {
        const fresh = await freshReview(field === 'rerequest');
        if ((await viewerCan(people[person].token, fresh.sessionId))[field]) said.push(field);
        if (succeeded(await MUTATIONS[field](people[person].token, fresh.reviewId))) done.push(field);
      }
      expect(done).toEqual(said);
      expect(said).toEqual(EXPECTED[person]);
    });
});

describe('people: what a viewer sees of another person', () => {
  test('the name to whoever sees their work; the email to themselves, their mentors and admins only', async () => {
    const lab = await makeLab(t, { name: 'People Lab' });
    const [author, mentor, member] = await Promise.all(['Ada Author', 'Mo Mentor', 'Mel Member'].map((name) => makeUser(t, { name })));
    await addMember(t, lab, author);
    await addMember(t, lab, mentor, 'mentor');
    await addMember(t, lab, member);
    const id = newSessionId('people');
    const uuid = newUuid();
    const calls = trajectoryCalls(t);
    await calls.append(author, id, null, [{ uuid, parentUuid: null, type: 'user', message: { role: 'user', content: 'x' } }], {
      lab_id: lab.id,
    });
    expect((await calls.setVisibility(author, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
    const owner = async (token: string) =>
      (await gql(token, `query($id: ID!) { trajectoryMeta(sessionId: $id) { owner { userId name email } } }`, { id })).data!.trajectoryMeta
        .owner;
    expect(await owner(author.token)).toEqual({ userId: author.id, name: 'Ada Author', email: author.email });
    expect(await owner(mentor.token)).toEqual({ userId: author.id, name: 'Ada Author', email: author.email });
    expect(await owner(lab.owner.token)).toEqual({ userId: author.id, name: 'Ada Author', email: author.email });
    expect(await owner(t.adminToken)).toEqual({ userId: author.id, name: 'Ada Author', email: author.email });
    expect(await owner(member.token)).toEqual({ userId: author.id, name: 'Ada Author', email: null });

    // A note's author, as the plain member reads it: the mentor's name, not their email.
    const note = await gql(
      mentor.token,
      `mutation($id: ID!, $input: AnnotationInput!) { trajectoryAnnotate(sessionId: $id, input: $input) { author { name email } } }`,
      { id, input: { recordUuid: uuid, body: 'check the normalisation' } },
    );
    expect(note.data!.trajectoryAnnotate.author).toEqual({ name: 'Mo Mentor', email: (await whoAmI(mentor)).email });
    const notes = await gql(member.token, `query($id: ID!) { trajectoryAnnotations(sessionId: $id) { items { author { name email } } } }`, {
      id,
    });
    expect(notes.data!.trajectoryAnnotations.items).toEqual([{ author: { name: 'Mo Mentor', email: null } }]);
  });

  test('a fork is titled as one, and links its parent at the record it was made at', async () => {
    const lab = await makeLab(t, { name: 'Fork Lab' });
    const [author, member] = await Promise.all(['Fay Forker', 'Pat Parent'].map((name) => makeUser(t, { name })));
    await addMember(t, lab, author);
    await addMember(t, lab, member);
    const id = newSessionId('parent');
    const [a, b, c] = [newUuid(), newUuid(), newUuid()];
    const record = (uuid: string, parentUuid: string | null) => ({
      uuid,
      parentUuid,
      type: 'user',
      message: { role: 'user', content: uuid },
    });
    const calls = trajectoryCalls(t);
    await calls.append(member, id, null, [record(a, null), record(b, a), record(c, b)], { lab_id: lab.id, title: 'RNA-seq DE' });
    expect((await calls.setVisibility(member, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
    const fork = await gql(
      author.token,
      `mutation($id: ID!, $input: ForkInput!) { trajectoryFork(sessionId: $id, input: $input) { sessionId } }`,
      {
        id,
        input: { headUuid: b },
      },
    );
    const forkId = fork.data!.trajectoryFork.sessionId;
    const meta = await gql(
      author.token,
      `query($id: ID!) { trajectoryMeta(sessionId: $id) { title owner { name } forkedFrom { seq parent { title owner { name } } } } }`,
      { id: forkId },
    );
    expect(meta.data!.trajectoryMeta).toEqual({
      title: 'RNA-seq DE (fork)',
      owner: { name: 'Fay Forker' },
      forkedFrom: { seq: 2, parent: { title: 'RNA-seq DE', owner: { name: 'Pat Parent' } } },
    });
    // Once the parent is private, the fork's owner can no longer open it: no title, no owner told.
    expect((await calls.setVisibility(member, id, { visibility: 'private' })).status).toBe(200);
    const after = await gql(author.token, `query($id: ID!) { trajectoryMeta(sessionId: $id) { forkedFrom { seq parent { title } } } }`, {
      id: forkId,
    });
    expect(after.data!.trajectoryMeta.forkedFrom).toEqual({ seq: 2, parent: null });
  });
});

async function whoAmI(user: TestUser) {
  return (await gql(user.token, `{ me { email } }`)).data!.me as { email: string };
}

describe('labs: viewerCan agrees with the operations', () => {
  const FIELDS = ['rotateCode', 'manageMembers', 'viewMembers', 'viewUsage'] as const;
  type Field = (typeof FIELDS)[number];
  type LabActor = 'labOwner' | 'mentor' | 'member' | 'outsider' | 'admin';
  const EXPECTED: Record<LabActor, Field[]> = {
    labOwner: [...FIELDS],
    mentor: ['viewMembers'],
    member: [],
    outsider: [],
    admin: ['viewMembers'],
  };

  /** A fresh lab with a mentor, a member, an outsider and a pending requester. */
  async function freshLab() {
    const lab = await makeLab(t, { name: 'Rights Lab' });
    const [mentor, member, outsider, pending] = await Promise.all([1, 2, 3, 4].map(() => makeUser(t)));
    await addMember(t, lab, mentor, 'mentor');
    await addMember(t, lab, member);
    expect((await t.call('POST', '/api/labs/join', { token: pending.token, body: { code: lab.code } })).status).toBe(200);
    const tokens: Record<LabActor, string> = {
      labOwner: lab.owner.token,
      mentor: mentor.token,
      member: member.token,
      outsider: outsider.token,
      admin: t.adminToken,
    };
    return { lab, tokens, pending };
  }

  const OPERATIONS: Record<Field, (token: string, w: Awaited<ReturnType<typeof freshLab>>) => Promise<boolean>> = {
    rotateCode: async (token, w) =>
      succeeded(await gql(token, `mutation($id: ID!) { labRotateCode(labId: $id) { id } }`, { id: w.lab.id })),
    manageMembers: async (token, w) =>
      succeeded(
        await gql(
          token,
          `mutation($id: ID!, $user: ID!) { labMemberUpdate(labId: $id, memberUserId: $user, input: { status: active }) { status } }`,
          { id: w.lab.id, user: w.pending.id },
        ),
      ),
    // A read that answers null rather than refusing: it "succeeds" when the list is there.
    viewMembers: async (token, w) => {
      const reply = await gql(token, `query($id: ID!) { lab(id: $id) { members { memberUserId } } }`, { id: w.lab.id });
      return succeeded(reply) && reply.data!.lab.members !== null;
    },
    viewUsage: async (token, w) => succeeded(await gql(token, `query($id: ID!) { labUsage(labId: $id) { labId } }`, { id: w.lab.id })),
  };

  for (const actor of Object.keys(EXPECTED) as LabActor[])
    test(`${actor}: each lab operation succeeds exactly when viewerCan says so`, async () => {
      const said: Field[] = [];
      const done: Field[] = [];
      for (const field of FIELDS) {
        const w = await freshLab();
        const read = await gql(w.tokens[actor], `query($id: ID!) { lab(id: $id) { viewerCan { ${FIELDS.join(' ')} } } }`, { id: w.lab.id });
        if (!read.errors && read.data!.lab.viewerCan[field]) said.push(field);
        if (await OPERATIONS[field](w.tokens[actor], w)) done.push(field);
      }
      expect(done).toEqual(said);
      expect(said).toEqual(EXPECTED[actor]);
    });
});

describe('A2A: a2aViewerCan.useWebTools agrees with a2aKeyCreate', () => {
  test('the A2A owner and an admin may create a key; a member may not, and is told so before trying', async () => {
    const a2aOwner = await makeUser(t, { name: 'Ann A2A', plan_code: 'pro' });
    const member = await makeUser(t, { name: 'Ben Member' });
    await enableA2a(t, ['--owner', a2aOwner.email]);
    for (const [token, expected] of [
      [a2aOwner.token, true],
      [t.adminToken, true],
      [member.token, false],
    ] as const) {
      const can = (await gql(token, `{ a2aViewerCan { useWebTools } }`)).data!.a2aViewerCan.useWebTools;
      const created = await gql(token, `mutation { a2aKeyCreate(label: "agreement") { key { id } } }`);
      expect({ can, created: succeeded(created) }).toEqual({ can: expected, created: expected });
    }
  });
});
