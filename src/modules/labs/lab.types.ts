import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LimitPage, OffsetPage } from '../../pages';

export enum MemberRoleValue {
  owner = 'owner',
  mentor = 'mentor',
  member = 'member',
}
registerEnumType(MemberRoleValue, { name: 'MemberRole', description: 'Role inside a lab.' });

export enum MemberStatusValue {
  pending = 'pending',
  active = 'active',
  rejected = 'rejected',
  revoked = 'revoked',
  left = 'left',
}
registerEnumType(MemberStatusValue, { name: 'MemberStatus', description: 'Where a membership stands.' });

export enum LabStatusValue {
  active = 'active',
  suspended = 'suspended',
  archived = 'archived',
}
registerEnumType(LabStatusValue, { name: 'LabStatus', description: 'Only active labs accept join requests.' });

@ObjectType({ description: 'One membership row of a lab.' })
export class LabMemberNode {
  @Field(() => ID, { description: 'The member’s user id.' })
  memberUserId!: string;

  @Field({ description: 'The member’s display name.' })
  name!: string;

  @Field({ description: 'The member’s email.' })
  email!: string;

  @Field(() => MemberRoleValue)
  role!: MemberRoleValue;

  @Field(() => MemberStatusValue)
  status!: MemberStatusValue;

  @Field(() => Date, { nullable: true, description: 'When the member last became active; null while pending.' })
  joinedAt!: Date | null;

  @Field(() => Date, { description: 'When the request was made.' })
  requestedAt!: Date;
}

@ObjectType({
  description:
    'What the caller may do in a lab, each answered by the rule the operation itself enforces (true: allowed; it may still refuse for the state).',
})
export class LabViewerCan {
  @Field({ description: 'labRotateCode (the owner).' })
  rotateCode!: boolean;

  @Field({ description: 'labMemberUpdate: approve, reject, revoke or change a role (the owner).' })
  manageMembers!: boolean;

  @Field({ description: 'The member list and its events (the owner, mentors and admins).' })
  viewMembers!: boolean;

  @Field({ description: 'labUsage (the owner).' })
  viewUsage!: boolean;
}

@ObjectType({ description: 'A lab (team) as the caller sees it.' })
export class LabNode {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => ID, { description: 'The owner’s user id.' })
  ownerId!: string;

  @Field(() => LabStatusValue)
  status!: LabStatusValue;

  @Field(() => Int, { description: 'Active members (the owner included) allowed at once.' })
  seatQuota!: number;

  @Field(() => Int, { description: 'Active members now, the owner included.' })
  seatsUsed!: number;

  @Field(() => MemberRoleValue, { nullable: true, description: 'The caller’s role; null for an admin who is not a member.' })
  role!: MemberRoleValue | null;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => String, { nullable: true, description: 'The invitation code; shown to the owner only.' })
  invitationCode!: string | null;

  @Field(() => Date, { nullable: true, description: 'When the code stops working; shown to the owner only.' })
  codeExpiresAt!: Date | null;

  @Field(() => LabViewerCan, { description: 'What the caller may do in this lab.' })
  viewerCan!: LabViewerCan;

  @Field(() => [LabMemberNode], { nullable: true, description: 'Every membership row (any status); owner, mentors and admins only.' })
  members!: LabMemberNode[] | null;
}

@ObjectType({ description: 'What a valid invitation code reveals: the team name, nothing else.' })
export class LabPreview {
  @Field()
  name!: string;
}

@ObjectType({ description: 'A request of the caller’s to join a lab, waiting for its owner: what the code’s preview showed, and when.' })
export class LabJoinRequest {
  @Field()
  labName!: string;

  @Field()
  requestedAt!: Date;
}

@ObjectType({ description: 'The answer to a join request.' })
export class LabJoinPayload {
  @Field(() => ID)
  labId!: string;

  @Field(() => MemberStatusValue)
  status!: MemberStatusValue;
}

@ObjectType({ description: 'Token and session counts of one member (counts only, never content).' })
export class LabUsageMember {
  @Field(() => ID)
  memberUserId!: string;

  @Field()
  name!: string;

  @Field(() => MemberRoleValue)
  role!: MemberRoleValue;

  @Field(() => MemberStatusValue)
  status!: MemberStatusValue;

  @Field(() => Number, { description: 'Input tokens (a JSON number; exact below 2^53).' })
  tokensIn!: number;

  @Field(() => Number)
  tokensOut!: number;

  @Field(() => Int, { description: 'Distinct sessions with recorded usage.' })
  sessions!: number;

  @Field(() => Date, { nullable: true })
  lastActiveAt!: Date | null;
}

@ObjectType()
export class LabUsageTotals {
  @Field(() => Number)
  tokensIn!: number;

  @Field(() => Number)
  tokensOut!: number;

  @Field(() => Int)
  sessions!: number;

  @Field(() => Int)
  activeMembers!: number;
}

@ObjectType({ description: 'Tokens and sessions of one UTC day in a lab.' })
export class LabUsageDay {
  @Field({ description: 'YYYY-MM-DD, UTC.' })
  day!: string;

  @Field(() => Number)
  tokensIn!: number;

  @Field(() => Number)
  tokensOut!: number;

  @Field(() => Int, { description: 'Distinct sessions with usage that day.' })
  sessions!: number;
}

@ObjectType({ description: 'Owner-only aggregate usage of a lab.' })
export class LabUsageReport {
  @Field(() => ID)
  labId!: string;

  @Field(() => [LabUsageMember])
  members!: LabUsageMember[];

  @Field(() => LabUsageTotals)
  totals!: LabUsageTotals;
}

@ObjectType({ description: 'One shared analysis on the lab board.' })
export class BoardRow {
  @Field(() => ID)
  sessionId!: string;

  @Field(() => ID)
  ownerId!: string;

  @Field()
  ownerName!: string;

  @Field(() => String, { nullable: true })
  title!: string | null;

  @Field(() => Date)
  lastActivityAt!: Date;

  @Field(() => Int)
  count!: number;

  @Field({ description: 'running, stopped or failed.' })
  state!: string;

  @Field(() => String, { nullable: true })
  stoppedAtUuid!: string | null;

  @Field(() => String, { nullable: true })
  lastText!: string | null;

  @Field(() => String, { nullable: true })
  error!: string | null;

  @Field(() => [String])
  outputs!: string[];

  @Field(() => Int)
  figureCount!: number;

  @Field(() => Int)
  openAnnotations!: number;
}

@ObjectType({ description: 'One scan of the lab’s shared analyses.' })
export class LabBoard extends LimitPage(BoardRow) {}

@ObjectType({ description: 'An open review thread (an open annotation) on a shared trajectory.' })
export class ReviewThread {
  @Field(() => ID)
  annotationId!: string;

  @Field(() => ID)
  sessionId!: string;

  @Field(() => String, { nullable: true })
  sessionTitle!: string | null;

  @Field()
  recordUuid!: string;

  @Field(() => ID)
  authorId!: string;

  @Field()
  body!: string;

  @Field(() => Date)
  createdAt!: Date;
}

@ObjectType({ description: 'Open review threads across the lab’s shared trajectories.' })
export class LabReviews {
  @Field(() => [ReviewThread], { description: 'On trajectories the caller owns, written by others.' })
  forMe!: ReviewThread[];

  @Field(() => [ReviewThread], { description: 'Written by the caller on others’ trajectories.' })
  byMe!: ReviewThread[];
}

@ObjectType({ description: 'A membership change, streamed to the lab’s owner, mentors and admins.' })
export class LabMemberEventNode {
  @Field(() => ID)
  labId!: string;

  @Field(() => ID)
  memberUserId!: string;

  @Field({ description: 'join, approve, reject, role, revoke or leave.' })
  action!: string;

  @Field(() => MemberStatusValue)
  status!: MemberStatusValue;

  @Field(() => MemberRoleValue)
  role!: MemberRoleValue;

  @Field(() => Date)
  at!: Date;
}

@ObjectType({ description: 'A page of labs.' })
export class LabPage extends OffsetPage(LabNode) {}
