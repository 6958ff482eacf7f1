import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from './config';
import type { Sealer } from './db/instance-keys';
import type { Orm } from './db/orm';
import { unauthenticated } from './errors';
import { authenticate, Viewer } from './modules/auth/auth.service';
import { Loaders, makeLoaders } from './loaders';
import type { AppPubSub } from './pubsub';

/** Long-lived parts every request shares. */
export interface Services {
  config: Config;
  orm: Orm;
  sealer: Sealer;
  pubsub: AppPubSub;
}

/** Per-request context: a forked EntityManager, the viewer (resolved once, lazily) and loaders. */
export interface Ctx {
  services: Services;
  em: EntityManager;
  requestId: string;
  /** The caller, or null when anonymous. @throws UNAUTHENTICATED for a bad credential. */
  viewer(): Promise<Viewer | null>;
  loaders: Loaders;
}

export function makeContext(services: Services, authorization: string | undefined, requestId: string): Ctx {
  const em = services.orm.em.fork() as EntityManager;
  let viewer: Promise<Viewer | null> | undefined;
  let loaders: Loaders | undefined;
  return {
    services,
    em,
    requestId,
    viewer: () => (viewer ??= authenticate(em, authorization)),
    get loaders() {
      return (loaders ??= makeLoaders(em));
    },
  };
}

/** The caller, who must be signed in. @throws UNAUTHENTICATED */
export async function requireViewer(ctx: Ctx): Promise<Viewer> {
  const viewer = await ctx.viewer();
  if (!viewer) throw unauthenticated();
  return viewer;
}
