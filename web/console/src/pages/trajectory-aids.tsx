import { useEffect, useState, type FormEvent } from 'react';
import { useClient, useMutation, useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import { Paged } from '../paged';
import type { ConsoleCritiqueMutation } from '../gql/graphql';
import { ErrorNote, When } from '../ui';

const Summary = graphql(`
  query ConsoleTrajectorySummary($id: ID!) {
    trajectorySummary(sessionId: $id) {
      enabled
      reason
      status
      stale
      error
      summary {
        text
        generatedAt
      }
    }
  }
`);

const RefreshSummary = graphql(`
  mutation ConsoleSummaryRefresh($id: ID!) {
    trajectorySummaryRefresh(sessionId: $id) {
      status
    }
  }
`);

const Critique = graphql(`
  mutation ConsoleCritique($id: ID!) {
    trajectoryCritique(sessionId: $id) {
      findings {
        recordUuid
        recordSeq
        severity
        body
      }
    }
  }
`);

const Discuss = graphql(`
  subscription ConsoleDiscuss($id: ID!, $input: DiscussInput!) {
    trajectoryDiscussStream(sessionId: $id, input: $input) {
      delta
      done {
        answer
      }
    }
  }
`);

/** The cached summary, and (for whoever may: the owner) a refresh that makes it again in the background. */
export function SummaryPanel({ sessionId, canRefresh }: { sessionId: string; canRefresh: boolean }) {
  const client = useClient();
  const [{ data, error }, reload] = useQuery({ query: Summary, variables: { id: sessionId } });
  const [refreshing, refresh] = useMutation(RefreshSummary);
  const [waiting, setWaiting] = useState(false);
  const state = data?.trajectorySummary;
  const onRefresh = async () => {
    const result = await refresh({ id: sessionId });
    if (result.error) return;
    // The summary is made by a job: look again until it is there (at most a minute).
    setWaiting(true);
    for (let i = 0; i < 30; i++) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const next = (await client.query(Summary, { id: sessionId }, { requestPolicy: 'network-only' }).toPromise()).data?.trajectorySummary;
      if (!next || next.error || (next.summary && !next.stale)) break;
    }
    reload({ requestPolicy: 'network-only' });
    setWaiting(false);
  };
  return (
    <section className="panel" aria-labelledby="summary-title">
      <h2 id="summary-title">Summary</h2>
      <ErrorNote error={error ?? refreshing.error} />
      {state && !state.enabled && <p className="muted">{state.reason ?? 'Summaries need a language model (LLM_PROVIDER).'}</p>}
      {state?.summary ? (
        <div>
          <p className="text">{state.summary.text}</p>
          <p className="muted">
            Made <When at={state.summary.generatedAt} />
            {state.stale ? ', before the latest records' : ''}.
          </p>
        </div>
      ) : (
        state?.enabled && <p className="muted">{state.error ? `The last attempt failed: ${state.error}` : 'No summary yet.'}</p>
      )}
      {canRefresh && state?.enabled && (
        <button type="button" disabled={refreshing.fetching || waiting} onClick={() => void onRefresh()}>
          {waiting ? 'Summarizing…' : 'Refresh summary'}
        </button>
      )}
    </section>
  );
}

type Finding = ConsoleCritiqueMutation['trajectoryCritique']['findings'][number];

/** Problems found in the session (rules, and the model's when there is one), each linked to its record. */
export function CritiquePanel({ sessionId, onGoTo }: { sessionId: string; onGoTo: (seq: number) => void }) {
  const [{ data, error, fetching }, critique] = useMutation(Critique);
  const findings: Finding[] = data?.trajectoryCritique.findings ?? [];
  return (
    <section className="panel" aria-labelledby="critique-title">
      <h2 id="critique-title">Problems</h2>
      <ErrorNote error={error} />
      {data && findings.length === 0 && <p className="muted">No problems found.</p>}
      {findings.length > 0 && (
        <Paged items={findings} label="Findings">
          {(page) => (
            <ul className="findings">
              {page.map((finding, index) => (
                <li key={index}>
                  <span className={`badge ${finding.severity === 'error' ? 'error' : ''}`}>{finding.severity}</span> {finding.body}{' '}
                  {finding.recordSeq != null && (
                    <button type="button" className="small" onClick={() => onGoTo(finding.recordSeq!)}>
                      Go to record {finding.recordSeq}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Paged>
      )}
      <button type="button" disabled={fetching} onClick={() => void critique({ id: sessionId })}>
        {fetching ? 'Looking…' : data ? 'Look again' : 'Find problems'}
      </button>
    </section>
  );
}

/** Questions about the session, answered by the model as it writes. */
export function DiscussPanel({ sessionId }: { sessionId: string }) {
  const [question, setQuestion] = useState('');
  const [turns, setTurns] = useState<{ question: string; answer: string }[]>([]);
  // The question being answered, with the conversation as it stood when asked: the subscription's
  // variables must not change when the answer lands in `turns`, or it would ask again.
  const [asking, setAsking] = useState<{ id: number; question: string; history: typeof turns } | null>(null);
  // The handler only accumulates (React may run it more than once); the effect below files the
  // finished answer once.
  const [{ data, error }] = useSubscription(
    {
      query: Discuss,
      variables: { id: sessionId, input: { question: asking?.question ?? '', history: asking?.history ?? [] } },
      pause: asking === null,
    },
    (answer: { id?: number; text: string; done?: string } | undefined, event) => {
      const { delta, done } = event.trajectoryDiscussStream;
      // urql keeps the last answer's data when the next question starts.
      const text = answer?.id === asking?.id ? (answer?.text ?? '') : '';
      return { id: asking?.id, text: text + (delta ?? ''), done: done?.answer };
    },
  );
  const current = asking !== null && data?.id === asking.id ? data : undefined;
  const finished = current?.done;
  useEffect(() => {
    if (finished === undefined || asking === null) return;
    setTurns((filed) => [...filed, { question: asking.question, answer: finished }]);
    setAsking(null);
  }, [finished, asking]);
  const onAsk = (event: FormEvent) => {
    event.preventDefault();
    if (!question.trim()) return;
    setAsking({ id: turns.length + 1, question: question.trim(), history: turns });
    setQuestion('');
  };
  return (
    <section className="panel" aria-labelledby="discuss-title">
      <h2 id="discuss-title">Ask about this session</h2>
      {turns.map((turn, index) => (
        <div key={index} className="qa">
          <p>
            <strong>You:</strong> {turn.question}
          </p>
          <p className="text">{turn.answer}</p>
        </div>
      ))}
      {asking !== null && (
        <div className="qa" aria-live="polite">
          <p>
            <strong>You:</strong> {asking.question}
          </p>
          <p className="text">{current?.text || 'Thinking…'}</p>
        </div>
      )}
      <ErrorNote error={error} />
      <form onSubmit={onAsk}>
        <label htmlFor="discuss-question">Question</label>
        <input id="discuss-question" value={question} onChange={(event) => setQuestion(event.target.value)} maxLength={2000} />
        <button type="submit" disabled={asking !== null}>
          Ask
        </button>
      </form>
    </section>
  );
}
