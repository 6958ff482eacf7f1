import {
  Arg,
  Ctx as Context,
  ID,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
  Subscription,
  type SubscribeResolverData,
  Extensions,
} from 'type-graphql';
import type { Ctx } from '../../context';
import type { Viewer } from '../auth/viewer';
import { forbidden, notFound } from '../../errors';
import { sqlOf } from '../../db/sql';
import { findArtifactFile } from './a2a-artifact-file';
import { pageOf } from '../../pagination';
import { failureAsLastEvent, SourceFailure } from '../../subscriptions';
import type { A2aCaller } from './a2a-caller';
import { StreamResponse, TaskReader, taskEvents } from './a2a-task.events';
import { cancelTask, checkHistoryLength, getTask, listTasks, sendMessage, startMessage } from './a2a-task.service';
import * as web from './a2a-web.service';
import { A2aMessageSendInput, A2aTaskListInput } from './a2a.inputs';
import {
  A2aArtifactFile,
  A2aContextConnection,
  A2aMessageSendPayload,
  A2aStreamResponse,
  A2aTask,
  A2aTaskConnection,
  A2aTaskList,
  TaskStateValue,
} from './a2a.types';
import {
  A2A_CALLER,
  A2A_CALLER_OR_SIGNED_IN,
  a2aCallerOf,
  a2aOrUserCallerOf,
  type A2aOrUserCaller,
  Caller,
  CallerA2a,
  CallerA2aOrUser,
  SIGNED_IN,
} from '../../operation-rules';

/**
 * Who reads A2A tasks in this context: the A2A principal the A2A endpoint put there, else a
 * signed-in A2A owner or admin (every principal's tasks). Both are checked again by `stillAllowed`.
 * @throws FORBIDDEN for a user who is neither owner nor admin
 */
async function readerOf(ctx: Ctx, caller: A2aOrUserCaller): Promise<TaskReader> {
  const { a2a } = caller;
  if (a2a) {
    return {
      principal: a2a.principal.id,
      baseUrl: ctx.baseUrl,
      stillAllowed: async (em) => {
        if ((await a2a.readmit(em)).id !== a2a.principal.id) throw forbidden('the A2A principal changed');
      },
    };
  }
  await web.requireWebTools(ctx.em, caller.viewer);
  return {
    principal: null,
    baseUrl: ctx.baseUrl,
    stillAllowed: async (em) => {
      const current = await ctx.reauthenticate(em);
      if (!current || !(await web.mayUseWebTools(em, current))) throw web.notForWebTools();
    },
  };
}

@Resolver()
export class A2aResolver {
  @Extensions(A2A_CALLER)
  @Mutation(() => A2aMessageSendPayload, {
    description:
      'A2A SendMessage, for the A2A principal of the A2A endpoint: starts a task or adds the message to one, then waits (unless returnImmediately) for it to settle.',
  })
  async a2aMessageSend(
    @Context() ctx: Ctx,
    @CallerA2a() caller: A2aCaller,
    @Arg('input', () => A2aMessageSendInput, { description: 'The message and how to answer.' }) input: A2aMessageSendInput,
  ): Promise<A2aMessageSendPayload> {
    return sendMessage(ctx.services, caller.principal, input, ctx.callerGone, ctx.baseUrl);
  }

  @Extensions(A2A_CALLER_OR_SIGNED_IN)
  @Query(() => A2aTask, {
    description:
      'One A2A task with its artifacts and most recent messages: for its A2A principal (A2A GetTask), and any task for the A2A owner and admins. An unknown task, or another principal’s, is not found.',
  })
  async a2aTask(
    @Context() ctx: Ctx,
    @CallerA2aOrUser() caller: A2aOrUserCaller,
    @Arg('id', () => ID, { description: 'The task id.' }) id: string,
    @Arg('historyLength', () => Int, {
      nullable: true,
      description: 'Most recent messages (0 or more; default all), within the 4 MiB history budget.',
    })
    historyLength: number | null,
  ): Promise<A2aTask> {
    if (caller.a2a) return getTask(ctx.services, caller.a2a.principal, id, historyLength, ctx.baseUrl);
    await web.requireWebTools(ctx.em, caller.viewer);
    checkHistoryLength(historyLength);
    return web.anyTask(ctx.services, id, historyLength);
  }

  @Extensions(A2A_CALLER_OR_SIGNED_IN)
  @Query(() => A2aArtifactFile, {
    description:
      'What the artifact download serves of a task’s artifact: for its A2A principal (through the A2A endpoint), and any task’s for the A2A owner and admins. An unknown task or index, or another principal’s task, is not found.',
  })
  async a2aArtifactFile(
    @Context() ctx: Ctx,
    @CallerA2aOrUser() caller: A2aOrUserCaller,
    @Arg('taskId', () => ID, { description: 'The task id.' }) taskId: string,
    @Arg('index', () => Int, { description: 'The artifact’s 0-based place in the task’s artifacts.' }) index: number,
  ): Promise<A2aArtifactFile> {
    if (caller.viewer) await web.requireWebTools(ctx.em, caller.viewer);
    const file = await findArtifactFile(ctx.services, sqlOf(ctx.em), caller.a2a?.principal.id ?? null, taskId, index);
    if (!file) throw notFound('artifact');
    return file;
  }

  @Extensions(A2A_CALLER)
  @Query(() => A2aTaskList, {
    description: 'A2A ListTasks, for the A2A principal of the A2A endpoint: its tasks, newest status first, by pages.',
  })
  async a2aTaskList(
    @Context() ctx: Ctx,
    @CallerA2a() caller: A2aCaller,
    @Arg('input', () => A2aTaskListInput, { description: 'Filters and page.' }) input: A2aTaskListInput,
  ): Promise<A2aTaskList> {
    return listTasks(ctx.services, caller.principal, input, ctx.baseUrl);
  }

  @Extensions(A2A_CALLER)
  @Mutation(() => A2aTask, {
    description: 'A2A CancelTask, for the A2A principal of the A2A endpoint: a task that is not terminal becomes CANCELED.',
  })
  async a2aTaskCancel(
    @Context() ctx: Ctx,
    @CallerA2a() caller: A2aCaller,
    @Arg('id', () => ID, { description: 'The task id.' }) id: string,
  ): Promise<A2aTask> {
    return cancelTask(ctx.services, caller.principal, id, ctx.baseUrl);
  }

  @Extensions(SIGNED_IN)
  @Query(() => A2aTaskConnection, { description: 'Every A2A caller’s tasks, newest status first, for the A2A owner and admins.' })
  async a2aTasks(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('first', () => Int, { nullable: true, description: 'Tasks per page, 1 to 100 (default 20).' }) first: number | null,
    @Arg('after', () => String, { nullable: true, description: 'The endCursor of the page before.' }) after: string | null,
    @Arg('contextId', () => String, { nullable: true, description: 'Only tasks of this context.' }) contextId: string | null,
    @Arg('principal', () => String, { nullable: true, description: 'Only tasks of this caller (key:<key id> or local).' })
    principal: string | null,
    @Arg('state', () => TaskStateValue, { nullable: true, description: 'Only tasks in this state.' }) state: string | null,
  ): Promise<A2aTaskConnection> {
    await web.requireWebTools(ctx.em, viewer);
    const filter = { contextId: contextId ?? undefined, principal: principal ?? undefined, state: state ?? undefined };
    return web.allTasks(ctx.services, filter, pageOf(first, after));
  }

  @Extensions(SIGNED_IN)
  @Query(() => A2aContextConnection, {
    description:
      'Every A2A caller’s conversations with their task count and last activity, most recent first, for the A2A owner and admins.',
  })
  async a2aContexts(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('first', () => Int, { nullable: true, description: 'Contexts per page, 1 to 100 (default 20).' }) first: number | null,
    @Arg('after', () => String, { nullable: true, description: 'The endCursor of the page before.' }) after: string | null,
  ): Promise<A2aContextConnection> {
    await web.requireWebTools(ctx.em, viewer);
    return web.allContexts(ctx.services, pageOf(first, after));
  }

  @Extensions(A2A_CALLER)
  @Subscription(() => A2aStreamResponse, {
    description:
      'A2A SendStreamingMessage, for the A2A principal of the A2A endpoint: sends the message as a2aMessageSend does without waiting, then streams its task’s events as a2aTaskEvents does (the first event’s task with `configuration.historyLength` messages, none by default).',
    subscribe: async ({ args, context: ctx }: SubscribeResolverData<unknown, { input: A2aMessageSendInput }, Ctx>) => {
      const caller = a2aCallerOf(ctx);
      const task = await startMessage(ctx.services, caller.principal, args.input);
      const reader = await readerOf(ctx, { a2a: caller });
      const historyLength = args.input.configuration?.historyLength ?? 0;
      return failureAsLastEvent(taskEvents(ctx.services, reader, task.id, { historyLength }));
    },
  })
  a2aMessageStream(
    @Arg('input', () => A2aMessageSendInput, { description: 'The message and how to answer.' }) _input: A2aMessageSendInput,
    @Root() event: StreamResponse | SourceFailure,
  ): StreamResponse {
    if ('failed' in event) throw event.failed;
    return event;
  }

  @Extensions(A2A_CALLER_OR_SIGNED_IN)
  @Subscription(() => A2aStreamResponse, {
    description:
      'The events of an A2A task (A2A StreamResponses): first the task as it is, then its status changes and new artifacts, in order, completing after a terminal state. For the task’s A2A principal (through the A2A endpoint) and for the A2A owner and admins. Read from the database at every change (any instance), with access checked again each time.',
    subscribe: async ({
      args,
      context: ctx,
    }: SubscribeResolverData<unknown, { taskId: string; refuseTerminal: boolean; historyLength?: number | null }, Ctx>) => {
      checkHistoryLength(args.historyLength);
      const reader = await readerOf(ctx, await a2aOrUserCallerOf(ctx));
      return failureAsLastEvent(
        taskEvents(ctx.services, reader, args.taskId, { refuseTerminal: args.refuseTerminal, historyLength: args.historyLength ?? 0 }),
      );
    },
  })
  a2aTaskEvents(
    @Arg('taskId', () => ID, { description: 'The task.' }) _taskId: string,
    @Arg('refuseTerminal', {
      defaultValue: false,
      description:
        'Refuse a task that is terminal already (UNSUPPORTED_OPERATION), as A2A SubscribeToTask does; otherwise its one event is the task.',
    })
    _refuseTerminal: boolean,
    @Arg('historyLength', () => Int, {
      nullable: true,
      description: 'Messages (the most recent, 0 or more, within the 4 MiB history budget) in the first event’s task; none by default.',
    })
    _historyLength: number | null,
    @Root() event: StreamResponse | SourceFailure,
  ): StreamResponse {
    if ('failed' in event) throw event.failed;
    return event;
  }
}
