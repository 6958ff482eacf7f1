import { forbidden } from '../../errors';
import type { Viewer } from './viewer';

/**
 * What a sandbox's token may do. A sandbox runs its owner's work, so the pair it receives at
 * bootstrap acts with its owner's rights on the owner's API (trajectories, labs, compute). It is
 * bound to its lease and dies with it, so it must not buy its way out: it never acts as an admin
 * (even for an admin owner; see `isAdmin`) and never mints credentials that would outlive the lease
 * (device-login approval; admin token creation is closed to it as an admin operation).
 */
export const isSandboxToken = (viewer: Viewer): boolean => viewer.leaseId !== undefined;

/** Refuses `action` to a sandbox token. @throws FORBIDDEN */
export function refuseSandboxToken(viewer: Viewer, action: string): void {
  if (isSandboxToken(viewer)) throw forbidden(`a sandbox token cannot ${action}`);
}
