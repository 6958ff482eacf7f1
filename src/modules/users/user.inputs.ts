import { Field, InputType, Int } from 'type-graphql';
import { Checks, checks } from '../../validation';
import { checkNewPassword } from '../auth/password';
import { PlanCodeValue, PlanSourceValue } from './user.types';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ().-]{3,40}$/;
const DOMAIN = /^[a-z0-9][a-z0-9_-]*$/;

@InputType({ description: 'A new user (admin only).' })
export class UserCreateInput {
  @Field()
  email!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  phone?: string | null;

  @Field(() => PlanCodeValue, { nullable: true, description: 'Default free.' })
  planCode?: PlanCodeValue | null;

  @Field({ nullable: true, description: 'Default false.' })
  isAdmin?: boolean;

  @Field(() => String, { nullable: true, description: 'Default omics.' })
  domain?: string | null;

  @Field(() => String, { nullable: true })
  institution?: string | null;

  @Field(() => String, { nullable: true, description: 'A password to sign in with (12 to 1,024 characters); none by default.' })
  password?: string | null;
}

@InputType({ description: 'Changes to a user (admin only); omitted members stay as they are.' })
export class UserUpdateInput {
  @Field(() => String, { nullable: true })
  name?: string;

  @Field(() => String, { nullable: true, description: 'null clears it.' })
  phone?: string | null;

  @Field(() => PlanCodeValue, { nullable: true })
  planCode?: PlanCodeValue;

  @Field(() => PlanSourceValue, { nullable: true })
  planSource?: PlanSourceValue;

  @Field(() => Date, { nullable: true, description: 'null: the plan never expires.' })
  planExpiresAt?: Date | null;

  @Field({ nullable: true })
  isAdmin?: boolean;

  @Field({ nullable: true })
  disabled?: boolean;

  @Field(() => String, { nullable: true })
  domain?: string;

  @Field(() => String, { nullable: true, description: 'null clears it.' })
  institution?: string | null;

  @Field(() => Number, { nullable: true, description: 'Bytes; null returns to the plan’s quota.' })
  storageQuotaBytes?: number | null;
}

@InputType({ description: 'A label for a new personal access token.' })
export class TokenCreateInput {
  @Field({ description: '1-100 characters.' })
  label!: string;

  @Field(() => Int, { nullable: true, description: 'Days until it stops working, 1-3650; none: it works until revoked.' })
  expiresInDays?: number | null;
}

function profileChecks(
  c: Checks,
  p: { email?: string; name?: string; phone?: string | null; domain?: string | null; institution?: string | null },
) {
  return c
    .text(['input', 'email'], p.email, { max: 254, pattern: EMAIL, hint: 'must be an email address' })
    .text(['input', 'name'], p.name?.trim(), { min: 1, max: 200 })
    .text(['input', 'phone'], p.phone, { max: 40, pattern: PHONE, hint: 'must be a phone number' })
    .text(['input', 'domain'], p.domain, { min: 1, max: 64, pattern: DOMAIN, hint: 'lower-case letters, digits, _ and -' })
    .text(['input', 'institution'], p.institution, { min: 1, max: 200 });
}

export function checkUserCreate(input: UserCreateInput) {
  profileChecks(checks(), input).done();
  if (input.password != null) checkNewPassword(input.password, ['input', 'password']);
}

export function checkUserUpdate(input: UserUpdateInput) {
  const c = profileChecks(checks(), input).notNull(input, ['name', 'planCode', 'planSource', 'isAdmin', 'disabled', 'domain']);
  const quota = input.storageQuotaBytes;
  if (quota != null && (!Number.isSafeInteger(quota) || quota < 0)) {
    c.add(['input', 'storageQuotaBytes'], 'must be a whole number of bytes, at least 0', 'number_invalid');
  }
  c.done();
}

export function checkTokenLabel(input: TokenCreateInput) {
  checks()
    .text(['input', 'label'], input.label.trim(), { min: 1, max: 100 })
    .int(['input', 'expiresInDays'], input.expiresInDays, { min: 1, max: 3650 })
    .done();
}
