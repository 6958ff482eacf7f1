import { Check, Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * One row per user per UTC day on which they were active (an authenticated request or a sandbox
 * heartbeat), upserted at most once a minute per instance (activity.recorder.ts), together with
 * `users.last_active_at`. The history of activity by day: DAU is a count of one day's rows
 * through the (day, user_id) index (one row per user and day, so no DISTINCT). The rolling
 * windows (online, WAU, MAU) read `users.last_active_at` instead (stats.repository.ts says why).
 * Schema only: the SQL is in activity.repository.ts.
 */
@Entity({ tableName: 'user_activity_days' })
@Index({ properties: ['day', 'userId'] })
/** Written with its operands this way round: MikroORM reads `day = …` with a quoted literal as an enum check. */
@Check({ name: 'user_activity_days_day_check', expression: `((last_seen_at at time zone 'UTC'::text))::date = day` })
export class UserActivityDay {
  @PrimaryKey({ type: 'text' })
  userId!: string;

  /** The UTC calendar day. */
  @PrimaryKey({ type: 'date' })
  day!: string;

  /** The latest activity seen on that day (to the minute: writes are rate-limited). */
  @Property({ type: 'datetime' })
  lastSeenAt!: Date;
}
