import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * One row per user per UTC day on which they were active (an authenticated request or a sandbox
 * heartbeat), upserted at most once a minute per instance (activity.recorder.ts). DAU/WAU/MAU
 * count distinct users over a range of days through the (day, user_id) index; "online" reads the
 * last_seen_at index over its last minutes. Schema only: the SQL is in activity.repository.ts.
 */
@Entity({ tableName: 'user_activity_days' })
@Index({ properties: ['day', 'userId'] })
@Index({ properties: ['lastSeenAt'] })
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
