import { Arg, Ctx as Context, Extensions, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../context';
import { currentCatalog, replaceCatalog, ServedCatalog } from './catalog.service';
import { ModelCatalogFileNode, ModelCatalogInput, ModelCatalogManifestNode, ModelCatalogNode } from './catalog.types';
import { ADMIN, ANYONE, Caller } from '../../operation-rules';
import type { Viewer } from '../auth/viewer';

export const presentCatalogManifest = ({ catalog, updatedAt, sha256 }: ServedCatalog): ModelCatalogManifestNode => ({
  version: catalog.version,
  updatedAt,
  sha256,
  count: catalog.models.length,
});

@Resolver()
export class CatalogResolver {
  @Extensions(ANYONE)
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

  @Extensions(ANYONE)
  @Query(() => ModelCatalogManifestNode, { description: 'Version and digest of the public model catalog.' })
  async modelCatalogManifest(@Context() ctx: Ctx): Promise<ModelCatalogManifestNode> {
    return presentCatalogManifest(await currentCatalog(ctx.em));
  }

  @Extensions(ANYONE)
  @Query(() => ModelCatalogFileNode, {
    description: 'The public model catalog as GET /admin/api/public/models serves it: its exact body, digest and time.',
  })
  async modelCatalogFile(@Context() ctx: Ctx): Promise<ModelCatalogFileNode> {
    const { body, sha256, updatedAt } = await currentCatalog(ctx.em);
    return { body, sha256, updatedAt };
  }

  @Extensions(ADMIN)
  @Mutation(() => ModelCatalogManifestNode, { description: 'Admin: replaces the model catalog.' })
  async modelCatalogReplace(
    @Context() ctx: Ctx,
    @Caller() admin: Viewer,
    @Arg('input', () => ModelCatalogInput) input: ModelCatalogInput,
  ): Promise<ModelCatalogManifestNode> {
    return presentCatalogManifest(await replaceCatalog(ctx.em, admin.user.id, input));
  }
}
