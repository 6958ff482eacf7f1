import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

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
