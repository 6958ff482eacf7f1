import type { Logger } from '../logger';

/**
 * Runs `pass` every `seconds` on this instance, one pass at a time, until the returned stop
 * is called (which waits for a running pass). Jobs keep their state in the database, so a
 * restart loses nothing and several instances may run the same job.
 */
export function startPeriodic(name: string, seconds: number, pass: () => Promise<void>, logger: Logger): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= pass()
      .catch((error: unknown) => logger.error(`${name} failed`, { error: String(error) }))
      .finally(() => (running = undefined));
  }, seconds * 1000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
