/**
 * What a sign-in costs, and whether its time tells a known email from an unknown one: one
 * Argon2id hash of the service's parameters in this process (median of 20), then sign-ins with a
 * wrong password for known emails (each a different user with a password, so the per-email limit
 * never answers first) and for unknown emails, alternating, over HTTP to one server. Prints the
 * means and medians and their ratio. Figures only; nothing here asserts on time.
 *
 *   npm run bench:sign-in                 (embedded PostgreSQL in a temp dir)
 *   DATABASE_URL=postgres://… npm run bench:sign-in
 *   BENCH_ATTEMPTS=100 npm run bench:sign-in
 */
import { ARGON2ID, hashPassword } from '../src/modules/auth/password';
import { BENCH_ADMIN_TOKEN, benchDatabase, callJson, startBenchServer } from './server';

const PORT = Number(process.env.BENCH_PORT ?? 18184);
const ATTEMPTS = Number(process.env.BENCH_ATTEMPTS ?? 50);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

async function timedSignIn(base: string, email: string): Promise<number> {
  const started = process.hrtime.bigint();
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'not the password, surely' }),
  });
  await response.arrayBuffer();
  if (response.status !== 401) throw new Error(`sign-in answered ${response.status}, not 401`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function main() {
  const hashes: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = process.hrtime.bigint();
    await hashPassword(`password number ${i}`);
    hashes.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  process.stdout.write(
    `Argon2id m=${ARGON2ID.memoryCost} KiB, t=${ARGON2ID.timeCost}, p=${ARGON2ID.parallelism}: one hash ${median(hashes).toFixed(1)} ms (median of 20)\n`,
  );

  const database = await benchDatabase('sign_in');
  const server = await startBenchServer(PORT, { ...database.env, RATE_LIMIT_AUTH_PER_MINUTE: '0', RATE_LIMIT_ADDRESS_PER_MINUTE: '0' });
  try {
    const known: string[] = [];
    for (let i = 0; i < ATTEMPTS; i++) {
      const email = `known${i}@bench.example`;
      await callJson(server.url, 'POST', '/api/admin/users', BENCH_ADMIN_TOKEN, {
        email,
        name: `Known ${i}`,
        password: 'the right password',
      });
      known.push(email);
    }
    for (let i = 0; i < 5; i++) await timedSignIn(server.url, `warmup${i}@bench.example`); // warm-up
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < ATTEMPTS; i++) {
      knownTimes.push(await timedSignIn(server.url, known[i]));
      unknownTimes.push(await timedSignIn(server.url, `unknown${i}@bench.example`));
    }
    const row = (name: string, times: number[]) =>
      `${name.padEnd(32)} mean ${mean(times).toFixed(1).padStart(6)} ms   median ${median(times).toFixed(1).padStart(6)} ms`;
    process.stdout.write(`\nPOST /api/auth/login, wrong password, ${ATTEMPTS} each, alternating\n`);
    process.stdout.write(`${row('known email', knownTimes)}\n${row('unknown email', unknownTimes)}\n`);
    process.stdout.write(`unknown / known, means: ${(mean(unknownTimes) / mean(knownTimes)).toFixed(3)} (goal: within 20 %)\n`);
  } finally {
    await server.stop();
    await database.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
