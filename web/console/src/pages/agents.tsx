import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { OffsetPager, Paged } from '../paged';
import type { A2aTaskState } from '../gql/graphql';
import { ConfirmButton, Empty, ErrorNote, Loading, RevokeCell, Table, When } from '../ui';
import { offsetOf, useUrlState } from '../url-state';

const Access = graphql(`
  query ConsoleA2aAccess {
    a2aViewerCan {
      useWebTools
    }
  }
`);

const Keys = graphql(`
  query ConsoleA2aKeys {
    a2aKeys {
      id
      label
      createdAt
      revokedAt
    }
  }
`);

const CreateKey = graphql(`
  mutation ConsoleA2aKeyCreate($label: String!) {
    a2aKeyCreate(label: $label) {
      secret
      key {
        id
        label
      }
    }
  }
`);

const RevokeKey = graphql(`
  mutation ConsoleA2aKeyRevoke($id: ID!) {
    a2aKeyRevoke(id: $id) {
      id
      revokedAt
    }
  }
`);

const Tasks = graphql(`
  query ConsoleA2aTasks($first: Int, $after: String, $state: A2aTaskState) {
    a2aTasks(first: $first, after: $after, state: $state) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        contextId
        status {
          state
          timestamp
        }
        caller {
          ...ConsoleA2aCaller
        }
      }
    }
  }
`);

const Agents = graphql(`
  query ConsoleOutboundAgents {
    a2aAgents {
      id
      name
      url
      enabled
      status
      error
      checkedAt
    }
  }
`);

const AddAgent = graphql(`
  mutation ConsoleOutboundAgentAdd($input: A2aAgentCreateInput!) {
    a2aAgentCreate(input: $input) {
      id
    }
  }
`);

const UpdateAgent = graphql(`
  mutation ConsoleOutboundAgentUpdate($id: ID!, $input: A2aAgentUpdateInput!) {
    a2aAgentUpdate(id: $id, input: $input) {
      id
      enabled
    }
  }
`);

const TestAgent = graphql(`
  mutation ConsoleOutboundAgentTest($id: ID!) {
    a2aAgentTest(id: $id) {
      ok
      name
      error
    }
  }
`);

const RemoveAgent = graphql(`
  mutation ConsoleOutboundAgentRemove($id: ID!) {
    a2aAgentDelete(id: $id) {
      id
    }
  }
`);

const STATES: A2aTaskState[] = [
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_WORKING',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
];
/** Who gave a task, in words: its key's label, or the open endpoint's caller. */
export const CallerFragment = graphql(`
  fragment ConsoleA2aCaller on A2aTaskCaller {
    keyLabel
    keyRevokedAt
    openEndpoint
    ownerName
  }
`);

export const callerName = (caller: { keyLabel?: string | null; openEndpoint: boolean } | null | undefined) =>
  caller?.keyLabel ?? (caller?.openEndpoint ? 'the open local endpoint' : 'a key no longer stored');

export const stateName = (state: string) => state.replace('TASK_STATE_', '').replace('_', ' ').toLowerCase();

/**
 * The outbound agents (everyone's own), and for whoever the server says may use the A2A web
 * tools (the A2A owner and administrators) the endpoint's keys and tasks.
 */
export function AgentsPage() {
  const [{ data, error }] = useQuery({ query: Access });
  return (
    <>
      <h1>Agents</h1>
      <ErrorNote error={error} />
      {data?.a2aViewerCan.useWebTools && (
        <>
          <KeysSection />
          <TasksSection />
        </>
      )}
      {data && !data.a2aViewerCan.useWebTools && (
        <p className="muted">The A2A endpoint's keys and tasks are for its owner and the administrators.</p>
      )}
      <OutboundSection />
    </>
  );
}

function KeysSection() {
  const [{ data, error, fetching }, reload] = useQuery({ query: Keys });
  const [created, create] = useMutation(CreateKey);
  const [revoking, revoke] = useMutation(RevokeKey);
  const [label, setLabel] = useState('');
  const [shown, setShown] = useState<{ label: string; secret: string } | null>(null);
  const onCreate = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ label: label.trim() });
    if (result.data) {
      setShown({ label: result.data.a2aKeyCreate.key.label, secret: result.data.a2aKeyCreate.secret });
      setLabel('');
      reload({ requestPolicy: 'network-only' });
    }
  };
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">Keys of the A2A endpoint</h2>
      <ErrorNote error={error ?? created.error ?? revoking.error} />
      {shown && (
        <div className="panel" role="status">
          <p>
            The key for <strong>{shown.label}</strong>, shown this once (only its digest is kept):
          </p>
          <p>
            <code className="hash" id="new-key">
              {shown.secret}
            </code>
          </p>
          <button type="button" className="small" onClick={() => setShown(null)}>
            Done
          </button>
        </div>
      )}
      {!data && fetching && <Loading what="keys" />}
      {data && data.a2aKeys.length === 0 && (
        <Empty>
          <p>No key yet. Create one for each external agent or collaborator that may call this service's agent.</p>
        </Empty>
      )}
      {data && data.a2aKeys.length > 0 && (
        <Paged items={data.a2aKeys} label="Keys">
          {(page) => (
            <Table>
              <thead>
                <tr>
                  <th scope="col">Label</th>
                  <th scope="col">Key id</th>
                  <th scope="col">Created</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {page.map((key) => (
                  <tr key={key.id}>
                    <td>{key.label}</td>
                    <td>
                      <code>{key.id}</code>
                    </td>
                    <td>
                      <When at={key.createdAt} />
                    </td>
                    <td>
                      <RevokeCell
                        revokedAt={key.revokedAt}
                        label={`Revoke the key of ${key.label}`}
                        detail="Agents calling with it are refused at once. A revoked key cannot be restored."
                        confirm="Revoke key"
                        busy={revoking.fetching}
                        onRevoke={() =>
                          void revoke({ id: key.id }).then((result) => !result.error && reload({ requestPolicy: 'network-only' }))
                        }
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Paged>
      )}
      <form onSubmit={(event) => void onCreate(event)} className="filters">
        <label>
          Key label
          <input value={label} onChange={(event) => setLabel(event.target.value)} required maxLength={100} placeholder="Who it is for" />
        </label>
        <button type="submit" className="primary" disabled={created.fetching}>
          Create key
        </button>
      </form>
    </section>
  );
}

const TASKS_PAGE = 20;

/**
 * The offset cursor the tasks connection would give after `offset - 1` items (src/pagination.ts),
 * so that a page can live in the URL as a number (`?tasks=21`) rather than as a chain of cursors.
 */
const cursorAt = (offset: number) =>
  offset > 0
    ? btoa(`offset:${offset - 1}`)
        .replace(/=+$/, '')
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
    : null;

function TasksSection() {
  // The state filter and the page live in the URL (`/agents?state=…&tasks=20`).
  const [view, setView] = useUrlState(['state', 'tasks'] as const);
  const state = STATES.find((candidate) => candidate === view.state) ?? '';
  const offset = offsetOf(view.tasks);
  const [{ data, error, fetching }] = useQuery({
    query: Tasks,
    variables: { first: TASKS_PAGE, after: cursorAt(offset), state: state || null },
  });
  const page = data?.a2aTasks;
  return (
    <section aria-labelledby="tasks-title">
      <h2 id="tasks-title">Tasks</h2>
      <form className="filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          State
          <select value={state} onChange={(event) => setView({ state: event.target.value, tasks: 0 })}>
            <option value="">Any</option>
            {STATES.map((value) => (
              <option key={value} value={value}>
                {stateName(value)}
              </option>
            ))}
          </select>
        </label>
      </form>
      <ErrorNote error={error} />
      {!data && fetching && <Loading what="tasks" />}
      {page && page.nodes.length === 0 && (
        <Empty>
          <p>No task{state ? ' in this state' : ''}. Tasks appear when an external agent sends a message to the A2A endpoint with a key.</p>
        </Empty>
      )}
      {page && page.nodes.length > 0 && (
        <>
          <Table>
            <thead>
              <tr>
                <th scope="col">Task</th>
                <th scope="col">State</th>
                <th scope="col">Caller</th>
                <th scope="col">Conversation</th>
                <th scope="col">Since</th>
              </tr>
            </thead>
            <tbody>
              {page.nodes.map((task) => (
                <tr key={task.id}>
                  <td>
                    <Link to="/agents/tasks/$taskId" params={{ taskId: task.id }}>
                      {task.id}
                    </Link>
                  </td>
                  <td>{stateName(task.status.state)}</td>
                  <td>{callerName(task.caller)}</td>
                  <td>
                    <code>{task.contextId}</code>
                  </td>
                  <td>
                    <When at={task.status.timestamp} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <OffsetPager
            label="Tasks"
            offset={offset}
            size={TASKS_PAGE}
            shown={page.nodes.length}
            total={page.totalCount}
            onMove={(next) => setView({ tasks: next })}
          />
        </>
      )}
    </section>
  );
}

function OutboundSection() {
  const [{ data, error }, reload] = useQuery({ query: Agents });
  const [adding, add] = useMutation(AddAgent);
  const [updating, update] = useMutation(UpdateAgent);
  const [testing, test] = useMutation(TestAgent);
  const [removing, remove] = useMutation(RemoveAgent);
  const [form, setForm] = useState({ id: '', name: '', url: '', apiKey: '' });
  const [said, say] = useState('');
  const refresh = () => reload({ requestPolicy: 'network-only' });
  const onAdd = async (event: FormEvent) => {
    event.preventDefault();
    const result = await add({ input: { id: form.id.trim(), name: form.name.trim(), url: form.url.trim(), apiKey: form.apiKey || null } });
    if (!result.error) {
      setForm({ id: '', name: '', url: '', apiKey: '' });
      say(`Added ${form.name.trim()}.`);
      refresh();
    }
  };
  return (
    <section aria-labelledby="outbound-title">
      <h2 id="outbound-title">Outbound agents</h2>
      <p className="muted">Other A2A agents this service's agent may call as tools.</p>
      <ErrorNote error={error ?? adding.error ?? updating.error ?? testing.error ?? removing.error} />
      <p className="note ok" role="status">
        {said}
      </p>
      {data && data.a2aAgents.length === 0 && (
        <Empty>
          <p>No outbound agent. Add one with its A2A endpoint URL; "Test" fetches its agent card.</p>
        </Empty>
      )}
      {data && data.a2aAgents.length > 0 && (
        <Paged items={data.a2aAgents} label="Outbound agents">
          {(page) => (
            <Table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">URL</th>
                  <th scope="col">Status</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {page.map((agent) => (
                  <tr key={agent.id}>
                    <td>{agent.name}</td>
                    <td>
                      <code className="hash">{agent.url}</code>
                    </td>
                    <td>
                      {agent.status}
                      {agent.error && <span className="muted"> ({agent.error})</span>}
                    </td>
                    <td className="actions">
                      <button
                        type="button"
                        className="small"
                        disabled={testing.fetching}
                        onClick={() =>
                          void test({ id: agent.id }).then((result) => {
                            if (result.data)
                              say(
                                result.data.a2aAgentTest.ok
                                  ? `${agent.name} answered.`
                                  : `${agent.name}: ${result.data.a2aAgentTest.error}`,
                              );
                            refresh();
                          })
                        }
                      >
                        Test
                      </button>
                      <button
                        type="button"
                        className="small"
                        disabled={updating.fetching}
                        onClick={() => void update({ id: agent.id, input: { enabled: !agent.enabled } }).then(refresh)}
                      >
                        {agent.enabled ? 'Disable' : 'Enable'}
                      </button>
                      <ConfirmButton
                        className="small danger"
                        label={`Remove ${agent.name}`}
                        question={`Remove the outbound agent ${agent.name}?`}
                        detail={`This service's agent can no longer call ${agent.name}, and its stored API key is deleted; to use it again, add it anew with its key.`}
                        confirm="Remove agent"
                        disabled={removing.fetching}
                        onConfirm={() => void remove({ id: agent.id }).then(refresh)}
                      >
                        Remove
                      </ConfirmButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Paged>
      )}
      <form onSubmit={(event) => void onAdd(event)} className="filters">
        <label>
          Agent id
          <input value={form.id} onChange={(event) => setForm({ ...form, id: event.target.value })} required placeholder="stats-agent" />
        </label>
        <label>
          Agent name
          <input value={form.name} onChange={(event) => setForm({ ...form, name: event.target.value })} required />
        </label>
        <label>
          Endpoint URL
          <input type="url" value={form.url} onChange={(event) => setForm({ ...form, url: event.target.value })} required />
        </label>
        <label>
          Its API key
          <input
            type="password"
            value={form.apiKey}
            onChange={(event) => setForm({ ...form, apiKey: event.target.value })}
            autoComplete="off"
          />
        </label>
        <button type="submit" disabled={adding.fetching}>
          Add agent
        </button>
      </form>
    </section>
  );
}
