import { LOG_LEVELS, type LogLevel, makeLogger } from '../logger';
import { startTracing, tracingPlan } from '../telemetry';

/**
 * Imported first by main.ts: `labdesk serve` starts traces here when the environment asks for
 * them (src/telemetry.ts), before any module the instrumentations patch (`http`, `express`,
 * `graphql`, `pg`, `undici`) is required, which main.ts's other imports already do. Other
 * commands are not traced. Its log lines follow LOG_LEVEL as the service's do (`loadConfig`
 * names a bad value once the command runs).
 */
const command = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
const plan = command === 'serve' && !process.argv.includes('--help') ? tracingPlan(process.env) : undefined;
if (plan) {
  const level = process.env.LOG_LEVEL?.trim() as LogLevel | undefined;
  startTracing(plan, makeLogger(level && LOG_LEVELS.includes(level) ? level : 'info'));
}
