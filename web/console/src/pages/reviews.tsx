import { Link, useNavigate, useRouter } from '@tanstack/react-router';
import { type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { type CombinedError, type OperationResult, useClient, useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { ConsoleReviewRowFragment, ReviewState } from '../gql/graphql';
import { askUnreadAgain, Me } from '../layout';
import { Empty, ErrorNote, Loading, Table, When } from '../ui';

/**
 * Scrolls `element` to the window's top and keeps it there for a few seconds: the transcript above
 * it measures its records as they load, which pushes everything below down after the first scroll.
 * Stops at once when the reader scrolls or types themselves. Returns the clean-up.
 */
function keepInView(element: RefObject<HTMLElement>) {
  const started = Date.now();
  const top = () => element.current?.getBoundingClientRect().top ?? 0;
  let aimed = 0;
  const aim = () => {
    element.current?.scrollIntoView({ block: 'start' });
    aimed = top(); // its scroll margin, or lower where the page ends first
  };
  aim();
  const timer = window.setInterval(() => {
    if (Date.now() - started > 4000) return stop();
    if (Math.abs(top() - aimed) > 2) aim();
  }, 100);
  const events = ['wheel', 'touchstart', 'mousedown', 'keydown'] as const;
  function stop() {
    window.clearInterval(timer);
    for (const name of events) window.removeEventListener(name, stop);
  }
  for (const name of events) window.addEventListener(name, stop, { passive: true });
  return stop;
}

/** What each state is called on the page. */
export const STATE_LABELS: Record<ReviewState, string> = {
  requested: 'Requested',
  in_review: 'In review',
  changes_requested: 'Changes requested',
  approved: 'Approved',
  withdrawn: 'Withdrawn',
};

/** Still waiting on someone (docs/api/reviews.md): not approved, not withdrawn. */
const isOpen = (state: ReviewState) => state !== 'approved' && state !== 'withdrawn';

/** A review's state, as a badge the eye finds in a list. */
export function ReviewBadge({ state }: { state: ReviewState }) {
  return <span className={`badge review-${state}`}>{STATE_LABELS[state]}</span>;
}

/** The reviewed trajectory, leading to its Reviews panel (and whose it is, and in which lab, when told). */
export function ReviewedTrajectory({
  review,
  author,
  lab,
}: {
  review: { sessionId: string; trajectoryTitle: string };
  author?: string;
  lab?: string;
}) {
  const about = [author && `by ${author}`, lab].filter(Boolean).join(' · ');
  return (
    <>
      <Link to="/trajectories/$trajectoryId" params={{ trajectoryId: review.sessionId }} hash="reviews">
        {review.trajectoryTitle}
      </Link>
      {about && <div className="muted">{about}</div>}
    </>
  );
}

/** What taking a review is called: "Review again" after asking for changes. */
const takeText = (state: ReviewState) => (state === 'changes_requested' ? 'Review again' : 'Take it');

/** "Take it", or "Review again" after asking for changes; its name says which trajectory. */
function TakeButton({
  review,
  busy,
  onTake,
}: {
  review: { state: ReviewState; trajectoryTitle: string };
  busy: boolean;
  onTake: () => void;
}) {
  const text = takeText(review.state);
  return (
    <button type="button" className="primary small" disabled={busy} aria-label={`${text}: ${review.trajectoryTitle}`} onClick={onTake}>
      {text}
    </button>
  );
}

/** A due day, marked when it has passed. */
export function Due({ dueOn, overdue }: { dueOn: string | null | undefined; overdue: boolean }) {
  if (!dueOn) return <span className="muted">no date</span>;
  const day = new Date(`${dueOn}T12:00:00`).toLocaleDateString(undefined, { dateStyle: 'medium' });
  return overdue ? <span className="badge error">{day}, overdue</span> : <time dateTime={dueOn}>{day}</time>;
}

const Queue = graphql(`
  query ConsoleReviews {
    reviewQueue {
      ...ConsoleReviewRow
    }
    reviewsRequested {
      ...ConsoleReviewRow
    }
    reviewsOfMyWork {
      ...ConsoleReviewRow
    }
    labs {
      id
      name
    }
    notices(first: 30) {
      unread
      items {
        noticeId
        text
        path
        createdAt
        readAt
      }
    }
  }
  fragment ConsoleReviewRow on TrajectoryReview {
    reviewId
    sessionId
    labId
    trajectoryTitle
    state
    dueOn
    overdue
    note
    createdAt
    decidedAt
    updatedSinceVerdict
    author {
      name
    }
    requestedBy {
      name
    }
    reviewer {
      name
    }
    viewerCan {
      start
      decide
    }
  }
`);

const Start = graphql(`
  mutation ConsoleReviewStart($id: ID!) {
    trajectoryReviewStart(reviewId: $id) {
      reviewId
      state
    }
  }
`);

const MarkRead = graphql(`
  mutation ConsoleNoticesMarkRead($ids: [ID!]) {
    noticesMarkRead(ids: $ids)
  }
`);

/**
 * A mentor's queue (docs/api/reviews.md): what was asked of them, due first, with the way to
 * take each; what they asked of others; and what the console has to tell them.
 */
export function ReviewsPage() {
  const [{ data, error, fetching }, reload] = useQuery({ query: Queue, requestPolicy: 'cache-and-network' });
  const [starting, start] = useMutation(Start);
  const [marking, markRead] = useMutation(MarkRead);
  const navigate = useNavigate();
  const router = useRouter();
  const [showDone, setShowDone] = useState(false);
  const client = useClient();
  // The page's list and the navigation's count, asked again: marking read changes no object urql knows.
  const recount = () => {
    reload({ requestPolicy: 'network-only' });
    void askUnreadAgain(client);
  };
  if (!data) return error ? <ErrorNote error={error} /> : <Loading what="your reviews" />;
  const open = data.reviewQueue.filter((review) => isOpen(review.state));
  const done = data.reviewQueue.length - open.length;
  const queue = showDone ? data.reviewQueue : open;
  // A mentor of several labs is told which lab each review is for.
  const labNames = new Map(data.labs.map((lab) => [lab.id, lab.name]));
  const manyLabs = new Set([...data.reviewQueue, ...data.reviewsRequested, ...data.reviewsOfMyWork].map((review) => review.labId)).size > 1;
  const labOf = (review: { labId: string }) => (manyLabs ? labNames.get(review.labId) : undefined);
  const openAt = (sessionId: string) =>
    navigate({ to: '/trajectories/$trajectoryId', params: { trajectoryId: sessionId }, hash: 'reviews' });
  const take = async (reviewId: string, sessionId: string) => {
    const result = await start({ id: reviewId });
    if (!result.error) await openAt(sessionId);
  };
  const follow = async (noticeId: string, path: string, unread: boolean) => {
    if (unread) await markRead({ ids: [noticeId] }).then(recount);
    router.history.push(path);
  };
  return (
    <>
      <h1>Reviews</h1>
      <ErrorNote error={error ?? starting.error ?? marking.error} />
      {data.notices.items.length > 0 && (
        <section aria-labelledby="updates-title" className="panel">
          <h2 id="updates-title">Updates {data.notices.unread > 0 && <span className="badge unread">{data.notices.unread} new</span>}</h2>
          <ul className="notices">
            {data.notices.items.map((notice) => (
              <li key={notice.noticeId} className={notice.readAt ? 'read' : 'unread'}>
                <a
                  href={notice.path}
                  onClick={(event) => {
                    event.preventDefault();
                    void follow(notice.noticeId, notice.path, !notice.readAt);
                  }}
                >
                  {notice.text}
                </a>{' '}
                <span className="muted">
                  <When at={notice.createdAt} />
                </span>
              </li>
            ))}
          </ul>
          {data.notices.unread > 0 && (
            <button type="button" className="small" disabled={marking.fetching} onClick={() => void markRead({}).then(recount)}>
              Mark all read
            </button>
          )}
        </section>
      )}

      <section aria-labelledby="queue-title">
        <h2 id="queue-title">Asked of you</h2>
        {data.reviewQueue.length === 0 ? (
          <Empty>
            <p>
              No one has asked you for a review. A lab&rsquo;s owner and mentors ask them of its mentors; you are told when you are asked.
            </p>
          </Empty>
        ) : (
          <>
            {done > 0 && (
              <label className="check">
                <input type="checkbox" checked={showDone} onChange={(event) => setShowDone(event.target.checked)} /> Show the {done} decided
                in the last 30 days
              </label>
            )}
            {queue.length === 0 ? (
              <p className="muted">Nothing open: you are done.</p>
            ) : (
              <Table label="Reviews asked of you, scrolls sideways">
                <thead>
                  <tr>
                    <th scope="col">Trajectory</th>
                    <th scope="col">Due</th>
                    <th scope="col">State</th>
                    <th scope="col">Asked by</th>
                    <th scope="col">Note</th>
                    <th scope="col">
                      <span className="sr-only">Action</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {queue.map((review) => (
                    <tr key={review.reviewId}>
                      <td>
                        <ReviewedTrajectory review={review} author={review.author.name} lab={labOf(review)} />
                      </td>
                      <td>
                        <Due dueOn={review.dueOn} overdue={review.overdue} />
                      </td>
                      <td>
                        <ReviewBadge state={review.state} />
                        {review.updatedSinceVerdict && <div className="muted">updated since: ready for another look</div>}
                      </td>
                      <td>
                        {review.requestedBy.name}
                        <div className="muted">
                          <When at={review.createdAt} />
                        </div>
                      </td>
                      <td className="review-note">{review.note ?? <span className="muted">—</span>}</td>
                      <td>
                        {review.viewerCan.start ? (
                          <TakeButton
                            review={review}
                            busy={starting.fetching}
                            onTake={() => void take(review.reviewId, review.sessionId)}
                          />
                        ) : review.viewerCan.decide ? (
                          <Link to="/trajectories/$trajectoryId" params={{ trajectoryId: review.sessionId }} hash="reviews">
                            Give your verdict
                          </Link>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
          </>
        )}
      </section>

      {data.reviewsOfMyWork.length > 0 && (
        <ReviewsTable id="mine-title" title="Of your work" reviews={data.reviewsOfMyWork} labOf={labOf}>
          When changes are asked for, make them and open the trajectory to ask for another look.
        </ReviewsTable>
      )}
      {data.reviewsRequested.length > 0 && (
        <ReviewsTable id="asked-title" title="Asked by you" reviews={data.reviewsRequested} labOf={labOf} />
      )}
      {fetching && <p className="muted">Refreshing…</p>}
    </>
  );
}

type ReviewRow = ConsoleReviewRowFragment;

/** Reviews someone waits on (asked by them, or of their work): who reviews, due, state, decided. */
function ReviewsTable({
  id,
  title,
  reviews,
  labOf,
  children,
}: {
  id: string;
  title: string;
  reviews: ReviewRow[];
  labOf: (review: ReviewRow) => string | undefined;
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children && <p className="muted">{children}</p>}
      <Table label={`${title}, scrolls sideways`}>
        <thead>
          <tr>
            <th scope="col">Trajectory</th>
            <th scope="col">Reviewer</th>
            <th scope="col">Due</th>
            <th scope="col">State</th>
            <th scope="col">Decided</th>
          </tr>
        </thead>
        <tbody>
          {reviews.map((review) => (
            <tr key={review.reviewId}>
              <td>
                <ReviewedTrajectory review={review} lab={labOf(review)} />
              </td>
              <td>{review.reviewer.name}</td>
              <td>
                <Due dueOn={review.dueOn} overdue={review.overdue} />
              </td>
              <td>
                <ReviewBadge state={review.state} />
              </td>
              <td>
                {review.decidedAt && review.state !== 'requested' && review.state !== 'in_review' ? (
                  <When at={review.decidedAt} />
                ) : (
                  <span className="muted">not yet</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </section>
  );
}

const TrajectoryReviews = graphql(`
  query ConsoleTrajectoryReviews($id: ID!, $labId: ID!, $withMembers: Boolean!) {
    trajectoryMeta(sessionId: $id) {
      sessionId
      reviews {
        reviewId
        labId
        state
        note
        dueOn
        overdue
        verdictNote
        createdAt
        startedAt
        decidedAt
        requestedBy {
          name
        }
        reviewer {
          userId
          name
        }
        viewerCan {
          start
          decide
          rerequest
          withdraw
        }
      }
    }
    lab(id: $labId) @include(if: $withMembers) {
      id
      members {
        memberUserId
        name
        role
        status
      }
    }
  }
`);

const Rerequest = graphql(`
  mutation ConsoleReviewRerequest($id: ID!) {
    trajectoryReviewRerequest(reviewId: $id) {
      reviewId
      state
    }
  }
`);

const RequestReview = graphql(`
  mutation ConsoleReviewRequest($id: ID!, $input: ReviewRequestInput!) {
    trajectoryReviewRequest(sessionId: $id, input: $input) {
      reviewId
    }
  }
`);

const Decide = graphql(`
  mutation ConsoleReviewDecide($id: ID!, $input: ReviewVerdictInput!) {
    trajectoryReviewDecide(reviewId: $id, input: $input) {
      reviewId
      state
    }
  }
`);

const Withdraw = graphql(`
  mutation ConsoleReviewWithdraw($id: ID!) {
    trajectoryReviewWithdraw(reviewId: $id) {
      reviewId
      state
    }
  }
`);

/** Today in the reader's calendar, as `YYYY-MM-DD`. */
const localDay = (offsetDays = 0) => {
  const day = new Date(Date.now() + offsetDays * 86_400_000);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
};

/**
 * A trajectory's reviews: each with its state, notes and verdict, and the buttons the reader may
 * use on it now (viewerCan); a form to ask a mentor for one when the reader may.
 */
export function ReviewPanel({
  sessionId,
  labId,
  ownerId,
  canRequest,
}: {
  sessionId: string;
  labId: string | null;
  ownerId: string;
  canRequest: boolean;
}) {
  const withMembers = canRequest && labId !== null;
  const [{ data, error }, reload] = useQuery({
    query: TrajectoryReviews,
    variables: { id: sessionId, labId: labId ?? '', withMembers },
  });
  const [requesting, request] = useMutation(RequestReview);
  const [starting, start] = useMutation(Start);
  const [deciding, decide] = useMutation(Decide);
  const [withdrawing, withdraw] = useMutation(Withdraw);
  const [rerequesting, rerequest] = useMutation(Rerequest);
  const client = useClient();
  const [said, setSaid] = useState('');
  const [{ data: me }] = useQuery({ query: Me });
  // Arriving from the queue (`#reviews`): the panel, once it has something to show, comes into view.
  const panel = useRef<HTMLElement>(null);
  const loaded = data !== undefined;
  useEffect(() => {
    if (loaded && location.hash === '#reviews') return keepInView(panel);
  }, [loaded]);
  // One outcome shows at a time: the last action's, success or refusal.
  const [failure, setFailure] = useState<CombinedError>();
  const status = useRef<HTMLParagraphElement>(null);
  // The button pressed may be gone with the state it offered: the keyboard goes on from what was
  // said. Once drawn: an empty note is not shown, and what is not shown takes no focus.
  useEffect(() => {
    if (said) status.current?.focus();
  }, [said]);
  const act = async (done: Promise<OperationResult>, message: string) => {
    setSaid('');
    setFailure(undefined);
    const result = await done;
    if (result.error) {
      setFailure(result.error);
      return false;
    }
    setSaid(message);
    reload({ requestPolicy: 'network-only' });
    // Acting on a review reads its notices (docs/api/reviews.md): the navigation's count is asked again.
    void askUnreadAgain(client);
    return true;
  };
  const reviews = data?.trajectoryMeta.reviews ?? [];
  if (!canRequest && reviews.length === 0) return null;
  // Who may review it: the lab's mentors and owner, not its author, and not one who has it open already.
  const reviewing = new Set(reviews.filter((r) => r.labId === labId && isOpen(r.state)).map((r) => r.reviewer.userId));
  const mentors = (data?.lab?.members ?? []).filter(
    (m) => m.status === 'active' && (m.role === 'mentor' || m.role === 'owner') && m.memberUserId !== ownerId,
  );
  const reviewers = mentors
    .filter((m) => !reviewing.has(m.memberUserId))
    .map((m) => ({ ...m, label: `${m.name} (${m.role}${m.memberUserId === me?.me.id ? ', you' : ''})` }));
  return (
    <section ref={panel} className="panel reviews" id="reviews" aria-labelledby="reviews-title">
      <h2 id="reviews-title">Reviews</h2>
      <ErrorNote error={error ?? failure} />
      <p ref={status} className="note ok" role="status" tabIndex={-1}>
        {said}
      </p>
      {reviews.length === 0 && <p className="muted">No review yet.</p>}
      <ul className="review-list">
        {reviews.map((review) => (
          <li key={review.reviewId} className="review">
            <p>
              <ReviewBadge state={review.state} /> <strong>{review.reviewer.name}</strong>
              <span className="muted">
                {' '}
                reviews it, asked by {review.requestedBy.name}, <When at={review.createdAt} />
                {review.dueOn && (
                  <>
                    {' · due '}
                    <Due dueOn={review.dueOn} overdue={review.overdue} />
                  </>
                )}
              </span>
            </p>
            {review.note && <p className="note-body">{review.note}</p>}
            {review.verdictNote && (
              <blockquote className="verdict">
                <p className="note-body">{review.verdictNote}</p>
                <footer className="muted">
                  {review.reviewer.name}, <When at={review.decidedAt} />
                </footer>
              </blockquote>
            )}
            <div className="buttons-row">
              {review.viewerCan.start && (
                <button
                  type="button"
                  className="primary small"
                  disabled={starting.fetching}
                  onClick={() => void act(start({ id: review.reviewId }), 'You took the review.')}
                >
                  {takeText(review.state)}
                </button>
              )}
              {review.viewerCan.rerequest && (
                <button
                  type="button"
                  className="primary small"
                  disabled={rerequesting.fetching}
                  onClick={() => void act(rerequest({ id: review.reviewId }), 'Asked for another look. The reviewer is told.')}
                >
                  Ask for another look
                </button>
              )}
              {review.viewerCan.withdraw && (
                <button
                  type="button"
                  className="small"
                  disabled={withdrawing.fetching}
                  onClick={() => void act(withdraw({ id: review.reviewId }), 'The request was withdrawn.')}
                >
                  Withdraw the request
                </button>
              )}
            </div>
            {review.viewerCan.decide && (
              <VerdictForm
                busy={deciding.fetching}
                onDecide={(verdict, note) =>
                  act(
                    decide({ id: review.reviewId, input: { verdict, note } }),
                    verdict === 'approved' ? 'Approved. The requester is told.' : 'Changes asked for. The requester is told.',
                  )
                }
              />
            )}
          </li>
        ))}
      </ul>
      {canRequest && (
        <RequestForm
          reviewers={reviewers}
          allReviewing={mentors.length > 0}
          busy={requesting.fetching}
          onRequest={(input) => act(request({ id: sessionId, input }), 'Review requested. The reviewer is told.')}
        />
      )}
    </section>
  );
}

function VerdictForm({
  busy,
  onDecide,
}: {
  busy: boolean;
  onDecide: (verdict: 'approved' | 'changes_requested', note: string | null) => Promise<boolean>;
}) {
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState(false);
  const id = useId();
  const send = async (verdict: 'approved' | 'changes_requested') => {
    if (verdict === 'changes_requested' && !note.trim()) return setMissing(true);
    setMissing(false);
    if (await onDecide(verdict, note.trim() || null)) setNote('');
  };
  return (
    <form className="note-form" onSubmit={(event) => event.preventDefault()}>
      <label htmlFor={`${id}-note`}>Your notes (what to change, or why it is good)</label>
      <textarea
        id={`${id}-note`}
        rows={3}
        maxLength={4000}
        value={note}
        aria-invalid={missing}
        aria-describedby={missing ? `${id}-missing` : undefined}
        onChange={(event) => {
          setNote(event.target.value);
          if (event.target.value.trim()) setMissing(false);
        }}
      />
      {missing && (
        <p id={`${id}-missing`} className="note error">
          Say what to change before asking for changes.
        </p>
      )}
      <div className="buttons-row">
        <button type="button" className="primary" disabled={busy} onClick={() => void send('approved')}>
          Approve
        </button>
        <button type="button" disabled={busy} onClick={() => void send('changes_requested')}>
          Ask for changes
        </button>
      </div>
    </form>
  );
}

function RequestForm({
  reviewers,
  allReviewing,
  busy,
  onRequest,
}: {
  reviewers: { memberUserId: string; label: string }[];
  /** When no one is left to ask: because each mentor has it open already (else: the lab has none). */
  allReviewing: boolean;
  busy: boolean;
  onRequest: (input: { reviewerId: string; dueOn: string | null; note: string | null }) => Promise<boolean>;
}) {
  const [reviewerId, setReviewerId] = useState('');
  const [dueOn, setDueOn] = useState(localDay(7));
  const [note, setNote] = useState('');
  const id = useId();
  // A choice no longer offered (the lab's mentors changed) falls back to the first.
  const chosen = reviewers.some((m) => m.memberUserId === reviewerId) ? reviewerId : reviewers[0]?.memberUserId;
  if (reviewers.length === 0)
    return allReviewing ? (
      <p className="muted">Each mentor who could review this has it open already.</p>
    ) : (
      <p className="muted">The lab has no mentor who could review this (its author cannot). Make a member a mentor on the lab page.</p>
    );
  return (
    <form
      className="request-review"
      onSubmit={(event) => {
        event.preventDefault();
        void onRequest({ reviewerId: chosen, dueOn: dueOn || null, note: note.trim() || null }).then((ok) => ok && setNote(''));
      }}
    >
      <h3>Ask for a review</h3>
      <label htmlFor={`${id}-reviewer`}>Reviewer</label>
      <select id={`${id}-reviewer`} value={chosen} onChange={(event) => setReviewerId(event.target.value)}>
        {reviewers.map((m) => (
          <option key={m.memberUserId} value={m.memberUserId}>
            {m.label}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-due`}>Due</label>
      <input id={`${id}-due`} type="date" min={localDay()} value={dueOn} onChange={(event) => setDueOn(event.target.value)} />
      <label htmlFor={`${id}-note`}>What to look at (optional)</label>
      <textarea id={`${id}-note`} rows={2} maxLength={2000} value={note} onChange={(event) => setNote(event.target.value)} />
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Asking…' : 'Ask for a review'}
      </button>
    </form>
  );
}
