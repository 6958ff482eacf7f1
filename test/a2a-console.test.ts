import { createA2aKey, enableA2a, rpc, rpcCall, userMessage } from './support/a2a';
import { makeUser, useTestApp } from './support/app';

/**
 * The console's fields of an A2A task (issue 37, item 6): who gave it, by its key's label and the
 * A2A owner's name, and when each message of its history was stored. Read like the task itself:
 * the A2A owner and administrators; anyone else is refused, an unknown task is not found.
 */

const t = useTestApp();

const TASK = `query ($id: ID!) {
  a2aTask(id: $id) {
    id
    history { messageId }
    historyTimes { messageId sentAt }
    caller { keyLabel keyRevokedAt openEndpoint ownerName }
  }
}`;

const gql = async (token: string, query: string, variables: Record<string, unknown> = {}) =>
  (await t.call('POST', '/graphql', { token, body: { query, variables } })).body as {
    data: Record<string, never> | null;
    errors?: { extensions: { code: string } }[];
  };

describe("an A2A task's caller and message times", () => {
  test('the A2A owner and an admin read the key label, the owner by name and each message’s time; a stranger is refused; an unknown task is not found', async () => {
    const owner = await makeUser(t, { name: 'Olga Owner', plan_code: 'pro' });
    const stranger = await makeUser(t, { name: 'Sid Stranger' });
    await enableA2a(t, ['--owner', owner.email]);
    const key = await createA2aKey(t, 'stats lab agent');
    const before = Date.now();
    const message = userMessage('hello');
    // Without a model the task fails at once: a task with the caller's message in its history.
    const sent = await rpc(t, key.plaintext, rpcCall(1, 'SendMessage', { message }));
    const after = Date.now();
    const taskId = sent.body.result.task.id as string;
    expect(sent.body.result.task.status.state).toBe('TASK_STATE_FAILED');
    // The A2A answer stays the A2A model: none of the console's fields.
    expect(Object.keys(sent.body.result.task)).not.toContain('caller');
    expect(Object.keys(sent.body.result.task)).not.toContain('historyTimes');

    for (const token of [owner.token, t.adminToken]) {
      const reply = await gql(token, TASK, { id: taskId });
      expect(reply.errors).toBeUndefined();
      const task = reply.data!.a2aTask as {
        history: { messageId: string }[];
        historyTimes: { messageId: string; sentAt: string | null }[];
        caller: Record<string, unknown>;
      };
      expect(task.caller).toEqual({ keyLabel: 'stats lab agent', keyRevokedAt: null, openEndpoint: false, ownerName: 'Olga Owner' });
      expect(task.historyTimes.map((time) => time.messageId)).toEqual(task.history.map((entry) => entry.messageId));
      expect(task.historyTimes[0].messageId).toBe(message.messageId);
      const at = Date.parse(task.historyTimes[0].sentAt!);
      // The database's clock against this process's: a second either side.
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(after + 1000);
    }

    // The tasks list names the caller too, in one read for the page.
    const listed = await gql(owner.token, '{ a2aTasks(first: 5) { nodes { id caller { keyLabel } } } }');
    expect((listed.data!.a2aTasks as { nodes: unknown[] }).nodes).toContainEqual({ id: taskId, caller: { keyLabel: 'stats lab agent' } });

    // A revoked key still names the caller, and says so.
    const revoked = await gql(owner.token, 'mutation ($id: ID!) { a2aKeyRevoke(id: $id) { revokedAt } }', { id: key.id });
    expect(revoked.errors).toBeUndefined();
    const afterRevoke = await gql(owner.token, TASK, { id: taskId });
    expect((afterRevoke.data!.a2aTask as { caller: { keyRevokedAt: string | null } }).caller.keyRevokedAt).toEqual(expect.any(String));

    const refused = await gql(stranger.token, TASK, { id: taskId });
    expect(refused.data).toBeNull();
    expect(refused.errors![0].extensions.code).toBe('FORBIDDEN');
    const unknown = await gql(owner.token, TASK, { id: 'turn_nosuchtask' });
    expect(unknown.data).toBeNull();
    expect(unknown.errors![0].extensions.code).toBe('NOT_FOUND');
  }, 60_000);
});
