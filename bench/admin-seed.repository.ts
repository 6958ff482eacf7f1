import { Client } from 'pg';

/*
 * The seeding SQL of bench/admin.ts: set-based (generate_series), so 100,000 users and a million
 * activity and ledger rows take seconds, not a million round trips.
 */

const PLAN_MIX = `(array['free','free','free','free','free','pro','pro','lab','enterprise','pro'])[1 + (i % 10)]`;
const SOURCE_MIX = `(array['paid','paid','promo','trial','admin','paid'])[1 + (i % 6)]`;

/** The registry names seeded as resolved institutions (any will do: the columns are what segmentation reads). */
const RESOLVED = [
  ['Massachusetts Institute of Technology', 'r1', 'university'],
  ['Stanford University', 'r1', 'university'],
  ['Broad Institute', 'institute', 'research_institute'],
  ['European Molecular Biology Laboratory', 'institute', 'research_institute'],
  ['National Institutes of Health', 'government', 'government'],
  ['Genentech', 'industry', 'company'],
  ['University of Tokyo', 'r1', 'university'],
  ['Karolinska Institutet', 'r1', 'university'],
] as const;

export async function seedAdminData(client: Client, users: number, activityPerUser: number, ledgerRows: number): Promise<void> {
  await client.query(`create temporary table bench_institutions (k int, name text, tier text, type text)`);
  for (const [k, [name, tier, type]] of RESOLVED.entries()) {
    await client.query(`insert into bench_institutions values ($1, $2, $3, $4)`, [k, name, tier, type]);
  }
  // 90 % omics; 70 % resolved institutions, 10 % unresolved strings (500 distinct), 20 % none.
  await client.query(
    `insert into users (id, email, name, plan_code, plan_source, plan_expires_at, domain, institution, institution_tier, institution_type, institution_name, created_at, updated_at)
     select 'usr_bench_' || i, 'bench' || i || '@example.org', 'Bench ' || i, ${PLAN_MIX}, ${SOURCE_MIX},
            case when i % 7 = 0 then now() - interval '3 days' when i % 5 = 0 then now() + interval '30 days' end,
            case when i % 10 = 0 then 'chem' else 'omics' end,
            case when i % 10 < 7 then b.name when i % 10 = 7 then 'Unknown Lab ' || (i % 500) end,
            case when i % 10 < 7 then b.tier end, case when i % 10 < 7 then b.type end, case when i % 10 < 7 then b.name end,
            now() - (i % 365) * interval '1 day' - (i % 1440) * interval '1 minute', now()
       from generate_series(1, $1::int) i
       join bench_institutions b on b.k = i % ${RESOLVED.length}`,
    [users],
  );
  // `activityPerUser` distinct days per user over the last 90 UTC days.
  await client.query(
    `insert into user_activity_days (user_id, day, last_seen_at)
     select 'usr_bench_' || u, d.day, least(d.day::timestamp at time zone 'UTC' + (((u * 37 + k * 101) % 86400) * interval '1 second'), now())
       from generate_series(1, $1::int) u, generate_series(0, $2::int - 1) k,
            lateral (select ((now() at time zone 'UTC')::date - ((u * 7 + k * 13) % 90)) as day) d`,
    [users, activityPerUser],
  );
  // users.last_active_at is the latest of a user's days, as activity recording keeps it.
  await client.query(
    `update users u set last_active_at = a.latest from (select user_id, max(last_seen_at) as latest from user_activity_days group by 1) a where a.user_id = u.id`,
  );
  // The ledger over the last 30 days, a random user per row.
  await client.query(
    `insert into usage_entries (user_id, source, tokens_in, tokens_out, created_at)
     select 'usr_bench_' || (1 + (i::bigint * 7919) % $1::int), case when i % 3 = 0 then 'trajectory' else 'model_call' end,
            100 + i % 5000, 20 + i % 900, now() - ((i * 2654435761::bigint) % (30 * 86400)) * interval '1 second'
       from generate_series(1, $2::int) i`,
    [users, ledgerRows],
  );
  await client.query(`vacuum analyze users`);
  await client.query(`analyze user_activity_days`);
  await client.query(`analyze usage_entries`);
}

/** Personal access tokens for the first `count` bench users (rows as `mintToken` writes them). */
export async function insertTokens(client: Client, rows: { id: string; userId: string; hash: string }[]): Promise<void> {
  await client.query(
    `insert into auth_tokens (id, user_id, kind, label, secret_hash) select id, user_id, 'pat', 'bench', hash from unnest($1::text[], $2::text[], $3::text[]) as t(id, user_id, hash)`,
    [rows.map((r) => r.id), rows.map((r) => r.userId), rows.map((r) => r.hash)],
  );
}
