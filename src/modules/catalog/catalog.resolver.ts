import { Arg, Ctx as Context, Extensions, Mutation, Query, Resolver } from 'type-graphql';
import { ADMIN_ONLY } from '../../graphql-limits';
import type { Ctx } from '../../context';
import { requireAdmin } from '../admin/admin.policy';
import { currentCatalog, replaceCatalog, ServedCatalog } from './catalog.service';
import { ModelCatalogFileNode, ModelCatalogInput, ModelCatalogManifestNode, ModelCatalogNode } from './catalog.types';

export const presentCatalogManifest = ({ catalog, updatedAt, sha256 }: ServedCatalog): ModelCatalogManifestNode => ({
  version: catalog.version,
  updatedAt,
  sha256,
  count: catalog.models.length,
});

@Resolver()
export class CatalogResolver {
  @Query(() => ModelCatalogNode, { description: 'The public model catalog (no sign-in needed).' })
  async modelCatalog(@Context() ctx: Ctx): Promise<ModelCatalogNode> {
    const { catalog } = await currentCatalog(ctx.em);
    return {
      version: catalog.version,
      models: catalog.models.map((m) => ({
        ...m,
        contextWindow: m.context_window,
        inputPrice: m.input_price,
        outputPrice: m.output_price,
      })),
    };
  }

  @Query(() => ModelCatalogManifestNode, { description: 'Version and digest of the public model catalog.' })
  async modelCatalogManifest(@Context() ctx: Ctx): Promise<ModelCatalogManifestNode> {
    return presentCatalogManifest(await currentCatalog(ctx.em));
  }

  @Query(() => ModelCatalogFileNode, {
    description: 'The public model catalog as GET /admin/api/public/models serves it: its exact body, digest and time.',
  })
  async modelCatalogFile(@Context() ctx: Ctx): Promise<ModelCatalogFileNode> {
    const { body, sha256, updatedAt } = await currentCatalog(ctx.em);
    return { body, sha256, updatedAt };
  }

  @Extensions(ADMIN_ONLY)
  @Mutation(() => ModelCatalogManifestNode, { description: 'Admin: replaces the model catalog.' })
  async modelCatalogReplace(
    @Context() ctx: Ctx,
    @Arg('input', () => ModelCatalogInput) input: ModelCatalogInput,
  ): Promise<ModelCatalogManifestNode> {
    const admin = await requireAdmin(ctx);
    return presentCatalogManifest(await replaceCatalog(ctx.em, admin.user.id, input));
  }
}
