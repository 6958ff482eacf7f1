/**
 * `labdesk backup` and `labdesk restore` on a 1 GB data set: half in the database (rows of a
 * padding table, random bytes, so that compression gains nothing), half in blobs (1 MiB files in
 * the file store). Prints each command's wall time and the sizes. Figures only.
 *
 *   DATABASE_URL=postgres://… npm run bench:backup     (makes and drops its own databases there)
 *   BENCH_GIB=0.25 npm run bench:backup                 (a smaller set)
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

const GIB = Number(process.env.BENCH_GIB ?? 1);
const HALF_MIB = Math.round((GIB * 1024) / 2);
const BASE_URL = process.env.DATABASE_URL;
const CLI = path.resolve(__dirname, '..', '..', 'bin', 'labdesk.js');

const withDatabase = (url: string, name: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

async function sql(url: string, text: string) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

function labdesk(args: string[], env: Record<string, string>): number {
  const started = process.hrtime.bigint();
  execFileSync(process.execPath, [CLI, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const du = (dir: string) => execFileSync('du', ['-sb', dir]).toString().split('\t')[0];

async function main() {
  if (!BASE_URL) throw new Error('set DATABASE_URL to a PostgreSQL server where this bench may create databases');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-bench-backup-'));
  const [source, target] = [`bench_backup_src_${process.pid}`, `bench_backup_dst_${process.pid}`];
  await sql(BASE_URL, `create database ${source}`);
  await sql(BASE_URL, `create database ${target}`);
  try {
    const sourceEnv = { DATABASE_URL: withDatabase(BASE_URL, source), DATA_DIR: path.join(root, 'source') };
    labdesk(['migrate'], sourceEnv);
    // Half the set in the database: 1 MiB rows of random bytes.
    await sql(
      sourceEnv.DATABASE_URL,
      `create table bench_padding (id int primary key, payload bytea not null); alter table bench_padding alter column payload set storage external`,
    );
    const client = new Client({ connectionString: sourceEnv.DATABASE_URL });
    await client.connect();
    for (let i = 0; i < HALF_MIB; i++) await client.query('insert into bench_padding values ($1, $2)', [i, randomBytes(1024 * 1024)]);
    await client.end();
    // The other half as blobs of the file store.
    const blobs = path.join(sourceEnv.DATA_DIR, 'blobs', 'bench');
    fs.mkdirSync(blobs, { recursive: true });
    for (let i = 0; i < HALF_MIB; i++) fs.writeFileSync(path.join(blobs, `blob-${i}`), randomBytes(1024 * 1024));
    const [{ size }] = (await sql(sourceEnv.DATABASE_URL, `select pg_database_size(current_database())::bigint as size`)).rows;
    console.log(
      `data set: database ${(Number(size) / 1024 ** 2).toFixed(0)} MiB, blobs ${(Number(du(path.join(sourceEnv.DATA_DIR, 'blobs'))) / 1024 ** 2).toFixed(0)} MiB`,
    );

    const backupDir = path.join(root, 'backup');
    const backupSeconds = labdesk(['backup', '--out', backupDir], sourceEnv);
    console.log(`backup: ${backupSeconds.toFixed(1)} s, ${(Number(du(backupDir)) / 1024 ** 2).toFixed(0)} MiB written`);
    const restoreSeconds = labdesk(['restore', '--from', backupDir], {
      DATABASE_URL: withDatabase(BASE_URL, target),
      DATA_DIR: path.join(root, 'target'),
    });
    console.log(`restore: ${restoreSeconds.toFixed(1)} s`);
    const [{ rows }] = (await sql(withDatabase(BASE_URL, target), `select count(*)::int as rows from bench_padding`)).rows;
    console.log(`restored: ${rows} padding rows, blobs ${(Number(du(path.join(root, 'target', 'blobs'))) / 1024 ** 2).toFixed(0)} MiB`);
  } finally {
    await sql(BASE_URL, `drop database if exists ${source} with (force)`);
    await sql(BASE_URL, `drop database if exists ${target} with (force)`);
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
