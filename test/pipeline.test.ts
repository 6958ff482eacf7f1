import { GraphQLBoolean, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import type { Ctx } from '../src/context';
import { ADMIN } from '../src/operation-rules';
import { makePipeline } from '../src/pipeline';

/**
 * The one path every transport runs an operation on (src/pipeline.ts). What each transport makes
 * of it is tested with the transport (facade, A2A, subscriptions, GraphQL hardening); here, the
 * stages themselves on a schema of two fields.
 */

let resolved = 0;
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      hello: { type: GraphQLString, resolve: () => 'hi' },
      secret: { type: GraphQLBoolean, extensions: { ...ADMIN }, resolve: () => ++resolved > 0 },
    },
  }),
});
const pipeline = makePipeline(schema);
const anonymous = { viewer: () => Promise.resolve(null) } as unknown as Ctx;

test('a document is parsed once by its text and validated once', () => {
  const first = pipeline.parse('{ hello }');
  expect(pipeline.parse('{ hello }')).toBe(first);
  expect(pipeline.validate(first)).toEqual([]);
  const bad = pipeline.parse('{ nope }');
  const errors = pipeline.validate(bad);
  expect(errors.map((error) => error.message)).toEqual(['Cannot query field "nope" on type "Query".']);
  expect(pipeline.validate(bad)).toBe(errors);
});

test('a document that does not parse is refused with the reason', () => {
  expect(() => pipeline.parse('{ hello')).toThrow(/Syntax Error/);
});

test('run screens before it executes: an admin-only field is refused for an anonymous caller, its resolver never called', async () => {
  await expect(pipeline.run(pipeline.parse('{ secret }'), {}, anonymous)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  expect(resolved).toBe(0);
  await expect(pipeline.run(pipeline.parse('{ hello }'), {}, anonymous)).resolves.toEqual({ hello: 'hi' });
});

test('run refuses a document of ours that does not validate, before any resolver runs', async () => {
  await expect(pipeline.run(pipeline.parse('{ hello nope }'), {}, anonymous)).rejects.toThrow(/does not validate/);
});
