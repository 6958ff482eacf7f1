import { Entity, Opt, PrimaryKey, Property } from '@mikro-orm/core';

/** Schema only: an instance running jobs, and its latest heartbeat (queue.ts writes and reads it). */
@Entity({ tableName: 'job_instances' })
export class JobInstance {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  seenAt!: Date & Opt;
}
