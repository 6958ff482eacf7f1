import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { OffsetPage } from '../../pages';
import { PLAN_CODES, PLAN_SOURCES } from './plans';

export enum PlanCodeValue {
  free = 'free',
  pro = 'pro',
  lab = 'lab',
  enterprise = 'enterprise',
}
registerEnumType(PlanCodeValue, { name: 'PlanCode', description: `A plan: ${PLAN_CODES.join(', ')}.` });

export enum PlanSourceValue {
  paid = 'paid',
  promo = 'promo',
  trial = 'trial',
  admin = 'admin',
}
registerEnumType(PlanSourceValue, { name: 'PlanSource', description: `How the plan was obtained: ${PLAN_SOURCES.join(', ')}.` });

@ObjectType({ description: 'A user account.' })
export class UserNode {
  @Field(() => ID)
  id!: string;

  @Field()
  email!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  phone!: string | null;

  @Field(() => PlanCodeValue)
  planCode!: PlanCodeValue;

  @Field(() => PlanSourceValue)
  planSource!: PlanSourceValue;

  @Field(() => Date, { nullable: true, description: 'After this instant the plan counts as free.' })
  planExpiresAt!: Date | null;

  @Field(() => PlanCodeValue, { description: 'The highest of the unexpired plan and lab (while an active member of an active lab).' })
  effectiveTier!: PlanCodeValue;

  @Field()
  isAdmin!: boolean;

  @Field()
  disabled!: boolean;

  @Field({ description: 'Research domain used by segmentation (default omics).' })
  domain!: string;

  @Field(() => String, { nullable: true, description: 'Institution as the user gave it.' })
  institution!: string | null;

  @Field(() => String, { nullable: true, description: 'Derived from the institution registry; null when unresolved.' })
  institutionTier!: string | null;

  @Field(() => String, { nullable: true })
  institutionType!: string | null;

  @Field(() => String, { nullable: true })
  institutionName!: string | null;

  @Field(() => Number, { description: 'Effective storage quota: the admin override, else the plan’s.' })
  storageQuotaBytes!: number;

  @Field(() => Number)
  storageUsedBytes!: number;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  lastActiveAt!: Date | null;
}

@ObjectType({ description: 'A page of users.' })
export class UserPage extends OffsetPage(UserNode) {}

@ObjectType({ description: 'A new personal access token; the plaintext is shown only here.' })
export class IssuedTokenNode {
  @Field(() => ID)
  tokenId!: string;

  @Field()
  token!: string;
}

@ObjectType({ description: 'A personal access token, never its secret.' })
export class PersonalTokenNode {
  @Field(() => ID)
  tokenId!: string;

  @Field()
  label!: string;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  expiresAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'Set once revoked; the token no longer works.' })
  revokedAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When it last authenticated a request (to a minute); null: never.' })
  lastUsedAt!: Date | null;
}

@ObjectType({ description: 'A page of personal access tokens, newest first.' })
export class PersonalTokenPage extends OffsetPage(PersonalTokenNode) {}

@ObjectType({
  description:
    'A person as another user sees them: their name, and their email only where the viewer may read it (see docs/api/graphql.md “People”).',
})
export class Person {
  @Field(() => ID, { description: 'The person’s user id.' })
  userId!: string;

  @Field({ description: 'Their display name; “Former user” when the account no longer exists.' })
  name!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'Their email, for themselves, admins, and the owner and mentors of an active lab they are active in; null for anyone else.',
  })
  email!: string | null;
}

@ObjectType({ description: 'Rows of the user table, one read batch of them, for replication.' })
export class UserSyncBatch {
  @Field(() => [String], { description: 'Each row as a JSON object of its raw columns (snake_case).' })
  rows!: string[];
}
