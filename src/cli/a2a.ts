import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '../config';
import { startEmbeddedPostgres } from '../db/embedded';
import { openDatabase } from '../db/orm';
import { A2A_MAX_BODY_BYTES, A2A_RPC_PATH } from '../../facade/a2a';
import { ownerTierOf } from '../modules/a2a/a2a-gate.service';
import { activeKeys, configPath, createKey, DEFAULT_OWNER, keysPath, readA2aConfig, readKeys, revokeKey, writeA2aConfig } from '../modules/a2a/a2a-settings';
import { isLoopbackHost, mountingOf } from '../modules/a2a/a2a.policy';

type Flags = { _: string[] } & Record<string, string | boolean | string[]>;
interface Command {
  usage: string;
  help: string;
  run(flags: Flags): Promise<number>;
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const fail = (message: string): number => {
  process.stderr.write(`labdesk: ${message}\n`);
  return 2;
};
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const LABEL = /^[\p{L}\p{N} ._:@/-]{1,100}$/u;

/** `labdesk a2a …`: the A2A endpoint's settings and keys, files under DATA_DIR (contracts §9). */
export const A2A_COMMANDS: Record<string, Command> = {
  'a2a enable': {
    usage: 'labdesk a2a enable [--owner EMAIL]',
    help: `Enables the A2A endpoint (DATA_DIR/a2a.json) from the next start of the service. The owner (default: the current one, else ${DEFAULT_OWNER}) is the account whose tier (Pro or above) gates the endpoint.`,
    async run(flags) {
      const { dataDir } = loadConfig();
      const owner = typeof flags.owner === 'string' ? flags.owner : readA2aConfig(dataDir).owner;
      if (!EMAIL.test(owner)) return fail('--owner must be an email address');
      writeA2aConfig(dataDir, { enabled: true, owner: owner.toLowerCase() });
      out(`A2A enabled (owner ${owner}) in ${configPath(dataDir)}; it takes effect the next time the service starts.`);
      return 0;
    },
  },
  'a2a disable': {
    usage: 'labdesk a2a disable',
    help: 'Disables the A2A endpoint from the next start of the service (keys are kept).',
    async run() {
      const { dataDir } = loadConfig();
      writeA2aConfig(dataDir, { ...readA2aConfig(dataDir), enabled: false });
      out(`A2A disabled in ${configPath(dataDir)}; it takes effect the next time the service starts.`);
      return 0;
    },
  },
  'a2a key create': {
    usage: 'labdesk a2a key create --label LABEL',
    help: 'Creates a key for one collaborator and prints it once (only its digest is kept). Usable at once.',
    async run(flags) {
      const label = flags.label;
      if (typeof label !== 'string' || !LABEL.test(label)) return fail('--label is required: 1 to 100 letters, digits, spaces or ._:@/-');
      const { key, plaintext } = createKey(loadConfig().dataDir, label);
      out(`key id:  ${key.id}\nlabel:   ${key.label}\ncreated: ${key.createdAt}\nkey:     ${plaintext}\n\nThe key is shown only this once.`);
      return 0;
    },
  },
  'a2a key revoke': {
    usage: 'labdesk a2a key revoke KEY_ID',
    help: 'Revokes a key; the next request with it is refused (401).',
    async run(flags) {
      const id = flags._[3];
      if (!id) return fail('usage: labdesk a2a key revoke KEY_ID');
      if (!revokeKey(loadConfig().dataDir, id)) return fail(`no active key ${id}`);
      out(`key ${id} revoked`);
      return 0;
    },
  },
  'a2a key list': {
    usage: 'labdesk a2a key list',
    help: 'Lists the keys: id, label, creation time, and revocation time if revoked (never a secret).',
    async run() {
      const keys = readKeys(loadConfig().dataDir);
      if (keys.length === 0) out('no keys');
      for (const key of keys) out(`${key.id}  ${key.createdAt}  ${key.revokedAt ? `revoked ${key.revokedAt}` : 'active'}  ${key.label}`);
      return 0;
    },
  },
  'a2a status': {
    usage: 'labdesk a2a status',
    help: "Prints the A2A settings and whether the endpoint would be mounted: it reads the owner's tier from the database (joining a running embedded one).",
    async run() {
      const config = loadConfig();
      const settings = readA2aConfig(config.dataDir);
      const active = activeKeys(readKeys(config.dataDir)).length;
      const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir, { joinRunning: true });
      const orm = await openDatabase(config.databaseUrl ?? embedded!.url, { migrate: false });
      let owner: Awaited<ReturnType<typeof ownerTierOf>>;
      try {
        owner = await ownerTierOf(orm.em.fork() as EntityManager, settings.owner);
      } finally {
        await orm.close(true);
        await embedded?.stop();
      }
      const mounting = mountingOf({ enabled: settings.enabled, host: config.host, activeKeys: active, ownerTier: owner?.tier ?? null });
      const lines: [string, string][] = [
        ['config file', configPath(config.dataDir)],
        ['key file', keysPath(config.dataDir)],
        ['enabled', String(settings.enabled)],
        ['owner', settings.owner],
        ['owner plan/tier', owner ? `${owner.tier} (${mounting.mounted || !/tier/.test(mounting.reason) ? 'Pro or above: ok' : 'below Pro: refused'})` : 'no such account'],
        ['active keys', String(active)],
        ['file parts', `inline raw parts up to 100 MiB (request body up to ${A2A_MAX_BODY_BYTES} bytes); URL parts disabled`],
        ['artifact inline limit', '1024 KiB'],
        ['bind host', `${config.host}${isLoopbackHost(config.host) ? ' (loopback)' : ''}`],
        ['endpoint', `${config.publicUrl}${A2A_RPC_PATH}`],
        ['mounted', mounting.mounted ? 'yes (at the next start)' : `no: ${mounting.reason}`],
        ['authentication required', mounting.mounted ? String(mounting.authRequired) : 'n/a'],
      ];
      for (const [name, value] of lines) out(`${`${name}:`.padEnd(26)}${value}`);
      return 0;
    },
  },
};
