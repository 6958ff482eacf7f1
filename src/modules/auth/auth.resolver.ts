import { Arg, Ctx as Context, Field, InputType, Int, Mutation, ObjectType, Resolver, Extensions } from 'type-graphql';
import type { Ctx } from '../../context';
import type { Viewer } from './viewer';
import { checks } from '../../validation';
import * as auth from './auth.service';
import { ANYONE, AUTH_LIMITED, Caller, MINTS_CREDENTIAL, SIGNED_IN } from '../../operation-rules';

@ObjectType({ description: 'A started CLI login: show the user code, poll with the device code.' })
class DeviceLoginStart {
  @Field({ description: 'Secret; the CLI polls with it.' })
  deviceCode!: string;

  @Field({ description: 'Short code the person confirms when approving.' })
  userCode!: string;

  @Field({ description: 'Where the person approves the login.' })
  verificationUrl!: string;

  @Field(() => Int, { description: 'Seconds between polls.' })
  interval!: number;

  @Field(() => Int, { description: 'Seconds until the codes expire.' })
  expiresIn!: number;
}

@ObjectType({ description: 'A login: a short-lived access token and a single-use refresh token.' })
class LoginTokens {
  @Field()
  accessToken!: string;

  @Field()
  refreshToken!: string;

  @Field()
  tokenType!: string;

  @Field(() => Int, { description: 'Seconds the access token lives.' })
  expiresIn!: number;
}

@ObjectType({ description: 'pending until the login is approved, then the tokens (handed out once).' })
class DeviceLoginPoll {
  @Field({ description: 'pending or approved.' })
  status!: string;

  @Field(() => String, { nullable: true })
  accessToken?: string;

  @Field(() => String, { nullable: true })
  refreshToken?: string;

  @Field(() => String, { nullable: true })
  tokenType?: string;

  @Field(() => Int, { nullable: true })
  expiresIn?: number;
}

@ObjectType({ description: 'An approved CLI login; the CLI receives its tokens on its next poll.' })
class DeviceLoginApproval {
  @Field()
  userCode!: string;

  @Field({ description: 'Always approved.' })
  status!: string;
}

@ObjectType({ description: 'A denied CLI login; the CLI is told so on its next poll (403 "login denied").' })
class DeviceLoginDenial {
  @Field()
  userCode!: string;

  @Field({ description: 'Always denied.' })
  status!: string;
}

@InputType()
class DeviceApproveInput {
  @Field({ description: 'The code the CLI shows, e.g. ABCD-EFGH.' })
  userCode!: string;
}

@InputType()
class DeviceDenyInput {
  @Field({ description: 'The code the CLI shows, e.g. ABCD-EFGH.' })
  userCode!: string;
}

@InputType()
class DevicePollInput {
  @Field()
  deviceCode!: string;
}

@InputType()
class RefreshInput {
  @Field()
  refreshToken!: string;
}

const checkSecret = (path: string[], value: string) => checks().text(path, value, { min: 1, max: 512 }).done();

@Resolver()
export class AuthResolver {
  @Extensions({ ...ANYONE, ...AUTH_LIMITED })
  @Mutation(() => DeviceLoginStart, { description: 'Starts a CLI (device flow) login. No credential needed.' })
  async authCliStart(@Context() ctx: Ctx): Promise<DeviceLoginStart> {
    const started = await auth.startDeviceLogin(ctx.em);
    // The approval page on this service (`PUBLIC_URL`, else the host the CLI used).
    return { ...started, verificationUrl: `${ctx.baseUrl}/device` };
  }

  @Extensions({ ...SIGNED_IN, ...MINTS_CREDENTIAL, ...AUTH_LIMITED })
  @Mutation(() => DeviceLoginApproval, { description: 'The signed-in caller approves a CLI login by its user code.' })
  async authCliApprove(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('input', () => DeviceApproveInput) input: DeviceApproveInput,
  ): Promise<DeviceLoginApproval> {
    checks().text(['input', 'userCode'], input.userCode, { min: 1, max: 32 }).done();
    const userCode = await auth.approveDeviceLogin(ctx.em, viewer, input.userCode);
    return { userCode, status: 'approved' };
  }

  @Extensions({ ...SIGNED_IN, ...MINTS_CREDENTIAL, ...AUTH_LIMITED })
  @Mutation(() => DeviceLoginDenial, {
    description: 'The signed-in caller denies a CLI login by its user code; its poll then answers "login denied".',
  })
  async authCliDeny(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('input', () => DeviceDenyInput) input: DeviceDenyInput,
  ): Promise<DeviceLoginDenial> {
    checks().text(['input', 'userCode'], input.userCode, { min: 1, max: 32 }).done();
    const userCode = await auth.denyDeviceLogin(ctx.em, viewer, input.userCode);
    return { userCode, status: 'denied' };
  }

  @Extensions(ANYONE)
  @Mutation(() => DeviceLoginPoll, { description: 'The CLI polls its login; the tokens come once, on the first poll after approval.' })
  async authCliPoll(@Context() ctx: Ctx, @Arg('input', () => DevicePollInput) input: DevicePollInput): Promise<DeviceLoginPoll> {
    checkSecret(['input', 'deviceCode'], input.deviceCode);
    return auth.pollDeviceLogin(ctx.em, input.deviceCode);
  }

  @Extensions({ ...ANYONE, ...AUTH_LIMITED })
  @Mutation(() => LoginTokens, { description: 'Exchanges a refresh token (single use) for a new pair.' })
  async authRefresh(@Context() ctx: Ctx, @Arg('input', () => RefreshInput) input: RefreshInput): Promise<LoginTokens> {
    checkSecret(['input', 'refreshToken'], input.refreshToken);
    return auth.refreshLogin(ctx.em, input.refreshToken);
  }
}
