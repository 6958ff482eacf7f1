import { FieldIssue, invalid } from '../../errors';
import { unstorable } from '../../validation';
import { MAX_TYPE, MAX_UUID } from './record-schema';

/** One record as received: its exact text and the members extracted for indexing. */
export interface IncomingRecord {
  raw: string;
  uuid: string;
  parentUuid: string | null;
  type: string;
  bytes: number;
  tokensIn: number;
  tokensOut: number;
}

export const MAX_RECORDS_PER_BATCH = 10_000;
/**
 * Levels of nested arrays and objects a record may have. Agent transcripts nest a few levels;
 * far deeper values are no transcript, and every reader that walks them (the board's and
 * critique's projection, clients' own parsers) would pay for them or overflow its stack.
 */
export const MAX_RECORD_DEPTH = 100;
/**
 * Token counts one record may report. No model call reads or writes more (context windows are
 * at most a few million tokens); a larger count is not plausible, and is ignored rather than
 * credited to anyone's usage.
 */
export const MAX_TOKENS_PER_RECORD = 10_000_000;
const count = (value: unknown) => (typeof value === 'number' && value > 0 && value <= MAX_TOKENS_PER_RECORD ? Math.floor(value) : 0);

/** The tokens a parsed record reports (its `message.usage`), as usage and a trajectory's totals count them. */
export function tokensReported(record: Record<string, unknown>): { tokensIn: number; tokensOut: number } {
  const usage = (record.message as { usage?: Record<string, unknown> } | undefined)?.usage;
  return { tokensIn: count(usage?.input_tokens), tokensOut: count(usage?.output_tokens) };
}

/**
 * Parses and checks a batch of record texts. The whole batch is refused if any record is bad
 * (not a JSON object, no string `uuid` or `type`, a uuid twice): nothing of it is stored.
 * @throws VALIDATION_FAILED with the position of every bad record under `path`.
 */
export function parseRecords(raws: string[], path: (string | number)[]): IncomingRecord[] {
  const issues: FieldIssue[] = [];
  if (raws.length > MAX_RECORDS_PER_BATCH) {
    throw invalid([{ path, msg: `at most ${MAX_RECORDS_PER_BATCH} records per request`, type: 'too_long' }]);
  }
  const seen = new Set<string>();
  const records: IncomingRecord[] = [];
  raws.forEach((raw, i) => {
    const at = [...path, i];
    if (nestedDeeperThan(raw, MAX_RECORD_DEPTH)) {
      issues.push({ path: at, msg: `must not be nested deeper than ${MAX_RECORD_DEPTH} levels`, type: 'too_deep' });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      issues.push({ path: at, msg: 'must be JSON', type: 'json_invalid' });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      issues.push({ path: at, msg: 'must be a JSON object', type: 'type_error' });
      return;
    }
    const record = value as Record<string, unknown>;
    const { uuid, parentUuid, type } = record;
    if (typeof uuid !== 'string' || uuid.length === 0 || uuid.length > MAX_UUID) {
      issues.push({ path: [...at, 'uuid'], msg: `must be a string of 1-${MAX_UUID} characters`, type: 'missing' });
      return;
    }
    if (seen.has(uuid)) issues.push({ path: [...at, 'uuid'], msg: 'appears twice in this batch', type: 'duplicate' });
    seen.add(uuid);
    if (parentUuid !== undefined && parentUuid !== null && typeof parentUuid !== 'string') {
      issues.push({ path: [...at, 'parentUuid'], msg: 'must be a string or null', type: 'type_error' });
    }
    if (typeof type !== 'string' || type.length === 0 || type.length > MAX_TYPE) {
      issues.push({ path: [...at, 'type'], msg: `must be a string of 1-${MAX_TYPE} characters`, type: 'missing' });
    }
    // The record's text keeps an escaped NUL as written, but these members go into columns of their own.
    for (const [member, value] of [
      ['uuid', uuid],
      ['parentUuid', parentUuid],
      ['type', type],
    ] as const) {
      const problem = typeof value === 'string' ? unstorable(value) : null;
      if (problem) issues.push({ path: [...at, member], msg: problem, type: 'string_invalid' });
    }
    records.push({
      raw,
      uuid,
      parentUuid: typeof parentUuid === 'string' ? parentUuid : null,
      type: typeof type === 'string' ? type : '',
      bytes: Buffer.byteLength(raw),
      ...tokensReported(record),
    });
  });
  if (issues.length) throw invalid(issues);
  return records;
}

/** Brackets and the characters that start or escape a string, for `nestedDeeperThan`. */
const STRUCTURE = /[[\]{}"\\]/g;

/**
 * Whether the JSON text nests arrays and objects deeper than `limit`: one pass over its
 * brackets, skipping strings, that stops as soon as it knows. Never recursive.
 */
export function nestedDeeperThan(text: string, limit: number): boolean {
  if (text.length <= 2 * limit) return false; // each level takes an opening and a closing bracket
  let depth = 0;
  let inString = false;
  STRUCTURE.lastIndex = 0;
  for (let match = STRUCTURE.exec(text); match; match = STRUCTURE.exec(text)) {
    const c = match[0];
    if (inString) {
      if (c === '\\')
        STRUCTURE.lastIndex++; // the escaped character is not structure
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === '[' || c === '{') {
      if (++depth > limit) return true;
    } else if (c === ']' || c === '}') {
      depth--;
    }
  }
  return false;
}
