import { Field, Int, ObjectType } from 'type-graphql';

const PAID = 'Enabled users on an unexpired paid plan above free.';
const GRANTED = 'Enabled users on an unexpired plan above free obtained free (promo, trial, admin); never counted as paid.';

/** The counts every segment carries (a base for fields; nothing returns it, so the schema leaves it out). */
@ObjectType()
abstract class SegmentCounts {
  @Field(() => Int)
  users!: number;

  @Field(() => Int, { description: PAID })
  paid!: number;

  @Field(() => Int, { description: GRANTED })
  granted!: number;
}

@ObjectType({ description: 'Users of one institution tier.' })
export class TierSegmentNode extends SegmentCounts {
  @Field({ description: 'The registry tier, or "unresolved".' })
  tier!: string;
}

@ObjectType({ description: 'Users of one institution type.' })
export class TypeSegmentNode extends SegmentCounts {
  @Field({ description: 'The registry type, or "unresolved".' })
  type!: string;
}

@ObjectType({ description: 'Users of one institution of the registry.' })
export class InstitutionSegmentNode extends SegmentCounts {
  @Field({ description: 'The registry name.' })
  name!: string;
}

@ObjectType({ description: 'An institution string the registry does not recognise.' })
export class UnresolvedInstitutionNode {
  @Field({ description: 'As users typed it (one spelling of those equal up to case and surrounding spaces).' })
  institution!: string;

  @Field(() => Int)
  users!: number;
}

@ObjectType({ description: 'Users and paying users of a domain over institution tier, type and name (docs/api/admin.md).' })
export class SegmentationNode extends SegmentCounts {
  @Field()
  domain!: string;

  @Field(() => [TierSegmentNode], { description: 'Every tier, most users first.' })
  byTier!: TierSegmentNode[];

  @Field(() => [TypeSegmentNode], { description: 'Every type, most users first.' })
  byType!: TypeSegmentNode[];

  @Field(() => [InstitutionSegmentNode], { description: 'The `limit` institutions with most users.' })
  byInstitution!: InstitutionSegmentNode[];

  @Field(() => [UnresolvedInstitutionNode], { description: 'The `limit` most common institution strings the registry cannot match.' })
  unresolved!: UnresolvedInstitutionNode[];
}
