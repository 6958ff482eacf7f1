import { addMember, makeLab, makeUser, startTestApp, type TestApp, type TestLab, type TestUser } from './support/app';
import { startInbox } from './support/smtp';
import { remindDueReviews } from '../src/modules/reviews/review.service';
import { newSessionId, newUuid, trajectoryCalls } from './support/trajectories';

/**
 * The review queue (docs/api/reviews.md): a lab's owner or mentor asks a mentor to review a
 * lab-shared trajectory; the reviewer takes it and gives a verdict with notes; the requester
 * and the author are told in the console and by mail; the lab sees open reviews and its
 * turnaround. Each move is the right person's alone, happens once, and is audited.
 */

let smtp: Awaited<ReturnType<typeof startInbox>>;

let t: TestApp;
let lab: TestLab;
let author: TestUser;
let mentor: TestUser;
let reviewer: TestUser;
let member: TestUser;
let outsider: TestUser;
beforeAll(async () => {
  smtp = await startInbox();
  t = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: 'labdesk <noreply@lab.example>' });
  lab = await makeLab(t, { name: 'Review Lab' });
  [author, mentor, reviewer, member, outsider] = await Promise.all(
    ['Ana Author', 'Mira Mentor', 'Rey Reviewer', 'Mo Member', 'Oz Outsider'].map((name) => makeUser(t, { name })),
  );
  await addMember(t, lab, author);
  await addMember(t, lab, mentor, 'mentor');
  await addMember(t, lab, reviewer, 'mentor');
  await addMember(t, lab, member);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

type Reply = { data?: Record<string, any> | null; errors?: { message: string; extensions?: Record<string, any> }[] };
const gql = async (user: TestUser | string, query: string, variables: Record<string, unknown> = {}): Promise<Reply> => {
  const reply = await t.call<Reply>('POST', '/graphql', {
    token: typeof user === 'string' ? user : user.token,
    body: { query, variables },
  });
  expect(reply.status).toBe(200);
  return reply.body;
};
const codeOf = (reply: Reply) => reply.errors?.[0]?.extensions?.code;

const FIELDS = `reviewId sessionId state note dueOn overdue verdictNote updatedSinceVerdict startedAt decidedAt trajectoryTitle
  requestedBy { name } reviewer { userId name } author { name } viewerCan { start decide withdraw }`;
const REQUEST = `mutation($id: ID!, $input: ReviewRequestInput!) { trajectoryReviewRequest(sessionId: $id, input: $input) { ${FIELDS} } }`;
const START = `mutation($id: ID!) { trajectoryReviewStart(reviewId: $id) { ${FIELDS} } }`;
const DECIDE = `mutation($id: ID!, $input: ReviewVerdictInput!) { trajectoryReviewDecide(reviewId: $id, input: $input) { ${FIELDS} } }`;
const WITHDRAW = `mutation($id: ID!) { trajectoryReviewWithdraw(reviewId: $id) { ${FIELDS} } }`;
const RE_REQUEST = `mutation($id: ID!) { trajectoryReviewRerequest(reviewId: $id) { ${FIELDS} } }`;
const QUEUE = `{ reviewQueue { ${FIELDS} } }`;
const CAN_REREQUEST = `query($id: ID!) { trajectoryMeta(sessionId: $id) { reviews { viewerCan { rerequest } } } }`;
const REQUESTED = `{ reviewsRequested { ${FIELDS} } }`;
const NOTICES = `{ notices { unread items { noticeId kind text path readAt } } }`;

/** A trajectory of the author's in the lab, shared with it unless `private`. */
async function trajectory(kind: 'shared' | 'private' = 'shared', title = 'Decay fit') {
  const calls = trajectoryCalls(t);
  const id = newSessionId('review');
  const records = [{ uuid: newUuid(), parentUuid: null, type: 'user', message: { role: 'user', content: 'Fit the decay curve.' } }];
  expect((await calls.append(author, id, null, records, { lab_id: lab.id, title })).status).toBe(200);
  if (kind === 'shared') expect((await calls.setVisibility(author, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
  return id;
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const reviewCount = async () => (await t.sql<{ n: number }>(`select count(*)::int as n from trajectory_reviews`))[0].n;

async function requested(id: string, by: TestUser = mentor, input: Record<string, unknown> = { reviewerId: reviewer.id }) {
  const reply = await gql(by, REQUEST, { id, input });
  expect(reply.errors).toBeUndefined();
  return reply.data!.trajectoryReviewRequest;
}

test('a mentor asks for a review: the reviewer is told in the console and by mail, and it is audited', async () => {
  const id = await trajectory('shared', 'Kinetics of the decay');
  const review = await requested(id, mentor, { reviewerId: reviewer.id, dueOn: inDays(3), note: '  Check the fit window.  ' });
  expect(review).toMatchObject({
    state: 'requested',
    note: 'Check the fit window.',
    dueOn: inDays(3),
    overdue: false,
    trajectoryTitle: 'Kinetics of the decay',
    requestedBy: { name: 'Mira Mentor' },
    reviewer: { name: 'Rey Reviewer' },
    author: { name: 'Ana Author' },
    // The requester may withdraw it; only the reviewer takes it.
    viewerCan: { start: false, decide: false, withdraw: true },
  });

  const queue = (await gql(reviewer, QUEUE)).data!.reviewQueue;
  expect(queue.find((r: any) => r.reviewId === review.reviewId)).toMatchObject({
    viewerCan: { start: true, decide: true, withdraw: false },
  });
  expect((await gql(mentor, REQUESTED)).data!.reviewsRequested.map((r: any) => r.reviewId)).toContain(review.reviewId);

  const notices = (await gql(reviewer, NOTICES)).data!.notices;
  expect(notices.unread).toBeGreaterThanOrEqual(1);
  expect(notices.items[0]).toMatchObject({
    kind: 'review.requested',
    text: `Mira Mentor asks you to review “Kinetics of the decay”, due ${inDays(3)}.`,
    path: `/trajectories/${encodeURIComponent(id)}#reviews`,
    readAt: null,
  });
  const mail = await waitFor(() => smtp.mails.find((m) => m.to.includes(reviewer.email) && m.raw.includes('Kinetics')));
  expect(mail.raw).toMatch(/^Subject: =\?UTF-8\?Q\?Review_requested=3A_/m);
  // The body is quoted-printable: a long line is folded with a soft break ("=" at its end).
  expect(mail.raw.replace(/=\r?\n/g, '')).toContain(`/trajectories/${encodeURIComponent(id)}#reviews`);

  const [audited] = await t.sql<{ actor_id: string; subject_user_id: string }>(
    `select actor_id, subject_user_id from audit_events where action = 'trajectory.review.request' and detail->>'reviewId' = $1`,
    [review.reviewId],
  );
  expect(audited).toEqual({ actor_id: mentor.id, subject_user_id: reviewer.id });
});

/** Polls until `find` answers something (mail is sent after the answer). */
async function waitFor<T>(find: () => T | undefined): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const found = find();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('not seen in 5 s');
}

test('only an owner or mentor of the lab asks, only of a mentor who is not the author; refusals change nothing', async () => {
  const shared = await trajectory();
  const hidden = await trajectory('private');
  const before = await reviewCount();
  const attempts: [TestUser, string, Record<string, unknown>, string][] = [
    [author, shared, { reviewerId: reviewer.id }, 'FORBIDDEN'], // the author is a member
    [member, shared, { reviewerId: reviewer.id }, 'FORBIDDEN'],
    [outsider, shared, { reviewerId: reviewer.id }, 'NOT_FOUND'],
    [mentor, hidden, { reviewerId: reviewer.id }, 'NOT_FOUND'], // not shared: the lab cannot see it
    [mentor, shared, { reviewerId: member.id }, 'VALIDATION_FAILED'],
    [mentor, shared, { reviewerId: outsider.id }, 'VALIDATION_FAILED'],
    [lab.owner, shared, { reviewerId: author.id }, 'VALIDATION_FAILED'],
    [mentor, shared, { reviewerId: reviewer.id, dueOn: '2020-01-01' }, 'VALIDATION_FAILED'],
    [mentor, shared, { reviewerId: reviewer.id, dueOn: '2026-02-30' }, 'VALIDATION_FAILED'],
    [mentor, shared, { reviewerId: reviewer.id, note: 'x'.repeat(2001) }, 'VALIDATION_FAILED'],
  ];
  for (const [user, id, input, code] of attempts) expect([code, codeOf(await gql(user, REQUEST, { id, input }))]).toEqual([code, code]);
  expect(await reviewCount()).toBe(before);
  const authorRefused = await gql(lab.owner, REQUEST, { id: shared, input: { reviewerId: author.id } });
  expect(authorRefused.errors![0].extensions!.issues[0].msg).toBe('the author of a trajectory cannot review it');

  // The lab owner may ask too; a second open request of the same reviewer is a conflict.
  await requested(shared, lab.owner);
  expect(codeOf(await gql(mentor, REQUEST, { id: shared, input: { reviewerId: reviewer.id } }))).toBe('CONFLICT');
});

test('the reviewer takes it, asks for changes, takes it again and approves; the requester and author are told', async () => {
  const id = await trajectory('shared', 'Growth curves');
  const { reviewId } = await requested(id);

  expect(codeOf(await gql(mentor, START, { id: reviewId }))).toBe('FORBIDDEN');
  expect(codeOf(await gql(outsider, START, { id: reviewId }))).toBe('NOT_FOUND');
  const unreadAbout = async (who: TestUser) =>
    (await gql(who, NOTICES)).data!.notices.items.filter(
      (n: any) => n.path === `/trajectories/${encodeURIComponent(id)}#reviews` && !n.readAt,
    ).length;
  expect(await unreadAbout(reviewer)).toBe(1);
  const taken = (await gql(reviewer, START, { id: reviewId })).data!.trajectoryReviewStart;
  // Acting on it reads what the reviewer was told about it: the navigation's count stops calling.
  expect(await unreadAbout(reviewer)).toBe(0);
  expect(taken).toMatchObject({ state: 'in_review', viewerCan: { start: false, decide: true } });
  expect(taken.startedAt).not.toBeNull();
  expect(codeOf(await gql(reviewer, START, { id: reviewId }))).toBe('CONFLICT');

  const noNote = await gql(reviewer, DECIDE, { id: reviewId, input: { verdict: 'changes_requested', note: '   ' } });
  expect(codeOf(noNote)).toBe('VALIDATION_FAILED');
  expect(codeOf(await gql(author, DECIDE, { id: reviewId, input: { verdict: 'approved' } }))).toBe('FORBIDDEN');
  const changes = (await gql(reviewer, DECIDE, { id: reviewId, input: { verdict: 'changes_requested', note: 'Use a log scale.' } })).data!
    .trajectoryReviewDecide;
  expect(changes).toMatchObject({ state: 'changes_requested', verdictNote: 'Use a log scale.', viewerCan: { start: true, decide: false } });

  for (const told of [mentor, author]) {
    const items = (await gql(told, NOTICES)).data!.notices.items;
    expect(items.map((n: any) => n.text)).toContain('Rey Reviewer asks for changes to “Growth curves”.');
  }
  await waitFor(() => smtp.mails.find((m) => m.to.includes(author.email) && m.raw.includes('Growth curves')));

  // The author answers the request for changes: the reviewer's queue says it is ready for another look.
  const inQueue = async () => (await gql(reviewer, QUEUE)).data!.reviewQueue.find((r: any) => r.reviewId === reviewId);
  expect((await inQueue()).updatedSinceVerdict).toBe(false);
  const [{ head }] = await t.sql<{ head: string }>(`select head_uuid as head from trajectories where id = $1`, [id]);
  const more = [{ uuid: newUuid(), parentUuid: head, type: 'user', message: { role: 'user', content: 'Now on a log scale.' } }];
  expect((await trajectoryCalls(t).append(author, id, head, more)).status).toBe(200);
  expect((await inQueue()).updatedSinceVerdict).toBe(true);

  expect((await gql(reviewer, START, { id: reviewId })).data!.trajectoryReviewStart.state).toBe('in_review');
  const approved = (await gql(reviewer, DECIDE, { id: reviewId, input: { verdict: 'approved', note: 'Good now.' } })).data!
    .trajectoryReviewDecide;
  expect(approved).toMatchObject({
    state: 'approved',
    verdictNote: 'Good now.',
    viewerCan: { start: false, decide: false, withdraw: false },
  });
  expect(codeOf(await gql(mentor, WITHDRAW, { id: reviewId }))).toBe('CONFLICT');

  // The verdict shows on the trajectory and on the lab board, for the lab's members.
  const meta = await gql(member, `query($id: ID!) { trajectoryMeta(sessionId: $id) { reviews { state verdictNote reviewer { name } } } }`, {
    id,
  });
  expect(meta.data!.trajectoryMeta.reviews).toEqual([{ state: 'approved', verdictNote: 'Good now.', reviewer: { name: 'Rey Reviewer' } }]);
  const board = await gql(member, `query($lab: ID!) { labBoard(labId: $lab) { items { sessionId review { state } } } }`, { lab: lab.id });
  expect(board.data!.labBoard.items.find((row: any) => row.sessionId === id).review).toEqual({ state: 'approved' });

  const audited = await t.sql<{ action: string }>(`select action from audit_events where detail->>'reviewId' = $1 order by id`, [reviewId]);
  expect(audited.map((row) => row.action)).toEqual([
    'trajectory.review.request',
    'trajectory.review.start',
    'trajectory.review.changes_requested',
    'trajectory.review.start',
    'trajectory.review.approved',
  ]);
});

test('once the changes are made, the author asks for another look: the reviewer is told; not before, and not anyone', async () => {
  const id = await trajectory('shared', 'Titration');
  const { reviewId } = await requested(id);
  expect(codeOf(await gql(author, RE_REQUEST, { id: reviewId }))).toBe('CONFLICT'); // nothing asked for yet
  await gql(reviewer, DECIDE, { id: reviewId, input: { verdict: 'changes_requested', note: 'Subtract the blank.' } });
  expect((await gql(author, CAN_REREQUEST, { id })).data!.trajectoryMeta.reviews[0].viewerCan.rerequest).toBe(true);
  for (const [who, code] of [
    [reviewer, 'FORBIDDEN'],
    [member, 'FORBIDDEN'],
    [lab.owner, 'FORBIDDEN'], // neither asked nor wrote it
    [outsider, 'NOT_FOUND'],
  ] as const)
    expect([code, codeOf(await gql(who, RE_REQUEST, { id: reviewId }))]).toEqual([code, code]);

  // The author finds it among the reviews of her work (and no one else there).
  const ofWork = async (who: TestUser) =>
    (await gql(who, `{ reviewsOfMyWork { reviewId } }`)).data!.reviewsOfMyWork.map((r: any) => r.reviewId);
  expect(await ofWork(author)).toContain(reviewId);
  expect(await ofWork(mentor)).not.toContain(reviewId);
  const again = (await gql(author, RE_REQUEST, { id: reviewId })).data!.trajectoryReviewRerequest;
  expect(again).toMatchObject({ state: 'requested', verdictNote: 'Subtract the blank.', viewerCan: { withdraw: false } });
  expect((await gql(reviewer, NOTICES)).data!.notices.items[0]).toMatchObject({
    kind: 'review.rerequested',
    text: 'Ana Author asks you to look again at “Titration”: the changes are made.',
  });
  await waitFor(() => smtp.mails.find((m) => m.to.includes(reviewer.email) && m.raw.includes('Titration')));
  expect(codeOf(await gql(mentor, RE_REQUEST, { id: reviewId }))).toBe('CONFLICT'); // already asked
  // The reviewer decides straight away; the requester may ask again after the next round too.
  await gql(reviewer, DECIDE, { id: reviewId, input: { verdict: 'changes_requested', note: 'And the drift.' } });
  expect((await gql(mentor, RE_REQUEST, { id: reviewId })).data!.trajectoryReviewRerequest.state).toBe('requested');
  const audited = await t.sql<{ action: string; actor_id: string }>(
    `select action, actor_id from audit_events where detail->>'reviewId' = $1 and action = 'trajectory.review.rerequest' order by id`,
    [reviewId],
  );
  expect(audited).toEqual([
    { action: 'trajectory.review.rerequest', actor_id: author.id },
    { action: 'trajectory.review.rerequest', actor_id: mentor.id },
  ]);
});

test('when a review waiting on its reviewer comes due, the reviewer is reminded once, by one instance', async () => {
  const due = async (title: string, dueOn: string) =>
    (await requested(await trajectory('shared', title), mentor, { reviewerId: reviewer.id, dueOn })).reviewId;
  const today = await due('Due today', inDays(0));
  const late = await due('Due yesterday', inDays(-1));
  await due('Due tomorrow', inDays(1));
  const waitingOnAuthor = await due('Waiting on the author', inDays(0));
  await gql(reviewer, DECIDE, { id: waitingOnAuthor, input: { verdict: 'changes_requested', note: 'Redo the fit.' } });
  const withdrawn = await due('Withdrawn before', inDays(0));
  await gql(mentor, WITHDRAW, { id: withdrawn });

  // Two instances' passes at once: each review is claimed by one of them.
  await Promise.all([remindDueReviews(t.app.services), remindDueReviews(t.app.services)]);
  const reminders = await t.sql<{ text: string; path: string }>(
    `select text, path from notices where user_id = $1 and kind = 'review.due' order by text`,
    [reviewer.id],
  );
  expect(reminders.map((notice) => notice.text)).toEqual([
    `Your review of “Due today” is due today.`,
    `Your review of “Due yesterday” is overdue: it was due ${inDays(-1)}.`,
  ]);
  expect(
    await t.sql(`select count(*)::int as n from trajectory_reviews where id = any($1) and due_reminded_at is not null`, [[today, late]]),
  ).toEqual([{ n: 2 }]);
  await waitFor(() => smtp.mails.find((m) => m.to.includes(reviewer.email) && m.raw.includes('Due yesterday')));
  // Once only.
  expect(await remindDueReviews(t.app.services)).toBe(0);
});

test('two verdicts at once: one is taken, the other is told where the review stands', async () => {
  const { reviewId } = await requested(await trajectory());
  const replies = await Promise.all([
    gql(reviewer, DECIDE, { id: reviewId, input: { verdict: 'approved' } }),
    gql(reviewer, DECIDE, { id: reviewId, input: { verdict: 'changes_requested', note: 'Redo it.' } }),
  ]);
  const taken = replies.filter((reply) => !reply.errors);
  expect(taken).toHaveLength(1);
  const refused = replies.find((reply) => reply.errors)!;
  expect(codeOf(refused)).toBe('CONFLICT');
  expect(refused.errors![0].message).toBe(`this review is ${taken[0].data!.trajectoryReviewDecide.state.replace('_', ' ')}`);
  const [row] = await t.sql<{ state: string }>(`select state from trajectory_reviews where id = $1`, [reviewId]);
  expect(row.state).toBe(taken[0].data!.trajectoryReviewDecide.state);
});

test('the requester or the lab owner withdraws an open review, and the reviewer is told; the reviewer may not', async () => {
  const first = await requested(await trajectory('shared', 'Spectra'));
  expect(codeOf(await gql(reviewer, WITHDRAW, { id: first.reviewId }))).toBe('FORBIDDEN');
  expect((await gql(mentor, WITHDRAW, { id: first.reviewId })).data!.trajectoryReviewWithdraw.state).toBe('withdrawn');
  expect((await gql(reviewer, NOTICES)).data!.notices.items.map((n: any) => n.text)).toContain(
    'Mira Mentor withdrew the request to review “Spectra”.',
  );
  const second = await requested(await trajectory());
  expect((await gql(lab.owner, WITHDRAW, { id: second.reviewId })).data!.trajectoryReviewWithdraw.state).toBe('withdrawn');
  // Withdrawn reviews leave the reviewer's open queue.
  const open = (await gql(reviewer, QUEUE)).data!.reviewQueue.filter((r: any) => ['requested', 'in_review'].includes(r.state));
  expect(open.map((r: any) => r.reviewId)).not.toContain(second.reviewId);
});

test('a reviewer who leaves the lab can no longer act, and their queue drops what they cannot read', async () => {
  const leaving = await makeUser(t, { name: 'Lee Leaving' });
  await addMember(t, lab, leaving, 'mentor');
  const { reviewId } = await requested(await trajectory(), mentor, { reviewerId: leaving.id });
  await t.sql(`update lab_members set status = 'left' where lab_id = $1 and user_id = $2`, [lab.id, leaving.id]);
  expect(codeOf(await gql(leaving, START, { id: reviewId }))).toBe('NOT_FOUND');
  expect((await gql(leaving, QUEUE)).data!.reviewQueue).toEqual([]);
});

test('a trajectory moved to another lab: the first lab’s reviewer can no longer act, nor its mentors', async () => {
  const id = await trajectory();
  const { reviewId } = await requested(id);
  const other = await makeLab(t, { name: 'Other Lab' });
  await addMember(t, other, author);
  await addMember(t, other, reviewer, 'mentor'); // a mentor there too: still not this review's lab
  expect((await trajectoryCalls(t).setVisibility(author, id, { visibility: 'lab', lab_id: other.id })).status).toBe(200);
  expect(codeOf(await gql(reviewer, START, { id: reviewId }))).toBe('FORBIDDEN');
  // Neither who asked (Mira) nor the first lab's owner can read it now.
  for (const user of [mentor, lab.owner]) expect(codeOf(await gql(user, WITHDRAW, { id: reviewId }))).toBe('NOT_FOUND');
  // The first lab's review stays with it: the new lab does not see it, the author does.
  const REVIEWS = `query($id: ID!) { trajectoryMeta(sessionId: $id) { reviews { reviewId viewerCan { start decide withdraw } } } }`;
  expect((await gql(reviewer, REVIEWS, { id })).data!.trajectoryMeta.reviews).toEqual([]);
  expect((await gql(author, REVIEWS, { id })).data!.trajectoryMeta.reviews).toEqual([
    { reviewId, viewerCan: { start: false, decide: false, withdraw: false } },
  ]);
  expect((await gql(reviewer, QUEUE)).data!.reviewQueue.map((r: any) => r.reviewId)).not.toContain(reviewId);
  // And the new lab may ask the same reviewer for a review of its own.
  const again = await requested(id, other.owner, { reviewerId: reviewer.id });
  expect(again).toMatchObject({ state: 'requested', reviewer: { name: 'Rey Reviewer' } });
});

test('asking oneself tells no one; a verdict is not told to a requester who can no longer read the trajectory', async () => {
  const id = await trajectory('shared', 'Self-queued');
  const before = (await gql(mentor, NOTICES)).data!.notices.items.length;
  const own = await requested(id, mentor, { reviewerId: mentor.id });
  expect((await gql(mentor, NOTICES)).data!.notices.items.length).toBe(before);
  expect((await gql(mentor, DECIDE, { id: own.reviewId, input: { verdict: 'approved' } })).data!.trajectoryReviewDecide.state).toBe(
    'approved',
  );

  const leaving = await makeUser(t, { name: 'Lou Leaving' });
  await addMember(t, lab, leaving, 'mentor');
  const other = await trajectory('shared', 'Asked before leaving');
  const asked = await requested(other, leaving);
  await t.sql(`update lab_members set status = 'left' where lab_id = $1 and user_id = $2`, [lab.id, leaving.id]);
  await gql(reviewer, DECIDE, { id: asked.reviewId, input: { verdict: 'approved' } });
  const told = await t.sql<{ user_id: string }>(
    `select user_id from notices where text like '%“Asked before leaving”%' and kind = 'review.approved'`,
  );
  expect(told.map((row) => row.user_id)).toEqual([author.id]);
});

test('the lab shows its open reviews, the overdue ones, and its turnaround', async () => {
  const fresh = await makeLab(t, { name: 'Turnaround Lab' });
  const [writer, judge] = await Promise.all([makeUser(t, { name: 'Wren Writer' }), makeUser(t, { name: 'Jo Judge' })]);
  await addMember(t, fresh, writer);
  await addMember(t, fresh, judge, 'mentor');
  const calls = trajectoryCalls(t);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const id = newSessionId('turn');
    await calls.append(writer, id, null, [{ uuid: newUuid(), parentUuid: null, type: 'user', message: { content: 'hi' } }], {
      lab_id: fresh.id,
    });
    await calls.setVisibility(writer, id, { visibility: 'lab', lab_id: fresh.id });
    ids.push(id);
  }
  const ask = async (id: string) =>
    (await gql(fresh.owner, REQUEST, { id, input: { reviewerId: judge.id, dueOn: inDays(1) } })).data!.trajectoryReviewRequest.reviewId;
  const [decided, overdue] = [await ask(ids[0]), await ask(ids[1])];
  await ask(ids[2]);
  // Asked six hours and two days ago: a verdict now took six hours; the other is past due.
  await t.sql(`update trajectory_reviews set created_at = now() - interval '6 hours' where id = $1`, [decided]);
  await t.sql(`update trajectory_reviews set due_on = current_date - 2 where id = $1`, [overdue]);
  await gql(judge, DECIDE, { id: decided, input: { verdict: 'approved' } });
  await gql(judge, START, { id: overdue });

  const summary = (
    await gql(
      writer,
      `query($id: ID!) { lab(id: $id) { reviewSummary { requested inReview changesRequested overdue decidedLast90Days
      medianTurnaroundHours open { reviewId overdue } } } }`,
      { id: fresh.id },
    )
  ).data!.lab.reviewSummary;
  expect(summary).toMatchObject({ requested: 1, inReview: 1, changesRequested: 0, overdue: 1, decidedLast90Days: 1 });
  expect(summary.medianTurnaroundHours).toBeCloseTo(6, 1);
  expect(summary.open.map((r: any) => r.reviewId)).toEqual([overdue, expect.any(String)]);
  expect(summary.open[0].overdue).toBe(true);
  // Someone outside the lab is not shown the lab at all.
  expect(codeOf(await gql(outsider, `query($id: ID!) { lab(id: $id) { reviewSummary { requested } } }`, { id: fresh.id }))).toBe(
    'NOT_FOUND',
  );
});

test('notices are marked read, one or all, and only one’s own', async () => {
  await requested(await trajectory());
  const before = (await gql(reviewer, NOTICES)).data!.notices;
  const mine = before.items.find((n: any) => n.readAt === null);
  expect(
    (await gql(outsider, `mutation($ids: [ID!]) { noticesMarkRead(ids: $ids) }`, { ids: [mine.noticeId] })).data!.noticesMarkRead,
  ).toBe(0);
  expect(
    (await gql(reviewer, `mutation($ids: [ID!]) { noticesMarkRead(ids: $ids) }`, { ids: [mine.noticeId] })).data!.noticesMarkRead,
  ).toBe(1);
  expect((await gql(reviewer, NOTICES)).data!.notices.unread).toBe(before.unread - 1);
  expect((await gql(reviewer, `mutation { noticesMarkRead }`)).data!.noticesMarkRead).toBe(before.unread - 1);
  expect((await gql(reviewer, NOTICES)).data!.notices.unread).toBe(0);
});
