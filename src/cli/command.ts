import type { EntityManager } from '@mikro-orm/postgresql';
import { type Config, loadConfig } from '../config';
import { startEmbeddedPostgres } from '../db/embedded';
import { openDatabase } from '../db/orm';

/** Parsed flags: the positionals in `_`, each flag by its name. */
export type Flags = { _: string[] } & Record<string, string | boolean | string[]>;

/** One command: its help text and what it does with its parsed flags. */
export interface Command {
  usage: string;
  help: string;
  run(flags: Flags): Promise<number>;
}

export const out = (line: string) => void process.stdout.write(`${line}\n`);

/** Says what went wrong and answers the exit status of a usage or input error (2). */
export const fail = (message: string): number => {
  process.stderr.write(`labdesk: ${message}\n`);
  return 2;
};

/**
 * The service's database for a command: DATABASE_URL, or the embedded one under DATA_DIR
 * (joined while the service runs it, else started for the command and stopped by `stop`).
 */
export async function serviceDatabase(config: Config): Promise<{ url: string; source: 'embedded' | 'external'; stop(): Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl, source: 'external', stop: async () => undefined };
  const embedded = await startEmbeddedPostgres(config.dataDir, { joinRunning: true });
  return { url: embedded.url, source: 'embedded', stop: () => embedded.stop() };
}

/**
 * Runs `work` on the service's database: DATABASE_URL, else the embedded one under DATA_DIR
 * (joined when a service runs it, else started for the command). Migrations are applied first,
 * so the commands work before the service's first start too.
 */
export async function onServiceDatabase<T>(work: (em: EntityManager, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await serviceDatabase(config);
  try {
    const orm = await openDatabase(database.url, { poolMax: 2 });
    try {
      return await work(orm.em.fork(), config);
    } finally {
      await orm.close(true);
    }
  } finally {
    await database.stop();
  }
}
