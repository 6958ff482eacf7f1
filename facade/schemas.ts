import { RECORD_JSON_SCHEMA } from '../src/modules/trajectories/record-schema';
import { schemaRef } from './route';

/** A record on the wire: a JSON object, stored and served byte for byte. */
export const TRAJECTORY_RECORD = schemaRef('TrajectoryRecord', RECORD_JSON_SCHEMA);

/**
 * The schemas the operations' @rest directives name (`rawArrays: ["records:TrajectoryRecord"]`,
 * `errors: ["CONFLICT:AppendConflict"]`), each published once in the OpenAPI document.
 */
export const NAMED_SCHEMAS = {
  TrajectoryRecord: TRAJECTORY_RECORD,

  /** A refused append: the server's head, so the client can tell how far behind it is. */
  AppendConflict: schemaRef('AppendConflict', {
    type: 'object',
    description: '`head_uuid` and `count` are there when the append is not a fast-forward (`base_uuid` is not the head).',
    required: ['detail'],
    properties: {
      detail: { type: 'string' },
      head_uuid: {
        anyOf: [{ type: 'string' }, { type: 'null' }],
        description: 'uuid of the last stored record; null for an empty session',
      },
      count: { type: 'integer', description: 'Records stored' },
    },
  }),

  /** Too few free credits: how many there are. */
  NotEnoughCredits: schemaRef('NotEnoughCredits', {
    type: 'object',
    required: ['detail', 'balance_credits'],
    properties: { detail: { type: 'string' }, balance_credits: { type: 'number', description: 'Credits free (not reserved)' } },
  }),
};
