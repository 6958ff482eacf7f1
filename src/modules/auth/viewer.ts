import { unauthenticated } from '../../errors';
import type { UserFacts } from '../users/user-facts';

/**
 * Who is calling: the user and the credential used. A leaf below every policy and service, so
 * that they can name the caller without importing how it was authenticated.
 */
export interface Viewer {
  /** The user's columns as the credential's lookup read them (plain data: possibly from the credential cache). */
  user: UserFacts;
  /** The credential's id: a token's (`tok_…`) or a browser session's (`ses_…`). */
  credentialId: string;
  /** Set when the credential is a sandbox's token: the lease it is bound to (see token.policy). */
  leaseId?: number;
  /** Whether the user is an active member of an active lab (the lab tier), read with the credential. */
  inActiveLab: boolean;
}

/** What a request context offers the policies: its caller, if signed in. */
export interface ViewerSource {
  viewer(): Promise<Viewer | null>;
  /** What `viewer()` settled on, once it has (see `Ctx`). */
  readonly settledViewer?: Viewer | null;
}

/**
 * The signed-in caller of a request context.
 * @throws UNAUTHENTICATED without one
 */
export async function requireViewer(ctx: ViewerSource): Promise<Viewer> {
  const viewer = await ctx.viewer();
  if (!viewer) throw unauthenticated();
  return viewer;
}

/**
 * `requireViewer`, answered at once when the credential was checked already (an operation's
 * access check does it first): no promise, no turn of the microtask queue.
 * @throws UNAUTHENTICATED without a caller
 */
export function requireViewerNow(ctx: ViewerSource): Viewer | Promise<Viewer> {
  const settled = ctx.settledViewer;
  if (settled === undefined) return requireViewer(ctx);
  if (settled === null) throw unauthenticated();
  return settled;
}
