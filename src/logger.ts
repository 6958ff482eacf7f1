import type { Config } from './config';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, 'silent'>;

export type Logger = Record<Level, (msg: string, fields?: Record<string, unknown>) => void>;

/** One JSON object per line on stdout: time, level, message and structured fields. */
export function makeLogger(level: Config['logLevel']): Logger {
  const threshold = LEVELS[level];
  const write = (lvl: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < threshold) return;
    process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields })}\n`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
