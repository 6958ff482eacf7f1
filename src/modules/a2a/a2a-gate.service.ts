import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedOf, sqlOf } from '../../db/sql';
import { AppError, forbidden, unauthenticated } from '../../errors';
import { digestsEqual, sha256Hex } from '../../ids';
import type { Logger } from '../../logger';
import { effectiveTier, PlanCode } from '../users/plans';
import { planFactsByEmail } from '../users/user.repository';
import { gateFacts, GateFacts, parseKey } from './a2a-settings.repository';
import { isLoopbackHostHeader, Mounting, mountingOf } from './a2a.policy';
import { type A2aAdmission, type A2aPrincipal, OPEN_PRINCIPAL } from './a2a-caller';

/** The owner's effective tier, or null when the account does not exist (one prepared statement). */
export async function ownerTierOf(em: EntityManager, email: string, now = new Date()): Promise<{ id: string; tier: PlanCode } | null> {
  const owner = await planFactsByEmail(em, email.toLowerCase());
  return owner && { id: owner.id, tier: effectiveTier(owner, owner.inActiveLab, now) };
}

/**
 * The A2A endpoint's door, decided on every request from the database as it is now (one
 * statement: the settings, the owner's tier, the keys), so that `labdesk a2a enable`, a new key
 * or a revocation counts from the next request on, on every instance.
 */
export class A2aGate implements A2aAdmission {
  constructor(private readonly host: string) {}

  /**
   * The mounting rules as they stand now (the card asks this too), and the presented key's id
   * when it is an active key (digests compared in constant time).
   * @throws NOT_FOUND while A2A is not enabled (as if there were no such endpoint)
   * @throws FORBIDDEN when the mounting rules refuse
   */
  async current(
    em: EntityManager,
    presented?: string,
  ): Promise<{ ownerId: string; ownerAgents: boolean; mounting: Extract<Mounting, { mounted: true }>; keyId?: string }> {
    const key = presented === undefined ? undefined : parseKey(presented);
    const facts = await gateFacts(preparedOf(em), key?.id ?? null);
    if (!facts.settings?.enabled) throw new AppError('NOT_FOUND', 'no such endpoint');
    const mounting = mountingOfFacts(facts, this.host);
    if (!mounting.mounted) throw forbidden(`A2A access refused: ${mounting.reason}`);
    const matches = key !== undefined && facts.keySha256 !== null && digestsEqual(facts.keySha256, sha256Hex(key.secret));
    return { ownerId: facts.owner!.id, ownerAgents: facts.ownerAgents, mounting, keyId: matches ? key.id : undefined };
  }

  /**
   * The caller of one request, from its `Authorization` and `Host` headers.
   * @throws NOT_FOUND, FORBIDDEN as `current`; FORBIDDEN too on the open endpoint for a request not addressed to a loopback name
   * @throws UNAUTHENTICATED when a key is required and the request has none, or not an active one
   */
  async admit(em: EntityManager, authorization: string | undefined, host: string | undefined): Promise<A2aPrincipal> {
    const bearer = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
    const { ownerId, ownerAgents, mounting, keyId } = await this.current(em, bearer);
    if (!mounting.authRequired) {
      // Open to anyone who reaches it: a web page must not, through DNS rebinding (its requests keep its own name).
      if (!isLoopbackHostHeader(host))
        throw forbidden('the A2A endpoint without keys answers requests addressed to localhost, 127.0.0.1 or [::1] only');
      return { id: OPEN_PRINCIPAL, ownerId, ownerAgents };
    }
    if (!bearer) throw unauthenticated('an A2A key is required: Authorization: Bearer ldk_a2a_…');
    if (!keyId) throw unauthenticated('the A2A key is not valid or was revoked');
    return { id: `key:${keyId}`, ownerId, ownerAgents };
  }
}

/** The mounting table applied to the facts of one request (an owner that does not exist refuses). */
export function mountingOfFacts(facts: GateFacts, host: string, now = new Date()): Mounting {
  const ownerTier = facts.owner && effectiveTier(facts.owner, facts.owner.inActiveLab, now);
  return mountingOf({
    enabled: facts.settings?.enabled ?? false,
    host,
    activeKeys: facts.activeKeys,
    everKeyed: facts.everKeyed,
    ownerTier,
  });
}

/** Says once at start how the endpoint stands (it is decided again on every request). */
export async function logA2aMounting(em: EntityManager, host: string, logger: Logger): Promise<void> {
  const facts = await gateFacts(sqlOf(em), null);
  if (!facts.settings?.enabled) return;
  const mounting = mountingOfFacts(facts, host);
  if (!mounting.mounted) return logger.error('A2A endpoint refuses every request', { reason: mounting.reason });
  if (mounting.warning) logger.warn(mounting.warning);
  logger.info('A2A endpoint open', { path: '/a2a/v1', authRequired: mounting.authRequired });
}
