import type { EntityManager, Knex } from '@mikro-orm/postgresql';

/*
 * The SQL of admin stats: one statement (one round trip), each part an aggregate over an
 * indexed range: the ledger's last hour (usage_entries.created_at), today's activity rows
 * (user_activity_days (day, user_id), one row per user: no DISTINCT), the users active since a
 * given instant (users.last_active_at: the latest activity, written in the same statement as
 * the day rows), today's registrations (users.created_at).
 *
 * WAU/MAU read users.last_active_at rather than grouping 30 days of day rows by user: measured on
 * 100,000 users and 1,000,000 day rows (bench:admin), the grouping took ~180 ms (its hash spills
 * past work_mem), the last_active_at range ~15 ms, with the same answer (a user active in the
 * window has a latest activity in it).
 */

export interface StatsWindowRow {
  calls: number;
  tokensIn: number;
  tokensOut: number;
  users: number;
}

export interface StatsRow {
  onlineUsers: number;
  last5m: StatsWindowRow;
  last1h: StatsWindowRow;
  dau: number;
  wau: number;
  mau: number;
  registrationsTotal: number;
  registrationsToday: number;
  plans: { planCode: string; activeUsers: number }[];
}

/** The instants and UTC days the stats are measured against (stats.service.ts computes them from the clock). */
export interface StatsBounds {
  now: Date;
  fiveMinutesAgo: Date;
  oneHourAgo: Date;
  /** Today's UTC date, `YYYY-MM-DD`. */
  today: string;
  /** 00:00 UTC of today, tomorrow, the first day of the 7-day and of the 30-day window. */
  todayStart: Date;
  tomorrowStart: Date;
  weekStart: Date;
  monthStart: Date;
}

export async function readStats(em: EntityManager, b: StatsBounds): Promise<StatsRow> {
  // Named bindings (knex): every :name is sent as a bind value.
  const result = await em
    .getConnection()
    .getKnex()
    .raw<{ rows: Record<string, unknown>[] }>(
      `with ledger as (
       select count(*) filter (where created_at > :fiveMinutesAgo) as calls_5m,
              coalesce(sum(tokens_in) filter (where created_at > :fiveMinutesAgo), 0) as tokens_in_5m,
              coalesce(sum(tokens_out) filter (where created_at > :fiveMinutesAgo), 0) as tokens_out_5m,
              count(distinct user_id) filter (where created_at > :fiveMinutesAgo) as users_5m,
              count(*) as calls_1h,
              coalesce(sum(tokens_in), 0) as tokens_in_1h,
              coalesce(sum(tokens_out), 0) as tokens_out_1h,
              count(distinct user_id) as users_1h
         from usage_entries
        where created_at > :oneHourAgo and created_at <= :now
     ),
     monthly as (
       select case when plan_expires_at is not null and plan_expires_at <= :now then 'free' else plan_code end as plan_code,
              last_active_at
         from users
        where last_active_at >= :monthStart
     ),
     active as (
       select count(*) filter (where last_active_at > :fiveMinutesAgo) as online_users,
              count(*) filter (where last_active_at >= :weekStart) as wau,
              count(*) as mau
         from monthly
     ),
     plans as (
       select coalesce(json_agg(json_build_object('planCode', plan_code, 'activeUsers', users) order by plan_code), '[]'::json) as plans
         from (select plan_code, count(*) as users from monthly group by 1) by_plan
     )
     select ledger.*, active.*, plans.plans,
            (select count(*) from user_activity_days where day = cast(:today as date)) as dau,
            (select count(*) from users) as registrations_total,
            (select count(*) from users where created_at >= :todayStart and created_at < :tomorrowStart) as registrations_today
       from ledger, active, plans`,
      { ...b } as Knex.ValueDict,
    );
  const row = result.rows[0];
  const n = (key: string) => Number(row[key] ?? 0);
  return {
    onlineUsers: n('online_users'),
    last5m: { calls: n('calls_5m'), tokensIn: n('tokens_in_5m'), tokensOut: n('tokens_out_5m'), users: n('users_5m') },
    last1h: { calls: n('calls_1h'), tokensIn: n('tokens_in_1h'), tokensOut: n('tokens_out_1h'), users: n('users_1h') },
    dau: n('dau'),
    wau: n('wau'),
    mau: n('mau'),
    registrationsTotal: n('registrations_total'),
    registrationsToday: n('registrations_today'),
    plans: (row.plans as StatsRow['plans']).map((p) => ({ planCode: p.planCode, activeUsers: Number(p.activeUsers) })),
  };
}
