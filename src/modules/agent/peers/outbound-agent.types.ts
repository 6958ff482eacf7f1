import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum A2aAgentStatusValue {
  pending = 'pending',
  ok = 'ok',
  failed = 'failed',
}
registerEnumType(A2aAgentStatusValue, {
  name: 'A2aAgentStatus',
  description: 'The last test of an outbound agent: pending (not tested since it was registered or pointed elsewhere), ok or failed.',
});

@ObjectType({
  description:
    'An external A2A agent the caller registered, offered to their agent as the tool `a2a__<id>`. Its key is never shown, only masked.',
})
export class A2aAgentNode {
  @Field(() => ID, { description: 'The id the caller chose (unique among the caller’s entries).' })
  id!: string;

  @Field()
  name!: string;

  @Field({ description: 'The agent’s base URL (or its card’s URL).' })
  url!: string;

  @Field(() => String, {
    nullable: true,
    description: 'The key, masked: eight • then its last four characters when it has 16 or more. Null: no key.',
  })
  apiKey!: string | null;

  @Field({ description: 'Whether the caller’s agent may call it.' })
  enabled!: boolean;

  @Field({ description: 'Whether loopback, private, link-local and CGNAT addresses are allowed.' })
  allowPrivate!: boolean;

  @Field(() => A2aAgentStatusValue)
  status!: A2aAgentStatusValue;

  @Field(() => String, { nullable: true, description: 'Why the last test failed; null unless status is failed.' })
  error!: string | null;

  @Field(() => Date, { nullable: true, description: 'When the last test ended; null while pending.' })
  checkedAt!: Date | null;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date)
  updatedAt!: Date;
}

@ObjectType({ description: 'The answer to a registration: the entry’s id and every entry of the caller.' })
export class A2aAgentSavePayload {
  @Field(() => ID)
  id!: string;

  @Field(() => [A2aAgentNode])
  agents!: A2aAgentNode[];
}

@ObjectType({ description: 'The outcome of a test: the agent card’s summary when ok, else why it failed.' })
export class A2aAgentTestResult {
  @Field({ description: 'Whether the agent answered with a usable A2A agent card.' })
  ok!: boolean;

  @Field(() => String, { nullable: true, description: 'The card’s name (the peer’s text, at most 200 characters).' })
  name!: string | null;

  @Field(() => String, { nullable: true, description: 'The card’s description (the peer’s text, at most 1000 characters).' })
  description!: string | null;

  @Field(() => String, { nullable: true, description: 'The card’s version.' })
  version!: string | null;

  @Field(() => [String], { nullable: true, description: 'The A2A protocol versions its interfaces declare.' })
  protocolVersions!: string[] | null;

  @Field(() => Int, { nullable: true, description: 'How many skills the card lists.' })
  skillCount!: number | null;

  @Field(() => String, {
    nullable: true,
    description: 'Why the test failed: `refused: …`, `unreachable: …`, `time-out: …`, `TLS: …`, `too large: …` or `not an A2A agent: …`.',
  })
  error!: string | null;
}

@ObjectType({ description: 'The answer to a deletion.' })
export class A2aAgentDeletePayload {
  @Field(() => ID)
  id!: string;
}
