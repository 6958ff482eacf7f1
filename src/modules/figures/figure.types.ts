import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';

@InputType({ description: 'Rows of a figure map to record (free-form objects; see the spec’s Figure map row).' })
export class FigureMapInput {
  @Field(() => [GraphQLJSONObject], {
    description:
      'Each row: canonical_path and one of cdn_url / storage_uri, optional original_uri, compressed, mime, bytes. Other members are ignored.',
  })
  figures!: Record<string, unknown>[];
}

@ObjectType({ description: 'A session’s figure map after a write.' })
export class FigureMapResult {
  @Field(() => ID)
  sessionId!: string;

  @Field(() => Int)
  figureCount!: number;
}

@ObjectType({
  description: 'Where a figure upload may go: the session (its owner is the caller, and there is a drive), and how large each file may be.',
})
export class FigureUploadTarget {
  @Field(() => ID)
  sessionId!: string;

  @Field(() => Float, { description: 'The most bytes each uploaded file may have.' })
  maxBytes!: number;
}

@InputType({ description: 'A figure this request uploaded: its received files by name, and its form fields as sent.' })
export class FigureUploadInput {
  @Field({ description: 'The received figure’s name in this request.' })
  file!: string;

  @Field(() => String, { nullable: true, description: 'The received original’s name in this request, when `file` is a compressed copy.' })
  original?: string | null;

  @Field(() => String, { nullable: true, description: 'The path records use for the figure (required).' })
  canonicalPath?: string | null;

  @Field(() => String, { nullable: true })
  mime?: string | null;

  @Field(() => Boolean, { nullable: true })
  compressed?: boolean | null;
}

@ObjectType({ description: 'A row of a session’s figure map.' })
export class FigureRow {
  @Field()
  canonicalPath!: string;

  @Field(() => String, { nullable: true })
  cdnUrl!: string | null;

  @Field(() => String, { nullable: true })
  storageUri!: string | null;

  @Field(() => String, { nullable: true })
  originalUri!: string | null;

  @Field(() => Boolean, { nullable: true })
  compressed!: boolean | null;

  @Field(() => String, { nullable: true })
  mime!: string | null;

  @Field(() => Float, { nullable: true })
  bytes!: number | null;
}

@ObjectType({ description: 'A private blob as its signed URL serves it.' })
export class SignedBlobNode {
  @Field({ description: 'Its key in the drive.' })
  key!: string;

  @Field({ description: 'Hex SHA-256 (the ETag).' })
  sha256!: string;

  @Field(() => Float, { description: 'Bytes.' })
  size!: number;

  @Field()
  lastModified!: Date;

  @Field({ description: 'The media type it is served as (only raster images as themselves).' })
  contentType!: string;

  @Field({ description: 'inline or attachment.' })
  disposition!: string;
}

@ObjectType({ description: 'A figure’s canonical path and the URL a cloud client is given for it.' })
export class FigureServeUrl {
  @Field()
  path!: string;

  @Field()
  url!: string;
}
