import { Arg, Ctx as Context, ID, Mutation, Query, Resolver, Extensions } from 'type-graphql';
import type { Ctx } from '../../../context';
import type { Viewer } from '../../auth/viewer';
import { A2aAgentCreateInput, A2aAgentUpdateInput } from './outbound-agent.inputs';
import { maskKey } from './outbound-agent.policy';
import type { OutboundAgentRow } from './outbound-agent.repository';
import * as registry from './outbound-agent.service';
import { A2aAgentDeletePayload, A2aAgentNode, A2aAgentSavePayload, A2aAgentStatusValue, A2aAgentTestResult } from './outbound-agent.types';
import { SIGNED_IN, Caller } from '../../../operation-rules';

/** An entry as every answer shows it: the key masked, never in clear. */
function presentAgent(ctx: Ctx, row: OutboundAgentRow): A2aAgentNode {
  return Object.assign(new A2aAgentNode(), {
    id: row.id,
    name: row.name,
    url: row.url,
    apiKey: maskKey(registry.openKey(ctx.services, row)),
    enabled: row.enabled,
    allowPrivate: row.allowPrivate,
    status: row.status as A2aAgentStatusValue,
    error: row.error,
    checkedAt: row.checkedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  });
}

@Resolver()
export class OutboundAgentResolver {
  @Extensions(SIGNED_IN)
  @Query(() => [A2aAgentNode], { description: 'The caller’s outbound A2A agents, in id order (at most 50).' })
  async a2aAgents(@Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<A2aAgentNode[]> {
    return (await registry.listAgents(ctx.em, viewer)).map((row) => presentAgent(ctx, row));
  }

  @Extensions(SIGNED_IN)
  @Query(() => A2aAgentNode, { description: 'One of the caller’s outbound agents (anyone else’s: not found).' })
  async a2aAgent(@Context() ctx: Ctx, @Caller() viewer: Viewer, @Arg('id', () => ID) id: string): Promise<A2aAgentNode> {
    return presentAgent(ctx, await registry.getAgent(ctx.em, viewer, id));
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => A2aAgentSavePayload, {
    description:
      'Registers an outbound agent, or replaces the caller’s entry of that id; status pending. Its URL must pass the address rules; the stored key’s mask keeps the key.',
  })
  async a2aAgentCreate(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('input', () => A2aAgentCreateInput) input: A2aAgentCreateInput,
  ): Promise<A2aAgentSavePayload> {
    const rows = await registry.saveAgent(ctx.services, ctx.em, viewer, input);
    return { id: input.id, agents: rows.map((row) => presentAgent(ctx, row)) };
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => A2aAgentNode, {
    description: 'Changes an outbound agent; a new URL or allowPrivate is checked and puts it back to pending.',
  })
  async a2aAgentUpdate(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => A2aAgentUpdateInput) input: A2aAgentUpdateInput,
  ): Promise<A2aAgentNode> {
    return presentAgent(ctx, await registry.updateAgent(ctx.services, ctx.em, viewer, id, input));
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => A2aAgentDeletePayload, { description: 'Deletes an outbound agent.' })
  async a2aAgentDelete(@Context() ctx: Ctx, @Caller() viewer: Viewer, @Arg('id', () => ID) id: string): Promise<A2aAgentDeletePayload> {
    await registry.deleteAgent(ctx.em, viewer, id);
    return { id };
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => A2aAgentTestResult, {
    description:
      'Fetches the agent’s card (address rules checked again, no redirect followed, bounded in time) and records the outcome on the entry. A failure is an answer (ok false, error), not an error.',
  })
  async a2aAgentTest(@Context() ctx: Ctx, @Caller() viewer: Viewer, @Arg('id', () => ID) id: string): Promise<A2aAgentTestResult> {
    const outcome = await registry.testAgent(ctx.services, ctx.em, viewer, id);
    const empty = { name: null, description: null, version: null, protocolVersions: null, skillCount: null, error: null };
    return Object.assign(new A2aAgentTestResult(), empty, outcome);
  }
}
