import type { EntityManager } from '@mikro-orm/postgresql';
import { PLAN_CODES } from '../users/plans';
import { readStats, StatsRow, StatsWindowRow } from './stats.repository';

const MINUTE = 60_000;
const DAY = 86_400_000;

export interface AdminStats extends Omit<StatsRow, 'registrationsTotal' | 'registrationsToday' | 'last5m' | 'last1h'> {
  llm: { last5m: StatsWindowRow; last1h: StatsWindowRow };
  registrations: { total: number; today: number };
  generatedAt: Date;
}

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Admin stats at `now` (the service clock). Days are UTC calendar days: DAU is today, WAU today
 * and the 6 days before, MAU today and the 29 days before; "online" is activity in the last 5
 * minutes; the LLM windows are the ledger's last 5 minutes and last hour, up to `now`. `plans`
 * counts the MAU by plan (an expired plan counts as `free`), every plan listed, zeros included.
 */
export async function adminStats(em: EntityManager, now: Date): Promise<AdminStats> {
  const at = now.getTime();
  const todayStart = Math.floor(at / DAY) * DAY;
  const row = await readStats(em, {
    now,
    fiveMinutesAgo: new Date(at - 5 * MINUTE),
    oneHourAgo: new Date(at - 60 * MINUTE),
    today: utcDate(todayStart),
    todayStart: new Date(todayStart),
    tomorrowStart: new Date(todayStart + DAY),
    weekStart: new Date(todayStart - 6 * DAY),
    monthStart: new Date(todayStart - 29 * DAY),
  });
  const { registrationsTotal, registrationsToday, plans, last5m, last1h, ...rest } = row;
  const byPlan = new Map(plans.map((p) => [p.planCode, p.activeUsers]));
  return {
    ...rest,
    llm: { last5m, last1h },
    plans: PLAN_CODES.map((planCode) => ({ planCode, activeUsers: byPlan.get(planCode) ?? 0 })),
    registrations: { total: registrationsTotal, today: registrationsToday },
    generatedAt: now,
  };
}
