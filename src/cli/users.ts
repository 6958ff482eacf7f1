import type { EntityManager } from '@mikro-orm/postgresql';
import { audit } from '../modules/audit/audit.service';
import { issuePasswordLink } from '../modules/auth/session.service';
import { User } from '../modules/users/user.entity';
import { Command, fail, onServiceDatabase, out } from './command';

/**
 * `labdesk users …` on the server itself, with the database's own access rather than a token:
 * the way back for an administrator who has no password yet, lost it, or was suspended or
 * demoted while nobody else could undo it. Each is audited with no actor (`via: cli`).
 */

const emailOf = (flags: { _: string[] }) => flags._[2]?.trim().toLowerCase();
const findByEmail = (em: EntityManager, email: string) => em.findOne(User, { email });
const when = (date: Date) => `${date.toISOString().replace('T', ' ').slice(0, 16)} UTC`;

export const USER_COMMANDS: Record<string, Command> = {
  'users set-password-link': {
    usage: 'labdesk users set-password-link EMAIL',
    help: 'Prints a one-time link that sets the password of the user with this email (valid 24 hours), for the web console. Run it on the server, with its settings (DATABASE_URL or DATA_DIR).',
    async run(flags) {
      const email = emailOf(flags);
      if (!email) return fail('users set-password-link needs the EMAIL of a user');
      const issued = await onServiceDatabase((em, config) =>
        em.transactional(async (tx) => {
          const user = await findByEmail(tx, email);
          if (!user) return { problem: `no user has the email ${email}` };
          if (user.disabled)
            return {
              problem: `${email} is suspended, so a link would not work; ${user.isAdmin ? `run labdesk users restore-admin ${email} first` : 'an administrator can unsuspend them in Admin → Users'}`,
            };
          const link = await issuePasswordLink(tx, user.id, null, new Date());
          audit(tx, { action: 'user.password_link', actorId: null, subjectUserId: user.id, detail: { via: 'cli' } });
          return { url: `${config.publicUrl}/set-password#${link.token}`, expiresAt: link.expiresAt };
        }),
      );
      if (issued.problem !== undefined) return fail(issued.problem);
      out(`Set-password link for ${email} (works once, until ${when(issued.expiresAt)}):\n\n  ${issued.url}\n`);
      return 0;
    },
  },
  'users restore-admin': {
    usage: 'labdesk users restore-admin EMAIL',
    help: 'Makes the user with this email an active administrator again (unsuspended, admin): the way back when no administrator can sign in. Run it on the server.',
    async run(flags) {
      const email = emailOf(flags);
      if (!email) return fail('users restore-admin needs the EMAIL of a user');
      const found = await onServiceDatabase((em) =>
        em.transactional(async (tx) => {
          const user = await findByEmail(tx, email);
          if (!user) return false;
          tx.assign(user, { isAdmin: true, disabled: false });
          audit(tx, { action: 'user.restore_admin', actorId: null, subjectUserId: user.id, detail: { via: 'cli' } });
          return true;
        }),
      );
      if (!found) return fail(`no user has the email ${email}`);
      out(`${email} is an active administrator again. To sign in to the console: labdesk users set-password-link ${email}`);
      return 0;
    },
  },
};
