import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { PageInfo } from '../../pagination';

// The A2A 1.0 data model (ProtoJSON names), so a field's value is the wire member as it is.
// Messages and artifacts are the caller's and the agent's own JSON objects: free-form here.

@ObjectType({ description: 'The status of an A2A task (A2A TaskStatus).' })
export class A2aTaskStatus {
  @Field({ description: 'TASK_STATE_SUBMITTED, _WORKING, _INPUT_REQUIRED, _AUTH_REQUIRED, _COMPLETED, _FAILED, _CANCELED or _REJECTED.' })
  state!: string;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'The agent message that explains the state (why it failed, what input it needs), when there is one.',
  })
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

  @Field(() => [GraphQLJSONObject], {
    nullable: true,
    description: 'Its artifacts (A2A Artifact objects), oldest first; null where the operation was not asked for them.',
  })
  artifacts?: Record<string, unknown>[];

  @Field(() => [GraphQLJSONObject], {
    nullable: true,
    description:
      'Its most recent messages (A2A Message objects), oldest first, within 4 MiB of stored JSON (newest first; a message larger on its own is left out, and so are those older than the budget reaches); null when none were asked for (historyLength 0).',
  })
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

@ObjectType({ description: 'A page of the caller’s tasks (A2A ListTasksResponse).' })
export class A2aTaskList {
  @Field(() => [A2aTask], { description: 'The tasks, newest status first.' })
  tasks!: A2aTask[];

  @Field({ description: 'Token of the next page; empty on the last page.' })
  nextPageToken!: string;

  @Field(() => Int, { description: 'The page size used.' })
  pageSize!: number;

  @Field(() => Int, { description: 'How many tasks match the filters in all.' })
  totalSize!: number;
}

@ObjectType({ description: 'What sending a message gave: its task (A2A SendMessageResponse).' })
export class A2aMessageSendPayload {
  @Field(() => A2aTask, { description: 'The task the message started or was added to, as it is when the call answers.' })
  task!: A2aTask;
}

@ObjectType({ description: 'A page of A2A tasks of every caller (the A2A owner’s web tools).' })
export class A2aTaskConnection {
  @Field(() => [A2aTask], { description: 'The tasks, newest status first, with their artifacts (no history: ask a2aTask for it).' })
  nodes!: A2aTask[];

  @Field(() => PageInfo, { description: 'Where this page ends.' })
  pageInfo!: PageInfo;

  @Field(() => Int, { description: 'How many tasks match in all.' })
  totalCount!: number;
}

@ObjectType({ description: 'A conversation: one A2A caller’s tasks under one context id.' })
export class A2aContext {
  @Field({ description: 'The context id.' })
  contextId!: string;

  @Field({ description: 'The caller: key:<key id>, or local for the open loopback endpoint.' })
  principal!: string;

  @Field(() => Int, { description: 'Tasks in the context.' })
  taskCount!: number;

  @Field(() => Date, { description: 'The latest status change of its tasks.' })
  lastActivityAt!: Date;
}

@ObjectType({ description: 'A page of A2A conversations, most recently active first.' })
export class A2aContextConnection {
  @Field(() => [A2aContext], { description: 'The contexts.' })
  nodes!: A2aContext[];

  @Field(() => PageInfo, { description: 'Where this page ends.' })
  pageInfo!: PageInfo;

  @Field(() => Int, { description: 'How many contexts there are in all.' })
  totalCount!: number;
}
