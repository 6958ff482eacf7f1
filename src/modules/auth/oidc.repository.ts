import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf } from '../../db/sql';

/* The SQL of single sign-on: the identity a provider's subject is linked to, and linking one. */

/** A user a single sign-on may open a session for. */
export interface SignOnUser {
  userId: string;
  disabled: boolean;
}

/** The user linked to `subject` at `issuer`, or null. */
export async function linkedUser(em: EntityManager, issuer: string, subject: string): Promise<SignOnUser | null> {
  const [row] = await sqlOf(em)<SignOnUser>(
    `select u.id as "userId", u.disabled from oidc_identities i join users u on u.id = i.user_id where i.issuer = ? and i.subject = ?`,
    [issuer, subject],
  );
  return row ?? null;
}

/** The user with this email (stored lower-cased), and whether another subject of `issuer` is linked to them. */
export async function userByEmail(em: EntityManager, issuer: string, email: string): Promise<(SignOnUser & { linked: boolean }) | null> {
  const [row] = await sqlOf(em)<SignOnUser & { linked: boolean }>(
    `select u.id as "userId", u.disabled,
            exists (select 1 from oidc_identities i where i.user_id = u.id and i.issuer = ?) as linked
       from users u where u.email = ?`,
    [issuer, email],
  );
  return row ?? null;
}

/** Links `subject` at `issuer` to the user; a link made meanwhile by another sign-in stays as it is. */
export async function linkIdentity(em: EntityManager, issuer: string, subject: string, userId: string, email: string): Promise<void> {
  await sqlOf(em)(
    `insert into oidc_identities (issuer, subject, user_id, email) values (?, ?, ?, ?) on conflict (issuer, subject) do nothing`,
    [issuer, subject, userId, email],
  );
}

/** Notes a sign-in through the identity, and the email the provider gave this time. */
export async function touchIdentity(em: EntityManager, issuer: string, subject: string, email: string | null): Promise<void> {
  await sqlOf(em)(`update oidc_identities set last_sign_in_at = now(), email = coalesce(?, email) where issuer = ? and subject = ?`, [
    email,
    issuer,
    subject,
  ]);
}
