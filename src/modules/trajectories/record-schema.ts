// A record's wire form, apart from the parsing: the REST facade publishes it in the OpenAPI document.

/** Longest record `uuid`. */
export const MAX_UUID = 200;
/** Longest record `type`. */
export const MAX_TYPE = 100;

/** What `parseRecords` (records.ts) accepts, as a JSON Schema (published in the OpenAPI document). */
export const RECORD_JSON_SCHEMA = {
  type: 'object',
  description:
    'One record: a JSON object with a `uuid` unique in its session and a `type`; every other member is free. Stored and served byte for byte as sent.',
  required: ['uuid', 'type'],
  properties: {
    uuid: { type: 'string', minLength: 1, maxLength: MAX_UUID },
    type: { type: 'string', minLength: 1, maxLength: MAX_TYPE },
    parentUuid: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'uuid of the record this one follows' },
  },
  additionalProperties: true,
};
