import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { AgentCard, Task, TaskArtifactUpdateEvent, TaskState, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { AgentEvent, AgentExecutor, DefaultRequestHandler, ExecutionEventBus, InMemoryTaskStore, RequestContext } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

/** A server on a loopback port. */
export interface Listening {
  server: http.Server;
  port: number;
  url: string;
}

export async function listen(server: http.Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, port, url: `http://127.0.0.1:${port}/` };
}

/** Closes a server and the connections it holds. */
export async function closeServer(listening: Pick<Listening, 'server'>): Promise<void> {
  listening.server.closeAllConnections();
  await new Promise((resolve) => listening.server.close(resolve));
}

/** A JSON-RPC request a peer received: its method, params and Authorization header. */
export interface PeerRequest {
  method: string;
  params: any;
  authorization: string | undefined;
}

/** A peer made with the official SDK's server, with the JSON-RPC requests it received. */
export interface SdkPeer extends Listening {
  requests: PeerRequest[];
}

/** A peer's executor completing at once, without a task (what the registry's card tests need). */
export class DoneAtOnce implements AgentExecutor {
  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    bus.publish(
      AgentEvent.statusUpdate({
        taskId: context.taskId,
        contextId: context.contextId,
        status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
    bus.finished();
  }

  async cancelTask(_taskId: string, bus: ExecutionEventBus): Promise<void> {
    bus.finished();
  }
}

/**
 * A peer's executor that makes a task (WORKING), waits for `gate` (the test decides when it
 * finishes), then adds one artifact `answer` with the text `answer(request text)` and completes.
 * `done` settles once it has completed.
 */
export class AnsweringPeer implements AgentExecutor {
  private finished!: () => void;
  readonly done = new Promise<void>((resolve) => (this.finished = resolve));

  constructor(
    private readonly answer: (asked: string) => string,
    private readonly gate: Promise<unknown> = Promise.resolve(),
  ) {}

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const ids = { taskId: context.taskId, contextId: context.contextId };
    const status = (state: string) => ({ state, timestamp: new Date().toISOString() });
    bus.publish(AgentEvent.task(Task.fromJSON({ id: context.taskId, contextId: context.contextId, status: status('TASK_STATE_WORKING') })));
    await this.gate;
    const asked = context.userMessage.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
    bus.publish(
      AgentEvent.artifactUpdate(
        TaskArtifactUpdateEvent.fromJSON({
          ...ids,
          artifact: { artifactId: 'answer', name: 'answer', parts: [{ text: this.answer(asked) }] },
          append: false,
          lastChunk: true,
        }),
      ),
    );
    bus.publish(AgentEvent.statusUpdate(TaskStatusUpdateEvent.fromJSON({ ...ids, status: status('TASK_STATE_COMPLETED') })));
    bus.finished();
    this.finished();
  }

  async cancelTask(_taskId: string, bus: ExecutionEventBus): Promise<void> {
    bus.finished();
  }
}

/**
 * The SDK reference peer: `/.well-known/agent-card.json` and `/a2a/v1` (JSON-RPC), with
 * `description` carrying whatever the test gives. `rpc` replaces the JSON-RPC endpoint (a peer
 * that misbehaves there); every JSON-RPC request the SDK's handler receives is recorded.
 */
export async function sdkPeer(
  opts: { description?: string; executor?: AgentExecutor; rpc?: express.RequestHandler } = {},
): Promise<SdkPeer> {
  const app = express();
  const placeholder = { port: 0 };
  const requests: PeerRequest[] = [];
  const card = () =>
    AgentCard.fromJSON({
      name: 'Loopback peer',
      description: opts.description ?? 'A peer on loopback.',
      version: '2.3.4',
      supportedInterfaces: [{ url: `http://127.0.0.1:${placeholder.port}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: { streaming: false, pushNotifications: false },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [
        { id: 'one', name: 'One', description: 'First skill.', tags: ['a'] },
        { id: 'two', name: 'Two', description: 'Second skill.', tags: ['b'] },
      ],
    });
  const handler = new DefaultRequestHandler(card(), new InMemoryTaskStore(), opts.executor ?? new DoneAtOnce());
  // The user builder runs once the body is parsed: the one place that sees each request whole.
  const userBuilder = async (req: express.Request) => {
    requests.push({ method: req.body?.method, params: req.body?.params, authorization: req.headers.authorization });
    return UserBuilder.noAuthentication();
  };
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: async () => AgentCard.toJSON(card()) as AgentCard }));
  app.use('/a2a/v1', opts.rpc ?? jsonRpcHandler({ requestHandler: handler, userBuilder }));
  const peer = await listen(http.createServer(app));
  placeholder.port = peer.port;
  return { ...peer, requests };
}
