import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import { OffsetPager, Paged } from '../paged';
import { ConfirmButton, Empty, ErrorNote, formatCredits, Loading, Table, When } from '../ui';

const Compute = graphql(`
  query ConsoleCompute {
    computeCredits {
      balanceCredits
      reservedCredits
      tokenLine {
        credits
        tokensIn
        tokensOut
      }
      leases {
        leaseId
        goal
        state
        provider
        createdAt
        idleExpiresAt
        bootstrapDeadline
        releasedAt
        ceilingCredits
        spentCredits
        machine {
          cpus
          memoryGb
          gpu
          rateCreditsPerMinute
        }
        idleRefreshes {
          at
          idleExpiresAt
        }
      }
    }
    computePlanCurrent {
      planId
      goal
      steps
      status
      createdAt
      estimatedCredits
      estimatedMinutes
      spendCeilingCredits
      tokenCharge {
        credits
      }
      machine {
        cpus
        memoryGb
        gpu
        rateCreditsPerMinute
      }
    }
  }
`);

const PastLeases = graphql(`
  query ConsoleComputePast($first: Int!, $after: String) {
    computeSessionsPast(first: $first, after: $after) {
      totalCount
      pageInfo {
        endCursor
      }
      nodes {
        leaseId
        goal
        state
        provider
        createdAt
        bootstrapDeadline
        releasedAt
        endReason
        ceilingCredits
        spentCredits
        machine {
          cpus
          memoryGb
          gpu
          rateCreditsPerMinute
        }
        idleRefreshes {
          at
          idleExpiresAt
        }
      }
    }
  }
`);

const LeaseChanged = graphql(`
  subscription ConsoleLeaseChanged($leaseId: Int!) {
    computeLeaseChanged(leaseId: $leaseId) {
      leaseId
      state
      spentCredits
      ceilingCredits
      idleExpiresAt
      at
    }
  }
`);

const Approve = graphql(`
  mutation ConsolePlanApprove($planId: Int!) {
    computePlanApprove(planId: $planId) {
      leaseId
      provider
      claimToken
      createdAt
      bootstrapDeadline
    }
  }
`);

const Decline = graphql(`
  mutation ConsolePlanDecline($planId: Int!) {
    computePlanDecline(planId: $planId) {
      planId
      status
    }
  }
`);

const Release = graphql(`
  mutation ConsoleLeaseRelease($leaseId: Int!) {
    computeSessionRelease(leaseId: $leaseId) {
      leaseId
      state
    }
  }
`);

const TopUp = graphql(`
  mutation ConsoleLeaseTopUp($leaseId: Int!, $input: TopUpInput!) {
    computeSessionTopUp(leaseId: $leaseId, input: $input) {
      leaseId
      ceilingCredits
    }
  }
`);

type Machine = { cpus: number; memoryGb: number; gpu: boolean; rateCreditsPerMinute: number };
type LeaseEvent = {
  leaseId: number;
  state: string;
  spentCredits: number;
  ceilingCredits?: number | null;
  idleExpiresAt: string;
  at: string;
};
/** What a lease says about how long it may wait and idle (for the words of why it ended). */
type LeaseTimes = { createdAt: string; bootstrapDeadline: string; idleRefreshes: { at: string; idleExpiresAt: string }[] };

const machine = (m: Machine) =>
  `${m.cpus} CPU, ${m.memoryGb} GB${m.gpu ? ', GPU' : ''} · ${formatCredits(m.rateCreditsPerMinute)} a minute`;

const minutesBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 60_000);
const minutes = (n: number) => `${n.toLocaleString()} minute${n === 1 ? '' : 's'}`;

/** Why a lease ended, in words: "expired: no sandbox claimed it within 15 minutes". */
function endedBecause(reason: string | null | undefined, lease: LeaseTimes): string {
  if (reason === 'released') return 'released by you';
  if (reason === 'unclaimed')
    return `expired: no sandbox claimed it within ${minutes(minutesBetween(lease.createdAt, lease.bootstrapDeadline))}`;
  // The idle clock's length: the span its last refresh set.
  const last = lease.idleRefreshes[0];
  if (reason === 'idle')
    return last
      ? `expired: its sandbox reported no activity for ${minutes(minutesBetween(last.at, last.idleExpiresAt))}`
      : 'expired: its sandbox reported no activity';
  return 'ended';
}

/** The end reason of a lease whose end was only seen live: what state it ended from says it. */
const reasonOfEnd = (state: string, before: string) =>
  state === 'released' ? 'released' : before === 'awaiting_sandbox' ? 'unclaimed' : 'idle';

/** A lease's state as a person reads it. */
function stateLabel(state: string, ceilingCredits: number | null | undefined): string {
  switch (state) {
    case 'awaiting_sandbox':
      return 'Waiting for its sandbox';
    case 'ready':
      return 'Running';
    case 'paused':
      return ceilingCredits === null || ceilingCredits === undefined ? 'Paused: no free credits' : 'Paused: spend ceiling reached';
    case 'released':
      return 'Released';
    case 'expired':
      return 'Expired';
    default:
      return state;
  }
}

const isOpen = (state: string) => state === 'awaiting_sandbox' || state === 'ready' || state === 'paused';

/** How many past leases a page shows. */
const PAST_PAGE = 10;

/** Says why the button `id` describes is disabled, beside it (nothing when it is not). */
function Why({ id, reason }: { id: string; reason: string | null }) {
  if (!reason) return null;
  return (
    <span id={id} className="why">
      {reason}
    </span>
  );
}

/** A button that copies `text`, and says it did. */
function CopyButton({ text, children }: { text: string; children: ReactNode }) {
  const [copied, setCopied] = useState(false);
  // The word goes back after a while, so that a second copy is seen to happen too.
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 4000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      onClick={() =>
        void navigator.clipboard.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }
    >
      {copied ? 'Copied' : children}
    </button>
  );
}

/** A lease just approved: how to start its sandbox (the claim token is shown only here, once). */
type Started = { leaseId: number; provider: string; claimToken: string | null; createdAt: string; bootstrapDeadline: string };

function StartSandbox({ started, state }: { started: Started; state: string }) {
  if (state === 'ready' || state === 'paused')
    return (
      <p>
        {started.provider === 'manual' ? 'A sandbox claimed' : 'The service started the sandbox of'} lease #{started.leaseId}:{' '}
        {state === 'ready'
          ? 'it is running, and its meter below moves as it is charged.'
          : 'it is paused, its spend ceiling reached; a top-up below runs it again.'}
        {started.provider === 'manual' && ' The claim token is used up.'}
      </p>
    );
  if (!isOpen(state)) return <p>Lease #{started.leaseId} is over: it is listed under Past leases.</p>;
  if (started.provider !== 'manual' || !started.claimToken)
    return <p>The service is starting the sandbox of lease #{started.leaseId}; its state below turns to Running once it runs.</p>;
  const command = `LABDESK_CLAIM_TOKEN=${started.claimToken} labdesk sandbox run --server ${window.location.origin}`;
  return (
    <>
      <p>
        Start the sandbox of lease #{started.leaseId} on the machine that should run it, with this command. Its claim token is shown only
        now and works once, until <When at={started.bootstrapDeadline} /> (
        {minutes(minutesBetween(started.createdAt, started.bootstrapDeadline))}); unclaimed by then, the lease expires.
      </p>
      <pre className="command">
        <code>{command}</code>
      </pre>
      <p className="buttons-row">
        <CopyButton text={command}>Copy command</CopyButton>
        <CopyButton text={started.claimToken}>Copy claim token only</CopyButton>
      </p>
    </>
  );
}

/**
 * What a lease is for (its plan's goal; "Direct session" without one), then its number, which
 * the messages and buttons use, its provider and when it was opened.
 */
function LeaseName({ lease }: { lease: { leaseId: number; goal?: string | null; provider: string; createdAt: string } }) {
  return (
    <>
      {lease.goal ?? 'Direct session'}
      <br />
      <span className="muted">
        #{lease.leaseId}, {lease.provider}, opened <When at={lease.createdAt} />
      </span>
    </>
  );
}

/** Follows one lease live (computeLeaseChanged) and hands each event to `onEvent`; renders nothing. */
function LeaseWatch({ leaseId, onEvent }: { leaseId: number; onEvent: (event: LeaseEvent) => void }) {
  const [{ data }] = useSubscription({ query: LeaseChanged, variables: { leaseId } });
  const event = data?.computeLeaseChanged;
  useEffect(() => {
    if (event) onEvent(event);
  }, [event, onEvent]);
  return null;
}

/**
 * Credits and the token line; the plan awaiting the reader's decision; their open leases, followed
 * live (state, meter, idle clock) through the lease subscription; and their past leases, with why
 * each ended.
 */
export function ComputePage() {
  const [{ data, error, fetching }, reload] = useQuery({ query: Compute });
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [past, reloadPast] = useQuery({ query: PastLeases, variables: { first: PAST_PAGE, after: cursors[cursors.length - 1] } });
  const [started, setStarted] = useState<Started | null>(null);
  /** The newest event of each open lease: what changed since the page read it. */
  const [live, setLive] = useState<Record<number, LeaseEvent>>({});
  /** Leases seen ending while the page was open, and how: kept while the lists are read again. */
  const [ended, setEnded] = useState<Record<number, string>>({});
  const [approving, approve] = useMutation(Approve);
  const [declining, decline] = useMutation(Decline);
  const [releasing, release] = useMutation(Release);
  const [toppingUp, topUp] = useMutation(TopUp);
  const [said, say] = useState('');
  const [amounts, setAmounts] = useState<Record<number, string>>({});
  const ids = useId();
  const readAgain = useCallback(() => {
    reload({ requestPolicy: 'network-only' });
    reloadPast({ requestPolicy: 'network-only' });
  }, [reload, reloadPast]);
  // A fresh read already holds every change the events brought.
  useEffect(() => setLive({}), [data]);
  const onEvent = useCallback((event: LeaseEvent) => setLive((seen) => ({ ...seen, [event.leaseId]: event })), []);
  const leases = data?.computeCredits.leases ?? [];
  // A lease that starts running, or ends, is said out loud; one that ends moves to Past leases.
  const changes = leases
    .map((lease) => ({ lease, event: live[lease.leaseId] }))
    .filter(({ lease, event }) => event && event.state !== lease.state && !ended[lease.leaseId]);
  const changeKey = changes.map(({ lease, event }) => `${lease.leaseId}:${event.state}`).join(',');
  useEffect(() => {
    if (!changes.length) return;
    say(
      changes
        .map(({ lease, event }) =>
          isOpen(event.state)
            ? `Lease #${lease.leaseId} is now ${stateLabel(event.state, event.ceilingCredits ?? lease.ceilingCredits).toLowerCase()}.`
            : `Lease #${lease.leaseId} ${endedBecause(reasonOfEnd(event.state, lease.state), lease)}.`,
        )
        .join(' '),
    );
    const over = changes.filter(({ event }) => !isOpen(event.state));
    if (over.length) {
      setEnded((seen) => ({ ...seen, ...Object.fromEntries(over.map(({ lease, event }) => [lease.leaseId, event.state])) }));
      readAgain();
    }
    // Only a new change speaks.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [changeKey]);
  const after = (done: string) => (result: { error?: unknown }) => {
    if (result.error) return;
    say(done);
    readAgain();
  };

  if (!data) return fetching ? <Loading what="compute" /> : <ErrorNote error={error} />;
  const { computeCredits: account, computePlanCurrent: plan } = data;
  // The page's figures as the events left them: spend comes out of the balance, and out of the
  // reservation of a lease with a ceiling; a top-up seen live adds to the reservation.
  const shown = leases.map((lease) => {
    const event = live[lease.leaseId];
    return event
      ? {
          ...lease,
          state: event.state,
          spentCredits: event.spentCredits,
          ceilingCredits: event.ceilingCredits ?? lease.ceilingCredits,
          idleExpiresAt: event.idleExpiresAt,
        }
      : lease;
  });
  const spentSince = shown.reduce((sum, lease, i) => sum + lease.spentCredits - leases[i].spentCredits, 0);
  const reservedSince = shown.reduce(
    (sum, lease, i) =>
      lease.ceilingCredits === null
        ? sum
        : sum + (lease.ceilingCredits - (leases[i].ceilingCredits ?? 0)) - (lease.spentCredits - leases[i].spentCredits),
    0,
  );
  const balance = account.balanceCredits - spentSince;
  const reserved = account.reservedCredits + reservedSince;
  const available = Math.max(0, balance - reserved);
  const open = shown.filter((lease) => isOpen(lease.state));
  const startedState = !started
    ? ''
    : (ended[started.leaseId] ??
      shown.find((lease) => lease.leaseId === started.leaseId)?.state ??
      past.data?.computeSessionsPast.nodes.find((lease) => lease.leaseId === started.leaseId)?.state ??
      'awaiting_sandbox');

  const approveWhy = !plan
    ? null
    : approving.fetching
      ? 'Approving…'
      : available < plan.spendCeilingCredits
        ? `Approving reserves this plan's spend ceiling of ${formatCredits(plan.spendCeilingCredits)}; you have ${formatCredits(available)} free. ${
            open.length ? 'Release a lease, or ask' : 'Ask'
          } an administrator for credits.`
        : null;
  const topUpWhy = (leaseId: number): string | null => {
    if (toppingUp.fetching) return 'Topping up…';
    const text = amounts[leaseId] ?? '';
    const amount = Number(text);
    if (text.trim() === '') return 'Enter the credits to add first.';
    if (!Number.isFinite(amount) || amount <= 0) return 'Enter a positive number of credits.';
    if (amount > available) return `You have ${formatCredits(available)} free, less than the ${formatCredits(amount)} to add.`;
    return null;
  };
  const pastPage = past.data?.computeSessionsPast;

  return (
    <>
      <h1>Compute</h1>
      <ErrorNote error={error ?? approving.error ?? declining.error ?? releasing.error ?? toppingUp.error} />
      <p className="note ok" role="status">
        {said}
      </p>
      <dl className="facts">
        <dt>Balance</dt>
        <dd>{formatCredits(balance)}</dd>
        <dt>Reserved by open leases</dt>
        <dd>{formatCredits(reserved)}</dd>
        <dt>Free to spend</dt>
        <dd>{formatCredits(available)}</dd>
        <dt>Model tokens</dt>
        <dd>
          {account.tokenLine.tokensIn.toLocaleString()} in, {account.tokenLine.tokensOut.toLocaleString()} out:{' '}
          {formatCredits(account.tokenLine.credits)}
        </dd>
      </dl>

      <section aria-labelledby="plan-title">
        <h2 id="plan-title">Plan awaiting your decision</h2>
        {!plan ? (
          <Empty>
            <p>No plan is waiting. When the agent proposes sandbox work, its plan and price appear here for you to approve or decline.</p>
          </Empty>
        ) : (
          <div className="panel">
            <p>
              <strong>{plan.goal}</strong>
            </p>
            <ol>
              {plan.steps.map((step, index) => (
                <li key={index}>{step}</li>
              ))}
            </ol>
            <p>
              {machine(plan.machine)}. About {minutes(plan.estimatedMinutes)}, {formatCredits(plan.estimatedCredits)}; spend ceiling{' '}
              {formatCredits(plan.spendCeilingCredits)} (spending stops there). Drafted <When at={plan.createdAt} />.
            </p>
            <p className="buttons-row">
              <button
                type="button"
                className="primary"
                disabled={approveWhy !== null}
                aria-describedby={approveWhy ? `${ids}-approve-why` : undefined}
                title={approveWhy ?? undefined}
                onClick={() =>
                  void approve({ planId: plan.planId }).then((result) => {
                    const lease = result.data?.computePlanApprove;
                    if (lease)
                      setStarted({
                        leaseId: lease.leaseId,
                        provider: lease.provider,
                        claimToken: lease.claimToken ?? null,
                        createdAt: lease.createdAt,
                        bootstrapDeadline: lease.bootstrapDeadline,
                      });
                    after('Approved: the lease is open.')(result);
                  })
                }
              >
                Approve
              </button>
              <ConfirmButton
                question="Decline this plan?"
                detail={`It is dropped and nothing runs. Drafting it cost ${formatCredits(plan.tokenCharge.credits)}, which stands.`}
                confirm="Decline plan"
                disabled={declining.fetching}
                describedBy={declining.fetching ? `${ids}-decline-why` : undefined}
                onConfirm={() => void decline({ planId: plan.planId }).then(after('Declined.'))}
              >
                Decline
              </ConfirmButton>
            </p>
            <Why id={`${ids}-approve-why`} reason={approveWhy} />
            <Why id={`${ids}-decline-why`} reason={declining.fetching ? 'Declining…' : null} />
          </div>
        )}
      </section>

      {started && (
        <section aria-labelledby="start-title" className="panel">
          <h2 id="start-title">Start the sandbox</h2>
          <StartSandbox started={started} state={startedState} />
        </section>
      )}

      {open.map((lease) => (
        <LeaseWatch key={lease.leaseId} leaseId={lease.leaseId} onEvent={onEvent} />
      ))}

      <section aria-labelledby="leases-title">
        <h2 id="leases-title">Open leases</h2>
        {open.length === 0 ? (
          <Empty>
            <p>No open lease. Approving a plan opens one.</p>
          </Empty>
        ) : (
          <Paged items={open} label="Open leases">
            {(page) => (
              <Table>
                <thead>
                  <tr>
                    <th scope="col">Lease</th>
                    <th scope="col">Machine</th>
                    <th scope="col">State</th>
                    <th scope="col">Spent</th>
                    <th scope="col">Idle until</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {page.map((lease) => {
                    const why = topUpWhy(lease.leaseId);
                    const whyId = `${ids}-topup-why-${lease.leaseId}`;
                    return (
                      <tr key={lease.leaseId}>
                        <td>
                          <LeaseName lease={lease} />
                        </td>
                        <td>{machine(lease.machine)}</td>
                        <td>{stateLabel(lease.state, lease.ceilingCredits)}</td>
                        <td>
                          <meter
                            min={0}
                            max={lease.ceilingCredits ?? Math.max(lease.spentCredits, 1)}
                            value={lease.spentCredits}
                            aria-label={`Spent on lease ${lease.leaseId}`}
                          />{' '}
                          <span data-testid={`spent-${lease.leaseId}`}>
                            {lease.ceilingCredits === null
                              ? formatCredits(lease.spentCredits)
                              : `${formatCredits(lease.spentCredits, { unit: false })} of ${formatCredits(lease.ceilingCredits)}`}
                          </span>
                        </td>
                        <td>
                          {lease.state === 'awaiting_sandbox' ? (
                            <>
                              claim by <When at={lease.bootstrapDeadline} />
                            </>
                          ) : lease.state === 'paused' ? (
                            // The meter never ends a paused lease: it waits for a top-up or a release.
                            <span className="muted">does not idle out while paused</span>
                          ) : (
                            <When at={lease.idleExpiresAt} />
                          )}
                        </td>
                        <td className="actions">
                          {lease.ceilingCredits === null ? (
                            <span className="muted">No spend ceiling to raise</span>
                          ) : (
                            <>
                              <input
                                type="number"
                                min={1}
                                step={1}
                                className="narrow"
                                aria-label={`Credits to add to lease ${lease.leaseId}`}
                                value={amounts[lease.leaseId] ?? ''}
                                onChange={(event) => setAmounts({ ...amounts, [lease.leaseId]: event.target.value })}
                              />
                              <button
                                type="button"
                                disabled={why !== null}
                                aria-describedby={why ? whyId : undefined}
                                title={why ?? undefined}
                                onClick={() =>
                                  void topUp({ leaseId: lease.leaseId, input: { credits: Number(amounts[lease.leaseId]) } }).then(
                                    (result) => {
                                      if (!result.error) setAmounts({ ...amounts, [lease.leaseId]: '' });
                                      after('Topped up.')(result);
                                    },
                                  )
                                }
                              >
                                Top up
                              </button>
                              <Why id={whyId} reason={why} />
                            </>
                          )}
                          <ConfirmButton
                            label={`Release lease ${lease.leaseId}`}
                            question={`Release lease ${lease.leaseId}?`}
                            detail="The sandbox stops and is charged up to now. What its ceiling did not spend returns to your credits."
                            confirm="Release lease"
                            disabled={releasing.fetching}
                            describedBy={releasing.fetching ? `${ids}-release-why` : undefined}
                            onConfirm={() =>
                              void release({ leaseId: lease.leaseId }).then((result) => {
                                // Said here: the event of this release has nothing to add.
                                if (!result.error) setEnded((seen) => ({ ...seen, [lease.leaseId]: 'released' }));
                                after('Released.')(result);
                              })
                            }
                          >
                            Release
                          </ConfirmButton>
                          <Why id={`${ids}-release-why`} reason={releasing.fetching ? 'Releasing…' : null} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </Table>
            )}
          </Paged>
        )}
      </section>

      <section aria-labelledby="past-title">
        <h2 id="past-title">Past leases</h2>
        <ErrorNote error={past.error} />
        {!pastPage ? (
          past.fetching && <Loading what="past leases" />
        ) : pastPage.totalCount === 0 ? (
          <Empty>
            <p>No lease has ended yet. Released and expired leases are kept here, with what they spent and why they ended.</p>
          </Empty>
        ) : (
          <>
            <Table>
              <thead>
                <tr>
                  <th scope="col">Ended</th>
                  <th scope="col">Lease</th>
                  <th scope="col">Machine</th>
                  <th scope="col">Spent</th>
                  <th scope="col">Why it ended</th>
                </tr>
              </thead>
              <tbody>
                {pastPage.nodes.map((lease) => (
                  <tr key={lease.leaseId}>
                    <td>
                      <When at={lease.releasedAt} />
                    </td>
                    <td>
                      <LeaseName lease={lease} />
                    </td>
                    <td>{machine(lease.machine)}</td>
                    <td>
                      {lease.ceilingCredits === null
                        ? formatCredits(lease.spentCredits)
                        : `${formatCredits(lease.spentCredits, { unit: false })} of ${formatCredits(lease.ceilingCredits)}`}
                    </td>
                    <td>{endedBecause(lease.endReason, lease)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
            {pastPage.totalCount > PAST_PAGE && (
              <OffsetPager
                label="Past leases"
                offset={(cursors.length - 1) * PAST_PAGE}
                size={PAST_PAGE}
                shown={pastPage.nodes.length}
                total={pastPage.totalCount}
                onMove={(offset) =>
                  setCursors(offset > (cursors.length - 1) * PAST_PAGE ? [...cursors, pastPage.pageInfo.endCursor] : cursors.slice(0, -1))
                }
              />
            )}
          </>
        )}
      </section>
    </>
  );
}
