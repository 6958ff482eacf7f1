import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A language model offered to clients.' })
export class CatalogModelNode {
  @Field()
  id!: string;

  @Field()
  provider!: string;

  @Field()
  name!: string;

  @Field(() => Int, { description: 'Tokens.' })
  contextWindow!: number;

  @Field(() => Float, { description: 'USD per million input tokens.' })
  inputPrice!: number;

  @Field(() => Float, { description: 'USD per million output tokens.' })
  outputPrice!: number;

  @Field(() => [String])
  capabilities!: string[];
}

@ObjectType({ description: 'The public model catalog.' })
export class ModelCatalogNode {
  @Field(() => [CatalogModelNode])
  models!: CatalogModelNode[];

  @Field()
  version!: string;
}

@ObjectType({ description: 'What a client polls to learn whether the catalog changed.' })
export class ModelCatalogManifestNode {
  @Field()
  version!: string;

  @Field()
  updatedAt!: Date;

  @Field({ description: 'Hex SHA-256 of the catalog body served by GET /admin/api/public/models.' })
  sha256!: string;

  @Field(() => Int, { description: 'How many models the catalog lists.' })
  count!: number;
}

@InputType({ description: 'A model of a replacement catalog.' })
export class CatalogModelInput {
  @Field()
  id!: string;

  @Field()
  provider!: string;

  @Field()
  name!: string;

  @Field(() => Int)
  contextWindow!: number;

  @Field(() => Float)
  inputPrice!: number;

  @Field(() => Float)
  outputPrice!: number;

  @Field(() => [String])
  capabilities!: string[];
}

@InputType({ description: 'A whole replacement catalog (admins).' })
export class ModelCatalogInput {
  @Field(() => [CatalogModelInput])
  models!: CatalogModelInput[];

  @Field()
  version!: string;
}

@ObjectType({ description: 'The public model catalog as stored: the body its manifest’s sha256 is of.' })
export class ModelCatalogFileNode {
  @Field({ description: 'The catalog JSON text, exactly as served.' })
  body!: string;

  @Field({ description: 'Hex SHA-256 of the body (the ETag).' })
  sha256!: string;

  @Field({ description: 'When the catalog last changed (Last-Modified).' })
  updatedAt!: Date;
}
