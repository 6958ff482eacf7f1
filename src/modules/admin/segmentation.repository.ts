import type { EntityManager, Knex } from '@mikro-orm/postgresql';

/*
 * The SQL of segmentation: one statement over one domain's users (users.domain index), grouped by
 * the institution columns the registry derived when the user was written (institutions.ts).
 */

export interface SegmentCounts {
  users: number;
  paid: number;
  granted: number;
}

export interface SegmentationRow extends SegmentCounts {
  byTier: (SegmentCounts & { tier: string | null })[];
  byType: (SegmentCounts & { type: string | null })[];
  byInstitution: (SegmentCounts & { name: string })[];
  unresolved: { institution: string; users: number }[];
}

/**
 * `paid`: an enabled user on a paid plan above free that has not expired at `now`. `granted`: the
 * same, obtained free (promo, trial, admin). A grant is never counted as paid.
 */
export async function readSegmentation(em: EntityManager, domain: string, limit: number, now: Date): Promise<SegmentationRow> {
  const result = await em
    .getConnection()
    .getKnex()
    .raw<{ rows: Record<string, unknown>[] }>(
      `with segment as (
       select institution, institution_tier, institution_type, institution_name,
              (not disabled and plan_code <> 'free' and (plan_expires_at is null or plan_expires_at > :now)) as on_plan,
              plan_source
         from users
        where domain = :domain
     ),
     counted as (
       select institution, institution_tier, institution_type, institution_name,
              (on_plan and plan_source = 'paid')::int as paid,
              (on_plan and plan_source in ('promo', 'trial', 'admin'))::int as granted
         from segment
     ),
     by_tier as (
       select institution_tier as tier, count(*) as users, sum(paid) as paid, sum(granted) as granted
         from counted group by 1
     ),
     by_type as (
       select institution_type as type, count(*) as users, sum(paid) as paid, sum(granted) as granted
         from counted group by 1
     ),
     by_name as (
       select institution_name as name, count(*) as users, sum(paid) as paid, sum(granted) as granted
         from counted where institution_name is not null
        group by 1 order by 2 desc, 1 limit :limit
     ),
     unresolved as (
       select min(btrim(institution)) as institution, count(*) as users
         from counted where institution_name is null and btrim(coalesce(institution, '')) <> ''
        group by lower(btrim(institution)) order by 2 desc, 1 limit :limit
     )
     select (select count(*) from counted) as users,
            (select coalesce(sum(paid), 0) from counted) as paid,
            (select coalesce(sum(granted), 0) from counted) as granted,
            (select coalesce(json_agg(t order by t.users desc, t.tier), '[]') from by_tier t) as by_tier,
            (select coalesce(json_agg(t order by t.users desc, t.type), '[]') from by_type t) as by_type,
            (select coalesce(json_agg(t order by t.users desc, t.name), '[]') from by_name t) as by_institution,
            (select coalesce(json_agg(t order by t.users desc, t.institution), '[]') from unresolved t) as unresolved`,
      { domain, limit, now } as Knex.ValueDict,
    );
  const row = result.rows[0];
  const counts = <T extends object>(items: unknown) =>
    (items as (T & { users: string | number; paid?: string | number; granted?: string | number })[]).map((item) => ({
      ...item,
      users: Number(item.users),
      ...('paid' in item ? { paid: Number(item.paid) } : {}),
      ...('granted' in item ? { granted: Number(item.granted) } : {}),
    }));
  return {
    users: Number(row.users),
    paid: Number(row.paid),
    granted: Number(row.granted),
    byTier: counts(row.by_tier),
    byType: counts(row.by_type),
    byInstitution: counts(row.by_institution),
    unresolved: counts(row.unresolved),
  };
}
