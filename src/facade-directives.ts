import { DirectiveLocation, GraphQLBoolean, GraphQLDirective, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLString } from 'graphql';

// The directives of the facade's operation documents (facade/operations/*.graphql), declared in
// the schema so that the documents validate. They say how an operation is served over REST and
// A2A JSON-RPC; `npm run codegen` writes the route table and the method table from them
// (facade/codegen/tables.js). They change nothing in how an operation runs.

const required = (description: string) => ({ type: new GraphQLNonNull(GraphQLString), description });
const strings = (description: string) => ({ type: new GraphQLList(new GraphQLNonNull(GraphQLString)), description });

export const FACADE_DIRECTIVES = [
  new GraphQLDirective({
    name: 'rest',
    description:
      'Serves the operation as a REST route of the facade. Its variables come from the request: `$input` is the JSON body, a variable named like a path parameter (`$labId` for `{lab_id}`) is that parameter, any other the query parameter of its snake_case name. The body of the answer is the operation’s root field. Who may call it is the root field’s declared access (`@access`).',
    locations: [DirectiveLocation.QUERY, DirectiveLocation.MUTATION],
    args: {
      method: required('GET, POST, PUT, PATCH or DELETE.'),
      path: required('The OpenAPI path template, e.g. /api/labs/{lab_id}.'),
      tag: required('The OpenAPI group.'),
      summary: required('One line for the OpenAPI document.'),
      status: { type: GraphQLInt, description: 'The success status (default 200).' },
      list: { type: GraphQLBoolean, description: 'Wrap a list result as {items, total}.' },
      omitNulls: { type: GraphQLBoolean, description: 'Leave out the members of the answer that are null.' },
      omitWhenNull: strings('Members left out (absent, not null) when null, in the answer or in each item of a list.'),
      noContentWhenNull: { type: GraphQLBoolean, description: 'A null result is a 204 with an empty body.' },
      cacheControl: { type: GraphQLString, description: 'The Cache-Control of every answer.' },
      maxBodyBytes: { type: GraphQLInt, description: 'The largest JSON body (default MAX_JSON_BODY_BYTES).' },
      rawArrays: strings('Members of the body read as the exact source text of each element, as member:SchemaName.'),
      errors: strings('Error answers the OpenAPI document cannot derive from the route: CODE, or CODE:SchemaName for a body of its own.'),
    },
  }),
  new GraphQLDirective({
    name: 'jsonrpc',
    description: 'Serves the operation as an A2A JSON-RPC method at POST /a2a/v1: its params are the variables, its result the root field.',
    locations: [DirectiveLocation.QUERY, DirectiveLocation.MUTATION, DirectiveLocation.SUBSCRIPTION],
    args: { method: required('The A2A method name, e.g. SendMessage.') },
  }),
];
