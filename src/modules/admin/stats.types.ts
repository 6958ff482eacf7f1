import { Field, Int, ObjectType } from 'type-graphql';
import { PlanCodeValue } from '../users/user.types';

@ObjectType({ description: 'Model calls recorded in the usage ledger over a window.' })
export class LlmWindowNode {
  @Field(() => Int, { description: 'Ledger entries (one per model call).' })
  calls!: number;

  @Field(() => Number, { description: 'Input tokens (a JSON number; exact below 2^53).' })
  tokensIn!: number;

  @Field(() => Number, { description: 'Output tokens (a JSON number; exact below 2^53).' })
  tokensOut!: number;

  @Field(() => Int, { description: 'Distinct users who made those calls.' })
  users!: number;
}

@ObjectType({ description: 'The ledger over the last 5 minutes and the last hour.' })
export class LlmWindowsNode {
  @Field(() => LlmWindowNode)
  last5m!: LlmWindowNode;

  @Field(() => LlmWindowNode)
  last1h!: LlmWindowNode;
}

@ObjectType({ description: 'Users created, in all and today (UTC).' })
export class RegistrationsNode {
  @Field(() => Int)
  total!: number;

  @Field(() => Int, { description: 'Created since 00:00 UTC.' })
  today!: number;
}

@ObjectType({ description: 'Monthly active users on one plan.' })
export class PlanActivityNode {
  @Field(() => PlanCodeValue)
  planCode!: string;

  @Field(() => Int, { description: 'Users on this plan active in the last 30 UTC days (an expired plan counts as free).' })
  activeUsers!: number;
}

@ObjectType({ description: 'Read-only operational aggregates (docs/api/admin.md). Days are UTC calendar days.' })
export class AdminStatsNode {
  @Field(() => Int, { description: 'Users active (authenticated request or sandbox heartbeat) in the last 5 minutes.' })
  onlineUsers!: number;

  @Field(() => LlmWindowsNode)
  llm!: LlmWindowsNode;

  @Field(() => Int, { description: 'Users active today (UTC).' })
  dau!: number;

  @Field(() => Int, { description: 'Users active today or in the 6 UTC days before.' })
  wau!: number;

  @Field(() => Int, { description: 'Users active today or in the 29 UTC days before.' })
  mau!: number;

  @Field(() => RegistrationsNode)
  registrations!: RegistrationsNode;

  @Field(() => [PlanActivityNode], { description: 'Monthly active users per plan, every plan listed.' })
  plans!: PlanActivityNode[];

  @Field(() => Date, { description: 'The instant the figures are measured at.' })
  generatedAt!: Date;
}
