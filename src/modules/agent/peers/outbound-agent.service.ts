import type { EntityManager } from '@mikro-orm/postgresql';
import type { Services } from '../../../context';
import { inTransaction, sqlOf } from '../../../db/sql';
import { AppError, conflict, invalid, notFound } from '../../../errors';
import { checkOutboundUrl, OutboundPolicy, ResolvedAddress, userUrlPolicy } from '../../../net/outbound';
import type { Viewer } from '../../auth/viewer';
import { CARD_MAX_BYTES, CardSummary, failureReason, fetchCardSummary } from './agent-card';
import { A2aAgentCreateInput, A2aAgentUpdateInput, checkAgentCreate, checkAgentUpdate } from './outbound-agent.inputs';
import {
  authorizeAllowPrivate,
  authorizeRegistry,
  hidesFailureAt,
  KeyChange,
  keyChangeOf,
  MAX_AGENTS_PER_USER,
  MAX_TESTS_IN_FLIGHT_PER_USER,
  PRIVATE_ADDRESS_FAILURE,
  testOutdatedBy,
} from './outbound-agent.policy';
import * as repo from './outbound-agent.repository';
import type { OutboundAgentRow } from './outbound-agent.repository';

export type RegistryServices = Pick<Services, 'config' | 'sealer' | 'outboundLookup'>;

/** A test's outcome as the wire has it: the card's summary, or why there is none. */
export type AgentTestOutcome = ({ ok: true } & CardSummary) | { ok: false; error: string };

/** Beyond the card's own time-out: resolving the host (at most 5 s) and a margin, so a lease outlives its test. */
const TEST_LEASE_EXTRA_SECONDS = 10;

const agentNotFound = () => notFound('outbound agent');
const foreignMask = () =>
  invalid([
    {
      path: ['input', 'apiKey'],
      msg: 'is a masked key that is not this entry’s: send the real key, or leave api_key out to keep the stored one',
      type: 'value_error',
    },
  ]);

/**
 * The guard's policy for an entry's URL: private addresses only with its `allow_private`; cloud
 * metadata and the service itself (PUBLIC_URL, the bind address and its aliases, what they
 * resolve to) never. The one guard the push webhooks use too.
 */
export function agentPolicy(
  services: RegistryServices,
  allowPrivate: boolean,
  field: (string | number)[] = ['input', 'url'],
): OutboundPolicy {
  return userUrlPolicy(services, allowPrivate, field);
}

const keyAfter = (services: RegistryServices, change: KeyChange, storedSealed: string | null) =>
  change.keep ? storedSealed : change.key === null ? null : services.sealer.seal(change.key);

/** The user's entries, in id order. */
export async function listAgents(em: EntityManager, viewer: Viewer): Promise<OutboundAgentRow[]> {
  authorizeRegistry(viewer, 'view');
  return repo.listAgents(sqlOf(em), viewer.user.id);
}

/** One of the user's entries. @throws NOT_FOUND for an unknown id or another user's entry (the same answer) */
export async function getAgent(em: EntityManager, viewer: Viewer, id: string): Promise<OutboundAgentRow> {
  authorizeRegistry(viewer, 'view');
  const row = await repo.findAgent(sqlOf(em), viewer.user.id, id);
  if (!row) throw agentNotFound();
  return row;
}

/**
 * Registers an entry, or replaces the user's entry of the same id (POST carries the whole
 * entry): its URL checked with the address rules first, its key sealed, its status pending.
 * The stored key's mask keeps the stored key. Answers every entry of the user.
 * @throws VALIDATION_FAILED for bad members, a refused URL (the service itself even with allow_private), another entry's mask, or the 51st entry
 * @throws FORBIDDEN for a sandbox token, or allow_private from a non-admin (before any lookup)
 */
export async function saveAgent(
  services: RegistryServices,
  em: EntityManager,
  viewer: Viewer,
  input: A2aAgentCreateInput,
): Promise<OutboundAgentRow[]> {
  authorizeRegistry(viewer, 'change');
  checkAgentCreate(input);
  const allowPrivate = input.allowPrivate ?? false;
  authorizeAllowPrivate(viewer, allowPrivate);
  await checkOutboundUrl(input.url, agentPolicy(services, allowPrivate));
  return inTransaction(em, async (q) => {
    await repo.lockOwner(q, viewer.user.id);
    const stored = await repo.findAgent(q, viewer.user.id, input.id);
    const change = keyChangeOf(input.apiKey, stored ? openKey(services, stored) : null);
    // A new entry's key left out is no key; a mask there can only be another entry's.
    if (change === 'foreign-mask' || (!stored && change.keep && input.apiKey !== undefined)) throw foreignMask();
    if (!stored && (await repo.countAgents(q, viewer.user.id)) >= MAX_AGENTS_PER_USER) {
      throw invalid([
        { path: ['input', 'id'], msg: `you have ${MAX_AGENTS_PER_USER} outbound agents already; delete one first`, type: 'value_error' },
      ]);
    }
    await repo.saveAgent(q, viewer.user.id, {
      id: input.id,
      name: input.name.trim(),
      url: input.url,
      apiKeySealed: keyAfter(services, change, stored?.apiKeySealed ?? null),
      enabled: input.enabled ?? true,
      allowPrivate,
      resetStatus: true,
    });
    return repo.listAgents(q, viewer.user.id);
  });
}

/**
 * Changes members of an entry. A new URL or `allow_private` is checked with the address rules
 * and puts the entry back to pending; a key left out or given as its mask stays.
 * @throws NOT_FOUND for an unknown or another user's entry; VALIDATION_FAILED as `saveAgent`;
 * FORBIDDEN for a non-admin setting allow_private, or giving an entry that has it a new URL;
 * CONFLICT when the entry's URL or address rule changed while this one was checked (retry)
 */
export async function updateAgent(
  services: RegistryServices,
  em: EntityManager,
  viewer: Viewer,
  id: string,
  input: A2aAgentUpdateInput,
): Promise<OutboundAgentRow> {
  authorizeRegistry(viewer, 'change');
  checkAgentUpdate(input);
  // Whose entry it is first: a stranger's id costs no DNS lookup and tells nothing.
  const before = await getAgent(em, viewer, id);
  const target = { url: input.url ?? before.url, allowPrivate: input.allowPrivate ?? before.allowPrivate };
  if (input.url !== undefined || input.allowPrivate !== undefined) {
    authorizeAllowPrivate(viewer, target.allowPrivate);
    await checkOutboundUrl(target.url, agentPolicy(services, target.allowPrivate));
  }
  return inTransaction(em, async (q) => {
    await repo.lockOwner(q, viewer.user.id);
    const stored = await repo.findAgent(q, viewer.user.id, id);
    if (!stored) throw agentNotFound();
    // What was checked must be what is stored: another write may have changed the entry since.
    if (testOutdatedBy({ url: input.url ?? stored.url, allowPrivate: input.allowPrivate ?? stored.allowPrivate }, target)) {
      throw conflict('the entry changed while it was being saved; try again');
    }
    const change = keyChangeOf(input.apiKey, openKey(services, stored));
    if (change === 'foreign-mask') throw foreignMask();
    return repo.saveAgent(q, viewer.user.id, {
      id,
      name: input.name?.trim() ?? stored.name,
      url: target.url,
      apiKeySealed: keyAfter(services, change, stored.apiKeySealed),
      enabled: input.enabled ?? stored.enabled,
      allowPrivate: target.allowPrivate,
      resetStatus: testOutdatedBy(stored, target),
    });
  });
}

/** Deletes an entry. @throws NOT_FOUND for an unknown or another user's entry; FORBIDDEN for a sandbox token */
export async function deleteAgent(em: EntityManager, viewer: Viewer, id: string): Promise<void> {
  authorizeRegistry(viewer, 'change');
  if (!(await inTransaction(em, (q) => repo.deleteAgent(q, viewer.user.id, id)))) throw agentNotFound();
}

/**
 * Tests an entry: fetches its agent card with the official client through the outbound guard
 * (its address checked again now, the connection to that address, no redirect followed, the
 * time-out `A2A_AGENT_TEST_TIMEOUT_SECONDS`), records the outcome and when on the entry, and
 * answers it. Whatever went wrong with the peer is an answer (`ok: false`), not an error; when
 * the test reached a private address, the one `PRIVATE_ADDRESS_FAILURE` whatever it was, so a
 * test cannot tell what listens on the host's network. One test per entry and three per user
 * run at once, over all instances; the outcome is not recorded when the entry's URL or address
 * rule changed meanwhile.
 * @throws NOT_FOUND for an unknown or another user's entry; RATE_LIMITED while its test (or three of the user's) runs; FORBIDDEN for a sandbox token
 */
export async function testAgent(services: RegistryServices, em: EntityManager, viewer: Viewer, id: string): Promise<AgentTestOutcome> {
  authorizeRegistry(viewer, 'test');
  const timeoutSeconds = services.config.a2aAgentTestTimeoutSeconds;
  const entry = await inTransaction(em, async (q) => {
    await repo.lockOwner(q, viewer.user.id);
    if (!(await repo.findAgent(q, viewer.user.id, id))) throw agentNotFound();
    if ((await repo.countTestsInFlight(q, viewer.user.id)) >= MAX_TESTS_IN_FLIGHT_PER_USER) {
      throw new AppError('RATE_LIMITED', `${MAX_TESTS_IN_FLIGHT_PER_USER} tests of your agents are running; wait for one to end`);
    }
    const claimed = await repo.claimTest(q, viewer.user.id, id, timeoutSeconds + TEST_LEASE_EXTRA_SECONDS);
    if (!claimed) throw new AppError('RATE_LIMITED', 'a test of this agent is running; wait for it to end');
    return claimed;
  });
  let outcome: AgentTestOutcome;
  const reached: ResolvedAddress[] = [];
  try {
    const summary = await fetchCardSummary(
      entry.url,
      agentPolicy(services, entry.allowPrivate, ['url']),
      { timeoutMs: timeoutSeconds * 1000, maxResponseBytes: CARD_MAX_BYTES },
      reached,
    );
    outcome = { ok: true, ...summary };
  } catch (error) {
    outcome = { ok: false, error: hidesFailureAt(reached) ? PRIVATE_ADDRESS_FAILURE : failureReason(error) };
  }
  await inTransaction(em, (q) => repo.recordTest(q, viewer.user.id, entry, { ok: outcome.ok, error: outcome.ok ? null : outcome.error }));
  return outcome;
}

/** The entry's key in clear (only to compare a submitted mask, or to call the agent). */
export function openKey(services: Pick<Services, 'sealer'>, row: Pick<OutboundAgentRow, 'apiKeySealed'>): string | null {
  return row.apiKeySealed === null ? null : services.sealer.open(row.apiKeySealed);
}
