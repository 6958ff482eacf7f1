import type { EntityManager } from '@mikro-orm/postgresql';
import * as oidc from 'openid-client';
import type { OidcSettings } from '../../config';
import type { Sealer } from '../../db/instance-keys';
import { AppError } from '../../errors';
import { createUser } from '../users/user.service';
import * as repo from './oidc.repository';
import { SessionSettings, SignInOrigin, startSession, StartedSession } from './session.service';

/**
 * Why a single sign-on did not end in a session. The sign-in page says each in its own words
 * (web/login.js), so the URL carries only this code: no text of ours or the provider's.
 */
export const SIGN_ON_REFUSALS = [
  'state',
  'denied',
  'failed',
  'unavailable',
  'unverified_email',
  'no_account',
  'domain',
  'suspended',
  'linked_elsewhere',
] as const;
export type SignOnRefusal = (typeof SIGN_ON_REFUSALS)[number];

export class SignOnRefused extends AppError {
  constructor(
    readonly reason: SignOnRefusal,
    message: string,
  ) {
    super('UNAUTHENTICATED', message);
  }
}

/** A sign-in in flight: at most this long between leaving for the provider and coming back. */
export const PENDING_SIGN_ON_SECONDS = 600;
/** How long one call to the provider may take. */
const PROVIDER_TIMEOUT_SECONDS = 10;
const SCOPE = 'openid email profile';

/**
 * What the browser carries from `/auth/oidc/login` to the callback, sealed with the instance key
 * (so any instance takes the callback, and nobody can read or forge it): the PKCE verifier, the
 * state and nonce the provider's answer must match, and where to go afterwards.
 */
interface PendingSignOn {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  next: string;
  expiresAt: number;
}

/** What the provider vouches for about the person. */
export interface SignOnClaims {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/**
 * The OpenID Connect side of single sign-on: the authorization code flow with PKCE (S256),
 * `state` and `nonce`, through `openid-client`. The provider's metadata is read on first use and
 * kept; a failed read is tried again by the next sign-in.
 */
export class SingleSignOn {
  private configuration?: Promise<oidc.Configuration>;

  constructor(
    readonly settings: OidcSettings,
    private readonly sealer: Sealer,
  ) {}

  private provider(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    // config.ts allows http only for a provider on a loopback address.
    const insecure = new URL(issuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
    this.configuration ??= oidc
      .discovery(new URL(issuer), clientId, clientSecret, undefined, { execute: insecure, timeout: PROVIDER_TIMEOUT_SECONDS })
      .then((configuration) => {
        configuration.timeout = PROVIDER_TIMEOUT_SECONDS;
        return configuration;
      })
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw new SignOnRefused('unavailable', `the sign-on provider could not be reached: ${messageOf(error)}`);
      });
    return this.configuration;
  }

  /** Where to send the browser, and the sealed value of its pending sign-in (a cookie). */
  async begin(redirectUri: string, next: string, now: Date): Promise<{ url: string; pending: string }> {
    const configuration = await this.provider();
    const pending: PendingSignOn = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      redirectUri,
      next,
      expiresAt: now.getTime() + PENDING_SIGN_ON_SECONDS * 1000,
    };
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, pending: this.sealer.seal(JSON.stringify(pending)) };
  }

  /**
   * Checks the provider's answer (`query`, the callback's query string) against the pending
   * sign-in, redeems the code, and returns what the ID token (and, for what it lacks, the
   * userinfo endpoint) says about the person.
   * @throws SignOnRefused
   */
  async finish(query: string, sealedPending: string | undefined, now: Date): Promise<{ claims: SignOnClaims; next: string }> {
    const pending = this.openPending(sealedPending, now);
    const answer = new URL(pending.redirectUri);
    answer.search = query;
    // Checked before anything else: a callback URL that another browser started proves nothing here.
    if (answer.searchParams.get('state') !== pending.state)
      throw new SignOnRefused('state', 'the answer does not belong to the sign-in this browser started');
    if (answer.searchParams.has('error'))
      throw new SignOnRefused('denied', `the provider refused: ${answer.searchParams.get('error')!.slice(0, 100)}`);
    const configuration = await this.provider();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(configuration, answer, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw new SignOnRefused('failed', `the provider did not accept the sign-in: ${messageOf(error)}`);
    }
    const id = tokens.claims()!;
    let facts: Record<string, unknown> = id;
    if ((typeof id.email !== 'string' || id.email_verified === undefined) && configuration.serverMetadata().userinfo_endpoint) {
      try {
        facts = { ...(await oidc.fetchUserInfo(configuration, tokens.access_token, id.sub)), ...id };
      } catch (error) {
        throw new SignOnRefused('failed', `the provider's userinfo could not be read: ${messageOf(error)}`);
      }
    }
    const email =
      typeof facts.email === 'string' && /^[^@\s]+@[^@\s]+$/.test(facts.email) && facts.email.length <= 320 ? facts.email : null;
    const name = [facts.name, facts.preferred_username].find((value): value is string => typeof value === 'string' && value.trim() !== '');
    return {
      claims: {
        issuer: id.iss,
        subject: id.sub,
        email: email?.toLowerCase() ?? null,
        // Some providers send the flag as a string.
        emailVerified: facts.email_verified === true || facts.email_verified === 'true',
        name: name?.trim().slice(0, 200) ?? null,
      },
      next: pending.next,
    };
  }

  private openPending(sealed: string | undefined, now: Date): PendingSignOn {
    let pending: PendingSignOn | undefined;
    try {
      pending = sealed ? (JSON.parse(this.sealer.open(sealed)) as PendingSignOn) : undefined;
    } catch {
      pending = undefined;
    }
    if (!pending || pending.expiresAt <= now.getTime())
      throw new SignOnRefused('state', 'no sign-in is in progress in this browser, or it took longer than 10 minutes');
    return pending;
  }
}

/**
 * The session a single sign-on opens. The user is the one linked to the provider's subject; at a
 * first sign-on, the one with the provider's verified email (linked from then on), unless that
 * user is linked to another subject of the same provider; with no such user, a new account when
 * `OIDC_ALLOW_SIGNUP` and `OIDC_ALLOWED_DOMAINS` allow.
 * @throws SignOnRefused
 */
export async function signOn(
  em: EntityManager,
  settings: OidcSettings,
  claims: SignOnClaims,
  origin: SignInOrigin,
  sessions: SessionSettings,
  now: Date,
): Promise<StartedSession & { userId: string }> {
  const attempt = () =>
    em.transactional(async (tx) => {
      const userId = await signOnUser(tx, settings, claims);
      return { userId, ...(await startSession(tx, userId, 'oidc', origin, sessions, now)) };
    });
  try {
    return await attempt();
  } catch (error) {
    // Two first sign-ons of one new person at once: the second finds the account the first made.
    if (error instanceof AppError && error.code === 'CONFLICT') return attempt();
    throw error;
  }
}

async function signOnUser(tx: EntityManager, settings: OidcSettings, claims: SignOnClaims): Promise<string> {
  const { issuer, subject, email } = claims;
  const linked = await repo.linkedUser(tx, issuer, subject);
  if (linked) {
    if (linked.disabled) throw suspended();
    await repo.touchIdentity(tx, issuer, subject, claims.emailVerified ? email : null);
    return linked.userId;
  }
  if (!email || !claims.emailVerified)
    throw new SignOnRefused('unverified_email', 'the provider did not vouch for an email address, which a first sign-on needs');
  const existing = await repo.userByEmail(tx, issuer, email);
  let userId: string;
  if (existing) {
    if (existing.disabled) throw suspended();
    if (existing.linked)
      throw new SignOnRefused('linked_elsewhere', 'the account with this email signs on as another person at this provider');
    userId = existing.userId;
  } else {
    if (!settings.allowSignup) throw new SignOnRefused('no_account', 'no account has this email, and accounts are made by administrators');
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (settings.allowedDomains.length > 0 && !settings.allowedDomains.includes(domain))
      throw new SignOnRefused('domain', `new accounts are not open to ${domain}`);
    userId = (await createUser(tx, null, { email, name: claims.name ?? email.slice(0, email.indexOf('@')) })).id;
  }
  await repo.linkIdentity(tx, issuer, subject, userId, email);
  return userId;
}

const suspended = () => new SignOnRefused('suspended', 'this account is suspended');

/** An error's words for the log; the provider's error code and description when it sent them (`invalid_grant: …`). */
function messageOf(error: unknown): string {
  const told = error instanceof oidc.ResponseBodyError ? `${error.error}: ${error.error_description ?? error.message}` : undefined;
  return (told ?? (error instanceof Error ? error.message : String(error))).slice(0, 300);
}
