import type { EntityManager, Knex } from '@mikro-orm/postgresql';

/*
 * The SQL of admin stats: one statement (one round trip), each part an aggregate over an
 * indexed range: the ledger's last hour (usage_entries.created_at), the last 30 UTC days of
 * activity ((day, user_id)), the last five minutes of activity (last_seen_at), today's
 * registrations (users.created_at).
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
  /** UTC days as `YYYY-MM-DD`: today, the first day of the 7-day and of the 30-day window. */
  today: string;
  weekFrom: string;
  monthFrom: string;
  /** 00:00 UTC today and tomorrow. */
  todayStart: Date;
  tomorrowStart: Date;
}

export async function readStats(em: EntityManager, b: StatsBounds): Promise<StatsRow> {
  // Named bindings (knex): every :name is sent as a bind value.
  const result = (await em.getConnection().getKnex().raw(
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
       select user_id, max(day) as last_day
         from user_activity_days
        where day >= cast(:monthFrom as date) and day <= cast(:today as date)
        group by user_id
     ),
     active as (
       select count(*) filter (where last_day = cast(:today as date)) as dau,
              count(*) filter (where last_day >= cast(:weekFrom as date)) as wau,
              count(*) as mau
         from monthly
     ),
     plans as (
       select coalesce(json_agg(json_build_object('planCode', plan_code, 'activeUsers', users) order by plan_code), '[]'::json) as plans
         from (select case when u.plan_expires_at is not null and u.plan_expires_at <= :now then 'free' else u.plan_code end as plan_code, count(*) as users
                 from monthly m join users u on u.id = m.user_id
                group by 1) by_plan
     )
     select (select count(distinct user_id) from user_activity_days where last_seen_at > :fiveMinutesAgo and last_seen_at <= :now) as online_users,
            ledger.*, active.*, plans.plans,
            (select count(*) from users) as registrations_total,
            (select count(*) from users where created_at >= :todayStart and created_at < :tomorrowStart) as registrations_today
       from ledger, active, plans`,
    { ...b } as Knex.ValueDict,
  )) as { rows: Record<string, unknown>[] };
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
