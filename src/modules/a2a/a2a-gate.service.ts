import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, forbidden, unauthenticated } from '../../errors';
import { effectiveTier, PlanCode } from '../users/plans';
import { planFactsByEmail } from '../users/user.repository';
import { activeKeys, A2aConfig, KeyFileWatch, matchKey, readA2aConfig } from './a2a-settings';
import { isLoopbackHostHeader, Mounting, mountingOf } from './a2a.policy';

/** Who is calling: one key (tasks are scoped to it), or the open loopback endpoint's single anonymous caller. */
export interface A2aPrincipal {
  id: string;
  ownerId: string;
}

/**
 * The A2A caller of an operation the A2A endpoint runs in-process: set on the context by
 * `facade/a2a.ts` only (a `/graphql` request never carries one, so no web user can act as a
 * principal). `readmit` runs the gate again with the request's credential, for streams that
 * outlive the admission.
 */
export interface A2aCaller {
  principal: A2aPrincipal;
  /** @throws FORBIDDEN, UNAUTHENTICATED as `A2aGate.admit` */
  readmit(em: EntityManager): Promise<A2aPrincipal>;
}

/** The open endpoint's caller (loopback, no keys): every such call is the same principal. */
export const OPEN_PRINCIPAL = 'local';

/** The owner's effective tier, or null when the account does not exist (one prepared statement: every A2A request asks). */
export async function ownerTierOf(em: EntityManager, email: string, now = new Date()): Promise<{ id: string; tier: PlanCode } | null> {
  const owner = await planFactsByEmail(em, email.toLowerCase());
  return owner && { id: owner.id, tier: effectiveTier(owner, owner.inActiveLab, now) };
}

/**
 * The A2A endpoint's door: decided once at startup (mounted or not, from DATA_DIR/a2a.json, the
 * key file, the bind and the owner's tier), then every request is checked again against the key
 * file as it is now and the owner's tier as it is now (one indexed lookup).
 */
export class A2aGate {
  private readonly keys: KeyFileWatch;

  private constructor(
    readonly settings: A2aConfig,
    readonly atStart: Mounting,
    private readonly host: string,
    dataDir: string,
  ) {
    this.keys = new KeyFileWatch(dataDir);
  }

  /** @throws Error when a2a.json exists but is invalid (the service refuses to start: a config it cannot read is not "disabled"). */
  static async open(em: EntityManager, options: { dataDir: string; host: string }): Promise<A2aGate> {
    const settings = readA2aConfig(options.dataDir);
    const watch = new KeyFileWatch(options.dataDir);
    const keys = watch.current();
    const owner = settings.enabled ? await ownerTierOf(em, settings.owner) : null;
    const atStart =
      keys === 'invalid' && settings.enabled
        ? ({ mounted: false, reason: 'the A2A key file is not valid' } as const)
        : mountingOf({ enabled: settings.enabled, host: options.host, activeKeys: keys === 'invalid' ? 0 : activeKeys(keys).length, ownerTier: owner?.tier ?? null });
    return new A2aGate(settings, atStart, options.host, options.dataDir);
  }

  get mounted(): boolean {
    return this.atStart.mounted;
  }

  /**
   * The mounting rules as they stand now (the card asks this too: once refused, 403 everywhere).
   * @throws FORBIDDEN when they refuse, UNAVAILABLE when the key file is not valid
   */
  async current(em: EntityManager) {
    const keys = this.keys.current();
    if (keys === 'invalid') throw new AppError('UNAVAILABLE', 'the A2A key file is not valid');
    const owner = await ownerTierOf(em, this.settings.owner);
    const now = mountingOf({ enabled: true, host: this.host, activeKeys: activeKeys(keys).length, ownerTier: owner?.tier ?? null });
    if (!now.mounted || !owner) throw forbidden(`A2A access refused: ${now.mounted ? 'no owner' : now.reason}`);
    return { owner, now, keys };
  }

  /**
   * The caller of one request to a mounted endpoint, from its `Authorization` and `Host` headers.
   * @throws FORBIDDEN when the mounting rules refuse now (tier dropped, owner gone, last key revoked on a public bind),
   *   and on the open endpoint for a request not addressed to a loopback name
   * @throws UNAUTHENTICATED when a key is required and the request has none, or not an active one
   */
  async admit(em: EntityManager, authorization: string | undefined, host: string | undefined): Promise<A2aPrincipal> {
    const { owner, now, keys } = await this.current(em);
    // Mounted with keys, it stays keyed: revoking the last key locks the endpoint rather than opening it.
    if (!now.authRequired && !(this.atStart.mounted && this.atStart.authRequired)) {
      // Open to anyone who reaches it: a web page must not, through DNS rebinding (its requests keep its own name).
      if (!isLoopbackHostHeader(host)) throw forbidden('the A2A endpoint without keys answers requests addressed to localhost, 127.0.0.1 or [::1] only');
      return { id: OPEN_PRINCIPAL, ownerId: owner.id };
    }
    const bearer = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
    if (!bearer) throw unauthenticated('an A2A key is required: Authorization: Bearer ldk_a2a_…');
    const key = matchKey(keys, bearer);
    if (!key) throw unauthenticated('the A2A key is not valid or was revoked');
    return { id: `key:${key.id}`, ownerId: owner.id };
  }
}
