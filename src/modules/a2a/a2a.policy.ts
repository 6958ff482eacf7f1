import net from 'node:net';
import { isLoopbackAddress } from '../../net/addresses';
import type { Viewer } from '../auth/viewer';
import { isSandboxToken } from '../auth/token.policy';
import { isAdmin } from '../admin/admin.policy';
import { atLeast, PlanCode } from '../users/plans';

/** Whether the service listens on loopback only (the one bind where an endpoint without keys may open). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare) || bare === '::ffff:127.0.0.1';
}

const HOST_HEADER = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+))(?::\d{1,5})?$/;

/**
 * Whether a request's `Host` header names this machine's loopback: `localhost`, an address of
 * 127.0.0.0/8 or `[::1]`, with any port. A browser sends the name it resolved, so the requests of
 * a page whose own name was made to resolve to 127.0.0.1 (DNS rebinding) never pass.
 */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  const [, bracketed, name] = HOST_HEADER.exec(host ?? '') ?? [];
  if (bracketed !== undefined) return net.isIPv6(bracketed) && isLoopbackAddress(bracketed);
  if (name === undefined) return false;
  return name.toLowerCase() === 'localhost' || (net.isIPv4(name) && isLoopbackAddress(name));
}

/** The lowest tier whose owner may open the A2A endpoint (spec, Authentication 6). */
export const A2A_MIN_TIER: PlanCode = 'pro';

export type Mounting = { mounted: true; authRequired: boolean; warning?: string } | { mounted: false; reason: string };

/**
 * The mounting table (spec, Authentication 7), decided from the bind, the keys and the owner's
 * tier (null: no such account), on every request (a refusal is 403). Once a key was created the
 * endpoint stays keyed: revoking the last key locks it rather than opening it.
 */
export function mountingOf(facts: {
  enabled: boolean;
  host: string;
  activeKeys: number;
  everKeyed: boolean;
  ownerTier: PlanCode | null;
}): Mounting {
  if (!facts.enabled) return { mounted: false, reason: 'A2A is not enabled (labdesk a2a enable)' };
  if (facts.ownerTier === null) return { mounted: false, reason: 'the A2A owner account does not exist' };
  if (!atLeast(facts.ownerTier, A2A_MIN_TIER)) return { mounted: false, reason: `the A2A owner's tier (${facts.ownerTier}) is below Pro` };
  if (facts.activeKeys > 0) return { mounted: true, authRequired: true };
  if (!isLoopbackHost(facts.host))
    return { mounted: false, reason: 'A2A has no keys and the service listens beyond loopback (labdesk a2a key create)' };
  if (facts.everKeyed)
    return {
      mounted: true,
      authRequired: true,
      warning: 'every A2A key is revoked: the endpoint refuses every request (labdesk a2a key create)',
    };
  return { mounted: true, authRequired: false, warning: 'A2A endpoint open without authentication (loopback bind, no keys)' };
}

/**
 * Who may use the A2A web tools (every A2A task of this server, read-only): the A2A owner
 * (`labdesk a2a enable --owner`) and admins. `owner` is null while A2A is not enabled (admins only then).
 */
export function canUseA2aWebTools(viewer: Viewer, owner: string | null): boolean {
  return isAdmin(viewer) || (owner !== null && !isSandboxToken(viewer) && viewer.user.email.toLowerCase() === owner.toLowerCase());
}

/** A key's label (`labdesk a2a key create --label`, and the console): 1 to 100 letters, digits, spaces or ._:@/- */
export const KEY_LABEL = /^[\p{L}\p{N} ._:@/-]{1,100}$/u;
