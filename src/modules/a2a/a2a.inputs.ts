import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, InputType, Int } from 'type-graphql';
import { A2aMessage, TaskStateValue } from './a2a.types';

// The A2A 1.0 requests, typed: each field is the ProtoJSON member of the same name. GraphQL checks
// their shapes; the services check the rules A2A and this server add (a2a-rules.ts).

@InputType({ description: 'How a push notification is authenticated (A2A AuthenticationInfo).' })
export class A2aAuthenticationInput {
  @Field({ description: 'The HTTP Authorization scheme (Bearer, Basic, …).' })
  scheme!: string;

  @Field(() => String, { nullable: true, description: 'The credentials sent with the scheme; never shown again.' })
  credentials?: string | null;
}

@InputType({ description: 'A push notification config (A2A TaskPushNotificationConfig).' })
export class A2aPushConfigInput {
  @Field(() => String, {
    nullable: true,
    description: 'The task (required, except in a SendMessage configuration, where it is the message’s task).',
  })
  taskId?: string | null;

  @Field(() => String, { nullable: true, description: 'An id of the caller’s choosing (one is made when absent); the same id replaces.' })
  id?: string | null;

  @Field({ description: 'Where the notifications are POSTed: an absolute http or https URL.' })
  url!: string;

  @Field(() => String, { nullable: true, description: 'A token sent as X-A2A-Notification-Token.' })
  token?: string | null;

  @Field(() => A2aAuthenticationInput, { nullable: true, description: 'The Authorization header sent with each notification.' })
  authentication?: A2aAuthenticationInput | null;
}

@InputType({ description: 'How SendMessage answers (A2A SendMessageConfiguration).' })
export class A2aSendConfigurationInput {
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

  @Field(() => A2aPushConfigInput, {
    nullable: true,
    description: 'A push notification config registered on the task in the same transaction.',
  })
  taskPushNotificationConfig?: A2aPushConfigInput | null;
}

@InputType({ description: 'A message to the agent and how to answer (A2A SendMessageRequest).' })
export class A2aMessageSendInput {
  @Field(() => A2aMessage, { description: 'The message.' })
  message!: A2aMessage;

  @Field(() => A2aSendConfigurationInput, { nullable: true, description: 'How to answer.' })
  configuration?: A2aSendConfigurationInput | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Free-form metadata of the request (not stored).' })
  metadata?: Record<string, unknown> | null;
}

@InputType({ description: 'Filters and page of the caller’s tasks (A2A ListTasksRequest).' })
export class A2aTaskListInput {
  @Field(() => String, { nullable: true, description: 'Only tasks of this context.' })
  contextId?: string | null;

  @Field(() => TaskStateValue, { nullable: true, description: 'Only tasks in this state.' })
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
