import type { EntityManager } from '@mikro-orm/postgresql';
import { authenticate, type CredentialChecks } from './auth.service';
import { authenticateSession, type SessionSettings } from './session.service';
import type { Viewer } from './viewer';

/** What a request presents: the `Authorization` header, the `labdesk_session` cookie, or both. */
export interface PresentedCredentials {
  authorization?: string;
  session?: string;
}

/**
 * The caller of a request: a bearer token when there is an `Authorization` header (it takes
 * precedence, and a bad one is a 401), else the session cookie (a dead one: anonymous), else
 * anonymous.
 * @throws UNAUTHENTICATED for a bad `Authorization` header
 */
export function authenticateCaller(
  emOf: () => EntityManager,
  presented: PresentedCredentials,
  sessions: SessionSettings,
  checks: CredentialChecks = {},
): Promise<Viewer | null> {
  if (presented.authorization) return authenticate(emOf, presented.authorization, checks);
  if (presented.session) return authenticateSession(emOf(), presented.session, sessions, checks.activity);
  return Promise.resolve(null);
}
