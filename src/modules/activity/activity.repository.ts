import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf } from '../../db/sql';

/*
 * The SQL of activity recording: one statement per write, never one row per request.
 */

/**
 * Records that `userId` was active at `at`: upserts the user's row for that UTC day and moves
 * `users.last_active_at` forward, in one statement (one round trip). Both only ever move
 * forward (`greatest`), so instances racing or a clock that steps back cannot undo a later write.
 */
export async function upsertActivity(em: EntityManager, userId: string, at: Date): Promise<void> {
  await sqlOf(em)(
    `with day as (
       insert into user_activity_days (user_id, day, last_seen_at)
       values (?, (?::timestamptz at time zone 'UTC')::date, ?)
       on conflict (user_id, day) do update set last_seen_at = greatest(user_activity_days.last_seen_at, excluded.last_seen_at)
     )
     update users set last_active_at = ? where id = ? and (last_active_at is null or last_active_at < ?)`,
    [userId, at, at, at, userId, at],
  );
}
