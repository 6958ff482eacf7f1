import { Arg, Ctx as Context, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../context';
import { requireViewer } from '../auth/viewer';
import { notFound } from '../../errors';
import { ownerPushConfigs } from './a2a-push.service';
import { mayUseWebTools } from './a2a-web.service';
import { A2aPushConfigNode } from './a2a-push.types';

@Resolver()
export class A2aPushResolver {
  @Query(() => [A2aPushConfigNode], {
    description:
      'The push notification configs of an A2A task, for the A2A owner and admins (anyone else, or an unknown task: NOT_FOUND). Tokens and credentials are never shown.',
  })
  async a2aTaskPushConfigs(
    @Context() ctx: Ctx,
    @Arg('taskId', { description: 'The A2A task id (`turn_…`).' }) taskId: string,
  ): Promise<A2aPushConfigNode[]> {
    if (!(await mayUseWebTools(ctx.em, await requireViewer(ctx)))) throw notFound('task');
    return ownerPushConfigs(ctx.em, taskId);
  }
}
