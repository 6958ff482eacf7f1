import { Arg, Ctx as Context, Extensions, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../context';
import { requireReleaseToken } from './release.policy';
import { currentManifest, downloadUrl, Manifest, publishManifest, releaseFiles } from './release.service';
import { ReleaseFileStatsNode, ReleaseManifestInput, ReleaseManifestNode } from './release.types';
import { ADMIN, ANYONE, RELEASE_TOKEN } from '../../operation-rules';

export const presentManifest = (manifest: Manifest, baseUrl: string): ReleaseManifestNode => ({
  product: manifest.product,
  version: manifest.version,
  notes: manifest.notes,
  pubDate: new Date(manifest.pubDate),
  files: manifest.files.map((file) => ({ ...file, url: downloadUrl(baseUrl, manifest.product, manifest.version, file.filename) })),
});

@Resolver()
export class ReleaseResolver {
  @Extensions(ANYONE)
  @Query(() => ReleaseManifestNode, {
    nullable: true,
    description: "A product's current release (desktop or core); null when none is published.",
  })
  async releaseManifest(@Context() ctx: Ctx, @Arg('product') product: string): Promise<ReleaseManifestNode | null> {
    const manifest = await currentManifest(ctx.em, product);
    return manifest && presentManifest(manifest, ctx.baseUrl);
  }

  @Extensions(RELEASE_TOKEN)
  @Mutation(() => ReleaseManifestNode, { description: 'Publishes a release manifest (release token).' })
  async releasePublish(
    @Context() ctx: Ctx,
    @Arg('product') product: string,
    @Arg('input', () => ReleaseManifestInput) input: ReleaseManifestInput,
  ): Promise<ReleaseManifestNode> {
    requireReleaseToken(ctx);
    return presentManifest(await publishManifest(ctx.em, ctx.services.blobs.store, product, input), ctx.baseUrl);
  }

  @Extensions(ADMIN)
  @Query(() => [ReleaseFileStatsNode], { description: "Admin: a product's release files with download counts." })
  async releaseFiles(@Context() ctx: Ctx, @Arg('product') product: string): Promise<ReleaseFileStatsNode[]> {
    return releaseFiles(ctx.em, product);
  }
}
