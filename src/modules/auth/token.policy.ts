import type { Viewer } from './viewer';

/**
 * What a sandbox's token may do. A sandbox runs its owner's work, so the pair it receives at
 * bootstrap acts with its owner's rights on the owner's API (trajectories, labs, compute). It is
 * bound to its lease and dies with it, so it must not buy its way out: it never acts as an admin
 * (even for an admin owner; see `isAdmin`) and never runs an operation that mints or changes a
 * credential (`MINTS_CREDENTIAL` in src/operation-rules.ts: passwords, sessions, tokens, claim
 * tokens, device-login decisions, A2A keys), which would outlive the lease.
 */
export const isSandboxToken = (viewer: Viewer): boolean => viewer.leaseId !== undefined;
