import { Entity, ManyToOne, Opt, Property } from '@mikro-orm/core';
import { Trajectory } from './trajectory.entity';

/**
 * Schema only: the model's findings on a session as it stood (its head and record count), so a
 * critique of an unchanged session reuses them instead of paying for another model call. Read
 * and written by critique.repository.ts.
 */
@Entity({ tableName: 'trajectory_critiques' })
export class TrajectoryCritique {
  @ManyToOne(() => Trajectory, { primary: true, fieldName: 'session_id', deleteRule: 'cascade' })
  session!: Trajectory;

  @Property({ type: 'text' })
  headUuid!: string;

  @Property({ type: 'integer' })
  recordCount!: number;

  /** `provider/model` that wrote the findings: another model means another critique. */
  @Property({ type: 'text' })
  model!: string;

  /** `[{record_uuid, severity, body}]`, already checked against the session. */
  @Property({ type: 'json' })
  findings!: unknown[];

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}
