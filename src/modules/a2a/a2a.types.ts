import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageInfo } from '../../pagination';
import { ROLES, TASK_STATES } from './a2a-states';

// The A2A 1.0 data model, typed: each field is the ProtoJSON member of the same name, so the
// JSON-RPC facade writes a result as it is (members that are null are left out, as protobuf's
// JSON printer leaves out unset fields). JSON values only where A2A has free-form JSON: metadata
// and a data part's value. The same class is the input type where a caller sends the object.

/** A list of names as an enum object type-graphql can register. */
const enumOf = <T extends string>(names: readonly T[]) => Object.fromEntries(names.map((name) => [name, name])) as Record<T, T>;

export const TaskStateValue = enumOf(TASK_STATES);
registerEnumType(TaskStateValue, {
  name: 'A2aTaskState',
  description: 'The state of an A2A task (A2A TaskState).',
});

export const RoleValue = enumOf(ROLES);
registerEnumType(RoleValue, {
  name: 'A2aRole',
  description: 'Who wrote a message (A2A Role): the caller (ROLE_USER) or the agent (ROLE_AGENT).',
});

@ObjectType('A2aPart', { description: 'A piece of a message or artifact (A2A Part): exactly one of text, raw, url and data.' })
@InputType('A2aPartInput', { description: 'A piece of a message (A2A Part): exactly one of text, raw, url and data.' })
export class A2aPart {
  @Field(() => String, { nullable: true, description: 'Text.' })
  text?: string | null;

  @Field(() => String, { nullable: true, description: 'A file’s bytes, base64.' })
  raw?: string | null;

  @Field(() => String, { nullable: true, description: 'Where a file’s bytes are (an absolute URL).' })
  url?: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: 'Structured data: any JSON value.' })
  data?: unknown;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Free-form metadata.' })
  metadata?: Record<string, unknown> | null;

  @Field(() => String, { nullable: true, description: 'The file’s name.' })
  filename?: string | null;

  @Field(() => String, { nullable: true, description: 'The content’s media type (text/csv, image/png, …).' })
  mediaType?: string | null;
}

@ObjectType('A2aMessage', { description: 'One message of a conversation (A2A Message).' })
@InputType('A2aMessageInput', { description: 'A message to the agent (A2A Message); the caller’s role is ROLE_USER.' })
export class A2aMessage {
  @Field({ description: 'The message id the sender chose.' })
  messageId!: string;

  @Field(() => String, { nullable: true, description: 'The conversation: continue one, or leave out to start one.' })
  contextId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The task the message belongs to: give it to answer a task, leave out to start one.',
  })
  taskId?: string | null;

  @Field(() => RoleValue, { description: 'Who wrote it.' })
  role!: string;

  @Field(() => [A2aPart], { description: 'Its content, in order.' })
  parts!: A2aPart[];

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Free-form metadata.' })
  metadata?: Record<string, unknown> | null;

  @Field(() => [String], { nullable: true, description: 'URIs of the A2A extensions it uses.' })
  extensions?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Tasks it refers to.' })
  referenceTaskIds?: string[] | null;
}

@ObjectType({ description: 'An output of a task (A2A Artifact): the agent’s answer, or a file it made.' })
export class A2aArtifact {
  @Field({ description: 'Its id, unique in the task.' })
  artifactId!: string;

  @Field(() => String, { nullable: true, description: 'Its name (a file’s name).' })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'What it is.' })
  description?: string | null;

  @Field(() => [A2aPart], { description: 'Its content.' })
  parts!: A2aPart[];

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Free-form metadata.' })
  metadata?: Record<string, unknown> | null;
}

@ObjectType({ description: 'The status of an A2A task (A2A TaskStatus).' })
export class A2aTaskStatus {
  @Field(() => TaskStateValue, { description: 'Its state.' })
  state!: string;

  @Field(() => A2aMessage, {
    nullable: true,
    description: 'The agent message that explains the state (why it failed, what input it needs), when there is one.',
  })
  message?: A2aMessage | null;

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

  @Field(() => [A2aArtifact], {
    nullable: true,
    description: 'Its artifacts, oldest first; null where the operation was not asked for them.',
  })
  artifacts?: A2aArtifact[] | null;

  @Field(() => [A2aMessage], {
    nullable: true,
    description:
      'Its most recent messages, oldest first, within 4 MiB of stored JSON (newest first; a message larger on its own is left out, and so are those older than the budget reaches); null when none were asked for (historyLength 0).',
  })
  history?: A2aMessage[] | null;
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

  @Field(() => A2aArtifact, { description: 'The artifact.' })
  artifact!: A2aArtifact;

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

@ObjectType({ description: 'How a push notification is authenticated (A2A AuthenticationInfo); its credentials are never shown.' })
export class A2aAuthenticationInfo {
  @Field({ description: 'The HTTP Authorization scheme (Bearer, Basic, …).' })
  scheme!: string;
}

@ObjectType({ description: 'A push notification config of a task (A2A TaskPushNotificationConfig), as its caller registered it.' })
export class A2aPushConfig {
  @Field({ description: 'The config id (`pnc_…`, or the id the caller chose).' })
  id!: string;

  @Field({ description: 'The task.' })
  taskId!: string;

  @Field({ description: 'Where the notifications are POSTed.' })
  url!: string;

  @Field(() => String, { nullable: true, description: 'The token sent as X-A2A-Notification-Token.' })
  token?: string | null;

  @Field(() => A2aAuthenticationInfo, { nullable: true, description: 'The Authorization scheme sent with each notification.' })
  authentication?: A2aAuthenticationInfo | null;
}

@ObjectType({ description: 'A page of a task’s push notification configs (A2A ListTaskPushNotificationConfigsResponse).' })
export class A2aPushConfigList {
  @Field(() => [A2aPushConfig], { description: 'The configs, in id order.' })
  configs!: A2aPushConfig[];

  @Field({ description: 'Token of the next page; empty on the last page.' })
  nextPageToken!: string;
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

@ObjectType({
  description: 'What the artifact download (GET /a2a/v1/artifacts/{task_id}/{index}) serves of an artifact: a file it holds, or its text.',
})
export class A2aArtifactFile {
  @Field(() => ID, { description: 'The task.' })
  taskId!: string;

  @Field(() => Int, { description: 'The artifact’s 0-based place in the task’s artifacts.' })
  index!: number;

  @Field({ description: 'The file’s name (the artifact id with .txt for text).' })
  filename!: string;

  @Field({ description: 'Its media type.' })
  mediaType!: string;

  @Field(() => Float, { description: 'Its size in bytes.' })
  size!: number;

  @Field({ description: 'A strong validator: it names the artifact, which never changes once its task finished.' })
  etag!: string;

  @Field(() => Date, { description: 'When the task last changed state.' })
  lastModified!: Date;
}
