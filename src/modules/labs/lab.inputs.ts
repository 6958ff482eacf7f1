import { Field, InputType, Int, registerEnumType } from 'type-graphql';
import { LabStatusValue } from './lab.types';
import { checks } from '../../validation';

export enum MemberStatusChange {
  active = 'active',
  rejected = 'rejected',
  revoked = 'revoked',
}
registerEnumType(MemberStatusChange, { name: 'MemberStatusChange', description: 'An owner decision on a membership.' });

export enum AssignableRole {
  mentor = 'mentor',
  member = 'member',
}
registerEnumType(AssignableRole, { name: 'AssignableRole', description: 'A role the owner can give (there is one owner).' });

@InputType({ description: 'A new lab. The caller becomes its owner.' })
export class LabCreateInput {
  @Field({ description: '1-100 characters.' })
  name!: string;

  @Field(() => Int, { nullable: true, description: 'Admins only; default 10.' })
  seatQuota?: number | null;
}

@InputType({ description: 'A request to join the lab of an invitation code.' })
export class LabJoinInput {
  @Field({ description: 'The invitation code.' })
  code!: string;
}

@InputType({ description: 'Owner decision on a membership: approve, reject, revoke and/or change role.' })
export class LabMemberUpdateInput {
  @Field(() => MemberStatusChange, { nullable: true, description: 'active (approve), rejected or revoked.' })
  status?: MemberStatusChange | null;

  @Field(() => AssignableRole, { nullable: true, description: 'mentor or member.' })
  role?: AssignableRole | null;
}

@InputType({ description: 'Admin changes to a lab; omitted members stay as they are.' })
export class LabAdminUpdateInput {
  @Field(() => String, { nullable: true, description: '1-100 characters.' })
  name?: string;

  @Field(() => LabStatusValue, { nullable: true })
  status?: LabStatusValue;

  @Field(() => Int, { nullable: true, description: '1-10000.' })
  seatQuota?: number;
}

export const LAB_NAME_MAX = 100;
export const SEAT_QUOTA_MAX = 10_000;

export function checkLabName(path: string[], name: string | null | undefined) {
  return checks().text(path, name?.trim(), { min: 1, max: LAB_NAME_MAX });
}

export function checkMemberUpdate(input: LabMemberUpdateInput) {
  checks()
    .require(['input'], input.status != null || input.role != null, 'give status, role or both')
    .done();
}
