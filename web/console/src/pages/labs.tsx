import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { Paged } from '../paged';
import { Empty, ErrorNote, Loading, Table, When } from '../ui';

const Labs = graphql(`
  query ConsoleLabs {
    labs {
      id
      name
      role
      status
      seatQuota
      seatsUsed
    }
    labJoinRequests {
      labName
      requestedAt
    }
  }
`);

const CreateLab = graphql(`
  mutation ConsoleLabCreate($input: LabCreateInput!) {
    labCreate(input: $input) {
      id
    }
  }
`);

const JoinLab = graphql(`
  mutation ConsoleLabJoin($input: LabJoinInput!) {
    labJoin(input: $input) {
      labId
      status
    }
  }
`);

/** The caller's labs, and the two ways to have one: create it, or ask to join with a code. */
export function LabsPage() {
  const [{ data, error, fetching }, reload] = useQuery({ query: Labs });
  const [created, create] = useMutation(CreateLab);
  const [joined, join] = useMutation(JoinLab);
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [said, say] = useState('');
  const navigate = useNavigate();

  const onCreate = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ input: { name: name.trim() } });
    // A new lab opens: its invitation code is what its owner needs next.
    if (result.data) void navigate({ to: '/labs/$labId', params: { labId: result.data.labCreate.id } });
  };
  const onJoin = async (event: FormEvent) => {
    event.preventDefault();
    const result = await join({ input: { code: code.trim() } });
    if (result.data) {
      setCode('');
      say(result.data.labJoin.status === 'pending' ? 'Asked to join: the lab owner will decide.' : 'Joined.');
      reload({ requestPolicy: 'network-only' });
    }
  };

  return (
    <>
      <h1>Labs</h1>
      <ErrorNote error={error} />
      {!data && fetching && <Loading what="your labs" />}
      {data && data.labJoinRequests.length > 0 && (
        <section aria-labelledby="waiting-title" className="panel">
          <h2 id="waiting-title">Waiting for approval</h2>
          <ul>
            {data.labJoinRequests.map((request) => (
              <li key={`${request.labName} ${request.requestedAt}`}>
                <strong>{request.labName}</strong>: you asked to join <When at={request.requestedAt} />; its owner decides.
              </li>
            ))}
          </ul>
        </section>
      )}
      {data && data.labs.length === 0 && (
        <Empty>
          <p>
            {data.labJoinRequests.length > 0
              ? 'You are in no lab until an owner approves you. Meanwhile your own runs are under Trajectories.'
              : 'You are in no lab yet. Create one below, or ask a lab owner for an invitation code and join with it.'}
          </p>
        </Empty>
      )}
      {data && data.labs.length > 0 && (
        <Paged items={data.labs} label="Labs">
          {(labs) => (
            <Table>
              <caption className="sr-only">Your labs</caption>
              <thead>
                <tr>
                  <th scope="col">Lab</th>
                  <th scope="col">Your role</th>
                  <th scope="col">Seats used</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {labs.map((lab) => (
                  <tr key={lab.id}>
                    <td>
                      <Link to="/labs/$labId" params={{ labId: lab.id }}>
                        {lab.name}
                      </Link>
                    </td>
                    <td>{lab.role ?? '—'}</td>
                    <td>
                      {lab.seatsUsed} of {lab.seatQuota}
                    </td>
                    <td>{lab.status}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Paged>
      )}
      <p className="note ok" role="status">
        {said}
      </p>
      <div className="columns">
        <form onSubmit={(event) => void onCreate(event)} className="panel">
          <h2>Create a lab</h2>
          <label htmlFor="lab-name">Lab name</label>
          <input id="lab-name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={200} />
          <ErrorNote error={created.error} />
          <button type="submit" className="primary" disabled={created.fetching}>
            Create lab
          </button>
        </form>
        <form onSubmit={(event) => void onJoin(event)} className="panel">
          <h2>Join a lab</h2>
          <label htmlFor="lab-code">Invitation code</label>
          <input
            id="lab-code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            required
            autoComplete="off"
            spellCheck={false}
          />
          <ErrorNote error={joined.error} />
          <button type="submit" disabled={joined.fetching}>
            Ask to join
          </button>
        </form>
      </div>
    </>
  );
}
