import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Who calls the A2A endpoint, as the rest of the service sees it: the principal the gate
 * (a2a-gate.service.ts) admitted, and what the endpoint asks of the gate. A leaf, so that the
 * facade and the context can name the caller without importing the gate.
 */

/** Who is calling: one key (tasks are scoped to it), or the open loopback endpoint's single anonymous caller. */
export interface A2aPrincipal {
  id: string;
  ownerId: string;
  /** Whether the owner had an enabled outbound agent when the gate admitted the call (false: a turn need not look for them). */
  ownerAgents?: boolean;
}

/**
 * The A2A caller of an operation the A2A endpoint runs in-process: set on the context by
 * `facade/a2a.ts` only (a `/graphql` request never carries one, so no web user can act as a
 * principal). `readmit` runs the gate again with the request's credential, for streams that
 * outlive the admission.
 */
export interface A2aCaller {
  principal: A2aPrincipal;
  /** @throws FORBIDDEN, UNAUTHENTICATED as `A2aGate.admit` */
  readmit(em: EntityManager): Promise<A2aPrincipal>;
}

/** The open endpoint's caller (loopback, no keys): every such call is the same principal. */
export const OPEN_PRINCIPAL = 'local';

/** What the A2A endpoint (facade/a2a.ts) asks of the gate, which the composition root hands it. */
export interface A2aAdmission {
  /** Whether keys are required now (the card says so). @throws NOT_FOUND while A2A is not enabled */
  current(em: EntityManager): Promise<{ mounting: { authRequired: boolean } }>;
  /** The caller of one request. @throws NOT_FOUND, FORBIDDEN, UNAUTHENTICATED */
  admit(em: EntityManager, authorization: string | undefined, host: string | undefined): Promise<A2aPrincipal>;
}
