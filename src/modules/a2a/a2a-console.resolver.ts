import { Arg, Ctx as Context, Field, ID, Mutation, ObjectType, Query, Resolver, registerEnumType, Extensions } from 'type-graphql';
import type { Ctx } from '../../context';
import { requireViewer } from '../auth/viewer';
import * as consoleTools from './a2a-console.service';
import { requireWebTools } from './a2a.resolver';
import { mayUseWebTools } from './a2a-web.service';
import { A2aTask } from './a2a.types';
import { MINTS_CREDENTIAL } from '../../operation-rules';

enum ApprovalDecisionValue {
  allow_once = 'allow_once',
  allow_session = 'allow_session',
  deny = 'deny',
}
registerEnumType(ApprovalDecisionValue, {
  name: 'A2aApprovalDecision',
  description:
    'allow_once: the pending calls run; allow_session: these and every later one of the conversation; deny: the task is canceled.',
});

@ObjectType({ description: 'A key of the A2A endpoint (never its secret).' })
class A2aKeyNode {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'Who it is for.' })
  label!: string;

  @Field()
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'Set once revoked: requests with it are refused (401).' })
  revokedAt!: Date | null;
}

@ObjectType({ description: 'A new key, with its secret: shown this once, only its digest is kept.' })
class A2aKeyCreated {
  @Field(() => A2aKeyNode)
  key!: A2aKeyNode;

  @Field({ description: 'The key to give the collaborator (`ldk_a2a_…`).' })
  secret!: string;
}

@ObjectType({ description: 'What the caller may do with the A2A endpoint from the console.' })
class A2aViewerCan {
  @Field({
    description:
      'The A2A web tools (canUseA2aWebTools): the keys (a2aKeys, a2aKeyCreate, a2aKeyRevoke), every task (a2aTasks, a2aTask) and approvals (a2aApprovalAnswer). The A2A owner while A2A is enabled, and admins.',
  })
  useWebTools!: boolean;
}

/** The A2A endpoint's keys and approvals, for the A2A owner and administrators (the web console). */
@Resolver()
export class A2aConsoleResolver {
  @Query(() => A2aViewerCan, { description: 'What the caller may do with the A2A endpoint (any signed-in user may ask).' })
  async a2aViewerCan(@Context() ctx: Ctx): Promise<A2aViewerCan> {
    return { useWebTools: await mayUseWebTools(ctx.em, await requireViewer(ctx)) };
  }

  @Query(() => [A2aKeyNode], { description: 'The A2A endpoint’s keys, revoked ones too, oldest first: for the A2A owner and admins.' })
  async a2aKeys(@Context() ctx: Ctx): Promise<A2aKeyNode[]> {
    await requireWebTools(ctx);
    return consoleTools.keys(ctx.services);
  }

  @Extensions(MINTS_CREDENTIAL)
  @Mutation(() => A2aKeyCreated, { description: 'Creates a key of the A2A endpoint, usable at once: for the A2A owner and admins.' })
  async a2aKeyCreate(@Context() ctx: Ctx, @Arg('label', { description: '1 to 100 letters, digits, spaces or ._:@/-' }) label: string) {
    await requireWebTools(ctx);
    const { key, plaintext } = await consoleTools.newKey(ctx.services, label);
    return { key, secret: plaintext };
  }

  @Mutation(() => A2aKeyNode, { description: 'Revokes a key at once, on every instance: for the A2A owner and admins.' })
  async a2aKeyRevoke(@Context() ctx: Ctx, @Arg('id', () => ID) id: string): Promise<A2aKeyNode> {
    await requireWebTools(ctx);
    return consoleTools.endKey(ctx.services, id);
  }

  @Mutation(() => A2aTask, {
    description:
      'Answers a task that waits for an approval (INPUT_REQUIRED) as its caller would: for the A2A owner and admins. The answer is a message of the task, with who answered in its metadata.',
  })
  async a2aApprovalAnswer(
    @Context() ctx: Ctx,
    @Arg('taskId', () => ID) taskId: string,
    @Arg('decision', () => ApprovalDecisionValue) decision: ApprovalDecisionValue,
  ): Promise<A2aTask> {
    await requireWebTools(ctx);
    const viewer = await requireViewer(ctx);
    return consoleTools.answerApproval(ctx.services, taskId, decision, viewer.user.email);
  }
}
