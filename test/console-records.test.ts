import { parseRecord } from '../web/console/src/records';
import { tokensReported } from '../src/modules/trajectories/records';

/**
 * How the console reads a record (web/console/src/records.ts): its tokens as the service counts
 * a trajectory's total, so the turns shown add up to the header; its own time.
 */

test("a turn's tokens are what the service counts for the trajectory's total, record by record", () => {
  const records: Record<string, unknown>[] = [
    { uuid: 'a', type: 'assistant', message: { content: 'x', usage: { input_tokens: 120, output_tokens: 30 } } },
    { uuid: 'b', type: 'assistant', usage: { input_tokens: 99, output_tokens: 9 }, message: { content: 'top-level usage' } },
    { uuid: 'c', type: 'assistant', message: { usage: { input_tokens: -5, output_tokens: 2.7 } } },
    { uuid: 'd', type: 'assistant', message: { usage: { input_tokens: 20_000_000, output_tokens: '7' } } },
    { uuid: 'e', type: 'user', message: { content: 'no usage' } },
  ];
  const shown = records.map((record, index) => parseRecord(index + 1, JSON.stringify(record)));
  expect(shown.map((turn) => [turn.inputTokens, turn.outputTokens])).toEqual(
    records.map((record) => Object.values(tokensReported(record))),
  );
  expect(shown.map((turn) => [turn.inputTokens, turn.outputTokens])).toEqual([
    [120, 30],
    [0, 0],
    [0, 2],
    [0, 0],
    [0, 0],
  ]);
});

test("a record's time is its own timestamp: an ISO string or epoch milliseconds (or seconds); anything else, none", () => {
  const at = (timestamp: unknown) => parseRecord(1, JSON.stringify({ uuid: 'u', type: 'user', timestamp })).at;
  expect(at('2026-11-20T09:30:00.000Z')).toBe('2026-11-20T09:30:00.000Z');
  expect(at('2026-11-20T10:30:00+01:00')).toBe('2026-11-20T09:30:00.000Z');
  expect(at(Date.UTC(2026, 10, 20, 9, 30))).toBe('2026-11-20T09:30:00.000Z');
  expect(at(Date.UTC(2026, 10, 20, 9, 30) / 1000)).toBe('2026-11-20T09:30:00.000Z');
  for (const bad of ['yesterday', '', null, true, {}]) expect(at(bad)).toBeNull();
  expect(parseRecord(1, JSON.stringify({ uuid: 'u', type: 'user' })).at).toBeNull();
  expect(parseRecord(1, 'not json').at).toBeNull();
});
