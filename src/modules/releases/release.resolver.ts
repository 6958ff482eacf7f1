import { Arg, Ctx as Context, Extensions, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../context';
import { invalid, notFound } from '../../errors';
import {
  checkReleaseFileTarget,
  countDownload,
  currentFeed,
  currentManifest,
  downloadUrl,
  Manifest,
  publishedFile,
  publishManifest,
  releaseFileKey,
  releaseFiles,
  storeReleaseFile,
} from './release.service';
import {
  ReleaseDownloadNode,
  ReleaseFeedNode,
  ReleaseFileStatsNode,
  ReleaseManifestInput,
  ReleaseManifestNode,
  ReleaseUploadedNode,
  ReleaseUploadTargetNode,
} from './release.types';
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
    return presentManifest(await publishManifest(ctx.em, ctx.services.blobs.store, product, input), ctx.baseUrl);
  }

  @Extensions(ADMIN)
  @Query(() => [ReleaseFileStatsNode], { description: "Admin: a product's release files with download counts." })
  async releaseFiles(@Context() ctx: Ctx, @Arg('product') product: string): Promise<ReleaseFileStatsNode[]> {
    return releaseFiles(ctx.em, product);
  }

  @Extensions(ANYONE)
  @Query(() => ReleaseDownloadNode, {
    description:
      'What GET …/download/{version}/{filename} serves: a file of a published version (public). Anything else, or no release store, is not found.',
  })
  async releaseDownload(
    @Context() ctx: Ctx,
    @Arg('product') product: string,
    @Arg('version') version: string,
    @Arg('filename') filename: string,
  ): Promise<ReleaseDownloadNode> {
    const file = await publishedFile(ctx.em, product, version, filename);
    if (!file || !ctx.services.blobs.store) throw notFound('release file');
    return { ...file, key: releaseFileKey(file) };
  }

  @Extensions(ANYONE)
  @Mutation(() => Boolean, { description: 'Counts one download of a published file (one that started at the first byte).' })
  async releaseDownloadCount(
    @Context() ctx: Ctx,
    @Arg('product') product: string,
    @Arg('version') version: string,
    @Arg('filename') filename: string,
  ): Promise<boolean> {
    const file = await publishedFile(ctx.em, product, version, filename);
    if (!file) throw notFound('release file');
    await countDownload(ctx.em, file);
    return true;
  }

  @Extensions(ANYONE)
  @Query(() => ReleaseFeedNode, {
    nullable: true,
    description: "A product's current release with each file's SHA-512, as the update feeds list it (public); null when none is published.",
  })
  async releaseFeed(@Context() ctx: Ctx, @Arg('product') product: string): Promise<ReleaseFeedNode | null> {
    const feed = await currentFeed(ctx.em, product);
    if (!feed) return null;
    const { manifest, files } = feed;
    return {
      version: manifest.version,
      releaseDate: manifest.pubDate,
      files: files.map((file) => ({
        ...file,
        platform: file.platform ?? null,
        arch: file.arch ?? null,
        url: downloadUrl(ctx.baseUrl, manifest.product, manifest.version, file.filename),
      })),
    };
  }

  @Extensions(RELEASE_TOKEN)
  @Query(() => ReleaseUploadTargetNode, {
    description: 'Where a release binary upload may go (release token), settled before its body is read; with the largest size allowed.',
  })
  async releaseUploadTarget(
    @Context() ctx: Ctx,
    @Arg('product') product: string,
    @Arg('version') version: string,
    @Arg('filename') filename: string,
  ): Promise<ReleaseUploadTargetNode> {
    const target = await checkReleaseFileTarget(ctx.em, ctx.services.blobs.store, { product, version, filename });
    return { ...target, maxBytes: ctx.services.config.maxReleaseFileBytes };
  }

  @Extensions(RELEASE_TOKEN)
  @Mutation(() => ReleaseUploadedNode, {
    description: 'Stores a release binary this request received (release token): `upload` names the file the REST upload streamed in.',
  })
  async releaseUpload(
    @Context() ctx: Ctx,
    @Arg('product') product: string,
    @Arg('version') version: string,
    @Arg('filename') filename: string,
    @Arg('upload', { description: 'The received file’s name in this request.' }) upload: string,
  ): Promise<ReleaseUploadedNode> {
    const file = ctx.received?.get(upload);
    if (!file) throw invalid([{ path: ['upload'], msg: 'names no file this request sent', type: 'value_error' }]);
    return storeReleaseFile(ctx.em, ctx.services.blobs.store, { product, version, filename }, file);
  }
}
