import type { AgentCard } from '@a2a-js/sdk';
import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import {
  guardedFetchImpl,
  OutboundLimits,
  OutboundPolicy,
  OutboundRefused,
  OutboundRequestFailed,
  FailureKind,
  ResolvedAddress,
} from '../../../net/outbound';

/** What a test reports of a peer's card: a few members, each bounded (the card is the peer's text, shown to a person). */
export interface CardSummary {
  name: string;
  description: string;
  version: string;
  protocolVersions: string[];
  skillCount: number;
}

/** A card is small; one far larger is not a card (and is not read past this). */
export const CARD_MAX_BYTES = 256 * 1024;
const CARD_PATH = '.well-known/agent-card.json';
const TEXT_MAX = { name: 200, description: 1000, version: 100, protocolVersion: 20 };

/** The card refused, in words a user can act on (the cause of a failed test). */
export class CardUnusable extends Error {}

/**
 * Where the card of an agent registered at `url` is: the URL itself when it names the card,
 * else `.well-known/agent-card.json` under it (its path taken as a directory, so a base URL
 * with a path prefix keeps it, as the SDK's `createFromUrl` expects with a trailing slash).
 */
export function cardUrlOf(url: string): URL {
  const base = new URL(url);
  if (base.pathname.endsWith(`/${CARD_PATH}`)) return base;
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  base.search = '';
  base.hash = '';
  return new URL(CARD_PATH, base);
}

const FAILURE_WORDS: Record<FailureKind, string> = {
  unreachable: 'unreachable',
  timeout: 'time-out',
  tls: 'TLS',
  too_large: 'too large',
  failed: 'unreachable',
};

/**
 * Fetches an agent's card with the official client's resolver, through the outbound guard (every
 * address checked with `policy`, the connection to the checked address, no redirect followed,
 * `limits` on time and size), and sums it up. The addresses each request was pinned to are added
 * to `reached` (also when it fails: what the caller may say of the failure depends on them).
 * @throws OutboundRefused, OutboundRequestFailed, CardUnusable: see `failureReason`
 */
export async function fetchCardSummary(
  url: string,
  policy: OutboundPolicy,
  limits: OutboundLimits,
  reached: ResolvedAddress[] = [],
): Promise<CardSummary> {
  return summaryOf(await fetchAgentCard(url, policy, limits, reached));
}

/**
 * Fetches an agent's card as `fetchCardSummary` does (through the guard, with the official
 * client's resolver, the addresses reached added to `reached`), whole: what the client is made
 * from to call the agent.
 * @throws OutboundRefused, OutboundRequestFailed, CardUnusable: see `failureReason`
 */
export async function fetchAgentCard(
  url: string,
  policy: OutboundPolicy,
  limits: OutboundLimits,
  reached: ResolvedAddress[] = [],
): Promise<AgentCard> {
  const cardUrl = cardUrlOf(url);
  const guarded = guardedFetchImpl(policy, limits, (target) => void reached.push(...target.addresses));
  // An answer that is not a card is not read: its body is let go at once, so its connection closes.
  const fetchImpl: typeof fetch = async (input, init) => {
    const response = await guarded(input, init);
    if (response.ok) return response;
    void response.body?.cancel().catch(() => undefined);
    return new Response(null, { status: response.status });
  };
  const resolver = new DefaultAgentCardResolver({ fetchImpl });
  try {
    return await resolver.resolve(cardUrl.href, cardUrl.href);
  } catch (error) {
    if (error instanceof OutboundRefused || error instanceof OutboundRequestFailed) throw error;
    const status = /: (\d{3})$/.exec((error as Error)?.message ?? '')?.[1];
    if (status) throw new CardUnusable(`not an A2A agent: ${cardUrl.href} answered HTTP ${status}`);
    // By name: the fetch's JSON parser may be of another realm than this module's SyntaxError.
    if ((error as Error)?.name === 'SyntaxError') throw new CardUnusable(`not an A2A agent: ${cardUrl.href} is not JSON`);
    throw error;
  }
}

/** The members a test reports, from a 1.0 card (or a 0.3 one: `protocolVersion` at the top). @throws CardUnusable */
export function summaryOf(card: unknown): CardSummary {
  if (!card || typeof card !== 'object' || Array.isArray(card))
    throw new CardUnusable('not an A2A agent: the agent card is not a JSON object');
  const c = card as Record<string, unknown>;
  const text = (value: unknown, max: number) => (typeof value === 'string' ? [...value].slice(0, max).join('') : '');
  const name = text(c.name, TEXT_MAX.name).trim();
  if (!name) throw new CardUnusable('not an A2A agent: the agent card has no name');
  const interfaces = Array.isArray(c.supportedInterfaces) ? (c.supportedInterfaces as unknown[]) : [];
  const declared = [
    ...interfaces.map((i) => (i && typeof i === 'object' ? (i as Record<string, unknown>).protocolVersion : undefined)),
    c.protocolVersion,
  ];
  const protocolVersions = [...new Set(declared.map((v) => text(v, TEXT_MAX.protocolVersion)).filter(Boolean))].sort();
  if (protocolVersions.length === 0)
    throw new CardUnusable('not an A2A agent: the agent card declares no protocol version (supportedInterfaces[].protocolVersion)');
  return {
    name,
    description: text(c.description, TEXT_MAX.description),
    version: text(c.version, TEXT_MAX.version),
    protocolVersions,
    skillCount: Array.isArray(c.skills) ? c.skills.length : 0,
  };
}

/**
 * Why a test failed, as one line for the user: `refused: …` (the address rules or a redirect),
 * `unreachable: …`, `time-out: …`, `TLS: …`, `too large: …`, or `not an A2A agent: …`.
 * Anything else is reported without its details (they may hold internals). At a private address
 * the caller says none of this (outbound-agent.policy `hidesFailureAt`).
 */
export function failureReason(error: unknown): string {
  if (error instanceof CardUnusable) return error.message;
  return outboundFailureReason(error) ?? 'the agent card could not be read';
}

/**
 * Why the outbound guard stopped a request or it did not complete, as one line: `refused: …`,
 * `unreachable: …`, `time-out: …`, `TLS: …` or `too large: …`; undefined for any other error.
 */
export function outboundFailureReason(error: unknown): string | undefined {
  if (error instanceof OutboundRefused) return `refused: ${error.reason}`;
  if (error instanceof OutboundRequestFailed) return `${FAILURE_WORDS[error.kind]}: ${error.reason}`;
  return undefined;
}
