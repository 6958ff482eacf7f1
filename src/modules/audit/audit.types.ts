import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { OffsetPage } from '../../pages';
import { Person } from '../users/user.types';

@ObjectType({ description: 'The lab an audit event concerns.' })
export class AuditLabNode {
  @Field(() => ID)
  labId!: string;

  @Field(() => String, { nullable: true, description: 'Null once the lab is gone.' })
  name!: string | null;
}

@ObjectType({ description: 'One recorded change: who did what, to whom or which lab, and when.' })
export class AuditEventNode {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'What happened, e.g. user.update, token.create, member.approve, lab.code_rotate.' })
  action!: string;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Person, { nullable: true, description: 'Who did it; null for the service itself or the server CLI.' })
  actor!: Person | null;

  @Field(() => Person, { nullable: true, description: 'The person it was done to, if any.' })
  subject!: Person | null;

  @Field(() => AuditLabNode, { nullable: true, description: 'The lab it concerns, if any.' })
  lab!: AuditLabNode | null;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'What else the event recorded (changed fields, a token id, how it was done).',
  })
  detail!: Record<string, unknown> | null;
}

@ObjectType({ description: 'A page of audit events, newest first.' })
export class AuditEventPage extends OffsetPage(AuditEventNode) {}
