import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import { Paged } from '../paged';
import type { A2aApprovalDecision } from '../gql/graphql';
import { ConfirmButton, ErrorNote, Loading, When } from '../ui';
import { callerName, stateName } from './agents';

const Task = graphql(`
  query ConsoleA2aTask($id: ID!) {
    a2aTask(id: $id, historyLength: 100) {
      id
      contextId
      caller {
        ...ConsoleA2aCaller
      }
      historyTimes {
        messageId
        sentAt
      }
      status {
        state
        timestamp
        message {
          parts {
            text
          }
        }
      }
      history {
        messageId
        role
        metadata
        parts {
          text
          data
          filename
          mediaType
        }
      }
      artifacts {
        artifactId
        name
        description
        parts {
          text
          filename
          mediaType
        }
      }
    }
  }
`);

const Events = graphql(`
  subscription ConsoleA2aTaskEvents($id: ID!) {
    a2aTaskEvents(taskId: $id, refuseTerminal: false) {
      statusUpdate {
        status {
          state
        }
      }
      artifactUpdate {
        artifact {
          artifactId
        }
      }
    }
  }
`);

const Answer = graphql(`
  mutation ConsoleA2aApprovalAnswer($taskId: ID!, $decision: A2aApprovalDecision!) {
    a2aApprovalAnswer(taskId: $taskId, decision: $decision) {
      id
      status {
        state
      }
    }
  }
`);

/** The answers to an approval; those hard to undo ask first, saying what they do. */
const DECISIONS: { decision: A2aApprovalDecision; label: string; asks?: { question: string; detail: string; confirm: string } }[] = [
  { decision: 'allow_once', label: 'Allow once' },
  {
    decision: 'allow_session',
    label: 'Allow for this conversation',
    asks: {
      question: 'Allow these calls and every later one in this conversation?',
      detail:
        'The agent runs them now, and runs what it asks for later in this conversation without asking again. This standing approval cannot be withdrawn here.',
      confirm: 'Allow for the conversation',
    },
  },
  {
    decision: 'deny',
    label: 'Deny',
    asks: {
      question: 'Deny the calls and cancel the task?',
      detail: 'The task ends as canceled and the calls do not run; the caller has to start a new task to try again.',
      confirm: 'Deny and cancel',
    },
  },
];

/** The heading over a status message that says why a task ended as it did. */
const WHY: Record<string, string> = {
  TASK_STATE_FAILED: 'Why it failed',
  TASK_STATE_REJECTED: 'Why it was rejected',
  TASK_STATE_CANCELED: 'Why it was canceled',
};

const partText = (part: { text?: string | null; data?: unknown; filename?: string | null; mediaType?: string | null }) =>
  part.text ??
  (part.data !== undefined && part.data !== null
    ? JSON.stringify(part.data, null, 2)
    : `[file ${part.filename ?? ''} ${part.mediaType ?? ''}]`);

/** One A2A task: its messages and artifacts, its progress live, and the approval it waits for, answered here. */
export function AgentTaskPage() {
  const { taskId } = useParams({ from: '/agents/tasks/$taskId' });
  const [{ data, error, fetching }, reload] = useQuery({ query: Task, variables: { id: taskId } });
  const [answering, answer] = useMutation(Answer);
  const [said, say] = useState('');
  // Each event is a change: read the task again (its messages and artifacts as stored).
  useSubscription({ query: Events, variables: { id: taskId } }, (_previous, event) => {
    reload({ requestPolicy: 'network-only' });
    return event;
  });

  if (!data) return fetching ? <Loading what="the task" /> : <ErrorNote error={error} />;
  const task = data.a2aTask;
  const waiting = task.status.state === 'TASK_STATE_INPUT_REQUIRED';
  const statusText = task.status.message?.parts
    .map((part) => part.text)
    .filter(Boolean)
    .join('\n');
  const why = WHY[task.status.state] ?? 'Status message';
  // An approval answered here is the caller's message, marked with who answered (a2aApprovalAnswer).
  const fromConsole = (message: { metadata?: unknown }) => Boolean((message.metadata as { answeredBy?: unknown } | null)?.answeredBy);
  const sentAt = new Map((task.historyTimes ?? []).map((time) => [time.messageId, time.sentAt]));
  return (
    <>
      <p className="crumbs">
        <Link to="/agents">Agents</Link> /
      </p>
      <h1>Task {task.id}</h1>
      <dl className="facts">
        <dt>State</dt>
        <dd id="task-state">{stateName(task.status.state)}</dd>
        <dt>Since</dt>
        <dd>
          <When at={task.status.timestamp} />
        </dd>
        <dt>Caller</dt>
        <dd id="task-caller">
          {callerName(task.caller)}
          {task.caller?.keyRevokedAt && (
            <span className="muted">
              {' '}
              (key revoked <When at={task.caller.keyRevokedAt} />)
            </span>
          )}
          {task.caller?.ownerName && <span className="muted"> for {task.caller.ownerName}’s endpoint</span>}
        </dd>
        <dt>Conversation</dt>
        <dd>
          <code>{task.contextId}</code>
        </dd>
      </dl>
      <ErrorNote error={error ?? answering.error} />
      <p className="note ok" role="status">
        {said}
      </p>
      {waiting && (
        <section className="panel" aria-labelledby="approval-title">
          <h2 id="approval-title">Approval needed</h2>
          <p className="text">{statusText}</p>
          <div className="buttons-row">
            {DECISIONS.map(({ decision, label, asks }) => {
              const onAnswer = () =>
                void answer({ taskId: task.id, decision }).then((result) => {
                  if (result.error) return;
                  say(`${label}: answered.`);
                  reload({ requestPolicy: 'network-only' });
                });
              const className = decision === 'deny' ? 'danger' : decision === 'allow_once' ? 'primary' : '';
              return asks ? (
                <ConfirmButton key={decision} className={className} disabled={answering.fetching} onConfirm={onAnswer} {...asks}>
                  {label}
                </ConfirmButton>
              ) : (
                <button key={decision} type="button" className={className} disabled={answering.fetching} onClick={onAnswer}>
                  {label}
                </button>
              );
            })}
          </div>
        </section>
      )}
      {!waiting && statusText && (
        <section className="panel" aria-labelledby="status-title">
          <h2 id="status-title">{why}</h2>
          <p className="text">{statusText}</p>
        </section>
      )}
      <section aria-labelledby="messages-title">
        <h2 id="messages-title">Messages</h2>
        <Paged items={task.history ?? []} label="Messages">
          {(page) =>
            page.map((message) => (
              <article key={message.messageId} className={`turn ${message.role === 'ROLE_USER' ? 'user' : 'assistant'}`}>
                <header className="turn-head">
                  <span className="who-said">{message.role === 'ROLE_USER' ? 'Caller' : 'Agent'}</span>
                  {message.role === 'ROLE_USER' && (
                    // The key's label as it was written (the role word above is capitalised).
                    <span>{fromConsole(message) ? 'answered from the console' : callerName(task.caller)}</span>
                  )}
                  <span className="muted">
                    <When at={sentAt.get(message.messageId)} />
                  </span>
                </header>
                {message.parts.map((part, index) => (
                  <div key={index} className="text">
                    {partText(part)}
                  </div>
                ))}
              </article>
            ))
          }
        </Paged>
      </section>
      {(task.artifacts ?? []).length > 0 && (
        <section aria-labelledby="artifacts-title">
          <h2 id="artifacts-title">Artifacts</h2>
          {task.artifacts!.map((artifact) => (
            // Open at first: the artifacts are what the task was for.
            <details key={artifact.artifactId} className="tool" open>
              <summary>{artifact.name ?? artifact.artifactId}</summary>
              {artifact.description && <p>{artifact.description}</p>}
              <pre>{artifact.parts.map(partText).join('\n')}</pre>
            </details>
          ))}
        </section>
      )}
    </>
  );
}
