import { loadConfig, redactUrl } from '../config';
import { A2A_MAX_BODY_BYTES, A2A_RPC_PATH } from '../../facade/a2a';
import { sqlOf, Query } from '../db/sql';
import { mountingOfFacts } from '../modules/a2a/a2a-gate.service';
import {
  createKey,
  DEFAULT_OWNER,
  gateFacts,
  listKeys,
  readSettings,
  revokeKey,
  writeSettings,
} from '../modules/a2a/a2a-settings.repository';
import { isLoopbackHost, KEY_LABEL } from '../modules/a2a/a2a.policy';
import { effectiveTier } from '../modules/users/plans';
import { Command, fail, onServiceDatabase, out } from './command';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Runs `work` on the service's database (`onServiceDatabase`). */
const onDatabase = <T>(work: (q: Query) => Promise<T>): Promise<T> => onServiceDatabase((em) => work(sqlOf(em)));

/** `labdesk a2a …`: the A2A endpoint's settings and keys, in the service's database (docs/api/a2a.md, "Settings and keys"). Each takes effect at once on every instance. */
export const A2A_COMMANDS: Record<string, Command> = {
  'a2a enable': {
    usage: 'labdesk a2a enable [--owner EMAIL]',
    help: `Enables the A2A endpoint, at once on every instance. The owner (default: the current one, else ${DEFAULT_OWNER}) is the account whose tier (Pro or above) gates the endpoint and who pays for its model calls.`,
    async run(flags) {
      if (flags.owner !== undefined && (typeof flags.owner !== 'string' || !EMAIL.test(flags.owner)))
        return fail('--owner must be an email address');
      const owner = await onDatabase(async (q) => {
        const owner = typeof flags.owner === 'string' ? flags.owner.toLowerCase() : (await readSettings(q)).owner;
        await writeSettings(q, { enabled: true, owner });
        return owner;
      });
      out(`A2A enabled (owner ${owner}).`);
      return 0;
    },
  },
  'a2a disable': {
    usage: 'labdesk a2a disable',
    help: 'Disables the A2A endpoint, at once on every instance (keys are kept; the endpoint answers 404).',
    async run() {
      await onDatabase(async (q) => writeSettings(q, { ...(await readSettings(q)), enabled: false }));
      out('A2A disabled.');
      return 0;
    },
  },
  'a2a key create': {
    usage: 'labdesk a2a key create --label LABEL',
    help: 'Creates a key for one collaborator and prints it once (only its digest is kept). Usable at once.',
    async run(flags) {
      const label = flags.label;
      if (typeof label !== 'string' || !KEY_LABEL.test(label))
        return fail('--label is required: 1 to 100 letters, digits, spaces or ._:@/-');
      const { key, plaintext } = await onDatabase((q) => createKey(q, label));
      out(
        `key id:  ${key.id}\nlabel:   ${key.label}\ncreated: ${key.createdAt.toISOString()}\nkey:     ${plaintext}\n\nThe key is shown only this once.`,
      );
      return 0;
    },
  },
  'a2a key revoke': {
    usage: 'labdesk a2a key revoke KEY_ID',
    help: 'Revokes a key; the next request with it is refused (401), on every instance.',
    async run(flags) {
      const id = flags._[3];
      if (!id) return fail('usage: labdesk a2a key revoke KEY_ID');
      if (!(await onDatabase((q) => revokeKey(q, id)))) return fail(`no active key ${id}`);
      out(`key ${id} revoked`);
      return 0;
    },
  },
  'a2a key list': {
    usage: 'labdesk a2a key list',
    help: 'Lists the keys: id, label, creation time, and revocation time if revoked (never a secret).',
    async run() {
      const keys = await onDatabase(listKeys);
      if (keys.length === 0) out('no keys');
      for (const key of keys)
        out(
          `${key.id}  ${key.createdAt.toISOString()}  ${key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active'}  ${key.label}`,
        );
      return 0;
    },
  },
  'a2a status': {
    usage: 'labdesk a2a status',
    help: "Prints the A2A settings and whether the endpoint answers: it reads them, the keys and the owner's tier from the service's database.",
    async run() {
      const config = loadConfig();
      const facts = await onDatabase((q) => gateFacts(q, null));
      const settings = facts.settings ?? { enabled: false, owner: DEFAULT_OWNER };
      const mounting = mountingOfFacts(facts, config.host);
      const tier = facts.owner && effectiveTier(facts.owner, facts.owner.inActiveLab, new Date());
      const lines: [string, string][] = [
        ['enabled', String(settings.enabled)],
        ['owner', settings.owner],
        [
          'owner plan/tier',
          tier
            ? `${tier} (${mounting.mounted || !/tier/.test(mounting.reason) ? 'Pro or above: ok' : 'below Pro: refused'})`
            : 'no such account',
        ],
        ['active keys', String(facts.activeKeys)],
        ['file parts', `inline raw parts up to 100 MiB (request body up to ${A2A_MAX_BODY_BYTES} bytes); URL parts disabled`],
        ['artifact inline limit', '1024 KiB'],
        ['bind host', `${config.host}${isLoopbackHost(config.host) ? ' (loopback)' : ''}`],
        ['endpoint', redactUrl(`${config.publicUrl}${A2A_RPC_PATH}`)],
        ['mounted', mounting.mounted ? 'yes' : `no: ${mounting.reason}`],
        ['authentication required', mounting.mounted ? String(mounting.authRequired) : 'n/a'],
      ];
      for (const [name, value] of lines) out(`${`${name}:`.padEnd(26)}${value}`);
      return 0;
    },
  },
};
