import { GraphQLVoid } from 'graphql-scalars';
import { Arg, Ctx as Context, ID, Int, Mutation, Query, Resolver, Extensions } from 'type-graphql';
import type { Ctx } from '../../context';
import type { Viewer } from '../auth/viewer';
import { notFound } from '../../errors';
import type { A2aCaller } from './a2a-caller';
import { createPushConfig, deletePushConfig, getPushConfig, listPushConfigs, ownerPushConfigs } from './a2a-push.service';
import { mayUseWebTools } from './a2a-web.service';
import { A2aPushConfigNode } from './a2a-push.types';
import { A2aPushConfigInput } from './a2a.inputs';
import { A2aPushConfig, A2aPushConfigList } from './a2a.types';
import { A2A_CALLER, Caller, CallerA2a, SIGNED_IN } from '../../operation-rules';

const TASK_ID = { description: 'The A2A task id (`turn_…`).' };
const CONFIG_ID = { description: 'The push notification config id.' };

@Resolver()
export class A2aPushResolver {
  @Extensions(A2A_CALLER)
  @Mutation(() => A2aPushConfig, {
    description:
      'A2A CreateTaskPushNotificationConfig, for the A2A principal of the A2A endpoint: registers (or, for a known id, replaces) a config on its task.',
  })
  async a2aPushConfigCreate(
    @Context() ctx: Ctx,
    @CallerA2a() caller: A2aCaller,
    @Arg('input', () => A2aPushConfigInput, { description: 'The config, with its taskId.' }) input: A2aPushConfigInput,
  ): Promise<A2aPushConfig> {
    return createPushConfig(ctx.services, caller.principal, input);
  }

  @Extensions(A2A_CALLER)
  @Query(() => A2aPushConfig, { description: 'A2A GetTaskPushNotificationConfig, for the A2A principal of the A2A endpoint.' })
  async a2aPushConfig(
    @Context() ctx: Ctx,
    @CallerA2a() caller: A2aCaller,
    @Arg('taskId', () => ID, TASK_ID) taskId: string,
    @Arg('id', () => ID, CONFIG_ID) id: string,
  ): Promise<A2aPushConfig> {
    return getPushConfig(ctx.services, caller.principal, taskId, id);
  }

  @Extensions(A2A_CALLER)
  @Query(() => A2aPushConfigList, {
    description: 'A2A ListTaskPushNotificationConfigs, for the A2A principal of the A2A endpoint: a task’s configs in id order.',
  })
  async a2aPushConfigList(
    @Context() ctx: Ctx,
    @CallerA2a() caller: A2aCaller,
    @Arg('taskId', () => ID, TASK_ID) taskId: string,
    @Arg('pageSize', () => Int, { nullable: true, description: 'Configs per page, 0 to 10 (0 or absent: all).' }) pageSize: number | null,
    @Arg('pageToken', () => String, { nullable: true, description: 'The nextPageToken of the page before.' }) pageToken: string | null,
  ): Promise<A2aPushConfigList> {
    return listPushConfigs(ctx.services, caller.principal, taskId, pageSize, pageToken);
  }

  @Extensions(A2A_CALLER)
  @Mutation(() => GraphQLVoid, {
    nullable: true,
    description:
      'A2A DeleteTaskPushNotificationConfig, for the A2A principal of the A2A endpoint: the config and its pending deliveries go (an unknown config id too).',
  })
  async a2aPushConfigDelete(
    @Context() ctx: Ctx,
    @CallerA2a() caller: A2aCaller,
    @Arg('taskId', () => ID, TASK_ID) taskId: string,
    @Arg('id', () => ID, CONFIG_ID) id: string,
  ): Promise<void> {
    await deletePushConfig(ctx.services, caller.principal, taskId, id);
  }

  @Extensions(SIGNED_IN)
  @Query(() => [A2aPushConfigNode], {
    description:
      'The push notification configs of an A2A task, for the A2A owner and admins (anyone else, or an unknown task: NOT_FOUND). Tokens and credentials are never shown.',
  })
  async a2aTaskPushConfigs(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('taskId', TASK_ID) taskId: string,
  ): Promise<A2aPushConfigNode[]> {
    if (!(await mayUseWebTools(ctx.em, viewer))) throw notFound('task');
    return ownerPushConfigs(ctx.em, taskId);
  }
}
