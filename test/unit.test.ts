import { rawArrayElements } from '../facade/raw-json';
import { loadConfig } from '../src/config';
import type { Viewer } from '../src/modules/auth/auth.service';
import type { Lab } from '../src/modules/labs/lab.entity';
import { can, canSeeLab, LabAction, OwnMembership } from '../src/modules/labs/lab.policy';
import { normalizeCode } from '../src/modules/labs/lab.service';
import { resolveInstitution } from '../src/modules/users/institutions';
import { effectiveTier } from '../src/modules/users/plans';

describe('configuration', () => {
  test('defaults follow contracts §1', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ host: '127.0.0.1', port: 8080, blobStore: 'file', publicUrl: 'http://127.0.0.1:8080', databaseUrl: undefined, databasePoolSize: 20 });
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  test('every problem is reported at once', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', BLOB_STORE: 'ftp', LLM_PROVIDER: 'x', BOOTSTRAP_ADMIN_TOKEN: 'short', DATABASE_POOL_SIZE: '1' })).toThrow(
      /PORT[\s\S]*DATABASE_URL[\s\S]*BOOTSTRAP_ADMIN_TOKEN[\s\S]*BLOB_STORE[\s\S]*DATABASE_POOL_SIZE[\s\S]*LLM_PROVIDER/,
    );
  });

  test('FIGURE_CDN_HOSTS takes host names, or *. for subdomains; TRUST_PROXY is true or false (default false)', () => {
    expect(loadConfig({ FIGURE_CDN_HOSTS: ' CDN.example.org ,*.media.example.net' }).figureCdnHosts).toEqual(['cdn.example.org', '*.media.example.net']);
    expect(loadConfig({}).figureCdnHosts).toEqual([]);
    expect(() => loadConfig({ FIGURE_CDN_HOSTS: 'https://cdn.example.org/' })).toThrow(/FIGURE_CDN_HOSTS/);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY must be one of false, true/);
  });

  test('s3 needs its bucket and keys', () => {
    expect(() => loadConfig({ BLOB_STORE: 's3' })).toThrow(/S3_BUCKET[\s\S]*S3_ACCESS_KEY_ID[\s\S]*S3_SECRET_ACCESS_KEY/);
  });
});

describe('lab policy', () => {
  const owner = { user: { id: 'usr_owner', isAdmin: false } } as Viewer;
  const other = { user: { id: 'usr_other', isAdmin: false } } as Viewer;
  const admin = { user: { id: 'usr_admin', isAdmin: true } } as Viewer;
  const lab = { owner: { id: 'usr_owner' } } as Lab;
  const row = (role: string, status: string) => ({ role, status }) as OwnMembership;

  const actors: [string, Viewer, OwnMembership][] = [
    ['outsider', other, null],
    ['pending', other, row('member', 'pending')],
    ['left', other, row('member', 'left')],
    ['member', other, row('member', 'active')],
    ['mentor', other, row('mentor', 'active')],
    ['owner', owner, row('owner', 'active')],
    ['admin', admin, null],
  ];
  const expected: Record<LabAction, string[]> = {
    view: ['member', 'mentor', 'owner', 'admin'],
    viewMembers: ['mentor', 'owner', 'admin'],
    viewUsage: ['owner'],
    viewCode: ['owner'],
    rotateCode: ['owner'],
    manageMembers: ['owner'],
  };
  for (const [action, allowed] of Object.entries(expected) as [LabAction, string[]][]) {
    test.each(actors)(`${action}: %s`, (name, viewer, membership) => {
      expect(can(viewer, action, lab, membership)).toBe(allowed.includes(name));
    });
  }

  test('only active members and admins see the lab at all', () => {
    expect(actors.filter(([, v, m]) => canSeeLab(v, m)).map(([name]) => name)).toEqual(['member', 'mentor', 'owner', 'admin']);
  });
});

describe('small rules', () => {
  test('invitation codes are read leniently', () => {
    expect(normalizeCode(' ab1o-il2z 9xyz ')).toBe('AB10112Z9XYZ');
  });

  test('effective tier: the higher of the unexpired plan and lab membership', () => {
    const past = new Date(Date.now() - 1000);
    expect(effectiveTier({ planCode: 'pro' }, false)).toBe('pro');
    expect(effectiveTier({ planCode: 'pro' }, true)).toBe('lab');
    expect(effectiveTier({ planCode: 'enterprise' }, true)).toBe('enterprise');
    expect(effectiveTier({ planCode: 'enterprise', planExpiresAt: past }, false)).toBe('free');
    expect(effectiveTier({ planCode: 'enterprise', planExpiresAt: past }, true)).toBe('lab');
  });

  test('institutions resolve by name, alias, or email domain and its parents', () => {
    expect(resolveInstitution('MIT', 'x@gmail.com')?.name).toBe('Massachusetts Institute of Technology');
    expect(resolveInstitution(null, 'x@bio.mit.edu')?.name).toBe('Massachusetts Institute of Technology');
    expect(resolveInstitution('Unknown College', 'x@gmail.com')).toBeNull();
  });
});

describe('raw record extraction', () => {
  test.each([
    ['plain', '{"records":[{"a":1},{"b":2}]}', ['{"a":1}', '{"b":2}']],
    ['spacing kept', '{ "records" : [ {"a" : 1} ,\n {"b":[1, 2]} ] }', ['{"a" : 1}', '{"b":[1, 2]}']],
    ['escaped quotes and backslashes', String.raw`{"records":[{"s":"a\"b\\"},{"t":"\\\"}"}]}`, [String.raw`{"s":"a\"b\\"}`, String.raw`{"t":"\\\"}"}`]],
    ['brackets inside strings', '{"records":[{"s":"]},{["}]}', ['{"s":"]},{["}']],
    ['last duplicate key wins', '{"records":[1],"x":"y","records":[{"z":true}]}', ['{"z":true}']],
    ['absent', '{"other":[1]}', null],
    ['not an array', '{"records":{"a":1}}', null],
  ])('%s', (_name, text, expected) => {
    expect(rawArrayElements(text, 'records')).toEqual(expected);
    for (const element of expected ?? []) expect(() => JSON.parse(element)).not.toThrow();
  });
});
