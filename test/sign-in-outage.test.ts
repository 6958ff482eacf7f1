import { signInWithPassword, SIGN_IN_ATTEMPTS } from '../src/modules/auth/session.service';
import { attemptLimit } from '../src/rate-limits';
import { makeUser } from './support/app';
import { useDatabaseBehindProxy } from './support/outage';

/**
 * Sign-ins the service could not check (PostgreSQL restarting) are not failed guesses: in the
 * deployment's fault run they counted against the email, and after the outage the person was
 * refused (429) for the rest of the 15-minute window although no password was ever wrong.
 */
const held = useDatabaseBehindProxy();

test('attempts made while the database is down do not lock the email out afterwards', async () => {
  const user = await makeUser(held.t, { name: 'Una Outage' });
  const link = await held.t.call('POST', `/api/admin/users/${user.id}/password-link`, { token: held.t.adminToken });
  const password = 'a pass phrase long enough';
  expect(
    (await held.t.call('POST', '/api/auth/password-link', { body: { token: link.body.url.split('#')[1], new_password: password } })).status,
  ).toBe(200);

  const attempts = attemptLimit('outage-test', SIGN_IN_ATTEMPTS.perEmail, SIGN_IN_ATTEMPTS.windowSeconds);
  const signIn = () =>
    signInWithPassword(
      held.orm.em.fork(),
      { email: user.email, password, origin: {} },
      attempts,
      { idleSeconds: 3600, maxSeconds: 86_400 },
      new Date(),
    );

  held.proxy.shutDownPostgres();
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (let i = 0; i < SIGN_IN_ATTEMPTS.perEmail + 2; i++) await expect(signIn()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  await held.proxy.comeBack();
  await expect(signIn()).resolves.toMatchObject({ userId: user.id });

  // Wrong passwords still count.
  const wrong = () =>
    signInWithPassword(
      held.orm.em.fork(),
      { email: user.email, password: 'wrong', origin: {} },
      attempts,
      { idleSeconds: 3600, maxSeconds: 86_400 },
      new Date(),
    );
  for (let i = 0; i < SIGN_IN_ATTEMPTS.perEmail; i++) await expect(wrong()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  await expect(signIn()).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  await attempts.close();
}, 60_000);
