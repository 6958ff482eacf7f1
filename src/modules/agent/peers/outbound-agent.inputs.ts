import { Field, InputType } from 'type-graphql';
import { checks } from '../../../validation';
import { isMaskedKey } from './outbound-agent.policy';

export const AGENT_ID_MAX = 48;
export const AGENT_NAME_MAX = 100;
export const AGENT_KEY_MAX = 1024;
/** Lower-case letters, digits, `_` and `-`, starting with a letter or digit: the tool `a2a__<id>` is a valid tool name of every model provider (at most 64 characters). */
const AGENT_ID = /^[a-z0-9][a-z0-9_-]*$/;
/** What an HTTP header value can carry as is: printable ASCII, no spaces. */
const KEY = /^[\x21-\x7e]+$/;

@InputType({ description: 'An external A2A agent to register, or the whole new form of the caller’s entry of that id.' })
export class A2aAgentCreateInput {
  @Field({
    description:
      'The entry’s id, chosen by the caller: 1-48 of a-z, 0-9, _ and -, starting with a letter or digit. The agent’s tool is `a2a__<id>`.',
  })
  id!: string;

  @Field({ description: 'A name for people, 1-100 characters.' })
  name!: string;

  @Field({
    description:
      'The agent’s base URL (its card is `.well-known/agent-card.json` under it), or its card’s URL. http(s); a private address only with allowPrivate.',
  })
  url!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'The key sent to the agent as `Authorization: Bearer <key>` (printable ASCII, at most 1024). Null or empty: none. The stored key’s mask keeps it.',
  })
  apiKey?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether our agent may call it (default true).' })
  enabled?: boolean | null;

  @Field(() => Boolean, {
    nullable: true,
    description:
      'Allow loopback, private, link-local and CGNAT addresses (default false). Metadata addresses and this service itself stay refused.',
  })
  allowPrivate?: boolean | null;
}

@InputType({ description: 'Changes to an entry; members left out stay as they are.' })
export class A2aAgentUpdateInput {
  @Field(() => String, { nullable: true, description: '1-100 characters.' })
  name?: string;

  @Field(() => String, { nullable: true, description: 'A new base URL; the entry is tested anew (status pending).' })
  url?: string;

  @Field(() => String, {
    nullable: true,
    description: 'A new key; the stored key’s mask, or leaving it out, keeps it; null or empty removes it.',
  })
  apiKey?: string | null;

  @Field(() => Boolean, { nullable: true })
  enabled?: boolean;

  @Field(() => Boolean, { nullable: true, description: 'Changing it puts the entry back to pending.' })
  allowPrivate?: boolean;
}

function checkKey(c: ReturnType<typeof checks>, apiKey: string | null | undefined) {
  if (!apiKey || isMaskedKey(apiKey)) return c;
  return c.text(['input', 'apiKey'], apiKey, { max: AGENT_KEY_MAX, pattern: KEY, hint: 'must be printable ASCII without spaces' });
}

/** @throws VALIDATION_FAILED naming each bad member */
export function checkAgentCreate(input: A2aAgentCreateInput): void {
  const c = checks()
    .text(['input', 'id'], input.id, {
      min: 1,
      max: AGENT_ID_MAX,
      pattern: AGENT_ID,
      hint: 'must be lower-case letters, digits, _ and -, starting with a letter or digit',
    })
    .text(['input', 'name'], input.name.trim(), { min: 1, max: AGENT_NAME_MAX })
    .storable(['input', 'name'], input.name);
  checkKey(c, input.apiKey).done();
}

/** @throws VALIDATION_FAILED naming each bad member */
export function checkAgentUpdate(input: A2aAgentUpdateInput): void {
  const c = checks()
    .notNull(input, ['name', 'url', 'enabled', 'allowPrivate'])
    .text(['input', 'name'], input.name?.trim(), { min: 1, max: AGENT_NAME_MAX })
    .storable(['input', 'name'], input.name);
  checkKey(c, input.apiKey).done();
}
