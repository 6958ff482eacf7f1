import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf } from '../../db/sql';

/*
 * The SQL of activity recording: one statement per write, never one row per request.
 */

/**
 * Records that `userId` was active at `at`: upserts the user's row for that UTC day and moves
 * `users.last_active_at` forward, and the last use of `tokenId` (a personal access token) when
 * given, in one statement (one round trip). They only ever move forward (`greatest`), so
 * instances racing or a clock that steps back cannot undo a later write.
 */
export async function upsertActivity(em: EntityManager, userId: string, at: Date, tokenId?: string): Promise<void> {
  await sqlOf(em)(
    `with day as (
       insert into user_activity_days (user_id, day, last_seen_at)
       values (?, (?::timestamptz at time zone 'UTC')::date, ?)
       on conflict (user_id, day) do update set last_seen_at = greatest(user_activity_days.last_seen_at, excluded.last_seen_at)
     ), token as (
       update auth_tokens set last_used_at = greatest(last_used_at, ?::timestamptz) where id = ? and user_id = ?
     )
     update users set last_active_at = ? where id = ? and (last_active_at is null or last_active_at < ?)`,
    [userId, at, at, at, tokenId ?? null, userId, at, userId, at],
  );
}
