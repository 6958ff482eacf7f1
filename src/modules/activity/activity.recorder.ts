import type { EntityManager } from '@mikro-orm/postgresql';
import { upsertActivity } from './activity.repository';

/** At most one activity write per user per this interval, per instance. */
export const ACTIVITY_WRITE_INTERVAL_MS = 60_000;
/** Above this many remembered users, entries older than the interval are forgotten. */
const MAX_TRACKED_USERS = 50_000;

const utcDay = (ms: number) => Math.floor(ms / 86_400_000);

/**
 * Records user activity (authenticated requests, sandbox heartbeats) in PostgreSQL, which holds
 * the truth that every instance shares. The in-process map only limits the write rate: a user
 * active every second costs this instance one upsert a minute (and one on each new UTC day, so
 * DAU never misses a day). One recorder per running service, so two instances in one process
 * (the tests) each write as a real second instance would.
 */
export class ActivityRecorder {
  private readonly lastWritten = new Map<string, number>();

  constructor(private readonly intervalMs = ACTIVITY_WRITE_INTERVAL_MS) {}

  /**
   * Records `userId` as active at `at` (and the use of `tokenId`, a personal access token, when
   * given) unless this instance already wrote it within the interval. `em` may be given as a
   * function, called only when there is something to write.
   */
  async record(em: EntityManager | (() => EntityManager), userId: string, at: Date, tokenId?: string): Promise<void> {
    const now = at.getTime();
    // Each token is written apart, so that every token's last use is right to a minute.
    const key = tokenId ? `${userId} ${tokenId}` : userId;
    const last = this.lastWritten.get(key);
    // A clock that stepped back (tests move it) writes again rather than trusting a future mark.
    if (last !== undefined && now >= last && now - last < this.intervalMs && utcDay(now) === utcDay(last)) return;
    // Marked before the write so that a burst of concurrent requests writes once.
    this.lastWritten.set(key, now);
    if (this.lastWritten.size > MAX_TRACKED_USERS) this.forgetOlderThan(now - this.intervalMs);
    try {
      await upsertActivity(typeof em === 'function' ? em() : em, userId, at, tokenId);
    } catch (error) {
      this.lastWritten.delete(key);
      throw error;
    }
  }

  private forgetOlderThan(cutoff: number) {
    for (const [userId, at] of this.lastWritten) if (at < cutoff) this.lastWritten.delete(userId);
    // Still full (that many users within one interval): start over rather than scan on every
    // request; the map only limits the write rate, so forgetting costs a write per user at most.
    if (this.lastWritten.size > MAX_TRACKED_USERS) this.lastWritten.clear();
  }
}

/** What authentication needs to record a caller's activity: this instance's recorder and clock. */
export interface ActivitySink {
  recorder: ActivityRecorder;
  clock: { now(): Date };
}
