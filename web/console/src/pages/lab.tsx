import { Link, useParams } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import type { AssignableRole, MemberStatusChange } from '../gql/graphql';
import { Paged } from '../paged';
import type { ConsoleLabQuery } from '../gql/graphql';
import { ConfirmButton, ConfirmSelect, count, Empty, ErrorNote, Loading, Table, When } from '../ui';
import { Due, ReviewBadge, ReviewedTrajectory } from './reviews';

const Lab = graphql(`
  query ConsoleLab($id: ID!) {
    lab(id: $id) {
      id
      name
      role
      status
      seatQuota
      seatsUsed
      invitationCode
      codeExpiresAt
      viewerCan {
        rotateCode
        manageMembers
        viewUsage
      }
      members {
        memberUserId
        name
        email
        role
        status
        requestedAt
        joinedAt
      }
      reviewSummary {
        requested
        inReview
        changesRequested
        overdue
        decidedLast90Days
        medianTurnaroundHours
        open {
          reviewId
          sessionId
          trajectoryTitle
          state
          dueOn
          overdue
          reviewer {
            name
          }
          author {
            name
          }
        }
      }
    }
    labBoard(labId: $id, limit: 20) {
      items {
        sessionId
        title
        ownerName
        state
        count
        lastActivityAt
        openAnnotations
        review {
          state
        }
      }
    }
  }
`);

const MemberEvents = graphql(`
  subscription ConsoleLabMemberEvents($labId: ID!) {
    labMemberEvents(labId: $labId) {
      memberUserId
      status
    }
  }
`);

/** The chart library comes with the usage report, not with the console. */
const LabUsage = lazy(() => import('./lab-usage'));

const UpdateMember = graphql(`
  mutation ConsoleLabMemberUpdate($labId: ID!, $memberUserId: ID!, $input: LabMemberUpdateInput!) {
    labMemberUpdate(labId: $labId, memberUserId: $memberUserId, input: $input) {
      memberUserId
      role
      status
    }
  }
`);

const RotateCode = graphql(`
  mutation ConsoleLabRotateCode($labId: ID!) {
    labRotateCode(labId: $labId) {
      id
      invitationCode
      codeExpiresAt
    }
  }
`);

const ROLES = [
  ['member', 'member'],
  ['mentor', 'mentor'],
] as const satisfies readonly (readonly [AssignableRole, string])[];

/** What a change of role does, said before it is made. */
const ROLE_MEANS: Record<AssignableRole, string> = {
  mentor: 'A mentor sees the lab’s members and their emails, and writes review notes on the sessions shared with the lab, from now on.',
  member: 'A member no longer sees the member list or writes review notes; the notes they wrote stay.',
};

/** One lab: its seats, members and requests (decided by the owner), invitation code, and board. */
export function LabPage() {
  const { labId } = useParams({ from: '/labs/$labId' });
  const [{ data, error, fetching }, reload] = useQuery({ query: Lab, variables: { id: labId } });
  const [updating, update] = useMutation(UpdateMember);
  const [rotating, rotate] = useMutation(RotateCode);
  const [said, say] = useState('');
  // Requests to join (and other members' changes) appear without a reload, for those who may see members.
  useSubscription({ query: MemberEvents, variables: { labId }, pause: data?.lab.members == null }, (_previous, event) => {
    reload({ requestPolicy: 'network-only' });
    return event;
  });

  const lab = data?.lab;
  const can = lab?.viewerCan;
  /** Approve, reject, revoke and change roles: offered only when the lab says the viewer may. */
  const manages = can?.manageMembers === true;
  const members = lab?.members ?? [];
  const pending = members.filter((member) => member.status === 'pending');
  const current = members.filter((member) => member.status === 'active');
  // Just rotated: the new code at once, before the lab is read again.
  const code = rotating.data?.labRotateCode ?? lab;

  const change = async (memberUserId: string, who: string, input: { status?: MemberStatusChange; role?: AssignableRole }, done: string) => {
    const result = await update({ labId, memberUserId, input });
    if (!result.error) {
      say(`${done} ${who}.`);
      reload({ requestPolicy: 'network-only' });
    }
    return !result.error;
  };

  if (!data) return fetching ? <Loading what="the lab" /> : <ErrorNote error={error} />;
  if (!lab) return null;
  return (
    <>
      <p className="crumbs">
        <Link to="/labs">Labs</Link> /
      </p>
      <h1>{lab.name}</h1>
      <ErrorNote error={error ?? updating.error ?? rotating.error} />
      <p className="note ok" role="status">
        {said}
      </p>
      <dl className="facts">
        <dt>Your role</dt>
        <dd>{lab.role ?? '—'}</dd>
        <dt>Seats</dt>
        <dd>
          {lab.seatsUsed} used, {Math.max(0, lab.seatQuota - lab.seatsUsed)} free (of {lab.seatQuota})
        </dd>
        <dt>Status</dt>
        <dd>{lab.status}</dd>
      </dl>

      {can?.rotateCode && (
        <section aria-labelledby="code-title" className="panel">
          <h2 id="code-title">Invitation code</h2>
          <p>
            <code className="code" id="invitation-code">
              {code?.invitationCode}
            </code>{' '}
            <span className="muted">
              valid until <When at={code?.codeExpiresAt} />
            </span>
          </p>
          <p className="muted">People join with this code, then you approve them here. Rotating makes the old code stop working.</p>
          <ConfirmButton
            className=""
            question={`Rotate the invitation code of ${lab.name}?`}
            detail={`The code ${code?.invitationCode ?? ''} stops working at once: whoever has not asked to join yet needs the new one.`}
            confirm="Rotate code"
            disabled={rotating.fetching}
            onConfirm={() => void rotate({ labId }).then((result) => !result.error && say('Rotated the invitation code.'))}
          >
            Rotate
          </ConfirmButton>
        </section>
      )}

      {lab.members !== null && (
        <section aria-labelledby="pending-title">
          <h2 id="pending-title">Requests to join</h2>
          {pending.length === 0 ? (
            <Empty>
              <p>No one is waiting. {manages ? 'Share the invitation code; requests appear here.' : ''}</p>
            </Empty>
          ) : (
            <Paged items={pending} label="Requests" urlKey="requests">
              {(page) => (
                <Table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Email</th>
                      <th scope="col">Asked</th>
                      {manages && <th scope="col">Decision</th>}
                    </tr>
                  </thead>
                  <tbody>
                    {page.map((member) => (
                      <tr key={member.memberUserId}>
                        <td>{member.name}</td>
                        <td>{member.email}</td>
                        <td>
                          <When at={member.requestedAt} />
                        </td>
                        {manages && (
                          <td className="actions">
                            <button
                              type="button"
                              className="primary"
                              aria-label={`Approve ${member.name}`}
                              disabled={updating.fetching}
                              onClick={() => void change(member.memberUserId, member.name, { status: 'active' }, 'Approved')}
                            >
                              Approve
                            </button>
                            <ConfirmButton
                              label={`Reject ${member.name}`}
                              question={`Reject ${member.name}'s request to join ${lab.name}?`}
                              detail="Their request is closed and they get no access; to come back, they ask to join again with a valid code."
                              confirm="Reject request"
                              disabled={updating.fetching}
                              onConfirm={() => void change(member.memberUserId, member.name, { status: 'rejected' }, 'Rejected')}
                            >
                              Reject
                            </ConfirmButton>
                          </td>
                        )}
                      </tr>
                    ))}
                  </tbody>
                </Table>
              )}
            </Paged>
          )}
        </section>
      )}

      {lab.members !== null && (
        <section aria-labelledby="members-title">
          <h2 id="members-title">Members</h2>
          <Paged items={current} label="Members" urlKey="members">
            {(page) => (
              <Table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Email</th>
                    <th scope="col">Role</th>
                    <th scope="col">Joined</th>
                    {manages && <th scope="col">Access</th>}
                  </tr>
                </thead>
                <tbody>
                  {page.map((member) => (
                    <tr key={member.memberUserId}>
                      <td>{member.name}</td>
                      <td>{member.email}</td>
                      <td>
                        {manages && member.role !== 'owner' ? (
                          <ConfirmSelect
                            label={`Role of ${member.name}`}
                            value={member.role as AssignableRole}
                            options={ROLES}
                            disabled={updating.fetching}
                            ask={(role) => ({
                              question: `Make ${member.name} a ${role} of ${lab.name}?`,
                              detail: ROLE_MEANS[role],
                              confirm: `Make ${role}`,
                            })}
                            onConfirm={(role) => change(member.memberUserId, member.name, { role }, 'Changed the role of')}
                          />
                        ) : (
                          member.role
                        )}
                      </td>
                      <td>
                        <When at={member.joinedAt} />
                      </td>
                      {manages && (
                        <td className="actions">
                          {member.role !== 'owner' && (
                            <ConfirmButton
                              label={`Revoke ${member.name}`}
                              question={`Revoke ${member.name}'s membership of ${lab.name}?`}
                              detail="They lose access to the lab and the sessions shared with it at once; to come back, they ask to join again."
                              confirm="Revoke membership"
                              disabled={updating.fetching}
                              onConfirm={() => void change(member.memberUserId, member.name, { status: 'revoked' }, 'Revoked')}
                            >
                              Revoke
                            </ConfirmButton>
                          )}
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
          </Paged>
        </section>
      )}

      {can?.viewUsage && (
        <Suspense fallback={<p className="loading">Loading the usage…</p>}>
          <LabUsage key={current.length} labId={labId} />
        </Suspense>
      )}

      {data.lab.reviewSummary && <LabReviews summary={data.lab.reviewSummary} />}

      <section aria-labelledby="board-title">
        <h2 id="board-title">Latest sessions</h2>
        {data.labBoard.items.length === 0 ? (
          <Empty>
            <p>No member has synced an analysis yet. Runs from the desktop app and the CLI appear here.</p>
          </Empty>
        ) : (
          <Paged items={data.labBoard.items} label="Latest sessions" urlKey="sessions">
            {(page) => (
              <Table>
                <thead>
                  <tr>
                    <th scope="col">Session</th>
                    <th scope="col">By</th>
                    <th scope="col">State</th>
                    <th scope="col">Records</th>
                    <th scope="col">Open notes</th>
                    <th scope="col">Review</th>
                    <th scope="col">Last activity</th>
                  </tr>
                </thead>
                <tbody>
                  {page.map((row) => (
                    <tr key={row.sessionId}>
                      <td>
                        <Link to="/trajectories/$trajectoryId" params={{ trajectoryId: row.sessionId }}>
                          {row.title ?? row.sessionId}
                        </Link>
                      </td>
                      <td>{row.ownerName}</td>
                      <td>{row.state}</td>
                      <td>{row.count}</td>
                      <td>{row.openAnnotations}</td>
                      <td>{row.review ? <ReviewBadge state={row.review.state} /> : <span className="muted">—</span>}</td>
                      <td>
                        <When at={row.lastActivityAt} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
          </Paged>
        )}
      </section>
    </>
  );
}

/** Hours as a reader says them: "40 min", "6 h", "3.5 days". */
const duration = (hours: number) =>
  hours < 1 ? `${Math.max(1, Math.round(hours * 60))} min` : hours < 48 ? `${Math.round(hours)} h` : `${(hours / 24).toFixed(1)} days`;

/** The lab's open reviews, due first, and how long its verdicts take (docs/api/reviews.md). */
function LabReviews({ summary }: { summary: NonNullable<ConsoleLabQuery['lab']['reviewSummary']> }) {
  const open = summary.requested + summary.inReview + summary.changesRequested;
  return (
    <section aria-labelledby="reviews-title">
      <h2 id="reviews-title">Reviews</h2>
      <p>
        {open === 0
          ? 'No open review.'
          : `${count(open, 'open review')}: ${summary.requested} requested, ${summary.inReview} in review, ${summary.changesRequested} waiting on changes.`}
        {summary.overdue > 0 && <span className="badge error"> {summary.overdue} overdue</span>}{' '}
        <span className="muted">
          {summary.medianTurnaroundHours === null || summary.medianTurnaroundHours === undefined
            ? 'No verdict in the last 90 days.'
            : `Turnaround: a first verdict in ${duration(summary.medianTurnaroundHours)} (median of ${count(summary.decidedLast90Days, 'review')}, last 90 days).`}
        </span>
      </p>
      {summary.open.length > 0 && (
        <Paged items={summary.open} label="Open reviews" urlKey="reviews">
          {(page) => (
            <Table label="Open reviews, scrolls sideways">
              <thead>
                <tr>
                  <th scope="col">Trajectory</th>
                  <th scope="col">Reviewer</th>
                  <th scope="col">Due</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {page.map((review) => (
                  <tr key={review.reviewId}>
                    <td>
                      <ReviewedTrajectory review={review} author={review.author.name} />
                    </td>
                    <td>{review.reviewer.name}</td>
                    <td>
                      <Due dueOn={review.dueOn} overdue={review.overdue} />
                    </td>
                    <td>
                      <ReviewBadge state={review.state} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Paged>
      )}
    </section>
  );
}
