import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';

// The A2A 1.0 data model (ProtoJSON names), so a field's value is the wire member as it is.
// Messages and artifacts are the caller's and the agent's own JSON objects: free-form here.

@ObjectType({ description: 'The status of an A2A task (A2A TaskStatus).' })
export class A2aTaskStatus {
  @Field({ description: 'TASK_STATE_SUBMITTED, _WORKING, _INPUT_REQUIRED, _AUTH_REQUIRED, _COMPLETED, _FAILED, _CANCELED or _REJECTED.' })
  state!: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'The agent message that explains the state (why it failed, what input it needs), when there is one.' })
  message?: Record<string, unknown>;

  @Field({ description: 'When the task entered this state (RFC 3339, UTC, milliseconds).' })
  timestamp!: string;
}

@ObjectType({ description: 'An A2A task: one unit of work a caller gave the agent, in a conversation (context).' })
export class A2aTask {
  @Field(() => ID, { description: 'The task id (turn_…).' })
  id!: string;

  @Field({ description: 'The conversation the task belongs to; the same id with another key is another conversation.' })
  contextId!: string;

  @Field(() => A2aTaskStatus, { description: 'Its current status.' })
  status!: A2aTaskStatus;

  @Field(() => [GraphQLJSONObject], { nullable: true, description: 'Its artifacts (A2A Artifact objects), oldest first; null where the operation was not asked for them.' })
  artifacts?: Record<string, unknown>[];

  @Field(() => [GraphQLJSONObject], { nullable: true, description: 'Its most recent messages (A2A Message objects), oldest first; null when none were asked for (historyLength 0).' })
  history?: Record<string, unknown>[];
}

@ObjectType({ description: 'A status change of a task (A2A TaskStatusUpdateEvent).' })
export class A2aTaskStatusUpdate {
  @Field(() => ID, { description: 'The task.' })
  taskId!: string;

  @Field({ description: 'The task’s context.' })
  contextId!: string;

  @Field(() => A2aTaskStatus, { description: 'The new status.' })
  status!: A2aTaskStatus;
}

@ObjectType({ description: 'A new artifact of a task, whole (A2A TaskArtifactUpdateEvent with append false, lastChunk true).' })
export class A2aTaskArtifactUpdate {
  @Field(() => ID, { description: 'The task.' })
  taskId!: string;

  @Field({ description: 'The task’s context.' })
  contextId!: string;

  @Field(() => GraphQLJSONObject, { description: 'The artifact (A2A Artifact: artifactId, name, parts, …).' })
  artifact!: Record<string, unknown>;

  @Field({ description: 'Whether the parts extend an artifact sent before: always false (artifacts are sent whole).' })
  append!: boolean;

  @Field({ description: 'Whether this is the artifact’s last piece: always true.' })
  lastChunk!: boolean;
}

@ObjectType({ description: 'One event of a task’s stream (A2A StreamResponse): exactly one member is set.' })
export class A2aStreamResponse {
  @Field(() => A2aTask, { nullable: true, description: 'The task as it is: the first event of every stream.' })
  task?: A2aTask;

  @Field(() => A2aTaskStatusUpdate, { nullable: true, description: 'A status change.' })
  statusUpdate?: A2aTaskStatusUpdate;

  @Field(() => A2aTaskArtifactUpdate, { nullable: true, description: 'A new artifact.' })
  artifactUpdate?: A2aTaskArtifactUpdate;
}
