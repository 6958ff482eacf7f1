import {
  Arg,
  Ctx as Context,
  Extensions,
  Field,
  FieldResolver,
  ID,
  InputType,
  Mutation,
  ObjectType,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import type { Ctx } from '../../context';
import { forbidden, notFound } from '../../errors';
import { audit } from '../audit/audit.service';
import { User } from '../users/user.entity';
import { findUserById } from '../users/user.repository';
import { presentUser } from '../users/user.resolver';
import { UserNode } from '../users/user.types';
import { checks } from '../../validation';
import { PASSWORD_MAX_LENGTH } from './password';
import * as sessions from './session.service';
import type { Viewer } from './viewer';
import { ADMIN, ANYONE, AUTH_LIMITED, Caller, MINTS_CREDENTIAL, SIGNED_IN, STARTS_SESSION } from '../../operation-rules';

@ObjectType({ description: "A browser session of the caller's (the labdesk_session cookie)." })
class SessionNode {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'How it began: password, password_link or oidc.' })
  method!: string;

  @Field(() => String, { nullable: true, description: "The browser's User-Agent at sign-in." })
  userAgent!: string | null;

  @Field(() => String, { nullable: true, description: 'The address the sign-in came from.' })
  address!: string | null;

  @Field()
  createdAt!: Date;

  @Field({ description: 'Last used (to the minute).' })
  lastSeenAt!: Date;

  @Field({ description: 'When it ends however busy; unused for SESSION_IDLE_HOURS, it ends sooner.' })
  expiresAt!: Date;

  @Field({ description: 'Whether this request came with it.' })
  current!: boolean;
}

@ObjectType({ description: 'A signed-in browser: the session is in the labdesk_session cookie, never in the answer.' })
class SignedIn {
  @Field(() => UserNode)
  user!: UserNode;
}

@ObjectType({ description: 'A one-time set-password link (24 hours, single use).' })
class PasswordLinkNode {
  @Field({ description: 'Give it to the user; the secret is in its fragment, which browsers never send to a server.' })
  url!: string;

  @Field()
  expiresAt!: Date;

  @Field({ description: 'Whether it was also mailed to the user (SMTP_URL set, and the mail server took it).' })
  mailed!: boolean;
}

@InputType()
class SignInInput {
  @Field()
  email!: string;

  @Field()
  password!: string;
}

@InputType()
class PasswordSetInput {
  @Field(() => String, { nullable: true, description: 'Needed when a password is set already.' })
  currentPassword?: string | null;

  @Field({ description: '12 to 1,024 characters.' })
  newPassword!: string;
}

@InputType()
class PasswordLinkUseInput {
  @Field({ description: 'The ldk_pwl_… token from the link.' })
  token!: string;

  @Field({ description: '12 to 1,024 characters.' })
  newPassword!: string;
}

/** The mail that carries a set-password link: plain text, the link on a line of its own. */
function passwordLinkMail(user: User, url: string, expiresAt: Date) {
  return {
    to: user.email,
    subject: 'Set your labdesk password',
    text: [
      `Hello ${user.name},`,
      '',
      'An administrator invites you to set a password for labdesk. Open this link:',
      '',
      url,
      '',
      `It works once, until ${expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC. If you did not expect it, ignore this mail.`,
    ].join('\n'),
  };
}

/** The cookie writer of a browser request. @throws FORBIDDEN where there is none (graphql-ws, A2A) */
function browserOf(ctx: Ctx) {
  if (!ctx.browser) throw forbidden('sign in over HTTP: POST /api/auth/login, or this mutation at POST /graphql');
  return ctx.browser;
}

async function ownSessions(ctx: Ctx, viewer: Viewer): Promise<SessionNode[]> {
  const { config, clock } = ctx.services;
  const rows = await sessions.listSessions(ctx.em, viewer.user.id, config.sessions, clock.now());
  return rows.map((row) => ({ ...row, current: row.id === viewer.credentialId }));
}

@Resolver(() => UserNode)
export class SessionResolver {
  @Extensions({ ...ANYONE, ...MINTS_CREDENTIAL, ...AUTH_LIMITED, ...STARTS_SESSION })
  @Mutation(() => SignedIn, { description: 'Signs in with email and password: the answer sets the labdesk_session cookie.' })
  async authLogin(@Context() ctx: Ctx, @Arg('input', () => SignInInput) input: SignInInput): Promise<SignedIn> {
    checks()
      .text(['input', 'email'], input.email, { min: 1, max: 254 })
      .text(['input', 'password'], input.password, { min: 1, max: PASSWORD_MAX_LENGTH })
      .done();
    const browser = browserOf(ctx);
    const { services } = ctx;
    const started = await sessions.signInWithPassword(
      ctx.em,
      { email: input.email, password: input.password, origin: browser.origin },
      services.signInAttempts,
      services.config.sessions,
      services.clock.now(),
    );
    browser.begin(started);
    return { user: presentUser((await findUserById(ctx.em, started.userId))!) };
  }

  @Extensions(ANYONE)
  @Mutation(() => Boolean, { nullable: true, description: 'Signs out: ends the session of the cookie and removes the cookie.' })
  async authLogout(@Context() ctx: Ctx): Promise<null> {
    const browser = browserOf(ctx);
    if (browser.cookie) await sessions.endSessionOfCookie(ctx.em, browser.cookie);
    browser.end();
    return null;
  }

  @Extensions({ ...ANYONE, ...MINTS_CREDENTIAL, ...AUTH_LIMITED, ...STARTS_SESSION })
  @Mutation(() => SignedIn, { description: 'Sets a password through a one-time link, signs in, and ends every other session of the user.' })
  async passwordLinkUse(@Context() ctx: Ctx, @Arg('input', () => PasswordLinkUseInput) input: PasswordLinkUseInput): Promise<SignedIn> {
    checks().text(['input', 'token'], input.token, { min: 1, max: 100 }).done();
    const browser = browserOf(ctx);
    const { config, clock } = ctx.services;
    const started = await ctx.em.transactional((tx) =>
      sessions.usePasswordLink(tx, input.token, input.newPassword, browser.origin, config.sessions, clock.now()),
    );
    browser.begin(started);
    return { user: presentUser((await findUserById(ctx.em, started.userId))!) };
  }

  @Extensions({ ...SIGNED_IN, ...MINTS_CREDENTIAL, ...AUTH_LIMITED })
  @Mutation(() => Boolean, { nullable: true, description: "Sets or changes the caller's password; their other sessions end." })
  async setPassword(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('input', () => PasswordSetInput) input: PasswordSetInput,
  ): Promise<null> {
    checks().text(['input', 'currentPassword'], input.currentPassword, { max: PASSWORD_MAX_LENGTH }).done();
    await sessions.setOwnPassword(ctx.em, viewer, input.currentPassword ?? undefined, input.newPassword);
    return null;
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => Boolean, { nullable: true, description: "Ends one of the caller's sessions." })
  async revokeSession(@Context() ctx: Ctx, @Caller() viewer: Viewer, @Arg('sessionId', () => ID) sessionId: string): Promise<null> {
    await sessions.revokeSession(ctx.em, viewer.user.id, sessionId);
    return null;
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => Boolean, {
    description: 'Ends every browser session of the caller but the one making this request (all of them, with a token).',
  })
  async revokeOtherSessions(@Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<boolean> {
    await sessions.endOtherSessions(ctx.em, viewer);
    return true;
  }

  @Extensions({ ...ADMIN, ...MINTS_CREDENTIAL })
  @Mutation(() => PasswordLinkNode, { description: 'Admin: a one-time link for the user to set a password (24 hours).' })
  async passwordLink(@Context() ctx: Ctx, @Caller() admin: Viewer, @Arg('userId', () => ID) userId: string): Promise<PasswordLinkNode> {
    const { user, link } = await ctx.em.transactional(async (tx) => {
      const found = await tx.findOne(User, { id: userId });
      if (!found) throw notFound('user');
      audit(tx, { action: 'user.password_link', actorId: admin.user.id, subjectUserId: userId });
      return { user: found, link: await sessions.issuePasswordLink(tx, userId, admin.user.id, ctx.services.clock.now()) };
    });
    const url = `${ctx.baseUrl}/set-password#${link.token}`;
    // Mailed once committed: a link in a mailbox always works.
    const mailed = (await ctx.services.mailer?.send(passwordLinkMail(user, url, link.expiresAt))) ?? false;
    return { url, expiresAt: link.expiresAt, mailed };
  }

  @FieldResolver(() => [SessionNode], { description: "The user's browser sessions in force, newest first (the caller's own only)." })
  async sessions(@Root() user: UserNode, @Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<SessionNode[]> {
    if (viewer.user.id !== user.id) throw forbidden("only a user's own sessions are listed");
    return ownSessions(ctx, viewer);
  }

  @FieldResolver(() => Boolean, {
    description: "Whether the user has a password, so that changing it asks for the current one (the caller's own only).",
  })
  async hasPassword(@Root() user: UserNode, @Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<boolean> {
    if (viewer.user.id !== user.id) throw forbidden('only whether one has a password oneself is told');
    return sessions.hasPassword(ctx.em, user.id);
  }

  @Extensions(SIGNED_IN)
  @Query(() => [SessionNode], { description: "The caller's browser sessions in force, newest first (as me { sessions })." })
  async mySessions(@Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<SessionNode[]> {
    return ownSessions(ctx, viewer);
  }
}
