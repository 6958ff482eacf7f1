import { Arg, Ctx as Context, Extensions, Mutation, Query, Resolver } from 'type-graphql';
import { ADMIN_ONLY } from '../../graphql-limits';
import type { Ctx } from '../../context';
import { requireAdmin } from '../admin/admin.policy';
import { requireReleaseToken } from './release.policy';
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

export const presentManifest = (manifest: Manifest, baseUrl: string): ReleaseManifestNode => ({
  product: manifest.product,
  version: manifest.version,
  notes: manifest.notes,
  pubDate: new Date(manifest.pubDate),
  files: manifest.files.map((file) => ({ ...file, url: downloadUrl(baseUrl, manifest.product, manifest.version, file.filename) })),
});

@Resolver()
export class ReleaseResolver {
  @Query(() => ReleaseManifestNode, {
    nullable: true,
    description: "A product's current release (desktop or core); null when none is published.",
  })
  async releaseManifest(@Context() ctx: Ctx, @Arg('product') product: string): Promise<ReleaseManifestNode | null> {
    const manifest = await currentManifest(ctx.em, product);
    return manifest && presentManifest(manifest, ctx.baseUrl);
  }

  @Mutation(() => ReleaseManifestNode, { description: 'Publishes a release manifest (release token).' })
  async releasePublish(
    @Context() ctx: Ctx,
    @Arg('product') product: string,
    @Arg('input', () => ReleaseManifestInput) input: ReleaseManifestInput,
  ): Promise<ReleaseManifestNode> {
    requireReleaseToken(ctx);
    return presentManifest(await publishManifest(ctx.em, ctx.services.blobs.store, product, input), ctx.baseUrl);
  }

  @Extensions(ADMIN_ONLY)
  @Query(() => [ReleaseFileStatsNode], { description: "Admin: a product's release files with download counts." })
  async releaseFiles(@Context() ctx: Ctx, @Arg('product') product: string): Promise<ReleaseFileStatsNode[]> {
    await requireAdmin(ctx);
    return releaseFiles(ctx.em, product);
  }

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

  @Query(() => ReleaseUploadTargetNode, {
    description: 'Where a release binary upload may go (release token), settled before its body is read; with the largest size allowed.',
  })
  async releaseUploadTarget(
    @Context() ctx: Ctx,
    @Arg('product') product: string,
    @Arg('version') version: string,
    @Arg('filename') filename: string,
  ): Promise<ReleaseUploadTargetNode> {
    requireReleaseToken(ctx);
    const target = await checkReleaseFileTarget(ctx.em, ctx.services.blobs.store, { product, version, filename });
    return { ...target, maxBytes: ctx.services.config.maxReleaseFileBytes };
  }

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
    requireReleaseToken(ctx);
    const file = ctx.received?.get(upload);
    if (!file) throw invalid([{ path: ['upload'], msg: 'names no file this request sent', type: 'value_error' }]);
    return storeReleaseFile(ctx.em, ctx.services.blobs.store, { product, version, filename }, file);
  }
}
