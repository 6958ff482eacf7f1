import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, InputType, Int } from 'type-graphql';

// The A2A endpoint checks these (facade/rpc.ts, -32602 with field violations) before it runs an operation.

@InputType({ description: 'A message to the agent (A2A SendMessageRequest), checked by the A2A endpoint.' })
export class A2aMessageSendInput {
  @Field(() => GraphQLJSONObject, {
    description: 'The A2A Message (messageId, role ROLE_USER, parts; taskId to add it to a task, contextId to continue a conversation).',
  })
  message!: Record<string, unknown>;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Answer at once rather than waiting (up to A2A_WAIT_SECONDS) for the task to settle.',
  })
  returnImmediately?: boolean | null;

  @Field(() => Int, {
    nullable: true,
    description: 'Most recent messages in the answer’s task (0 or more; default all), within the 4 MiB history budget.',
  })
  historyLength?: number | null;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description:
      'A push notification config (A2A TaskPushNotificationConfig: url, token, authentication) registered on the task in the same transaction.',
  })
  taskPushNotificationConfig?: Record<string, unknown> | null;
}

@InputType({ description: 'Filters and page of the caller’s tasks (A2A ListTasksRequest).' })
export class A2aTaskListInput {
  @Field(() => String, { nullable: true, description: 'Only tasks of this context.' })
  contextId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only tasks in this state (TASK_STATE_…).' })
  status?: string | null;

  @Field(() => Int, { nullable: true, description: 'Tasks per page, 1 to 100 (default 50).' })
  pageSize?: number | null;

  @Field(() => String, { nullable: true, description: 'The nextPageToken of the page before.' })
  pageToken?: string | null;

  @Field(() => Int, {
    nullable: true,
    description:
      'Most recent messages per task (none by default), within 4 MiB of stored JSON for the whole page, spent on its tasks in order.',
  })
  historyLength?: number | null;

  @Field(() => String, { nullable: true, description: 'Only tasks whose status changed strictly after this RFC 3339 time.' })
  statusTimestampAfter?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Include each task’s artifacts (absent otherwise).' })
  includeArtifacts?: boolean | null;
}
