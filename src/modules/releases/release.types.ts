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
