/**
 * The reference side of bench:a2a: the official SDK's own A2A 1.0 server in a process of its
 * own (`DefaultRequestHandler`, its `InMemoryTaskStore`, its Express JSON-RPC handler) with an
 * echo agent that completes each task with the caller's text as an artifact and an agent
 * message, as our turn does with the model's answer. It keeps nothing on disk: what a server
 * with no persistence and no model serves on this machine. Sends its port when listening.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { AgentCard, Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, AgentExecutor, DefaultRequestHandler, ExecutionEventBus, InMemoryTaskStore, RequestContext } from '@a2a-js/sdk/server';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { newId } from '../src/ids';

const textOf = (context: RequestContext) =>
  context.userMessage.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('\n');

/** Completes every task at once with the caller's text: a task event, the artifact, then COMPLETED with the agent's message. */
class EchoExecutor implements AgentExecutor {
  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = context;
    const text = textOf(context);
    const now = () => new Date().toISOString();
    if (!context.task) {
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
          artifacts: [],
          history: [context.userMessage],
          metadata: undefined,
        }),
      );
    }
    const part = { content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: '' };
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: { artifactId: `${taskId}-answer`, name: 'answer', description: '', parts: [part], metadata: undefined, extensions: [] },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    const answer = {
      messageId: newId('msg'),
      contextId,
      taskId,
      role: Role.ROLE_AGENT,
      parts: [part],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_COMPLETED, message: answer, timestamp: now() },
        metadata: undefined,
      }),
    );
    bus.finished();
  }

  async cancelTask(_taskId: string, bus: ExecutionEventBus): Promise<void> {
    bus.finished();
  }
}

const port = Number(process.env.PORT ?? 0);
const card = AgentCard.fromJSON({
  name: 'SDK reference echo agent',
  description: 'Echoes the text it is sent (bench:a2a reference).',
  version: '1.0.0',
  supportedInterfaces: [{ url: `http://127.0.0.1:${port}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { streaming: false, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes the text.', tags: ['echo'] }],
});
const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new EchoExecutor());
const app = express();
app.disable('x-powered-by');
app.use('/a2a/v1', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
const server = app.listen(port, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
