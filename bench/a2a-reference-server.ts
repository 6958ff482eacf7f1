/**
 * The reference side of bench:a2a: the official SDK's own A2A 1.0 server in a process of its
 * own (`DefaultRequestHandler`, its `InMemoryTaskStore`, its Express JSON-RPC handler) with an
 * echo agent that completes each task with the caller's text as an artifact and an agent
 * message, as our turn does with the model's answer. It keeps nothing on disk: what a server
 * with no persistence and no model serves on this machine. Sends its port when listening.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { AgentCard } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { AnswerExecutor } from './a2a-sdk-agent';

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
const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new AnswerExecutor(async (text) => text, ''));
const app = express();
app.disable('x-powered-by');
app.use('/a2a/v1', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
const server = app.listen(port, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
