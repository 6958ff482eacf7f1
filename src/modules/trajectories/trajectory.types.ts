import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum VisibilityValue {
  private = 'private',
  lab = 'lab',
}
registerEnumType(VisibilityValue, { name: 'Visibility', description: 'private: the owner (and admins); lab: also the active members of its lab.' });

@ObjectType({ description: 'Where a fork came from.' })
export class ForkOrigin {
  @Field(() => ID)
  sessionId!: string;

  @Field()
  headUuid!: string;
}

@ObjectType({ description: 'A trajectory (session) without its records.' })
export class TrajectoryMeta {
  @Field(() => ID)
  sessionId!: string;

  @Field(() => ID)
  ownerId!: string;

  @Field(() => ID, { nullable: true })
  labId!: string | null;

  @Field(() => VisibilityValue)
  visibility!: VisibilityValue;

  @Field(() => String, { nullable: true })
  title!: string | null;

  @Field(() => Int, { description: 'Records stored.' })
  count!: number;

  @Field(() => String, { nullable: true, description: 'uuid of the last record; null when empty.' })
  headUuid!: string | null;

  @Field(() => Number, { description: 'Stored bytes of all records.' })
  bytes!: number;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date)
  updatedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'Set when reconcile archived it; cleared when it is written again.' })
  archivedAt!: Date | null;

  @Field(() => ForkOrigin, { nullable: true })
  forkedFrom!: ForkOrigin | null;

  @Field(() => Int)
  figureCount!: number;

  @Field(() => Int)
  openAnnotations!: number;

  @Field({ description: 'desktop, cli, cloud, api, fork or a2a.' })
  source!: string;
}

@ObjectType({ description: 'A page of trajectories.' })
export class TrajectoryPage {
  @Field(() => [TrajectoryMeta])
  items!: TrajectoryMeta[];

  @Field(() => Int)
  total!: number;

  @Field(() => Int)
  limit!: number;
}

@ObjectType({ description: 'The session after a write.' })
export class AppendPayload {
  @Field(() => ID)
  sessionId!: string;

  @Field(() => String, { nullable: true })
  headUuid!: string | null;

  @Field(() => Int)
  count!: number;

  @Field(() => Int, { description: 'Records written by this call (0 for a retried batch).' })
  appended!: number;
}

@ObjectType({ description: 'What reconcile changed.' })
export class ReconcilePayload {
  @Field(() => [ID])
  archived!: string[];

  @Field(() => [ID])
  reactivated!: string[];
}

@ObjectType({ description: 'Records appended to a session, streamed to its viewers.' })
export class RecordsAppendedEvent {
  @Field(() => ID)
  sessionId!: string;

  @Field(() => [String], { description: 'Each record’s stored JSON text.' })
  records!: string[];

  @Field(() => String, { nullable: true })
  headUuid!: string | null;

  @Field(() => Int)
  count!: number;
}

@InputType({ description: 'A fast-forward append.' })
export class TrajectoryAppendInput {
  @Field(() => String, { nullable: true, description: 'uuid of the last record the client has; null for a new or empty session.' })
  baseUuid?: string | null;

  @Field(() => [String], { description: 'Each record as JSON text (stored byte for byte).' })
  records!: string[];

  @Field(() => ID, { nullable: true, description: 'Lab of a new session (one you are active in).' })
  labId?: string | null;

  @Field(() => String, { nullable: true })
  title?: string | null;
}

@InputType({ description: 'A cover-write: the session becomes exactly these records.' })
export class TrajectoryCoverInput {
  @Field(() => [String], { description: 'Each record as JSON text (stored byte for byte).' })
  records!: string[];

  @Field(() => ID, { nullable: true })
  labId?: string | null;

  @Field(() => String, { nullable: true })
  title?: string | null;
}

@InputType({ description: 'The complete list of session ids a client has.' })
export class ReconcileInput {
  @Field(() => [ID])
  sessionIds!: string[];
}

@InputType({ description: 'Who may view the session.' })
export class VisibilityInput {
  @Field(() => VisibilityValue)
  visibility!: VisibilityValue;

  @Field(() => ID, { nullable: true, description: 'For lab: the lab to share with (default: the session’s lab).' })
  labId?: string | null;
}
