/**
 * Range header parsing: our `parseRange` beside `range-parser` (Express's, with `combine: true`),
 * on a single range and on electron-updater-style headers of 500 and 1,000 ranges of a 1 GiB file.
 * Figures only (microseconds per header); nothing asserts on time.
 *
 *   npm run build --silent && node dist/bench/ranges-parse.js
 */
import rangeParser from 'range-parser'; // installed with Express
import { parseRange } from '../src/http/byte-ranges';

const SIZE = 1024 ** 3;
/** `count` ranges of 20 KB with gaps, `start-end, ` as electron-updater writes them. */
const updaterHeader = (count: number) =>
  `bytes=${Array.from({ length: count }, (_, i) => {
    const start = Math.floor((SIZE / count) * i);
    return `${start}-${start + 20_000}`;
  }).join(', ')}`;

const cases: [string, string][] = [
  ['1 range', 'bytes=123456789-124505364'],
  ['500 ranges', updaterHeader(500)],
  ['1,000 ranges', updaterHeader(1000)],
];

function time(parse: (header: string) => unknown, header: string): number {
  const iterations = Math.max(200, Math.floor(2_000_000 / header.length));
  for (let i = 0; i < iterations / 10; i++) parse(header); // warm up
  const began = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) parse(header);
  return Number(process.hrtime.bigint() - began) / 1000 / iterations;
}

for (const [name, header] of cases) {
  const ours = (h: string) => parseRange(h, SIZE);
  const theirs = (h: string) => rangeParser(SIZE, h, { combine: true });
  const sameCount = (ours(header) as unknown[]).length === (theirs(header) as unknown[]).length;
  if (!sameCount) throw new Error(`${name}: the parsers disagree`);
  const a = time(ours, header);
  const b = time(theirs, header);
  process.stdout.write(
    `${name.padEnd(13)} (${String(header.length).padStart(6)} bytes): parseRange ${a.toFixed(2).padStart(8)} µs   range-parser ${b.toFixed(2).padStart(8)} µs\n`,
  );
}
