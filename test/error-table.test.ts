import type { AddressInfo } from 'node:net';
import express from 'express';
import { graphql, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { formatGraphQLError } from '../src/app';
import { A2A_ERRORS, A2aError, A2aReason, AppError, ERROR_CODES, ErrorCode } from '../src/errors';
import { sendError } from '../src/http/answers';
import type { Logger } from '../src/logger';
import { rpcErrorOf } from '../facade/rpc';

/**
 * One error table (src/errors.ts) drives all three transports: every code, thrown as an
 * `AppError`, is answered by the REST adapter (over loopback HTTP), by GraphQL's `formatError`
 * (after a real execution) and by the JSON-RPC adapter with exactly the table's numbers.
 */

const CODES = Object.keys(ERROR_CODES) as ErrorCode[];
const quiet = () => undefined;
const logger: Logger = { debug: quiet, info: quiet, warn: quiet, error: quiet };

let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const app = express();
  app.get('/fail/:code', (req, res) => sendError(res, new AppError(req.params.code as ErrorCode, `failed with ${req.params.code}`)));
  app.get('/a2a-fail/:reason', (req, res) =>
    sendError(res, new A2aError(req.params.reason as A2aReason, `failed with ${req.params.reason}`)),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close());

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      fail: {
        type: GraphQLString,
        args: { code: { type: GraphQLString } },
        resolve: (_source, { code }: { code: ErrorCode }) => {
          throw new AppError(code, `failed with ${code}`);
        },
      },
    },
  }),
});

test.each(CODES)('%s: REST status, GraphQL code and status, JSON-RPC code all from the table', async (code) => {
  const { http, jsonRpc } = ERROR_CODES[code];

  const rest = await fetch(`${base}/fail/${code}`);
  expect({ status: rest.status, body: await rest.json() }).toEqual({ status: http, body: { detail: `failed with ${code}` } });

  const result = await graphql({ schema, source: `{ fail(code: "${code}") }` });
  const [formatted] = result.errors!.map((error) => formatGraphQLError(error.toJSON(), error, logger));
  expect(formatted.extensions).toEqual({ code, status: http });
  expect(formatted.message).toBe(`failed with ${code}`);

  const rpc = rpcErrorOf(new AppError(code, `failed with ${code}`));
  expect(rpc.code).toBe(jsonRpc);
  expect(rpc.message).toBe(code === 'INTERNAL' ? 'internal error' : `failed with ${code}`);
});

test.each(Object.keys(A2A_ERRORS) as A2aReason[])('A2A %s: its JSON-RPC code and ErrorInfo, its table code on REST', async (reason) => {
  const { code, jsonRpc } = A2A_ERRORS[reason];
  const error = new A2aError(reason, `failed with ${reason}`);
  expect(error.code).toBe(code);
  expect(rpcErrorOf(error)).toEqual({
    code: jsonRpc,
    message: `failed with ${reason}`,
    data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' }],
  });
  const rest = await fetch(`${base}/a2a-fail/${reason}`);
  expect({ status: rest.status, body: await rest.json() }).toEqual({
    status: ERROR_CODES[code].http,
    body: { a2aReason: reason, detail: `failed with ${reason}` },
  });
});

test('an A2A reason named by the error wins over the table, with its ErrorInfo; a table code that is an A2A code carries its reason', () => {
  expect(rpcErrorOf(new A2aError('TASK_NOT_CANCELABLE', 'done already', 'BAD_REQUEST'))).toEqual({
    code: -32002,
    message: 'done already',
    data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_CANCELABLE', domain: 'a2a-protocol.org' }],
  });
  expect(rpcErrorOf(new AppError('NOT_FOUND', 'task not found: t')).data).toEqual([
    { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' },
  ]);
  expect(
    rpcErrorOf(new AppError('VALIDATION_FAILED', 'bad', undefined, [{ path: ['message', 'parts'], msg: 'required', type: 'missing' }]))
      .data,
  ).toEqual([
    { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'message.parts', description: 'required' }] },
  ]);
});
