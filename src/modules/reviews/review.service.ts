import type { EntityManager } from '@mikro-orm/postgresql';
import type { Services } from '../../context';
import { sqlOf, type Query } from '../../db/sql';
import { conflict, isUniqueViolation, notFound } from '../../errors';
import { newId } from '../../ids';
import { startPeriodic } from '../../jobs/periodic';
import type { Logger } from '../../logger';
import type { Mail } from '../../mail';
import { checks } from '../../validation';
import { isAdmin } from '../admin/admin.policy';
import type { Viewer } from '../auth/viewer';
import { audit } from '../audit/audit.service';
import { activeRoleIn } from '../labs/membership.repository';
import { markReadLeadingTo } from '../notices/notice.repository';
import { notify, sendAfterCommit } from '../notices/notice.service';
import { mayReviewAsReviewer, TRAJECTORY_MUTATIONS, type TrajectoryFacts } from '../trajectories/trajectory.policy';
import * as trajectories from '../trajectories/trajectory.repository';
import { loadTrajectory } from '../trajectories/trajectory.service';
import { authorizeReview, FROM_STATES, seesReview, type ReviewAction } from './review.policy';
import * as repo from './review.repository';
import type { ReviewRow } from './review.repository';
import { REVIEWER_TURN } from './review.entity';

/** Longest note a requester writes, and a reviewer's verdict notes. */
export const NOTE_MAX = 2000;
export const VERDICT_NOTE_MAX = 4000;
/** Reviews a queue lists at most. */
export const QUEUE_MAX = 200;
const DUE_ON = /^\d{4}-\d{2}-\d{2}$/;

/** What a change answers: the review, and the mails to send once it committed. */
export interface ReviewChangeResult {
  review: ReviewRow;
  mails: (Mail | null)[];
}

/**
 * Whether someone other than the caller may read the trajectory now (`canView`, admins aside):
 * a notice about it goes only to them, as its title is in the notice.
 */
async function readsIt(q: Query, userId: string, t: TrajectoryFacts): Promise<boolean> {
  if (t.ownerId === userId) return true;
  return t.visibility === 'lab' && t.labId !== null && (await activeRoleIn(q, t.labId, userId)) !== null;
}

const quoted = (title: string | null) => `“${(title ?? 'Untitled').slice(0, 120)}”`;
/** Where a notice leads: the trajectory, opened at its Reviews panel. */
const trajectoryPath = (sessionId: string) => `/trajectories/${encodeURIComponent(sessionId)}#reviews`;

/** A due date: a real calendar day, from yesterday (the requester's today, anywhere) to a year on. */
function checkDueOn(dueOn: string | null | undefined) {
  const check = checks();
  if (dueOn === null || dueOn === undefined) return check;
  const day = DUE_ON.test(dueOn) ? new Date(`${dueOn}T00:00:00Z`) : null;
  if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== dueOn)
    return check.add(['input', 'dueOn'], 'must be a day as YYYY-MM-DD', 'string_pattern_mismatch');
  const today = Date.now() - (Date.now() % 86_400_000);
  if (day.getTime() < today - 86_400_000) return check.add(['input', 'dueOn'], 'must not be in the past', 'date_too_early');
  if (day.getTime() > today + 366 * 86_400_000) return check.add(['input', 'dueOn'], 'must be within a year', 'date_too_late');
  return check;
}

export interface ReviewRequestInput {
  reviewerId: string;
  dueOn?: string | null;
  note?: string | null;
}

/**
 * Asks a mentor (or the owner) of the lab the trajectory is shared with to review it. The
 * reviewer is told in the console, and by mail when SMTP is set.
 * @throws NOT_FOUND, FORBIDDEN, VALIDATION_FAILED (the reviewer may not review it), CONFLICT (they have it open already)
 */
export async function requestReview(
  em: EntityManager,
  viewer: Viewer,
  publicUrl: string,
  sessionId: string,
  input: ReviewRequestInput,
): Promise<ReviewChangeResult> {
  const note = input.note?.trim() || null;
  checkDueOn(input.dueOn)
    .text(['input', 'reviewerId'], input.reviewerId, { min: 1, max: 64 })
    .text(['input', 'note'], note, { max: NOTE_MAX })
    .storable(['input', 'note'], note)
    .done();
  return em.transactional(async (tx) => {
    const q = sqlOf(tx);
    const { trajectory } = await loadTrajectory(tx, viewer, sessionId, TRAJECTORY_MUTATIONS.requestReview, true);
    const labId = trajectory.labId!;
    if (!mayReviewAsReviewer(input.reviewerId, trajectory, await activeRoleIn(q, labId, input.reviewerId)))
      checks()
        .add(
          ['input', 'reviewerId'],
          input.reviewerId === trajectory.ownerId
            ? 'the author of a trajectory cannot review it'
            : 'must be a mentor or the owner of the lab the trajectory is shared with',
          'reviewer_not_eligible',
        )
        .done();
    let review: ReviewRow;
    try {
      review = await repo.insertReview(q, {
        id: newId('rev'),
        sessionId,
        labId,
        requestedBy: viewer.user.id,
        reviewerId: input.reviewerId,
        note,
        dueOn: input.dueOn ?? null,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('this reviewer already has an open review of this trajectory');
      throw error;
    }
    audit(tx, {
      action: 'trajectory.review.request',
      actorId: viewer.user.id,
      labId,
      subjectUserId: input.reviewerId,
      detail: { sessionId, reviewId: review.id, dueOn: review.dueOn },
    });
    // Asking oneself (a mentor queueing a review for themselves) tells no one.
    if (input.reviewerId === viewer.user.id) return { review, mails: [] };
    const due = review.dueOn ? `, due ${review.dueOn}` : '';
    const mail = await notify(
      q,
      publicUrl,
      {
        userId: input.reviewerId,
        kind: 'review.requested',
        text: `${viewer.user.name} asks you to review ${quoted(trajectory.title)}${due}.`,
        path: trajectoryPath(sessionId),
      },
      `Review requested: ${quoted(trajectory.title)}`,
    );
    return { review, mails: [mail] };
  });
}

export type Verdict = 'approved' | 'changes_requested';

/**
 * Takes, decides or withdraws a review, once: a move that another made first (two tabs, two
 * people) is a CONFLICT that names where the review stands. The row is locked while it moves.
 * @throws NOT_FOUND, FORBIDDEN, CONFLICT, VALIDATION_FAILED
 */
async function moveReview(
  em: EntityManager,
  viewer: Viewer,
  publicUrl: string,
  reviewId: string,
  action: ReviewAction,
  change: repo.ReviewChange,
): Promise<ReviewChangeResult> {
  checks().text(['reviewId'], reviewId, { min: 1, max: 64 }).done();
  return em.transactional(async (tx) => {
    const q = sqlOf(tx);
    const found = await repo.findReview(q, reviewId, true);
    if (!found) throw notFound('review');
    const trajectory = await trajectories.findTrajectory(q, found.sessionId);
    if (!trajectory) throw notFound('review');
    const role = trajectory.labId ? await activeRoleIn(q, trajectory.labId, viewer.user.id) : null;
    authorizeReview(viewer, action, found, trajectory, role);
    if (!FROM_STATES[action].includes(found.state))
      throw conflict(`this review is ${found.state.replace('_', ' ')}`, { state: found.state });
    const review = (await repo.moveReview(q, reviewId, FROM_STATES[action], change))!;
    audit(tx, {
      action: `trajectory.review.${action === 'decide' ? change.state : action}`,
      actorId: viewer.user.id,
      labId: found.labId,
      subjectUserId: action === 'withdraw' ? found.reviewerId : found.requestedBy,
      detail: { sessionId: found.sessionId, reviewId, from: found.state, to: review.state },
    });
    const mails: (Mail | null)[] = [];
    const title = quoted(trajectory.title);
    const path = trajectoryPath(found.sessionId);
    // Whoever acts on a review has seen what they were told about it: the count stops calling.
    await markReadLeadingTo(q, viewer.user.id, path);
    if (action === 'decide') {
      const said = change.state === 'approved' ? `approved ${title}` : `asks for changes to ${title}`;
      // The requester, and the author when someone else asked: both wait on the verdict.
      for (const userId of new Set([found.requestedBy, trajectory.ownerId]))
        if (userId !== viewer.user.id && (await readsIt(q, userId, trajectory)))
          mails.push(
            await notify(
              q,
              publicUrl,
              { userId, kind: `review.${change.state}`, text: `${viewer.user.name} ${said}.`, path },
              `Review: ${said}`,
            ),
          );
    } else if (action === 'rerequest' && found.reviewerId !== viewer.user.id && (await readsIt(q, found.reviewerId, trajectory))) {
      const text = `${viewer.user.name} asks you to look again at ${title}: the changes are made.`;
      mails.push(
        await notify(q, publicUrl, { userId: found.reviewerId, kind: 'review.rerequested', text, path }, `Review again: ${title}`),
      );
    } else if (action === 'withdraw' && found.reviewerId !== viewer.user.id && (await readsIt(q, found.reviewerId, trajectory))) {
      const text = `${viewer.user.name} withdrew the request to review ${title}.`;
      mails.push(
        await notify(q, publicUrl, { userId: found.reviewerId, kind: 'review.withdrawn', text, path }, `Review withdrawn: ${title}`),
      );
    }
    return { review, mails };
  });
}

/** The reviewer takes the review (again, after asking for changes). */
export const startReview = (em: EntityManager, viewer: Viewer, publicUrl: string, reviewId: string) =>
  moveReview(em, viewer, publicUrl, reviewId, 'start', { state: 'in_review' });

/** The reviewer's verdict, with notes (required when asking for changes). */
export function decideReview(
  em: EntityManager,
  viewer: Viewer,
  publicUrl: string,
  reviewId: string,
  verdict: Verdict,
  note?: string | null,
) {
  const notes = note?.trim() || null;
  checks()
    .require(['input', 'note'], verdict === 'approved' || notes !== null, 'is required when asking for changes: say what to change')
    .text(['input', 'note'], notes, { max: VERDICT_NOTE_MAX })
    .storable(['input', 'note'], notes)
    .done();
  return moveReview(em, viewer, publicUrl, reviewId, 'decide', { state: verdict, verdictNote: notes });
}

/** Who asked (or the author) asks the reviewer for another look, once the changes asked for are made. */
export const rerequestReview = (em: EntityManager, viewer: Viewer, publicUrl: string, reviewId: string) =>
  moveReview(em, viewer, publicUrl, reviewId, 'rerequest', { state: 'requested' });

/** The requester (or the lab owner) withdraws an open review. */
export const withdrawReview = (em: EntityManager, viewer: Viewer, publicUrl: string, reviewId: string) =>
  moveReview(em, viewer, publicUrl, reviewId, 'withdraw', { state: 'withdrawn' });

/** The trajectory's reviews its reader sees (`seesReview`), newest first. @throws NOT_FOUND */
export async function reviewsOfTrajectory(em: EntityManager, viewer: Viewer, sessionId: string): Promise<ReviewRow[]> {
  const { trajectory } = await loadTrajectory(em, viewer, sessionId, 'view');
  const found = (await repo.reviewsOfTrajectories(sqlOf(em), [sessionId])).get(sessionId) ?? [];
  return found.filter((review) => seesReview(viewer, review, trajectory));
}

/** The reviews asked of the viewer (their queue), asked by them, or of their own trajectories. */
export const reviewsOfViewer = (em: EntityManager, viewer: Viewer, part: repo.ReviewPart) =>
  repo.reviewsOfPerson(sqlOf(em), viewer.user.id, part, isAdmin(viewer), QUEUE_MAX);

/** Reviews reminded of in one pass at most (the rest in the next pass). */
const REMINDERS_PER_PASS = 500;
/** How often due reviews are looked for: a reminder comes within the hour its day begins (UTC). */
const REMINDER_SECONDS = 3600;

/**
 * Reminds each reviewer, once per review, when the due day of a review waiting on them has come
 * (or had passed when it was asked): a notice, and mail when SMTP is set. A review of a
 * trajectory no longer shared with its lab, or one its reviewer can no longer read, is marked
 * without a notice. Any instance may run it: each review is claimed by one. Answers how many
 * reviewers were told.
 */
export async function remindDueReviews(services: Pick<Services, 'orm' | 'config' | 'mailer'>): Promise<number> {
  const mails = await services.orm.em.fork().transactional(async (tx) => {
    const q = sqlOf(tx);
    const told: (Mail | null)[] = [];
    for (const due of await repo.claimDueReviews(q, REVIEWER_TURN, REMINDERS_PER_PASS)) {
      const trajectory = { ownerId: due.ownerId, labId: due.labId, visibility: 'lab' };
      if (!due.stillShared || !(await readsIt(q, due.reviewerId, trajectory))) continue;
      const title = quoted(due.title);
      const text = due.overdue ? `Your review of ${title} is overdue: it was due ${due.dueOn}.` : `Your review of ${title} is due today.`;
      const notice = { userId: due.reviewerId, kind: 'review.due', text, path: trajectoryPath(due.sessionId) };
      told.push(await notify(q, services.config.publicUrl, notice, `Review due: ${title}`));
    }
    return told;
  });
  sendAfterCommit(services.mailer, mails);
  return mails.length;
}

export const startReviewReminders = (services: Pick<Services, 'orm' | 'config' | 'mailer'>, logger: Logger) =>
  startPeriodic('review reminders', REMINDER_SECONDS, async () => void (await remindDueReviews(services)), logger);
