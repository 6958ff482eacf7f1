import { createHash, timingSafeEqual } from 'node:crypto';
import type { Ctx } from '../../context';
import { forbidden, unauthenticated } from '../../errors';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Release publishing gate (spec, Authentication 4; docs/api/releases.md): a server with no
 * `RELEASE_TOKEN` refuses everything (403); otherwise the bearer must be that token (401),
 * compared in constant time (digests first, so lengths leak nothing either).
 */
export function requireReleaseToken(ctx: Ctx): void {
  const configured = ctx.services.config.releaseToken;
  if (!configured) throw forbidden('release publishing is not enabled on this server (RELEASE_TOKEN is unset)');
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(ctx.authorization ?? '')?.[1];
  if (!presented || !timingSafeEqual(digest(presented), digest(configured))) throw unauthenticated('a valid release token is required');
}
