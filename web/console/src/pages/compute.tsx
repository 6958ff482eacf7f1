import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { Paged } from '../paged';
import { ConfirmButton, Empty, ErrorNote, Loading, Table, When } from '../ui';

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
        state
        provider
        createdAt
        idleExpiresAt
        releasedAt
        ceilingCredits
        spentCredits
        balanceCredits
        machine {
          cpus
          memoryGb
          gpu
          rateCreditsPerMinute
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
      machine {
        cpus
        memoryGb
        gpu
        rateCreditsPerMinute
      }
    }
  }
`);

const Approve = graphql(`
  mutation ConsolePlanApprove($planId: Int!) {
    computePlanApprove(planId: $planId) {
      leaseId
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

const credits = (value: number) => value.toLocaleString(undefined, { maximumFractionDigits: 2 });
const machine = (m: { cpus: number; memoryGb: number; gpu: boolean; rateCreditsPerMinute: number }) =>
  `${m.cpus} CPU, ${m.memoryGb} GB${m.gpu ? ', GPU' : ''} · ${credits(m.rateCreditsPerMinute)} credits a minute`;

/** Credits and the token line; the plan awaiting the reader's decision; their leases with the meter. */
export function ComputePage() {
  const [{ data, error, fetching }, reload] = useQuery({ query: Compute });
  const [approving, approve] = useMutation(Approve);
  const [declining, decline] = useMutation(Decline);
  const [releasing, release] = useMutation(Release);
  const [toppingUp, topUp] = useMutation(TopUp);
  const [said, say] = useState('');
  const [amounts, setAmounts] = useState<Record<number, string>>({});
  const after = (done: string) => (result: { error?: unknown }) => {
    if (result.error) return;
    say(done);
    reload({ requestPolicy: 'network-only' });
  };

  if (!data) return fetching ? <Loading what="compute" /> : <ErrorNote error={error} />;
  const { computeCredits: account, computePlanCurrent: plan } = data;
  return (
    <>
      <h1>Compute</h1>
      <ErrorNote error={error ?? approving.error ?? declining.error ?? releasing.error ?? toppingUp.error} />
      <p className="note ok" role="status">
        {said}
      </p>
      <dl className="facts">
        <dt>Balance</dt>
        <dd>{credits(account.balanceCredits)} credits</dd>
        <dt>Reserved by open leases</dt>
        <dd>{credits(account.reservedCredits)} credits</dd>
        <dt>Model tokens</dt>
        <dd>
          {account.tokenLine.tokensIn.toLocaleString()} in, {account.tokenLine.tokensOut.toLocaleString()} out:{' '}
          {credits(account.tokenLine.credits)} credits
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
              {machine(plan.machine)}. About {plan.estimatedMinutes} minutes, {credits(plan.estimatedCredits)} credits; spending stops at{' '}
              {credits(plan.spendCeilingCredits)}. Drafted <When at={plan.createdAt} />.
            </p>
            <p className="buttons-row">
              <button
                type="button"
                className="primary"
                disabled={approving.fetching}
                onClick={() => void approve({ planId: plan.planId }).then(after('Approved: the lease is open.'))}
              >
                Approve
              </button>
              <button
                type="button"
                className="danger"
                disabled={declining.fetching}
                onClick={() => void decline({ planId: plan.planId }).then(after('Declined.'))}
              >
                Decline
              </button>
            </p>
          </div>
        )}
      </section>

      <section aria-labelledby="leases-title">
        <h2 id="leases-title">Leases</h2>
        {account.leases.length === 0 ? (
          <Empty>
            <p>No open lease. Approving a plan opens one.</p>
          </Empty>
        ) : (
          <Paged items={account.leases} label="Leases">
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
                  {page.map((lease) => (
                    <tr key={lease.leaseId}>
                      <td>
                        #{lease.leaseId} <span className="muted">({lease.provider})</span>
                      </td>
                      <td>{machine(lease.machine)}</td>
                      <td>{lease.state}</td>
                      <td>
                        <meter
                          min={0}
                          max={lease.ceilingCredits ?? Math.max(lease.spentCredits, 1)}
                          value={lease.spentCredits}
                          aria-label={`Spent on lease ${lease.leaseId}`}
                        />{' '}
                        {credits(lease.spentCredits)}
                        {lease.ceilingCredits !== null && ` of ${credits(lease.ceilingCredits)}`}
                      </td>
                      <td>
                        <When at={lease.idleExpiresAt} />
                      </td>
                      <td className="actions">
                        {!lease.releasedAt && (
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
                              disabled={toppingUp.fetching || !(Number(amounts[lease.leaseId]) > 0)}
                              onClick={() =>
                                void topUp({ leaseId: lease.leaseId, input: { credits: Number(amounts[lease.leaseId]) } }).then(
                                  after('Topped up.'),
                                )
                              }
                            >
                              Top up
                            </button>
                            <ConfirmButton
                              label={`Release lease ${lease.leaseId}`}
                              question={`Release lease ${lease.leaseId}?`}
                              detail="The sandbox stops and is charged up to now."
                              confirm="Release lease"
                              disabled={releasing.fetching}
                              onConfirm={() => void release({ leaseId: lease.leaseId }).then(after('Released.'))}
                            >
                              Release
                            </ConfirmButton>
                          </>
                        )}
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
