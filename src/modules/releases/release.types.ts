import { Field, Float, InputType, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A file of a release manifest.' })
export class ReleaseFileNode {
  @Field()
  filename!: string;

  @Field(() => Float, { description: 'Bytes.' })
  size!: number;

  @Field({ description: 'Hex SHA-256 (the core client verifies it).' })
  sha256!: string;

  @Field(() => String, { nullable: true, description: 'Signature the desktop shell verifies.' })
  signature!: string | null;

  @Field(() => String, { nullable: true })
  platform!: string | null;

  @Field(() => String, { nullable: true })
  arch!: string | null;

  @Field({ description: 'Download URL on this host.' })
  url!: string;
}

@ObjectType({ description: "A product's published release." })
export class ReleaseManifestNode {
  @Field()
  product!: string;

  @Field()
  version!: string;

  @Field(() => String, { nullable: true })
  notes!: string | null;

  @Field()
  pubDate!: Date;

  @Field(() => [ReleaseFileNode])
  files!: ReleaseFileNode[];
}

@InputType({ description: 'A file of a manifest to publish; it must already be in the release store.' })
export class ReleaseFileInput {
  @Field()
  filename!: string;

  @Field(() => Float, { description: 'Bytes; must match the stored file.' })
  size!: number;

  @Field(() => String, { nullable: true, description: 'Hex SHA-256; required for core, checked against the stored file when given.' })
  sha256?: string | null;

  @Field(() => String, { nullable: true, description: 'Required for desktop.' })
  signature?: string | null;

  @Field(() => String, { nullable: true })
  platform?: string | null;

  @Field(() => String, { nullable: true })
  arch?: string | null;
}

@InputType({ description: 'A release manifest to publish (release token).' })
export class ReleaseManifestInput {
  @Field({ description: 'Semantic version, e.g. 1.4.0 or 1.4.0-beta.2.' })
  version!: string;

  @Field(() => String, { nullable: true })
  notes?: string | null;

  @Field(() => Date, { nullable: true, description: 'Default: now.' })
  pubDate?: Date | null;

  @Field(() => Boolean, { nullable: true, description: 'Publish even if older than the current version.' })
  force?: boolean | null;

  @Field(() => [ReleaseFileInput])
  files!: ReleaseFileInput[];
}

@ObjectType({ description: 'A binary in the release store with its download count (admins).' })
export class ReleaseFileStatsNode {
  @Field()
  product!: string;

  @Field()
  version!: string;

  @Field()
  filename!: string;

  @Field(() => Float)
  size!: number;

  @Field()
  sha256!: string;

  @Field(() => Float, { description: 'Downloads that started at the first byte.' })
  downloads!: number;

  @Field()
  createdAt!: Date;
}

@ObjectType({ description: 'A published release file as its download serves it: where its bytes are, and their validators.' })
export class ReleaseDownloadNode {
  @Field()
  product!: string;

  @Field()
  version!: string;

  @Field()
  filename!: string;

  @Field({ description: 'Its key in the release store.' })
  key!: string;

  @Field(() => Float, { description: 'Bytes.' })
  size!: number;

  @Field({ description: 'Hex SHA-256 (the ETag).' })
  sha256!: string;

  @Field({ description: 'When it was stored (Last-Modified).' })
  createdAt!: Date;
}

@ObjectType({ description: 'Where a release binary upload may go, and how large it may be.' })
export class ReleaseUploadTargetNode {
  @Field()
  product!: string;

  @Field()
  version!: string;

  @Field()
  filename!: string;

  @Field(() => Float, { description: 'The most bytes the file may have.' })
  maxBytes!: number;
}

@ObjectType({ description: 'A release binary as stored.' })
export class ReleaseUploadedNode {
  @Field()
  product!: string;

  @Field()
  version!: string;

  @Field()
  filename!: string;

  @Field(() => Float, { description: 'Bytes.' })
  size!: number;

  @Field({ description: 'Hex SHA-256.' })
  sha256!: string;
}

@ObjectType({ description: 'A file of the current release as the update feeds list it: a manifest file with its SHA-512.' })
export class ReleaseFeedFileNode extends ReleaseFileNode {
  @Field({ description: 'Base64 SHA-512 (electron-updater verifies it); empty when unknown.' })
  sha512!: string;
}

@ObjectType({ description: "A product's current release as electron-updater's feeds describe it." })
export class ReleaseFeedNode {
  @Field()
  version!: string;

  @Field({ description: 'The publication date as published (ISO 8601 text).' })
  releaseDate!: string;

  @Field(() => [ReleaseFeedFileNode], { description: 'The manifest’s files, in its order.' })
  files!: ReleaseFeedFileNode[];
}
