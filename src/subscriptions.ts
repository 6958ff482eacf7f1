import type { EntityManager } from '@mikro-orm/postgresql';
import type { Ctx } from './context';
import { authenticate, Viewer } from './modules/auth/auth.service';

/**
 * Passes events through while the subscriber may still receive them. A subscription outlives
 * any request: for every event the credential is authenticated again (revoked, expired or
 * disabled ends it) and `check` runs on a fresh EntityManager; the first refusal ends the stream.
 */
export async function* whileAllowed<T>(ctx: Ctx, events: AsyncIterable<T>, check: (em: EntityManager, viewer: Viewer) => Promise<unknown>) {
  for await (const event of events) {
    const em = ctx.services.orm.em.fork() as EntityManager;
    try {
      const viewer = await authenticate(em, ctx.authorization);
      if (!viewer) return;
      await check(em, viewer);
    } catch {
      return;
    }
    yield event;
  }
}
