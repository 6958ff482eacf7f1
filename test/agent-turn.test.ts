import type { SqlPart } from '../src/db/sql';
import type { JobRun } from '../src/jobs/queue';
import type { Completion, CompletionRequest, LanguageModelClient } from '../src/llm/language-model';
import { makeLogger } from '../src/logger';
import type { StoredMessage, TaskRow } from '../src/modules/a2a/a2a-task.repository';
import type { TurnStore } from '../src/modules/a2a/a2a-turn-store';
import type { TurnState } from '../src/modules/a2a/a2a-turn.repository';
import type { A2aArtifact, A2aMessage } from '../src/modules/a2a/a2a.types';
import { runAgentTurn, TurnPorts } from '../src/modules/agent/loop/agent-turn';
import { NO_PEERS } from '../src/modules/agent/peers/peer-tools';
import { makePubSub } from '../src/pubsub';

/**
 * The agent's turn run against its ports in memory (A2A's `TurnStore`, the owner's peers, an
 * in-process pub/sub and a scripted model): no PostgreSQL, no workspace, no HTTP. What it
 * stores, publishes and sends the model is what the turn decided.
 */

/** A task store in memory: one task, its messages, its loop state; every call it took, by name. */
class MemoryTurnStore implements TurnStore {
  task: TaskRow;
  messages: StoredMessage[];
  turn: TurnState | null = null;
  artifacts: A2aArtifact[] = [];
  recorded: TurnState[] = [];
  calls: string[] = [];

  constructor(task: TaskRow, first: A2aMessage) {
    this.task = task;
    this.messages = [{ taskId: task.id, seq: 1, message: first }];
  }

  private moved(state: string, statusMessage: A2aMessage | null): TaskRow | null {
    if (['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED'].includes(this.task.state)) return null;
    this.task = { ...this.task, state, statusMessage, statusAt: new Date() };
    return this.task;
  }

  startTurn = async () => {
    this.calls.push('startTurn');
    const started = this.task.state === 'TASK_STATE_SUBMITTED';
    if (started) this.moved('TASK_STATE_WORKING', null);
    return { task: this.task, turn: this.turn, started };
  };
  findTask = async () => this.task;
  moveTask = async (_id: string, state: string, message: A2aMessage | null) => this.moved(state, message);
  finishTask = async (_task: TaskRow, state: string, message: A2aMessage) => {
    this.turn = null;
    return this.moved(state, message);
  };
  askApproval = async (state: TurnState, request: A2aMessage) => {
    this.calls.push('askApproval');
    this.turn = { ...state, phase: 'awaiting_approval', decision: null };
    return this.moved('TASK_STATE_INPUT_REQUIRED', request);
  };
  contextMessages = async () => [...this.messages].reverse();
  messagesAfter = async (_id: string, after: number) => this.messages.filter((one) => one.seq > after);
  filesByMessage = async () => new Map();
  saveInputFiles = async () => [];
  contextGranted = async () => false;
  rememberPeerTask = async () => undefined;
  peerTaskOfContext = async () => false;
  saveTurn = async (state: TurnState) => {
    this.turn = structuredClone(state);
  };
  callModel = async (
    _task: TaskRow,
    llm: LanguageModelClient,
    request: CompletionRequest,
    next: (done: Completion) => TurnState,
    final?: (done: Completion) => boolean,
  ) => {
    this.calls.push('callModel');
    const done = await llm.complete(request);
    const state = next(done);
    // The answer's ledger row waits for the completion; any other call is kept with its state.
    if (final?.(done)) return { done, state, ledger: { sql: 'ledger row', params: [] } };
    this.turn = structuredClone(state);
    return { done, state };
  };
  keepLedger = async () => void this.calls.push('keepLedger');
  recordTurn = async (_task: TaskRow, state: TurnState) => {
    this.recorded.push(structuredClone(state));
  };
  snapshotOutputs = async () => ({});
  collectFileArtifacts = async () => ({ artifacts: [], omitted: [] });
  completeTask = async (
    _id: string,
    seenSeq: number,
    artifacts: A2aArtifact[],
    answer: A2aMessage,
    also: { job?: SqlPart; ledger?: SqlPart } = {},
  ) => {
    this.calls.push(`completeTask${also.job ? ' with its job' : ''}${also.ledger ? ' and its ledger row' : ''}`);
    if (this.messages.at(-1)!.seq > seenSeq) return null;
    this.artifacts = artifacts;
    this.messages.push({ taskId: this.task.id, seq: this.messages.length + 1, message: answer });
    this.turn = null;
    return this.moved('TASK_STATE_COMPLETED', null);
  };
}

/** A model that answers from a script, and keeps what it was sent. */
function scriptedModel(...answers: Partial<Completion>[]) {
  const sent: CompletionRequest[] = [];
  const llm: LanguageModelClient = {
    provider: 'openai',
    model: 'scripted',
    complete: async (request) => {
      sent.push(request);
      return { text: '', toolCalls: [], tokensIn: 1, tokensOut: 1, attempts: 1, ...answers[sent.length - 1] };
    },
    stream: async () => {
      throw new Error('not streamed');
    },
  };
  return { llm, sent };
}

function setUp(model: LanguageModelClient, sandbox = true) {
  const task: TaskRow = {
    id: 'turn_1',
    contextId: 'ctx_1',
    principal: 'key:1',
    ownerId: 'user_1',
    state: 'TASK_STATE_SUBMITTED',
    statusMessage: null,
    statusAt: new Date(),
    lastSeq: 1,
  };
  const store = new MemoryTurnStore(task, { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'What is 6 x 7?' }] });
  const pubsub = makePubSub();
  const heard: string[] = [];
  const listening = (async () => {
    for await (const event of pubsub.subscribe('A2A_TASK', task.id)) heard.push(event.state);
  })();
  const services = {
    llm: model,
    pubsub,
    agent: { workspaces: { sandboxAvailable: () => sandbox } },
  } as unknown as TurnPorts['services'];
  let completed = 0;
  const run: JobRun = {
    id: 'job_1',
    attempt: 1,
    signal: new AbortController().signal,
    completion: { sql: 'update job', params: [] },
    completed: () => void completed++,
  };
  const ports: TurnPorts = { services, store, peers: async () => NO_PEERS };
  return {
    store,
    heard,
    completedJobs: () => completed,
    turn: () => runAgentTurn(ports, task.id, run, makeLogger('silent'), true),
    stop: async () => {
      await pubsub.close();
      await Promise.race([listening, new Promise((resolve) => setTimeout(resolve, 50))]);
    },
  };
}

test('a turn that answers completes its task through the store: the answer artifact and message, the job completed and the call paid in one step, COMPLETED published', async () => {
  const { llm, sent } = scriptedModel({ text: '42' });
  const t = setUp(llm);
  await t.turn();
  await new Promise((resolve) => setImmediate(resolve));
  await t.stop();
  expect(sent).toHaveLength(1);
  expect(sent[0].messages).toEqual([{ role: 'user', content: 'What is 6 x 7?' }]);
  // The answer's loop state is never stored; its ledger row goes in the completion's statement.
  expect(t.store.calls).toEqual(['startTurn', 'callModel', 'completeTask with its job and its ledger row']);
  expect(t.store.turn).toBeNull();
  expect(t.store.task.state).toBe('TASK_STATE_COMPLETED');
  expect(t.store.artifacts).toEqual([{ artifactId: 'turn_1-answer', name: 'answer', parts: [{ text: '42' }] }]);
  expect(t.store.messages.at(-1)!.message).toMatchObject({ role: 'ROLE_AGENT', parts: [{ text: '42' }], taskId: 'turn_1' });
  expect(t.store.recorded.map((state) => state.answer)).toEqual(['42']);
  expect(t.completedJobs()).toBe(1);
  expect(t.heard).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
});

test('a turn whose model asks to run code stops for the caller’s approval: INPUT_REQUIRED, the call kept pending, nothing run', async () => {
  const call = { id: 'c1', name: 'run_code', input: { language: 'python', code: 'print(6 * 7)' } };
  const { llm, sent } = scriptedModel({ toolCalls: [call] });
  const t = setUp(llm);
  await t.turn();
  await new Promise((resolve) => setImmediate(resolve));
  await t.stop();
  expect(sent).toHaveLength(1);
  expect(t.store.calls).toEqual(['startTurn', 'callModel', 'askApproval']);
  expect(t.store.task.state).toBe('TASK_STATE_INPUT_REQUIRED');
  expect(t.store.task.statusMessage?.parts[1]).toEqual({
    data: { kind: 'tool_approval', summary: expect.stringContaining('print(6 * 7)') },
  });
  expect(t.store.turn).toMatchObject({ phase: 'awaiting_approval', pending: [call], steps: 1 });
  expect(t.completedJobs()).toBe(0);
  expect(t.heard).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_INPUT_REQUIRED']);
});

test('the database unreachable when the answer completes (a restart): the completion waits and is made once, the model asked once', async () => {
  const { llm, sent } = scriptedModel({ text: '42' });
  const t = setUp(llm);
  const completeTask = t.store.completeTask;
  let refusals = 2;
  t.store.completeTask = async (...args: Parameters<typeof completeTask>) => {
    if (refusals-- > 0) {
      t.store.calls.push('completeTask refused');
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    }
    return completeTask(...args);
  };
  await t.turn();
  await new Promise((resolve) => setImmediate(resolve));
  await t.stop();
  expect(sent).toHaveLength(1);
  // Its ledger row rode on the completion that went through; never written alone.
  expect(t.store.calls).toEqual([
    'startTurn',
    'callModel',
    'completeTask refused',
    'completeTask refused',
    'completeTask with its job and its ledger row',
  ]);
  expect(t.store.task.state).toBe('TASK_STATE_COMPLETED');
  expect(t.completedJobs()).toBe(1);
}, 10_000);

test('the completion failing otherwise: the answer’s ledger row is written alone, and the turn fails', async () => {
  const { llm } = scriptedModel({ text: '42' });
  const t = setUp(llm);
  t.store.completeTask = async () => {
    t.store.calls.push('completeTask failed');
    throw new Error('some other failure');
  };
  await t.turn();
  await new Promise((resolve) => setImmediate(resolve));
  await t.stop();
  expect(t.store.calls.slice(0, 4)).toEqual(['startTurn', 'callModel', 'completeTask failed', 'keepLedger']);
  expect(t.store.task.state).toBe('TASK_STATE_FAILED');
});
