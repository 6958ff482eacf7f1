import { createHash, createHmac } from 'node:crypto';
import { Client } from 'pg';
import { ROUTES } from '../facade/routes';
import { addMember, makeLab, makeUser, Reply, replyOf, startTestApp, TestApp, TestLab, TestUser } from './support/app';

/**
 * The validation table: every route that takes input (body, query or path) against bad input,
 * unknown ids and bad credentials. The wire (docs/api/wire.md): a 422 body is
 * `{"detail": [{"loc": [...], "msg", "type"}]}` with `loc` starting body/query/path followed by
 * snake_case member names; every other error is `{"detail": "<message>"}`. A bad request changes
 * nothing in the database.
 */

let t: TestApp;
let db: Client;

interface Fixtures {
  owner: TestUser;
  member: TestUser;
  /** A user in no lab: the subject of the admin user routes. */
  plain: TestUser;
  /** A personal access token of `plain`, minted by the admin (its id fills {token_id}). */
  plainTokenId: string;
  lab: TestLab;
  revokedToken: string;
  disabledToken: string;
  refreshToken: string;
  accessToken: string;
  /** A note of `owner` on SESSION_OWNED (the default {annotation_id}) and one on SESSION_SHARED. */
  annotationId: string;
  sharedAnnotationId: string;
  /** The file store's URL signing key (read from the database), to forge and to sign `/blobs` links. */
  blobKey: Buffer;
  /** Compute plans and leases of `owner`, named in rows as `@name` ids (see `computeFixtures`). */
  compute: ComputeFixtures;
}
let f: Fixtures;

interface ComputeFixtures {
  /** Plan and lease ids by the `@name` the rows use in `ids`. */
  ids: Record<string, number>;
  /** The process token of `@lease` (the 'sandbox' actor), and of `@ended` (still heard, to answer `stop`). */
  processToken: string;
  endedProcessToken: string;
  /** Claim tokens that no longer open anything: exchanged, of a released lease, of a disabled user's lease. */
  usedClaimToken: string;
  releasedClaimToken: string;
  disabledClaimToken: string;
}

/** Every response text seen in this file, for the stack-trace sweep at the end. */
const seen: { what: string; text: string }[] = [];

const TABLES = [
  'users',
  'labs',
  'lab_members',
  'auth_tokens',
  'audit_events',
  'device_logins',
  'trajectories',
  'trajectory_records',
  'record_payloads',
  'usage_entries',
  'annotation_entries',
  'discussion_turns',
  'blobs',
  'blob_owners',
  'figures',
  'release_files',
  'release_manifests',
  'model_catalogs',
  'credit_accounts',
  'credit_entries',
  'compute_plans',
  'compute_leases',
  'lease_idle_refreshes',
] as const;
/** Tables without an `id` column, and their key. */
const ORDER_BY: Partial<Record<(typeof TABLES)[number], string>> = {
  trajectory_records: 'session_id, seq',
  blobs: 'sha256',
  blob_owners: 'user_id, sha256',
  figures: 'session_id, canonical_path',
  release_files: 'product, version, filename',
  release_manifests: 'product, version',
  credit_accounts: 'user_id',
};

/** Every row of the tables a bad request could touch (`last_active_at` is activity, not data). */
async function snapshot(client: Client = db): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    const { rows } = await client.query(`select * from ${table} order by ${ORDER_BY[table] ?? 'id'}`);
    out[table] = rows.map((row) => {
      const rest = { ...row };
      // Activity: a request was made, whatever its answer (a user's last activity, a token's last use).
      delete rest.last_active_at;
      delete rest.last_used_at;
      return rest;
    });
  }
  return out;
}

beforeAll(async () => {
  t = await startTestApp({ RELEASE_TOKEN, FIGURE_CDN_HOSTS: 'cdn.example' });
  // The compute clock stands still: every lease is metered up to it already, so the meter's passes
  // (every METER_INTERVAL_SECONDS) find nothing to charge or expire while the rows run.
  const frozen = new Date();
  t.app.services.clock.now = () => new Date(frozen);
  db = new Client({ connectionString: t.databaseUrl });
  await db.connect();

  const owner = await makeUser(t, { name: 'Owner' });
  const lab = await makeLab(t, { owner });
  const member = await makeUser(t, { name: 'Member' });
  await addMember(t, lab, member);
  const plain = await makeUser(t, { name: 'Plain' });
  const minted = await t.call('POST', `/api/admin/users/${plain.id}/tokens`, { token: t.adminToken, body: { label: 'extra' } });
  if (minted.status !== 201) throw new Error(`mint: ${minted.status} ${minted.text}`);

  const revokedUser = await makeUser(t);
  const revoke = await t.call('DELETE', `/api/admin/users/${revokedUser.id}/tokens/${await tokenIdOf(revokedUser)}`, {
    token: t.adminToken,
  });
  if (revoke.status !== 204) throw new Error(`revoke: ${revoke.status} ${revoke.text}`);
  const disabledUser = await makeUser(t);
  const disable = await t.call('PATCH', `/api/admin/users/${disabledUser.id}`, { token: t.adminToken, body: { disabled: true } });
  if (disable.status !== 200) throw new Error(`disable: ${disable.status} ${disable.text}`);

  // A real login pair through the device flow, to present the wrong kind of token.
  const started = await t.call('POST', '/api/auth/cli/start');
  await t.call('POST', '/api/auth/cli/approve', { token: owner.token, body: { user_code: started.body.user_code } });
  const polled = await t.call('POST', '/api/auth/cli/poll', { body: { device_code: started.body.device_code } });
  if (polled.body?.status !== 'approved') throw new Error(`device flow: ${polled.status} ${polled.text}`);

  // Sessions of `owner` (client-chosen ids): a private one, the default {session_id}, and one shared with the lab.
  for (const [id, shared] of [
    [SESSION_OWNED, false],
    [SESSION_SHARED, true],
  ] as const) {
    const records = [
      { uuid: `${id}-1`, parentUuid: null, type: 'user', message: { usage: { input_tokens: 3, output_tokens: 1 } } },
      { uuid: `${id}-2`, parentUuid: `${id}-1`, type: 'assistant' },
    ];
    const made = await t.call('PUT', `/api/trajectories/${id}/append`, {
      token: owner.token,
      body: { base_uuid: null, records, lab_id: lab.id },
    });
    if (made.status !== 200) throw new Error(`session: ${made.status} ${made.text}`);
    if (shared) {
      const share = await t.call('PATCH', `/api/trajectories/${id}/visibility`, { token: owner.token, body: { visibility: 'lab' } });
      if (share.status !== 200) throw new Error(`share: ${share.status} ${share.text}`);
    }
  }

  // A note on each session, by their owner: the default {annotation_id} is the one on SESSION_OWNED.
  const notes: Record<string, string> = {};
  for (const id of [SESSION_OWNED, SESSION_SHARED]) {
    const note = await t.call('POST', `/api/trajectories/${id}/annotations`, {
      token: owner.token,
      body: { record_uuid: `${id}-1`, body: 'fixture note' },
    });
    if (note.status !== 201) throw new Error(`annotation: ${note.status} ${note.text}`);
    notes[id] = note.body.annotation_id;
  }

  // A private session of `member`, with a figure in member's drive that `owner` must not be able to name.
  const memberSession = await t.call('PUT', `/api/trajectories/${SESSION_MEMBER}/append`, {
    token: member.token,
    body: { base_uuid: null, records: [{ uuid: `${SESSION_MEMBER}-1`, parentUuid: null, type: 'user' }] },
  });
  if (memberSession.status !== 200) throw new Error(`member session: ${memberSession.status} ${memberSession.text}`);
  // Figures: one drive upload per user, and a cdn_url row on each of owner's sessions.
  for (const [token, sessionId, bytes, canonicalPath] of [
    [owner.token, SESSION_OWNED, OWNER_FIGURE_BYTES, DRIVE_FIGURE],
    [member.token, SESSION_MEMBER, MEMBER_FIGURE_BYTES, '/member.png'],
  ] as const) {
    const uploaded = await call(t, 'POST', `/api/trajectories/${sessionId}/figures/upload`, {
      token,
      form: { file: new Blob([bytes]), canonical_path: canonicalPath, mime: 'image/png' },
    });
    if (uploaded.status !== 200) throw new Error(`figure upload: ${uploaded.status} ${uploaded.text}`);
  }
  for (const [sessionId, canonicalPath] of [
    [SESSION_OWNED, CDN_FIGURE],
    [SESSION_SHARED, SHARED_FIGURE],
  ]) {
    const recorded = await t.call('POST', `/api/trajectories/${sessionId}/figures`, {
      token: owner.token,
      body: { figures: [{ canonical_path: canonicalPath, cdn_url: cdnUrl(canonicalPath) }] },
    });
    if (recorded.status !== 200) throw new Error(`figures: ${recorded.status} ${recorded.text}`);
  }

  // Releases: desktop 1.0.0 published (app.dmg listed, unlisted.dmg not); 0.9.0 and 1.1.0 uploaded only; core has nothing.
  for (const [version, filename] of [
    ['0.9.0', 'app.dmg'],
    ['1.0.0', 'app.dmg'],
    ['1.0.0', 'unlisted.dmg'],
    ['1.1.0', 'app.dmg'],
  ]) {
    const put = await t.call('PUT', `/admin/api/release/desktop/files/${version}/${filename}`, { token: RELEASE_TOKEN, ...BINARY });
    if (put.status !== 201) throw new Error(`release file: ${put.status} ${put.text}`);
  }
  const published = await t.call('PUT', '/admin/api/release/desktop/manifest', { token: RELEASE_TOKEN, body: PUBLISHED });
  if (published.status !== 200) throw new Error(`publish: ${published.status} ${published.text}`);

  const compute = await computeFixtures(owner);

  const [secret] = await t.sql<{ value: string }>(`select value from instance_secrets where name = 'blob_url_key'`);
  if (!secret) throw new Error('no blob_url_key in instance_secrets');

  // Every credential used below has been seen once, so later requests write no activity.
  for (const token of [t.adminToken, owner.token, member.token, plain.token, minted.body.token, polled.body.access_token]) {
    await t.call('GET', '/api/me', { token });
  }

  f = {
    owner,
    member,
    plain,
    plainTokenId: minted.body.token_id,
    lab,
    revokedToken: revokedUser.token,
    disabledToken: disabledUser.token,
    refreshToken: polled.body.refresh_token,
    accessToken: polled.body.access_token,
    annotationId: notes[SESSION_OWNED],
    sharedAnnotationId: notes[SESSION_SHARED],
    blobKey: Buffer.from(secret.value, 'base64'),
    compute,
  };
});

/**
 * Compute state of `owner` (a free plan: 10 credits), through the real API:
 * `@superseded` (replaced by the next draft), `@approved` (its lease `@lease`, bootstrapped: ready,
 * with a ceiling), `@declined`, `@pending` (awaiting a decision, with a ceiling far above the
 * owner's credits), `@direct` (a session without ceiling, awaiting its sandbox), `@released`
 * (a released session whose claim token was never used) and `@ended` (a session bootstrapped, then
 * released). A user disabled after claiming a session holds `disabledClaimToken`.
 */
async function computeFixtures(owner: TestUser): Promise<ComputeFixtures> {
  const ok = async (what: string, reply: Promise<Reply>) => {
    const r = await reply;
    if (r.status !== 201 && r.status !== 200) throw new Error(`${what}: ${r.status} ${r.text}`);
    return r.body;
  };
  const as = { token: owner.token };
  const superseded = await ok('draft', t.call('POST', '/api/compute/plans', { ...as, body: { goal: 'To be superseded.' } }));
  const approved = await ok('draft', t.call('POST', '/api/compute/plans', { ...as, body: { goal: 'Fit the model. Plot the residuals.' } }));
  const lease = await ok('approve', t.call('POST', `/api/compute/plans/${approved.plan_id}/approve`, as));
  const booted = await ok('bootstrap', t.call('POST', '/api/compute/bootstrap', { body: { claim_token: lease.claim_token } }));
  const declined = await ok('draft', t.call('POST', '/api/compute/plans', { ...as, body: { goal: 'To be declined.' } }));
  await ok('decline', t.call('POST', `/api/compute/plans/${declined.plan_id}/decline`, as));
  const direct = await ok('session', t.call('POST', '/api/compute/sessions', { ...as, body: { provider: 'manual' } }));
  const released = await ok('session', t.call('POST', '/api/compute/sessions', { ...as, body: {} }));
  await ok('release', t.call('DELETE', `/api/compute/sessions/${released.lease_id}`, as));
  const ended = await ok('session', t.call('POST', '/api/compute/sessions', { ...as, body: {} }));
  const endedBoot = await ok('bootstrap', t.call('POST', '/api/compute/bootstrap', { body: { claim_token: ended.claim_token } }));
  await ok('release', t.call('DELETE', `/api/compute/sessions/${ended.lease_id}`, as));
  const pending = await ok(
    'draft',
    t.call('POST', '/api/compute/plans', {
      ...as,
      body: { goal: 'Too big to afford.', inputs: [{ name: 'huge.bin', bytes: 1e15 }], machine: { cpus: 64, memory_gb: 512, gpu: true } },
    }),
  );
  const gone = await makeUser(t, { name: 'Disabled after claiming' });
  const claimed = await ok('session', t.call('POST', '/api/compute/sessions', { token: gone.token, body: { provider: 'manual' } }));
  const disable = await t.call('PATCH', `/api/admin/users/${gone.id}`, { token: t.adminToken, body: { disabled: true } });
  if (disable.status !== 200) throw new Error(`disable: ${disable.status} ${disable.text}`);
  return {
    ids: {
      superseded: superseded.plan_id,
      approved: approved.plan_id,
      declined: declined.plan_id,
      pending: pending.plan_id,
      lease: lease.lease_id,
      direct: direct.lease_id,
      released: released.lease_id,
      ended: ended.lease_id,
    },
    processToken: booted.process_token,
    endedProcessToken: endedBoot.process_token,
    usedClaimToken: lease.claim_token,
    releasedClaimToken: released.claim_token,
    disabledClaimToken: claimed.claim_token,
  };
}

afterAll(async () => {
  await db?.end();
  await t?.close();
});

async function tokenIdOf(user: TestUser): Promise<string> {
  const { rows } = await db.query('select id from auth_tokens where user_id = $1', [user.id]);
  return rows[0].id;
}

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

/**
 * `release`: the server's RELEASE_TOKEN, the only credential the release publishing routes take.
 * `sandbox`: the process token of the compute fixture `@lease`, as the bearer (what a sandbox sends).
 */
type Who = 'admin' | 'owner' | 'member' | 'plain' | 'none' | 'garbage' | 'revoked' | 'disabled' | 'refresh' | 'release' | 'sandbox';

/** Multipart parts: a string is a field, a Blob a file part; an array sends the part once per element. */
type FormParts = Record<string, string | Blob | (string | Blob)[]>;

interface Row {
  method: string;
  /** The route template, exactly as in facade/routes.ts; `{…}` are filled from `ids` or the fixtures. */
  path: string;
  as: Who;
  ids?: Record<string, string>;
  body?: unknown;
  /** A body that needs the fixtures (wins over `body`). */
  bodyOf?: (f: Fixtures) => unknown;
  rawBody?: string;
  query?: Record<string, string | number>;
  /** A raw query string, for repeated parameters. */
  search?: string;
  /** A raw query string that needs the fixtures (signed links); wins over `search`. */
  searchOf?: (f: Fixtures) => string;
  /** A multipart/form-data body (the boundary's content type is set by fetch). */
  form?: FormParts;
  headers?: Record<string, string>;
  /** What the row is about, when the request alone does not say it (shown in the title). */
  note?: string;
  status: number;
  /** For 3xx: the expected `Location`. */
  location?: string | RegExp;
  /** For 2xx: the expected media type. */
  contentType?: RegExp;
  /** For 422: the expected `loc` of the first issue. */
  loc?: (string | number)[];
  /** For 422: the expected `type` of the first issue (e.g. `extra_forbidden`). */
  issueType?: string;
  /** For other errors: the exact `detail`, when the contract fixes it. */
  detail?: string;
}

const long = (n: number, c = 'x') => c.repeat(n);
const fail = (message: string): never => {
  throw new Error(message);
};
/** Sessions of the 'owner' actor made in beforeAll: private (the default {session_id}) and shared with the lab. */
const SESSION_OWNED = 'val-owned';
const SESSION_SHARED = 'val-shared';
/** A session id nobody has used: a refused first write must not create it. */
const SESSION_NEW = 'val-new';
/** 255 characters: one over the 254 an email address may have. */
const EMAIL_255 = `${long(243, 'a')}@example.org`;
const okEmail = 'fresh-user@example.org';
const MALFORMED = 'malformed JSON body';

/** Release publishing takes this bearer token (the table's app is started with it). */
const RELEASE_TOKEN = 'release-token-for-the-validation-table-0123456789';
/** A private session of 'member' (made in beforeAll). */
const SESSION_MEMBER = 'val-member';
const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');
/** Figure bytes in the drives of 'owner' (at DRIVE_FIGURE on SESSION_OWNED) and of 'member'. */
const OWNER_FIGURE_BYTES = 'validation table: owner figure bytes';
const MEMBER_FIGURE_BYTES = 'validation table: member figure bytes';
const OWNER_SHA = sha256Of(OWNER_FIGURE_BYTES);
const MEMBER_SHA = sha256Of(MEMBER_FIGURE_BYTES);
const drive = (sha: string) => `drive://sha256/${sha}`;
/** Figure map rows made in beforeAll: a drive figure and a cdn_url figure on SESSION_OWNED, a cdn_url figure on SESSION_SHARED. */
const DRIVE_FIGURE = '/fixture-drive.png';
const CDN_FIGURE = '/fixture-cdn.png';
const SHARED_FIGURE = '/fixture-shared.png';
const cdnUrl = (canonicalPath: string) => `https://cdn.example${canonicalPath}`;
/** A release binary's bytes (ASCII, so its length is its size), sent as application/octet-stream. */
const RELEASE_BYTES = 'labdesk desktop build for the validation table';
const BINARY = { rawBody: RELEASE_BYTES, headers: { 'content-type': 'application/octet-stream' } };
/** The manifest published in beforeAll: desktop 1.0.0 with app.dmg (darwin). */
const PUBLISHED = {
  version: '1.0.0',
  notes: 'fixture release',
  files: [{ filename: 'app.dmg', size: RELEASE_BYTES.length, signature: 'c2lnbmF0dXJl', platform: 'darwin' }],
};
/** A figure map row, a model and a desktop manifest file that pass every check. */
const FIG = { canonical_path: '/a.png', cdn_url: 'https://cdn.example/a.png' };
const MODEL = {
  id: 'acme/m-1',
  provider: 'acme',
  name: 'M1',
  context_window: 1000,
  input_price: 1.5,
  output_price: 2,
  capabilities: ['chat'],
};
const DESKTOP_FILE = { filename: 'app.dmg', size: RELEASE_BYTES.length, signature: 'c2lnbmF0dXJl' };

/** Body routes with the credential that passes their auth gate and one valid body. */
const BODY_ROUTES: { method: string; path: string; as: Who; valid: unknown }[] = [
  { method: 'POST', path: '/api/auth/cli/approve', as: 'owner', valid: { user_code: 'ZZZZ-ZZZZ' } },
  { method: 'POST', path: '/api/auth/cli/deny', as: 'owner', valid: { user_code: 'ZZZZ-ZZZZ' } },
  { method: 'POST', path: '/api/auth/cli/poll', as: 'none', valid: { device_code: 'ldk_dc_unknown' } },
  { method: 'POST', path: '/api/auth/refresh', as: 'none', valid: { refresh_token: 'ldk_rt_AAAAAAAAAAAAxxxxxxxxxxxx' } },
  { method: 'POST', path: '/api/auth/login', as: 'none', valid: { email: 'nobody@example.org', password: 'not a password' } },
  { method: 'POST', path: '/api/auth/password-link', as: 'none', valid: { token: 'ldk_pwl_nope', new_password: 'never set password' } },
  {
    method: 'PUT',
    path: '/api/me/password',
    as: 'plain',
    valid: { current_password: 'not the password', new_password: 'never set password' },
  },
  { method: 'POST', path: '/api/labs', as: 'owner', valid: { name: 'Never created' } },
  { method: 'POST', path: '/api/labs/join', as: 'plain', valid: { code: 'ZZZZZZZZZZZZ' } },
  { method: 'PATCH', path: '/api/labs/{lab_id}/members/{member_user_id}', as: 'owner', valid: { role: 'mentor' } },
  { method: 'POST', path: '/api/admin/users', as: 'admin', valid: { email: okEmail, name: 'Fresh' } },
  { method: 'PATCH', path: '/api/admin/users/{user_id}', as: 'admin', valid: { name: 'Renamed' } },
  { method: 'POST', path: '/api/admin/users/{user_id}/tokens', as: 'admin', valid: { label: 'never' } },
  { method: 'PATCH', path: '/api/admin/labs/{lab_id}', as: 'admin', valid: { name: 'Renamed' } },
  { method: 'POST', path: '/api/trajectories/reconcile', as: 'owner', valid: { session_ids: [SESSION_OWNED, SESSION_SHARED] } },
  {
    method: 'PUT',
    path: '/api/trajectories/{session_id}/append',
    as: 'owner',
    valid: { base_uuid: `${SESSION_OWNED}-2`, records: [{ uuid: 'never', type: 'user' }] },
  },
  { method: 'PUT', path: '/api/trajectories/{session_id}/full', as: 'owner', valid: { records: [{ uuid: 'never', type: 'user' }] } },
  { method: 'PATCH', path: '/api/trajectories/{session_id}/visibility', as: 'owner', valid: { visibility: 'private' } },
  {
    method: 'POST',
    path: '/api/trajectories/{session_id}/annotations',
    as: 'owner',
    valid: { record_uuid: `${SESSION_OWNED}-1`, body: 'never' },
  },
  { method: 'POST', path: '/api/trajectories/{session_id}/fork', as: 'owner', valid: { head_uuid: `${SESSION_OWNED}-2` } },
  { method: 'POST', path: '/api/trajectories/{session_id}/summary', as: 'owner', valid: { parent_uuid: `${SESSION_OWNED}-2` } },
  { method: 'POST', path: '/api/trajectories/{session_id}/discuss', as: 'owner', valid: { question: 'Why?' } },
  { method: 'POST', path: '/api/trajectories/{session_id}/discuss/stream', as: 'owner', valid: { question: 'Why?' } },
  { method: 'POST', path: '/api/trajectories/{session_id}/figures', as: 'owner', valid: { figures: [FIG] } },
  { method: 'PUT', path: '/api/admin/models', as: 'admin', valid: { version: '2026.11', models: [MODEL] } },
  { method: 'PUT', path: '/admin/api/release/{product}/manifest', as: 'release', valid: { version: '1.2.0', files: [DESKTOP_FILE] } },
  { method: 'POST', path: '/api/compute/plans', as: 'owner', valid: { goal: 'Never drafted.' } },
  { method: 'POST', path: '/api/compute/sessions', as: 'owner', valid: { provider: 'manual' } },
  { method: 'POST', path: '/api/compute/sessions/{lease_id}/topup', as: 'owner', valid: { credits: 1 } },
  { method: 'POST', path: '/api/compute/sessions/{lease_id}/heartbeat', as: 'sandbox', valid: { active: false } },
  { method: 'POST', path: '/api/compute/bootstrap', as: 'none', valid: { claim_token: 'ldk_ct_unknown' } },
  { method: 'POST', path: '/api/admin/users/{user_id}/credits', as: 'admin', valid: { credits: 1, reason: 'never granted' } },
  {
    method: 'POST',
    path: '/api/a2a/agents',
    as: 'plain',
    valid: { id: 'never', name: 'Never registered', url: 'https://peer.example.org', enabled: true },
  },
  { method: 'PATCH', path: '/api/a2a/agents/{id}', as: 'plain', valid: { name: 'Renamed' } },
];

/** A body that is not a JSON object, on every body route. */
const shapeRows: Row[] = BODY_ROUTES.flatMap(({ method, path, as }) => [
  { method, path, as, rawBody: '{bad', status: 400, detail: MALFORMED },
  { method, path, as, rawBody: '{"name": "x",}', status: 400, detail: MALFORMED },
  { method, path, as, body: [], status: 422, loc: ['body'] },
  { method, path, as, body: [{ name: 'x' }], status: 422, loc: ['body'] },
  // A JSON string is well-formed JSON, just not an object: a validation failure, not malformed JSON.
  { method, path, as, body: 'a string', status: 422, loc: ['body'] },
  { method, path, as, status: 422, loc: ['body'] }, // no body at all
]);

const LABS = '/api/labs';
const MEMBER = '/api/labs/{lab_id}/members/{member_user_id}';
const ADMIN_USERS = '/api/admin/users';
const ADMIN_USER = '/api/admin/users/{user_id}';
const TOKENS = '/api/admin/users/{user_id}/tokens';
const TOKEN = '/api/admin/users/{user_id}/tokens/{token_id}';
const ADMIN_LABS = '/api/admin/labs';
const ADMIN_LAB = '/api/admin/labs/{lab_id}';

const LOGIN = '/api/auth/login';
const LINK_USE = '/api/auth/password-link';
const MY_PASSWORD = '/api/me/password';

const authRows: Row[] = [
  // POST /api/auth/cli/approve {user_code}
  { method: 'POST', path: '/api/auth/cli/approve', as: 'owner', body: {}, status: 422, loc: ['body', 'user_code'] },
  { method: 'POST', path: '/api/auth/cli/approve', as: 'owner', body: { user_code: '' }, status: 422, loc: ['body', 'user_code'] },
  {
    method: 'POST',
    path: '/api/auth/cli/approve',
    as: 'owner',
    body: { user_code: long(33, 'A') },
    status: 422,
    loc: ['body', 'user_code'],
  },
  { method: 'POST', path: '/api/auth/cli/approve', as: 'owner', body: { user_code: 12345678 }, status: 422, loc: ['body', 'user_code'] },
  { method: 'POST', path: '/api/auth/cli/approve', as: 'owner', body: { user_code: null }, status: 422, loc: ['body', 'user_code'] },
  { method: 'POST', path: '/api/auth/cli/approve', as: 'owner', body: { userCode: 'ZZZZ-ZZZZ' }, status: 422, loc: ['body', 'userCode'] },
  {
    method: 'POST',
    path: '/api/auth/cli/approve',
    as: 'owner',
    body: { user_code: 'ZZZZ-ZZZZ', extra: 1 },
    status: 422,
    loc: ['body', 'extra'],
  },
  { method: 'POST', path: '/api/auth/cli/approve', as: 'owner', body: { user_code: 'ZZZZ-ZZZZ' }, status: 404 },
  // POST /api/auth/cli/deny {user_code}
  { method: 'POST', path: '/api/auth/cli/deny', as: 'owner', body: {}, status: 422, loc: ['body', 'user_code'] },
  { method: 'POST', path: '/api/auth/cli/deny', as: 'owner', body: { user_code: '' }, status: 422, loc: ['body', 'user_code'] },
  { method: 'POST', path: '/api/auth/cli/deny', as: 'owner', body: { user_code: long(33, 'A') }, status: 422, loc: ['body', 'user_code'] },
  { method: 'POST', path: '/api/auth/cli/deny', as: 'owner', body: { user_code: 12345678 }, status: 422, loc: ['body', 'user_code'] },
  { method: 'POST', path: '/api/auth/cli/deny', as: 'owner', body: { user_code: null }, status: 422, loc: ['body', 'user_code'] },
  {
    method: 'POST',
    path: '/api/auth/cli/deny',
    as: 'owner',
    body: { user_code: 'ZZZZ-ZZZZ', extra: 1 },
    status: 422,
    loc: ['body', 'extra'],
  },
  { method: 'POST', path: '/api/auth/cli/deny', as: 'owner', body: { user_code: 'ZZZZ-ZZZZ' }, status: 404 },
  // POST /api/auth/cli/poll {device_code}
  { method: 'POST', path: '/api/auth/cli/poll', as: 'none', body: {}, status: 422, loc: ['body', 'device_code'] },
  { method: 'POST', path: '/api/auth/cli/poll', as: 'none', body: { device_code: '' }, status: 422, loc: ['body', 'device_code'] },
  { method: 'POST', path: '/api/auth/cli/poll', as: 'none', body: { device_code: long(513) }, status: 422, loc: ['body', 'device_code'] },
  { method: 'POST', path: '/api/auth/cli/poll', as: 'none', body: { device_code: null }, status: 422, loc: ['body', 'device_code'] },
  {
    method: 'POST',
    path: '/api/auth/cli/poll',
    as: 'none',
    body: { device_code: ['ldk_dc_x'] },
    status: 422,
    loc: ['body', 'device_code'],
  },
  {
    method: 'POST',
    path: '/api/auth/cli/poll',
    as: 'none',
    body: { device_code: 'ldk_dc_x', interval: 1 },
    status: 422,
    loc: ['body', 'interval'],
  },
  { method: 'POST', path: '/api/auth/cli/poll', as: 'none', body: { device_code: 'ldk_dc_unknown' }, status: 404 },
  // POST /api/auth/refresh {refresh_token}
  { method: 'POST', path: '/api/auth/refresh', as: 'none', body: {}, status: 422, loc: ['body', 'refresh_token'] },
  { method: 'POST', path: '/api/auth/refresh', as: 'none', body: { refresh_token: '' }, status: 422, loc: ['body', 'refresh_token'] },
  {
    method: 'POST',
    path: '/api/auth/refresh',
    as: 'none',
    body: { refresh_token: long(513) },
    status: 422,
    loc: ['body', 'refresh_token'],
  },
  { method: 'POST', path: '/api/auth/refresh', as: 'none', body: { refresh_token: 5 }, status: 422, loc: ['body', 'refresh_token'] },
  {
    method: 'POST',
    path: '/api/auth/refresh',
    as: 'none',
    body: { refresh_token: 'x', grant_type: 'refresh_token' },
    status: 422,
    loc: ['body', 'grant_type'],
  },
  { method: 'POST', path: '/api/auth/refresh', as: 'none', body: { refresh_token: 'ldk_rt_nope' }, status: 401 },
  { method: 'POST', path: '/api/auth/refresh', as: 'none', body: { refresh_token: 'ldk_rt_AAAAAAAAAAAAxxxxxxxxxxxx' }, status: 401 },
  // POST /api/auth/login {email, password}
  { method: 'POST', path: LOGIN, as: 'none', body: {}, status: 422, loc: ['body', 'email'] },
  { method: 'POST', path: LOGIN, as: 'none', body: { email: 'a@example.org' }, status: 422, loc: ['body', 'password'] },
  { method: 'POST', path: LOGIN, as: 'none', body: { email: '', password: 'x' }, status: 422, loc: ['body', 'email'] },
  { method: 'POST', path: LOGIN, as: 'none', body: { email: long(255), password: 'x' }, status: 422, loc: ['body', 'email'] },
  { method: 'POST', path: LOGIN, as: 'none', body: { email: 5, password: 'x' }, status: 422, loc: ['body', 'email'] },
  {
    method: 'POST',
    path: LOGIN,
    as: 'none',
    body: { email: 'a@example.org', password: long(1025) },
    status: 422,
    loc: ['body', 'password'],
  },
  {
    method: 'POST',
    path: LOGIN,
    as: 'none',
    body: { email: 'a@example.org', password: 'x', remember: true },
    status: 422,
    loc: ['body', 'remember'],
  },
  { method: 'POST', path: LOGIN, as: 'none', body: { email: 'nobody@example.org', password: 'not a password' }, status: 401 },
  // POST /api/auth/password-link {token, new_password}
  { method: 'POST', path: LINK_USE, as: 'none', body: {}, status: 422, loc: ['body', 'token'] },
  { method: 'POST', path: LINK_USE, as: 'none', body: { token: 'ldk_pwl_x' }, status: 422, loc: ['body', 'new_password'] },
  {
    method: 'POST',
    path: LINK_USE,
    as: 'none',
    body: { token: long(101), new_password: 'long enough password' },
    status: 422,
    loc: ['body', 'token'],
  },
  {
    method: 'POST',
    path: LINK_USE,
    as: 'none',
    body: { token: 'ldk_pwl_x', new_password: 'short' },
    status: 422,
    loc: ['body', 'new_password'],
  },
  {
    method: 'POST',
    path: LINK_USE,
    as: 'none',
    body: { token: 'ldk_pwl_x', new_password: long(1025) },
    status: 422,
    loc: ['body', 'new_password'],
  },
  { method: 'POST', path: LINK_USE, as: 'none', body: { token: 'ldk_pwl_nope', new_password: 'long enough password' }, status: 401 },
  // PUT /api/me/password {current_password?, new_password}
  { method: 'PUT', path: MY_PASSWORD, as: 'plain', body: {}, status: 422, loc: ['body', 'new_password'] },
  { method: 'PUT', path: MY_PASSWORD, as: 'plain', body: { new_password: 'short' }, status: 422, loc: ['body', 'new_password'] },
  { method: 'PUT', path: MY_PASSWORD, as: 'plain', body: { new_password: long(1025) }, status: 422, loc: ['body', 'new_password'] },
  {
    method: 'PUT',
    path: MY_PASSWORD,
    as: 'plain',
    body: { current_password: long(1025), new_password: 'long enough password' },
    status: 422,
    loc: ['body', 'current_password'],
  },
  // DELETE /api/me/sessions/{session_id}
  { method: 'DELETE', path: '/api/me/sessions/{session_id}', as: 'plain', ids: { session_id: 'ses_nope' }, status: 404 },
  {
    method: 'DELETE',
    path: '/api/me/sessions/{session_id}',
    as: 'plain',
    ids: { session_id: '%00' },
    status: 422,
    loc: ['path', 'session_id'],
  },
  // POST /api/admin/users/{user_id}/password-link
  { method: 'POST', path: '/api/admin/users/{user_id}/password-link', as: 'admin', ids: { user_id: 'usr_nope' }, status: 404 },
  { method: 'POST', path: '/api/admin/users/{user_id}/password-link', as: 'plain', ids: { user_id: 'usr_nope' }, status: 403 },
];

const labRows: Row[] = [
  // POST /api/labs {name, seat_quota?}
  { method: 'POST', path: LABS, as: 'owner', body: {}, status: 422, loc: ['body', 'name'] },
  { method: 'POST', path: LABS, as: 'owner', body: { name: '' }, status: 422, loc: ['body', 'name'] },
  { method: 'POST', path: LABS, as: 'owner', body: { name: '   ' }, status: 422, loc: ['body', 'name'] },
  { method: 'POST', path: LABS, as: 'owner', body: { name: long(101) }, status: 422, loc: ['body', 'name'] },
  { method: 'POST', path: LABS, as: 'owner', body: { name: 7 }, status: 422, loc: ['body', 'name'] },
  { method: 'POST', path: LABS, as: 'owner', body: { name: true }, status: 422, loc: ['body', 'name'] },
  { method: 'POST', path: LABS, as: 'owner', body: { name: { first: 'x' } }, status: 422, loc: ['body', 'name'] },
  { method: 'POST', path: LABS, as: 'owner', body: { name: null }, status: 422, loc: ['body', 'name'] },
  { method: 'POST', path: LABS, as: 'owner', body: { name: 'nul\u0000byte' }, status: 422, loc: ['body', 'name'] },
  { method: 'POST', path: LABS, as: 'admin', body: { name: 'ok', seat_quota: 0 }, status: 422, loc: ['body', 'seat_quota'] },
  { method: 'POST', path: LABS, as: 'admin', body: { name: 'ok', seat_quota: -1 }, status: 422, loc: ['body', 'seat_quota'] },
  { method: 'POST', path: LABS, as: 'admin', body: { name: 'ok', seat_quota: 10001 }, status: 422, loc: ['body', 'seat_quota'] },
  { method: 'POST', path: LABS, as: 'admin', body: { name: 'ok', seat_quota: 2147483648 }, status: 422, loc: ['body', 'seat_quota'] },
  { method: 'POST', path: LABS, as: 'admin', body: { name: 'ok', seat_quota: '5' }, status: 422, loc: ['body', 'seat_quota'] },
  { method: 'POST', path: LABS, as: 'admin', body: { name: 'ok', seat_quota: 1.5 }, status: 422, loc: ['body', 'seat_quota'] },
  { method: 'POST', path: LABS, as: 'owner', body: { name: 'ok', owner_id: 'usr_x' }, status: 422, loc: ['body', 'owner_id'] },
  { method: 'POST', path: LABS, as: 'owner', body: { name: 'ok', seatQuota: 5 }, status: 422, loc: ['body', 'seatQuota'] },
  {
    method: 'POST',
    path: LABS,
    as: 'owner',
    rawBody: '{"name": "ok", "__proto__": {"isAdmin": true}}',
    status: 422,
    loc: ['body', '__proto__'],
  },
  { method: 'POST', path: LABS, as: 'owner', body: { name: 'ok', seat_quota: 5 }, status: 403 }, // admins only
  // GET /api/labs/preview?code=
  { method: 'GET', path: '/api/labs/preview', as: 'plain', status: 422, loc: ['query', 'code'] },
  {
    method: 'GET',
    path: '/api/labs/preview',
    as: 'plain',
    search: 'code=AAAAAAAAAAAA&code=BBBBBBBBBBBB',
    status: 422,
    loc: ['query', 'code'],
  },
  {
    method: 'GET',
    path: '/api/labs/preview',
    as: 'plain',
    query: { code: 'ZZZZZZZZZZZZ' },
    status: 404,
    detail: 'invitation code not found',
  },
  { method: 'GET', path: '/api/labs/preview', as: 'plain', query: { code: 'ZZZZZZZZZZZ\u0000' }, status: 422, loc: ['query', 'code'] },
  // POST /api/labs/join {code}
  { method: 'POST', path: '/api/labs/join', as: 'plain', body: {}, status: 422, loc: ['body', 'code'] },
  { method: 'POST', path: '/api/labs/join', as: 'plain', body: { code: 123456789012 }, status: 422, loc: ['body', 'code'] },
  { method: 'POST', path: '/api/labs/join', as: 'plain', body: { code: null }, status: 422, loc: ['body', 'code'] },
  {
    method: 'POST',
    path: '/api/labs/join',
    as: 'plain',
    body: { code: 'ZZZZZZZZZZZZ', lab_id: 'lab_x' },
    status: 422,
    loc: ['body', 'lab_id'],
  },
  { method: 'POST', path: '/api/labs/join', as: 'plain', body: { code: 'ZZZZZZZZZZZZ' }, status: 404, detail: 'invitation code not found' },
  // GET /api/labs/{lab_id}
  { method: 'GET', path: '/api/labs/{lab_id}', as: 'member', ids: { lab_id: 'lab_nope' }, status: 404 },
  { method: 'GET', path: '/api/labs/{lab_id}', as: 'member', ids: { lab_id: long(300) }, status: 404 },
  { method: 'GET', path: '/api/labs/{lab_id}', as: 'member', ids: { lab_id: '%00' }, status: 422, loc: ['path', 'lab_id'] },
  { method: 'GET', path: '/api/labs/{lab_id}', as: 'plain', status: 404 }, // not a member: existence not revealed
  // GET /api/labs/{lab_id}/usage
  { method: 'GET', path: '/api/labs/{lab_id}/usage', as: 'owner', ids: { lab_id: 'lab_nope' }, status: 404 },
  { method: 'GET', path: '/api/labs/{lab_id}/usage', as: 'plain', status: 404 },
  { method: 'GET', path: '/api/labs/{lab_id}/usage', as: 'member', status: 403 },
  // POST /api/labs/{lab_id}/rotate_code
  { method: 'POST', path: '/api/labs/{lab_id}/rotate_code', as: 'owner', ids: { lab_id: 'lab_nope' }, status: 404 },
  { method: 'POST', path: '/api/labs/{lab_id}/rotate_code', as: 'plain', status: 404 },
  { method: 'POST', path: '/api/labs/{lab_id}/rotate_code', as: 'member', status: 403 },
  // DELETE /api/labs/{lab_id}/membership
  { method: 'DELETE', path: '/api/labs/{lab_id}/membership', as: 'member', ids: { lab_id: 'lab_nope' }, status: 404 },
  { method: 'DELETE', path: '/api/labs/{lab_id}/membership', as: 'plain', status: 404 },
  // PATCH /api/labs/{lab_id}/members/{member_user_id} {status?, role?}
  { method: 'PATCH', path: MEMBER, as: 'owner', body: {}, status: 422, loc: ['body'] },
  { method: 'PATCH', path: MEMBER, as: 'owner', body: { status: null, role: null }, status: 422, loc: ['body'] },
  { method: 'PATCH', path: MEMBER, as: 'owner', body: { status: 'bogus' }, status: 422, loc: ['body', 'status'] },
  { method: 'PATCH', path: MEMBER, as: 'owner', body: { status: 'pending' }, status: 422, loc: ['body', 'status'] },
  { method: 'PATCH', path: MEMBER, as: 'owner', body: { status: 'ACTIVE' }, status: 422, loc: ['body', 'status'] },
  { method: 'PATCH', path: MEMBER, as: 'owner', body: { status: 1 }, status: 422, loc: ['body', 'status'] },
  { method: 'PATCH', path: MEMBER, as: 'owner', body: { role: 'owner' }, status: 422, loc: ['body', 'role'] },
  { method: 'PATCH', path: MEMBER, as: 'owner', body: { role: 'admin' }, status: 422, loc: ['body', 'role'] },
  { method: 'PATCH', path: MEMBER, as: 'owner', body: { role: ['mentor'] }, status: 422, loc: ['body', 'role'] },
  { method: 'PATCH', path: MEMBER, as: 'owner', body: { role: 'mentor', note: 'x' }, status: 422, loc: ['body', 'note'] },
  { method: 'PATCH', path: MEMBER, as: 'owner', ids: { member_user_id: 'usr_nobody' }, body: { status: 'active' }, status: 404 },
  { method: 'PATCH', path: MEMBER, as: 'owner', ids: { lab_id: 'lab_nope' }, body: { status: 'active' }, status: 404 },
  {
    method: 'PATCH',
    path: MEMBER,
    as: 'owner',
    ids: { member_user_id: '%00' },
    body: { status: 'active' },
    status: 422,
    loc: ['path', 'member_user_id'],
  },
  { method: 'PATCH', path: MEMBER, as: 'member', ids: { member_user_id: 'usr_nobody' }, body: { role: 'mentor' }, status: 403 },
];

/** `limit` on board and reviews: 1-500. */
const scanRows: Row[] = ['/api/labs/{lab_id}/board', '/api/labs/{lab_id}/reviews'].flatMap((path): Row[] => [
  ...[0, 501, -1, 'abc', 1.5, '', 99999999999].map((limit): Row => ({
    method: 'GET',
    path,
    as: 'member',
    query: { limit },
    status: 422,
    loc: ['query', 'limit'],
  })),
  { method: 'GET', path, as: 'member', search: 'limit=1&limit=2', status: 422, loc: ['query', 'limit'] },
  { method: 'GET', path, as: 'member', ids: { lab_id: 'lab_nope' }, status: 404 },
  { method: 'GET', path, as: 'plain', status: 404 },
]);

/** `limit` (1-500) and `offset` (≥ 0) on the admin lists, plus their enum filters. */
const pageRows: Row[] = [ADMIN_USERS, ADMIN_LABS].flatMap((path): Row[] => [
  ...[0, 501, -1, 'abc', 1.5, '', 99999999999].map((limit): Row => ({
    method: 'GET',
    path,
    as: 'admin',
    query: { limit },
    status: 422,
    loc: ['query', 'limit'],
  })),
  ...[-1, 'x', 1.5, ''].map((offset): Row => ({
    method: 'GET',
    path,
    as: 'admin',
    query: { offset },
    status: 422,
    loc: ['query', 'offset'],
  })),
  { method: 'GET', path, as: 'admin', search: 'limit=1&limit=2', status: 422, loc: ['query', 'limit'] },
  { method: 'GET', path, as: 'admin', search: 'offset=0&offset=1', status: 422, loc: ['query', 'offset'] },
  { method: 'GET', path, as: 'admin', search: 'q=a&q=b', status: 422, loc: ['query', 'q'] },
  { method: 'GET', path, as: 'admin', query: { q: 'nul\u0000byte' }, status: 422, loc: ['query', 'q'] },
]);
pageRows.push(
  { method: 'GET', path: ADMIN_USERS, as: 'admin', query: { plan_code: 'gold' }, status: 422, loc: ['query', 'plan_code'] },
  { method: 'GET', path: ADMIN_USERS, as: 'admin', query: { plan_code: 'FREE' }, status: 422, loc: ['query', 'plan_code'] },
  { method: 'GET', path: ADMIN_LABS, as: 'admin', query: { status: 'deleted' }, status: 422, loc: ['query', 'status'] },
);

const adminRows: Row[] = [
  // POST /api/admin/users {email, name, phone?, plan_code?, is_admin?, domain?, institution?}
  { method: 'POST', path: ADMIN_USERS, as: 'admin', body: {}, status: 422, loc: ['body', 'email'] },
  { method: 'POST', path: ADMIN_USERS, as: 'admin', body: { email: okEmail }, status: 422, loc: ['body', 'name'] },
  { method: 'POST', path: ADMIN_USERS, as: 'admin', body: { name: 'Fresh' }, status: 422, loc: ['body', 'email'] },
  { method: 'POST', path: ADMIN_USERS, as: 'admin', body: { email: EMAIL_255, name: 'Fresh' }, status: 422, loc: ['body', 'email'] },
  { method: 'POST', path: ADMIN_USERS, as: 'admin', body: { email: 'not-an-email', name: 'Fresh' }, status: 422, loc: ['body', 'email'] },
  { method: 'POST', path: ADMIN_USERS, as: 'admin', body: { email: '', name: 'Fresh' }, status: 422, loc: ['body', 'email'] },
  { method: 'POST', path: ADMIN_USERS, as: 'admin', body: { email: 5, name: 'Fresh' }, status: 422, loc: ['body', 'email'] },
  { method: 'POST', path: ADMIN_USERS, as: 'admin', body: { email: null, name: 'Fresh' }, status: 422, loc: ['body', 'email'] },
  { method: 'POST', path: ADMIN_USERS, as: 'admin', body: { email: okEmail, name: '' }, status: 422, loc: ['body', 'name'] },
  { method: 'POST', path: ADMIN_USERS, as: 'admin', body: { email: okEmail, name: '   ' }, status: 422, loc: ['body', 'name'] },
  { method: 'POST', path: ADMIN_USERS, as: 'admin', body: { email: okEmail, name: long(201) }, status: 422, loc: ['body', 'name'] },
  { method: 'POST', path: ADMIN_USERS, as: 'admin', body: { email: okEmail, name: 42 }, status: 422, loc: ['body', 'name'] },
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'Fresh', plan_code: 'gold' },
    status: 422,
    loc: ['body', 'plan_code'],
  },
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'Fresh', plan_code: 1 },
    status: 422,
    loc: ['body', 'plan_code'],
  },
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'Fresh', is_admin: 'yes' },
    status: 422,
    loc: ['body', 'is_admin'],
  },
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'Fresh', is_admin: 1 },
    status: 422,
    loc: ['body', 'is_admin'],
  },
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'Fresh', phone: 'call me' },
    status: 422,
    loc: ['body', 'phone'],
  },
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'Fresh', phone: `+${long(41, '1')}` },
    status: 422,
    loc: ['body', 'phone'],
  },
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'Fresh', domain: '' },
    status: 422,
    loc: ['body', 'domain'],
  },
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'Fresh', domain: 'Has Space' },
    status: 422,
    loc: ['body', 'domain'],
  },
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'Fresh', domain: long(65, 'a') },
    status: 422,
    loc: ['body', 'domain'],
  },
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'Fresh', institution: '' },
    status: 422,
    loc: ['body', 'institution'],
  },
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'Fresh', institution: long(201) },
    status: 422,
    loc: ['body', 'institution'],
  },
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'Fresh', role: 'admin' },
    status: 422,
    loc: ['body', 'role'],
  },
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'Fresh', plan_source: 'paid' },
    status: 422,
    loc: ['body', 'plan_source'],
  },
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'Fresh', isAdmin: true },
    status: 422,
    loc: ['body', 'isAdmin'],
  },
  { method: 'POST', path: ADMIN_USERS, as: 'admin', body: { email: okEmail, name: 'nul\u0000byte' }, status: 422, loc: ['body', 'name'] },
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'Fresh', institution: 'nul\u0000byte' },
    status: 422,
    loc: ['body', 'institution'],
  },
  { method: 'POST', path: ADMIN_USERS, as: 'admin', bodyOf: (fx) => ({ email: fx.owner.email, name: 'Again' }), status: 409 },
  { method: 'POST', path: ADMIN_USERS, as: 'admin', bodyOf: (fx) => ({ email: fx.owner.email.toUpperCase(), name: 'Again' }), status: 409 },
  // GET /api/admin/users/{user_id}
  { method: 'GET', path: ADMIN_USER, as: 'admin', ids: { user_id: 'usr_nope' }, status: 404 },
  { method: 'GET', path: ADMIN_USER, as: 'admin', ids: { user_id: '%00' }, status: 422, loc: ['path', 'user_id'] },
  // PATCH /api/admin/users/{user_id}
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { name: '' }, status: 422, loc: ['body', 'name'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { name: '   ' }, status: 422, loc: ['body', 'name'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { name: long(201) }, status: 422, loc: ['body', 'name'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { name: null }, status: 422, loc: ['body', 'name'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { name: 3 }, status: 422, loc: ['body', 'name'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { name: 'nul\u0000byte' }, status: 422, loc: ['body', 'name'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { email: 'new@example.org' }, status: 422, loc: ['body', 'email'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { user_id: 'usr_other' }, status: 422, loc: ['body', 'user_id'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { plan_code: 'gold' }, status: 422, loc: ['body', 'plan_code'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { plan_code: null }, status: 422, loc: ['body', 'plan_code'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { plan_source: 'stolen' }, status: 422, loc: ['body', 'plan_source'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { plan_source: null }, status: 422, loc: ['body', 'plan_source'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { plan_expires_at: 'tomorrow' }, status: 422, loc: ['body', 'plan_expires_at'] },
  {
    method: 'PATCH',
    path: ADMIN_USER,
    as: 'admin',
    body: { plan_expires_at: '2026-13-45T99:00:00Z' },
    status: 422,
    loc: ['body', 'plan_expires_at'],
  },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { plan_expires_at: true }, status: 422, loc: ['body', 'plan_expires_at'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { is_admin: 'yes' }, status: 422, loc: ['body', 'is_admin'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { is_admin: null }, status: 422, loc: ['body', 'is_admin'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { disabled: 1 }, status: 422, loc: ['body', 'disabled'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { disabled: null }, status: 422, loc: ['body', 'disabled'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { domain: 'UPPER' }, status: 422, loc: ['body', 'domain'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { domain: '' }, status: 422, loc: ['body', 'domain'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { domain: null }, status: 422, loc: ['body', 'domain'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { phone: 'abc' }, status: 422, loc: ['body', 'phone'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { institution: '' }, status: 422, loc: ['body', 'institution'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { institution: long(201) }, status: 422, loc: ['body', 'institution'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { storage_quota_bytes: -1 }, status: 422, loc: ['body', 'storage_quota_bytes'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { storage_quota_bytes: 1.5 }, status: 422, loc: ['body', 'storage_quota_bytes'] },
  {
    method: 'PATCH',
    path: ADMIN_USER,
    as: 'admin',
    body: { storage_quota_bytes: 1e300 },
    status: 422,
    loc: ['body', 'storage_quota_bytes'],
  },
  {
    method: 'PATCH',
    path: ADMIN_USER,
    as: 'admin',
    body: { storage_quota_bytes: 'lots' },
    status: 422,
    loc: ['body', 'storage_quota_bytes'],
  },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', body: { storageQuotaBytes: 1 }, status: 422, loc: ['body', 'storageQuotaBytes'] },
  { method: 'PATCH', path: ADMIN_USER, as: 'admin', ids: { user_id: 'usr_nope' }, body: { name: 'X' }, status: 404 },
  // POST /api/admin/users/{user_id}/tokens {label}
  {
    method: 'POST',
    path: ADMIN_USERS,
    as: 'admin',
    body: { email: okEmail, name: 'With a short password', password: 'short' },
    status: 422,
    loc: ['body', 'password'],
  },
  { method: 'POST', path: TOKENS, as: 'admin', body: {}, status: 422, loc: ['body', 'label'] },
  { method: 'POST', path: TOKENS, as: 'admin', body: { label: '' }, status: 422, loc: ['body', 'label'] },
  { method: 'POST', path: TOKENS, as: 'admin', body: { label: '   ' }, status: 422, loc: ['body', 'label'] },
  { method: 'POST', path: TOKENS, as: 'admin', body: { label: long(101) }, status: 422, loc: ['body', 'label'] },
  { method: 'POST', path: TOKENS, as: 'admin', body: { label: 5 }, status: 422, loc: ['body', 'label'] },
  { method: 'POST', path: TOKENS, as: 'admin', body: { label: 'nul\u0000byte' }, status: 422, loc: ['body', 'label'] },
  { method: 'POST', path: TOKENS, as: 'admin', body: { label: null }, status: 422, loc: ['body', 'label'] },
  {
    method: 'POST',
    path: TOKENS,
    as: 'admin',
    body: { label: 'ok', expires_at: '2030-01-01T00:00:00Z' },
    status: 422,
    loc: ['body', 'expires_at'],
  },
  { method: 'POST', path: TOKENS, as: 'admin', body: { label: 'ok', kind: 'access' }, status: 422, loc: ['body', 'kind'] },
  { method: 'POST', path: TOKENS, as: 'admin', ids: { user_id: 'usr_nope' }, body: { label: 'ok' }, status: 404 },
  // DELETE /api/admin/users/{user_id}/tokens/{token_id}
  { method: 'DELETE', path: TOKEN, as: 'admin', ids: { user_id: 'usr_nope' }, status: 404 },
  { method: 'DELETE', path: TOKEN, as: 'admin', ids: { token_id: 'tok_nope' }, status: 404 },
  { method: 'DELETE', path: TOKEN, as: 'admin', ids: { token_id: '%00' }, status: 422, loc: ['path', 'token_id'] },
  // GET /api/admin/labs/{lab_id}
  { method: 'GET', path: ADMIN_LAB, as: 'admin', ids: { lab_id: 'lab_nope' }, status: 404 },
  { method: 'GET', path: ADMIN_LAB, as: 'admin', ids: { lab_id: '%00' }, status: 422, loc: ['path', 'lab_id'] },
  // PATCH /api/admin/labs/{lab_id} {name?, status?, seat_quota?}
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', body: { name: '' }, status: 422, loc: ['body', 'name'] },
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', body: { name: '   ' }, status: 422, loc: ['body', 'name'] },
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', body: { name: long(101) }, status: 422, loc: ['body', 'name'] },
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', body: { name: null }, status: 422, loc: ['body', 'name'] },
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', body: { name: 9 }, status: 422, loc: ['body', 'name'] },
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', body: { name: 'nul\u0000byte' }, status: 422, loc: ['body', 'name'] },
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', body: { status: 'deleted' }, status: 422, loc: ['body', 'status'] },
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', body: { status: null }, status: 422, loc: ['body', 'status'] },
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', body: { seat_quota: 0 }, status: 422, loc: ['body', 'seat_quota'] },
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', body: { seat_quota: 10001 }, status: 422, loc: ['body', 'seat_quota'] },
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', body: { seat_quota: '5' }, status: 422, loc: ['body', 'seat_quota'] },
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', body: { seat_quota: 1.5 }, status: 422, loc: ['body', 'seat_quota'] },
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', body: { seat_quota: null }, status: 422, loc: ['body', 'seat_quota'] },
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', body: { owner_id: 'usr_x' }, status: 422, loc: ['body', 'owner_id'] },
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', body: { seatQuota: 5 }, status: 422, loc: ['body', 'seatQuota'] },
  { method: 'PATCH', path: ADMIN_LAB, as: 'admin', ids: { lab_id: 'lab_nope' }, body: { name: 'X' }, status: 404 },
];

const TRAJECTORIES = '/api/trajectories';
const SESSION = '/api/trajectories/{session_id}';
const SESSION_META = '/api/trajectories/{session_id}/meta';
const APPEND = '/api/trajectories/{session_id}/append';
const FULL = '/api/trajectories/{session_id}/full';
const VISIBILITY = '/api/trajectories/{session_id}/visibility';
const RECONCILE = '/api/trajectories/reconcile';
const ok = { uuid: 'fresh-1', type: 'user' };
/** 129 characters: one over the 128 a session id may have. */
const ID_129 = long(129, 's');

/** Ids that cannot name a session: too long, outside [A-Za-z0-9._:-], a NUL. */
const badSessionIds = (method: string, path: string, as: Who, request: Pick<Row, 'body' | 'form' | 'query'>, writes: boolean): Row[] => [
  // Reading (or changing) an id that cannot exist is "absent"; creating one is a validation failure.
  writes
    ? { method, path, as, ids: { session_id: ID_129 }, ...request, status: 422, loc: ['path', 'session_id'] }
    : { method, path, as, ids: { session_id: ID_129 }, ...request, status: 404 },
  writes
    ? { method, path, as, ids: { session_id: 'a%20b' }, ...request, status: 422, loc: ['path', 'session_id'] }
    : { method, path, as, ids: { session_id: 'a%20b' }, ...request, status: 404 },
  { method, path, as, ids: { session_id: '%00' }, ...request, status: 422, loc: ['path', 'session_id'] },
];

const trajectoryRows: Row[] = [
  // GET /api/trajectories?owner&lab_id&limit&include_archived&shared_only&source
  ...[0, 501, -1, 'abc', 1.5, '', 99999999999].map((limit): Row => ({
    method: 'GET',
    path: TRAJECTORIES,
    as: 'owner',
    query: { limit },
    status: 422,
    loc: ['query', 'limit'],
  })),
  { method: 'GET', path: TRAJECTORIES, as: 'owner', search: 'limit=1&limit=2', status: 422, loc: ['query', 'limit'] },
  { method: 'GET', path: TRAJECTORIES, as: 'owner', query: { include_archived: 'maybe' }, status: 422, loc: ['query', 'include_archived'] },
  { method: 'GET', path: TRAJECTORIES, as: 'owner', query: { include_archived: '' }, status: 422, loc: ['query', 'include_archived'] },
  {
    method: 'GET',
    path: TRAJECTORIES,
    as: 'owner',
    search: 'include_archived=1&include_archived=0',
    status: 422,
    loc: ['query', 'include_archived'],
  },
  { method: 'GET', path: TRAJECTORIES, as: 'owner', query: { shared_only: 'maybe' }, status: 422, loc: ['query', 'shared_only'] },
  { method: 'GET', path: TRAJECTORIES, as: 'owner', query: { shared_only: 'yes' }, status: 422, loc: ['query', 'shared_only'] },
  { method: 'GET', path: TRAJECTORIES, as: 'owner', query: { source: '' }, status: 422, loc: ['query', 'source'] },
  { method: 'GET', path: TRAJECTORIES, as: 'owner', query: { source: long(33) }, status: 422, loc: ['query', 'source'] },
  { method: 'GET', path: TRAJECTORIES, as: 'owner', query: { lab_id: 'lab_x\u0000' }, status: 422, loc: ['query', 'lab_id'] },
  { method: 'GET', path: TRAJECTORIES, as: 'owner', query: { owner: 'usr_x\u0000' }, status: 422, loc: ['query', 'owner'] },
  { method: 'GET', path: TRAJECTORIES, as: 'owner', search: 'owner=a&owner=b', status: 422, loc: ['query', 'owner'] },
  { method: 'GET', path: TRAJECTORIES, as: 'member', query: { owner: 'usr_nobody' }, status: 403 }, // owner= is for mentors
  // POST /api/trajectories/reconcile {session_ids}
  { method: 'POST', path: RECONCILE, as: 'owner', body: {}, status: 422, loc: ['body', 'session_ids'] },
  { method: 'POST', path: RECONCILE, as: 'owner', body: { session_ids: SESSION_OWNED }, status: 422, loc: ['body', 'session_ids'] },
  {
    method: 'POST',
    path: RECONCILE,
    as: 'owner',
    body: { session_ids: { [SESSION_OWNED]: true } },
    status: 422,
    loc: ['body', 'session_ids'],
  },
  { method: 'POST', path: RECONCILE, as: 'owner', body: { session_ids: null }, status: 422, loc: ['body', 'session_ids'] },
  {
    method: 'POST',
    path: RECONCILE,
    as: 'owner',
    body: { session_ids: [SESSION_OWNED, null] },
    status: 422,
    loc: ['body', 'session_ids', 1],
  },
  { method: 'POST', path: RECONCILE, as: 'owner', body: { session_ids: [[SESSION_OWNED]] }, status: 422, loc: ['body', 'session_ids', 0] },
  { method: 'POST', path: RECONCILE, as: 'owner', body: { session_ids: ['nul\u0000byte'] }, status: 422, loc: ['body', 'session_ids', 0] },
  { method: 'POST', path: RECONCILE, as: 'owner', body: { session_ids: [], archive: true }, status: 422, loc: ['body', 'archive'] },
  { method: 'POST', path: RECONCILE, as: 'owner', body: { sessionIds: [] }, status: 422, loc: ['body', 'sessionIds'] },
  // GET /api/trajectories/{session_id}?since&download
  { method: 'GET', path: SESSION, as: 'owner', query: { download: 'maybe' }, status: 422, loc: ['query', 'download'] },
  { method: 'GET', path: SESSION, as: 'owner', query: { download: '1' }, status: 422, loc: ['query', 'download'] },
  { method: 'GET', path: SESSION, as: 'owner', query: { download: '' }, status: 422, loc: ['query', 'download'] },
  { method: 'GET', path: SESSION, as: 'owner', search: 'download=true&download=false', status: 422, loc: ['query', 'download'] },
  { method: 'GET', path: SESSION, as: 'owner', query: { since: '' }, status: 422, loc: ['query', 'since'] },
  { method: 'GET', path: SESSION, as: 'owner', query: { since: long(201) }, status: 422, loc: ['query', 'since'] },
  {
    method: 'GET',
    path: SESSION,
    as: 'owner',
    search: `since=${SESSION_OWNED}-1&since=${SESSION_OWNED}-2`,
    status: 422,
    loc: ['query', 'since'],
  },
  { method: 'GET', path: SESSION, as: 'owner', query: { since: 'no-such-record' }, status: 404 },
  { method: 'GET', path: SESSION, as: 'owner', ids: { session_id: 'val-nope' }, status: 404 },
  { method: 'GET', path: SESSION, as: 'plain', status: 404 },
  { method: 'GET', path: SESSION, as: 'plain', query: { download: 'true' }, status: 404 },
  { method: 'GET', path: SESSION, as: 'member', status: 404 }, // a lab member, but the session is private
  ...badSessionIds('GET', SESSION, 'owner', {}, false),
  // GET /api/trajectories/{session_id}/meta
  { method: 'GET', path: SESSION_META, as: 'owner', ids: { session_id: 'val-nope' }, status: 404 },
  { method: 'GET', path: SESSION_META, as: 'plain', status: 404 },
  { method: 'GET', path: SESSION_META, as: 'member', status: 404 },
  ...badSessionIds('GET', SESSION_META, 'owner', {}, false),
  // DELETE /api/trajectories/{session_id}
  { method: 'DELETE', path: SESSION, as: 'owner', ids: { session_id: 'val-nope' }, status: 404 },
  { method: 'DELETE', path: SESSION, as: 'plain', status: 404 },
  { method: 'DELETE', path: SESSION, as: 'member', status: 404 },
  { method: 'DELETE', path: SESSION, as: 'member', ids: { session_id: SESSION_SHARED }, status: 403 },
  ...badSessionIds('DELETE', SESSION, 'owner', {}, false),
  // PUT /api/trajectories/{session_id}/append {base_uuid, records, lab_id?, title?}
  { method: 'PUT', path: APPEND, as: 'owner', body: {}, status: 422, loc: ['body', 'records'] },
  { method: 'PUT', path: APPEND, as: 'owner', body: { base_uuid: null }, status: 422, loc: ['body', 'records'] },
  { method: 'PUT', path: APPEND, as: 'owner', body: { base_uuid: null, records: null }, status: 422, loc: ['body', 'records'] },
  { method: 'PUT', path: APPEND, as: 'owner', body: { base_uuid: null, records: 'x' }, status: 422, loc: ['body', 'records'] },
  { method: 'PUT', path: APPEND, as: 'owner', body: { base_uuid: null, records: ok }, status: 422, loc: ['body', 'records'] },
  { method: 'PUT', path: APPEND, as: 'owner', body: { base_uuid: null, records: 5 }, status: 422, loc: ['body', 'records'] },
  { method: 'PUT', path: APPEND, as: 'owner', body: { base_uuid: 5, records: [ok] }, status: 422, loc: ['body', 'base_uuid'] },
  { method: 'PUT', path: APPEND, as: 'owner', body: { base_uuid: ['x'], records: [ok] }, status: 422, loc: ['body', 'base_uuid'] },
  { method: 'PUT', path: APPEND, as: 'owner', body: { base_uuid: { uuid: 'x' }, records: [ok] }, status: 422, loc: ['body', 'base_uuid'] },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: 'nul\u0000byte', records: [ok] },
    status: 422,
    loc: ['body', 'base_uuid'],
  },
  { method: 'PUT', path: APPEND, as: 'owner', body: { base_uuid: null, records: [ok], extra: 1 }, status: 422, loc: ['body', 'extra'] },
  { method: 'PUT', path: APPEND, as: 'owner', body: { baseUuid: null, records: [ok] }, status: 422, loc: ['body', 'baseUuid'] },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: null, records: [ok], labId: 'lab_x' },
    status: 422,
    loc: ['body', 'labId'],
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: null, records: [ok], lab_id: 'lab_x\u0000' },
    status: 422,
    loc: ['body', 'lab_id'],
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: null, records: [ok], title: long(501) },
    status: 422,
    loc: ['body', 'title'],
  },
  { method: 'PUT', path: APPEND, as: 'owner', body: { base_uuid: null, records: [ok], title: 5 }, status: 422, loc: ['body', 'title'] },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: null, records: [ok], title: 'nul\u0000byte' },
    status: 422,
    loc: ['body', 'title'],
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: `${SESSION_OWNED}-2`, records: [ok, 5] },
    status: 422,
    loc: ['body', 'records', 1],
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: `${SESSION_OWNED}-2`, records: ['{"uuid":"s","type":"user"}'] },
    status: 422,
    loc: ['body', 'records', 0],
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: `${SESSION_OWNED}-2`, records: [null] },
    status: 422,
    loc: ['body', 'records', 0],
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: `${SESSION_OWNED}-2`, records: [{ uuid: 'a' }] },
    status: 422,
    loc: ['body', 'records', 0, 'type'],
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: `${SESSION_OWNED}-2`, records: [{ type: 'user' }] },
    status: 422,
    loc: ['body', 'records', 0, 'uuid'],
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: `${SESSION_OWNED}-2`, records: [{ uuid: long(201), type: 'user' }] },
    status: 422,
    loc: ['body', 'records', 0, 'uuid'],
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: `${SESSION_OWNED}-2`, records: [ok, { ...ok }] },
    status: 422,
    loc: ['body', 'records', 1, 'uuid'],
  },
  // The member of the record is `parentUuid` (docs/api/trajectories.md): that is where the problem is.
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: `${SESSION_OWNED}-2`, records: [{ ...ok, parentUuid: 5 }] },
    status: 422,
    loc: ['body', 'records', 0, 'parentUuid'],
  },
  // An escaped NUL is fine inside a record's text, but not in the members stored in columns of their own.
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: `${SESSION_OWNED}-2`, records: [{ uuid: 'nul\u0000byte', type: 'user' }] },
    status: 422,
    loc: ['body', 'records', 0, 'uuid'],
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: `${SESSION_OWNED}-2`, records: [{ ...ok, parentUuid: 'nul\u0000byte' }] },
    status: 422,
    loc: ['body', 'records', 0, 'parentUuid'],
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: `${SESSION_OWNED}-2`, records: [{ ...ok, type: 'nul\u0000byte' }] },
    status: 422,
    loc: ['body', 'records', 0, 'type'],
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: `${SESSION_OWNED}-2`, records: [{ ...ok, type: 'lone \ud800 surrogate' }] },
    status: 422,
    loc: ['body', 'records', 0, 'type'],
  },
  {
    method: 'PUT',
    path: FULL,
    as: 'owner',
    body: { records: [{ uuid: 'nul\u0000byte', type: 'user' }] },
    status: 422,
    loc: ['body', 'records', 0, 'uuid'],
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    ids: { session_id: SESSION_NEW },
    body: { base_uuid: null, records: [ok, 5] },
    status: 422,
    loc: ['body', 'records', 1],
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: 'not-the-head', records: [ok] },
    status: 409,
    detail: 'not a fast-forward',
  },
  { method: 'PUT', path: APPEND, as: 'owner', body: { base_uuid: null, records: [ok] }, status: 409, detail: 'not a fast-forward' },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    body: { base_uuid: `${SESSION_OWNED}-2`, records: [{ uuid: `${SESSION_OWNED}-1`, type: 'user' }] },
    status: 409,
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'owner',
    ids: { session_id: SESSION_NEW },
    body: { base_uuid: null, records: [ok], lab_id: 'lab_nope' },
    status: 409,
  },
  {
    method: 'PUT',
    path: APPEND,
    as: 'member',
    ids: { session_id: SESSION_SHARED },
    body: { base_uuid: `${SESSION_SHARED}-2`, records: [ok] },
    status: 403,
  },
  { method: 'PUT', path: APPEND, as: 'member', body: { base_uuid: `${SESSION_OWNED}-2`, records: [ok] }, status: 404 },
  { method: 'PUT', path: APPEND, as: 'plain', body: { base_uuid: `${SESSION_OWNED}-2`, records: [ok] }, status: 404 },
  ...badSessionIds('PUT', APPEND, 'owner', { body: { base_uuid: null, records: [ok] } }, true),
  // PUT /api/trajectories/{session_id}/full {records, lab_id?, title?}
  { method: 'PUT', path: FULL, as: 'owner', body: {}, status: 422, loc: ['body', 'records'] },
  { method: 'PUT', path: FULL, as: 'owner', body: { records: 'x' }, status: 422, loc: ['body', 'records'] },
  { method: 'PUT', path: FULL, as: 'owner', body: { records: null }, status: 422, loc: ['body', 'records'] },
  { method: 'PUT', path: FULL, as: 'owner', body: { records: [ok, 5] }, status: 422, loc: ['body', 'records', 1] },
  { method: 'PUT', path: FULL, as: 'owner', body: { records: [ok, { ...ok }] }, status: 422, loc: ['body', 'records', 1, 'uuid'] },
  { method: 'PUT', path: FULL, as: 'owner', body: { records: [{ uuid: 'a' }] }, status: 422, loc: ['body', 'records', 0, 'type'] },
  { method: 'PUT', path: FULL, as: 'owner', body: { base_uuid: null, records: [ok] }, status: 422, loc: ['body', 'base_uuid'] }, // no fast-forward here
  { method: 'PUT', path: FULL, as: 'owner', body: { records: [ok], title: long(501) }, status: 422, loc: ['body', 'title'] },
  { method: 'PUT', path: FULL, as: 'owner', body: { records: [ok], lab_id: 'lab_nope' }, status: 409 },
  {
    method: 'PUT',
    path: FULL,
    as: 'owner',
    ids: { session_id: SESSION_NEW },
    body: { records: [{ type: 'user' }] },
    status: 422,
    loc: ['body', 'records', 0, 'uuid'],
  },
  { method: 'PUT', path: FULL, as: 'member', ids: { session_id: SESSION_SHARED }, body: { records: [ok] }, status: 403 },
  { method: 'PUT', path: FULL, as: 'plain', body: { records: [ok] }, status: 404 },
  ...badSessionIds('PUT', FULL, 'owner', { body: { records: [ok] } }, true),
  // PATCH /api/trajectories/{session_id}/visibility {visibility, lab_id?}
  { method: 'PATCH', path: VISIBILITY, as: 'owner', body: {}, status: 422, loc: ['body', 'visibility'] },
  { method: 'PATCH', path: VISIBILITY, as: 'owner', body: { visibility: 'public' }, status: 422, loc: ['body', 'visibility'] },
  { method: 'PATCH', path: VISIBILITY, as: 'owner', body: { visibility: 'LAB' }, status: 422, loc: ['body', 'visibility'] },
  { method: 'PATCH', path: VISIBILITY, as: 'owner', body: { visibility: null }, status: 422, loc: ['body', 'visibility'] },
  { method: 'PATCH', path: VISIBILITY, as: 'owner', body: { visibility: 1 }, status: 422, loc: ['body', 'visibility'] },
  { method: 'PATCH', path: VISIBILITY, as: 'owner', body: { visibility: ['lab'] }, status: 422, loc: ['body', 'visibility'] },
  { method: 'PATCH', path: VISIBILITY, as: 'owner', body: { visibility: 'lab', extra: 1 }, status: 422, loc: ['body', 'extra'] },
  { method: 'PATCH', path: VISIBILITY, as: 'owner', body: { visibility: 'lab', labId: 'lab_x' }, status: 422, loc: ['body', 'labId'] },
  {
    method: 'PATCH',
    path: VISIBILITY,
    as: 'owner',
    body: { visibility: 'lab', lab_id: 'lab_x\u0000' },
    status: 422,
    loc: ['body', 'lab_id'],
  },
  { method: 'PATCH', path: VISIBILITY, as: 'owner', body: { visibility: 'lab', lab_id: 'lab_nope' }, status: 409 },
  { method: 'PATCH', path: VISIBILITY, as: 'owner', ids: { session_id: 'val-nope' }, body: { visibility: 'private' }, status: 404 },
  { method: 'PATCH', path: VISIBILITY, as: 'member', ids: { session_id: SESSION_SHARED }, body: { visibility: 'private' }, status: 403 },
  { method: 'PATCH', path: VISIBILITY, as: 'member', body: { visibility: 'lab' }, status: 404 },
  { method: 'PATCH', path: VISIBILITY, as: 'plain', body: { visibility: 'private' }, status: 404 },
  ...badSessionIds('PATCH', VISIBILITY, 'owner', { body: { visibility: 'private' } }, false),
];

const ANNOTATIONS = '/api/trajectories/{session_id}/annotations';
const RESOLVE = '/api/trajectories/{session_id}/annotations/{annotation_id}/resolve';
const CRITIQUE = '/api/trajectories/{session_id}/critique';
const FORK = '/api/trajectories/{session_id}/fork';
const SUMMARY = '/api/trajectories/{session_id}/summary';
const SUMMARY_REFRESH = '/api/trajectories/{session_id}/summary/refresh';
const DISCUSS = '/api/trajectories/{session_id}/discuss';
const DISCUSS_STREAM = '/api/trajectories/{session_id}/discuss/stream';
const DISCUSSIONS = '/api/trajectories/{session_id}/discussions';
const ADMIN_TRAJECTORIES = '/api/admin/trajectories';
const ADMIN_SEGMENTATION = '/api/admin/segmentation';
const EXPORT = '/api/trajectories/{session_id}/export';
const OWNED_1 = `${SESSION_OWNED}-1`;
const OWNED_2 = `${SESSION_OWNED}-2`;
const SHARED_2 = `${SESSION_SHARED}-2`;

/** Who cannot see a session gets 404 on it: an unknown id, a user in no lab, a lab member on the private session. */
const hiddenRows = (method: string, path: string, request: Pick<Row, 'body' | 'form' | 'query'> = {}): Row[] => [
  { method, path, as: 'owner', ids: { session_id: 'val-nope' }, ...request, status: 404 },
  { method, path, as: 'plain', ...request, status: 404 },
  { method, path, as: 'member', ...request, status: 404 },
];

const trajectoryExtraRows: Row[] = [
  // GET /api/trajectories/{session_id}/export?format&for_sharing
  ...hiddenRows('GET', EXPORT),
  ...badSessionIds('GET', EXPORT, 'owner', {}, false),
  { method: 'GET', path: EXPORT, as: 'owner', status: 200, contentType: /^application\/x-ipynb\+json/ },
  { method: 'GET', path: EXPORT, as: 'owner', query: { format: 'html', for_sharing: 'true' }, status: 200, contentType: /^text\/html/ },
  ...['pdf', '', 'IPYNB'].map((format): Row => ({
    method: 'GET',
    path: EXPORT,
    as: 'owner',
    query: { format },
    status: 422,
    loc: ['query', 'format'],
  })),
  ...['yes', '1', ''].map((forSharing): Row => ({
    method: 'GET',
    path: EXPORT,
    as: 'owner',
    query: { for_sharing: forSharing },
    status: 422,
    loc: ['query', 'for_sharing'],
  })),
  // GET /api/trajectories/{session_id}/annotations
  ...hiddenRows('GET', ANNOTATIONS),
  ...badSessionIds('GET', ANNOTATIONS, 'owner', {}, false),
  // POST /api/trajectories/{session_id}/annotations {record_uuid, body, reply_to?}
  { method: 'POST', path: ANNOTATIONS, as: 'owner', body: {}, status: 422, loc: ['body', 'record_uuid'] },
  { method: 'POST', path: ANNOTATIONS, as: 'owner', body: { body: 'x' }, status: 422, loc: ['body', 'record_uuid'] },
  { method: 'POST', path: ANNOTATIONS, as: 'owner', body: { record_uuid: OWNED_1 }, status: 422, loc: ['body', 'body'] },
  { method: 'POST', path: ANNOTATIONS, as: 'owner', body: { record_uuid: 5, body: 'x' }, status: 422, loc: ['body', 'record_uuid'] },
  { method: 'POST', path: ANNOTATIONS, as: 'owner', body: { record_uuid: null, body: 'x' }, status: 422, loc: ['body', 'record_uuid'] },
  {
    method: 'POST',
    path: ANNOTATIONS,
    as: 'owner',
    body: { record_uuid: [OWNED_1], body: 'x' },
    status: 422,
    loc: ['body', 'record_uuid'],
  },
  { method: 'POST', path: ANNOTATIONS, as: 'owner', body: { record_uuid: '', body: 'x' }, status: 422, loc: ['body', 'record_uuid'] },
  {
    method: 'POST',
    path: ANNOTATIONS,
    as: 'owner',
    body: { record_uuid: long(201), body: 'x' },
    status: 422,
    loc: ['body', 'record_uuid'],
  },
  { method: 'POST', path: ANNOTATIONS, as: 'owner', body: { record_uuid: OWNED_1, body: '' }, status: 422, loc: ['body', 'body'] },
  {
    method: 'POST',
    path: ANNOTATIONS,
    as: 'owner',
    body: { record_uuid: OWNED_1, body: long(10_001) },
    status: 422,
    loc: ['body', 'body'],
  },
  { method: 'POST', path: ANNOTATIONS, as: 'owner', body: { record_uuid: OWNED_1, body: 7 }, status: 422, loc: ['body', 'body'] },
  { method: 'POST', path: ANNOTATIONS, as: 'owner', body: { record_uuid: OWNED_1, body: null }, status: 422, loc: ['body', 'body'] },
  {
    method: 'POST',
    path: ANNOTATIONS,
    as: 'owner',
    body: { record_uuid: OWNED_1, body: { text: 'x' } },
    status: 422,
    loc: ['body', 'body'],
  },
  {
    method: 'POST',
    path: ANNOTATIONS,
    as: 'owner',
    body: { record_uuid: OWNED_1, body: 'nul\u0000byte' },
    status: 422,
    loc: ['body', 'body'],
  },
  {
    method: 'POST',
    path: ANNOTATIONS,
    as: 'owner',
    body: { record_uuid: OWNED_1, body: 'x', reply_to: 5 },
    status: 422,
    loc: ['body', 'reply_to'],
  },
  {
    method: 'POST',
    path: ANNOTATIONS,
    as: 'owner',
    body: { record_uuid: OWNED_1, body: 'x', reply_to: '' },
    status: 422,
    loc: ['body', 'reply_to'],
  },
  {
    method: 'POST',
    path: ANNOTATIONS,
    as: 'owner',
    body: { record_uuid: OWNED_1, body: 'x', reply_to: ['ann_x'] },
    status: 422,
    loc: ['body', 'reply_to'],
  },
  {
    method: 'POST',
    path: ANNOTATIONS,
    as: 'owner',
    body: { record_uuid: OWNED_1, body: 'x', status: 'resolved' },
    status: 422,
    loc: ['body', 'status'],
  },
  {
    method: 'POST',
    path: ANNOTATIONS,
    as: 'owner',
    body: { record_uuid: OWNED_1, body: 'x', author_id: 'usr_x' },
    status: 422,
    loc: ['body', 'author_id'],
  },
  { method: 'POST', path: ANNOTATIONS, as: 'owner', body: { recordUuid: OWNED_1, body: 'x' }, status: 422, loc: ['body', 'recordUuid'] },
  { method: 'POST', path: ANNOTATIONS, as: 'owner', body: { record_uuid: 'no-such-record', body: 'x' }, status: 404 },
  { method: 'POST', path: ANNOTATIONS, as: 'owner', body: { record_uuid: `${SESSION_SHARED}-1`, body: 'x' }, status: 404 }, // a record of another session
  { method: 'POST', path: ANNOTATIONS, as: 'owner', body: { record_uuid: OWNED_1, body: 'x', reply_to: 'ann_nope' }, status: 404 },
  {
    method: 'POST',
    path: ANNOTATIONS,
    as: 'owner',
    bodyOf: (fx) => ({ record_uuid: OWNED_1, body: 'x', reply_to: fx.sharedAnnotationId }),
    status: 404,
  }, // a note of another session
  {
    method: 'POST',
    path: ANNOTATIONS,
    as: 'member',
    ids: { session_id: SESSION_SHARED },
    body: { record_uuid: `${SESSION_SHARED}-1`, body: 'x' },
    status: 403,
  },
  ...hiddenRows('POST', ANNOTATIONS, { body: { record_uuid: OWNED_1, body: 'x' } }),
  ...badSessionIds('POST', ANNOTATIONS, 'owner', { body: { record_uuid: OWNED_1, body: 'x' } }, false),
  // POST /api/trajectories/{session_id}/annotations/{annotation_id}/resolve
  { method: 'POST', path: RESOLVE, as: 'owner', ids: { annotation_id: 'ann_nope' }, status: 404 },
  { method: 'POST', path: RESOLVE, as: 'owner', ids: { annotation_id: long(300) }, status: 404 },
  { method: 'POST', path: RESOLVE, as: 'owner', ids: { annotation_id: '%00' }, status: 422, loc: ['path', 'annotation_id'] },
  { method: 'POST', path: RESOLVE, as: 'owner', ids: { session_id: SESSION_SHARED }, status: 404 }, // the note is on another session
  { method: 'POST', path: RESOLVE, as: 'member', ids: { session_id: SESSION_SHARED, annotation_id: 'ann_nope' }, status: 403 },
  ...hiddenRows('POST', RESOLVE),
  ...badSessionIds('POST', RESOLVE, 'owner', {}, false),
  // POST /api/trajectories/{session_id}/critique
  ...hiddenRows('POST', CRITIQUE),
  ...badSessionIds('POST', CRITIQUE, 'owner', {}, false),
  // POST /api/trajectories/{session_id}/fork {head_uuid}
  { method: 'POST', path: FORK, as: 'owner', body: {}, status: 422, loc: ['body', 'head_uuid'] },
  { method: 'POST', path: FORK, as: 'owner', body: { head_uuid: null }, status: 422, loc: ['body', 'head_uuid'] },
  { method: 'POST', path: FORK, as: 'owner', body: { head_uuid: 5 }, status: 422, loc: ['body', 'head_uuid'] },
  { method: 'POST', path: FORK, as: 'owner', body: { head_uuid: [OWNED_2] }, status: 422, loc: ['body', 'head_uuid'] },
  { method: 'POST', path: FORK, as: 'owner', body: { head_uuid: '' }, status: 422, loc: ['body', 'head_uuid'] },
  { method: 'POST', path: FORK, as: 'owner', body: { head_uuid: long(201) }, status: 422, loc: ['body', 'head_uuid'] },
  { method: 'POST', path: FORK, as: 'owner', body: { head_uuid: 'nul\u0000byte' }, status: 422, loc: ['body', 'head_uuid'] },
  { method: 'POST', path: FORK, as: 'owner', body: { head_uuid: OWNED_2, session_id: 'mine' }, status: 422, loc: ['body', 'session_id'] },
  { method: 'POST', path: FORK, as: 'owner', body: { head_uuid: OWNED_2, visibility: 'lab' }, status: 422, loc: ['body', 'visibility'] },
  { method: 'POST', path: FORK, as: 'owner', body: { headUuid: OWNED_2 }, status: 422, loc: ['body', 'headUuid'] },
  { method: 'POST', path: FORK, as: 'owner', body: { head_uuid: 'no-such-record' }, status: 404 },
  { method: 'POST', path: FORK, as: 'owner', body: { head_uuid: SHARED_2 }, status: 404 }, // a record of another session
  ...hiddenRows('POST', FORK, { body: { head_uuid: OWNED_2 } }),
  ...badSessionIds('POST', FORK, 'owner', { body: { head_uuid: OWNED_2 } }, false),
  // POST /api/trajectories/{session_id}/summary {parent_uuid}
  { method: 'POST', path: SUMMARY, as: 'owner', body: {}, status: 422, loc: ['body', 'parent_uuid'] },
  { method: 'POST', path: SUMMARY, as: 'owner', body: { parent_uuid: null }, status: 422, loc: ['body', 'parent_uuid'] },
  { method: 'POST', path: SUMMARY, as: 'owner', body: { parent_uuid: 5 }, status: 422, loc: ['body', 'parent_uuid'] },
  { method: 'POST', path: SUMMARY, as: 'owner', body: { parent_uuid: { uuid: OWNED_2 } }, status: 422, loc: ['body', 'parent_uuid'] },
  { method: 'POST', path: SUMMARY, as: 'owner', body: { parent_uuid: '' }, status: 422, loc: ['body', 'parent_uuid'] },
  { method: 'POST', path: SUMMARY, as: 'owner', body: { parent_uuid: long(201) }, status: 422, loc: ['body', 'parent_uuid'] },
  { method: 'POST', path: SUMMARY, as: 'owner', body: { parent_uuid: 'nul\u0000byte' }, status: 422, loc: ['body', 'parent_uuid'] },
  { method: 'POST', path: SUMMARY, as: 'owner', body: { parent_uuid: OWNED_2, summary: 'mine' }, status: 422, loc: ['body', 'summary'] },
  { method: 'POST', path: SUMMARY, as: 'owner', body: { parentUuid: OWNED_2 }, status: 422, loc: ['body', 'parentUuid'] },
  { method: 'POST', path: SUMMARY, as: 'owner', body: { parent_uuid: 'no-such-record' }, status: 404 },
  { method: 'POST', path: SUMMARY, as: 'owner', body: { parent_uuid: SHARED_2 }, status: 404 },
  { method: 'POST', path: SUMMARY, as: 'member', ids: { session_id: SESSION_SHARED }, body: { parent_uuid: SHARED_2 }, status: 403 },
  ...hiddenRows('POST', SUMMARY, { body: { parent_uuid: OWNED_2 } }),
  ...badSessionIds('POST', SUMMARY, 'owner', { body: { parent_uuid: OWNED_2 } }, false),
  // GET /api/trajectories/{session_id}/summary
  ...hiddenRows('GET', SUMMARY),
  ...badSessionIds('GET', SUMMARY, 'owner', {}, false),
  // POST /api/trajectories/{session_id}/summary/refresh
  { method: 'POST', path: SUMMARY_REFRESH, as: 'member', ids: { session_id: SESSION_SHARED }, status: 403 },
  ...hiddenRows('POST', SUMMARY_REFRESH),
  ...badSessionIds('POST', SUMMARY_REFRESH, 'owner', {}, false),
  // POST /api/trajectories/{session_id}/discuss {question}, and its streamed form (the same checks, as JSON, before any event)
  ...[DISCUSS, DISCUSS_STREAM].flatMap((path): Row[] => [
    { method: 'POST', path, as: 'owner', body: {}, status: 422, loc: ['body', 'question'] },
    { method: 'POST', path, as: 'owner', body: { question: null }, status: 422, loc: ['body', 'question'] },
    { method: 'POST', path, as: 'owner', body: { question: 5 }, status: 422, loc: ['body', 'question'] },
    { method: 'POST', path, as: 'owner', body: { question: ['Why?'] }, status: 422, loc: ['body', 'question'] },
    { method: 'POST', path, as: 'owner', body: { question: '' }, status: 422, loc: ['body', 'question'] },
    { method: 'POST', path, as: 'owner', body: { question: long(4001) }, status: 422, loc: ['body', 'question'] },
    { method: 'POST', path, as: 'owner', body: { question: 'nul\u0000byte' }, status: 422, loc: ['body', 'question'] },
    { method: 'POST', path, as: 'owner', body: { question: 'Why?', model: 'gpt' }, status: 422, loc: ['body', 'model'] },
    { method: 'POST', path, as: 'owner', body: { Question: 'Why?' }, status: 422, loc: ['body', 'Question'] },
    // No model is configured: a valid question is answered 503, for the owner and for a viewer alike.
    { method: 'POST', path, as: 'owner', body: { question: 'Why?' }, status: 503 },
    { method: 'POST', path, as: 'member', ids: { session_id: SESSION_SHARED }, body: { question: 'Why?' }, status: 503 },
    ...hiddenRows('POST', path, { body: { question: 'Why?' } }),
    ...badSessionIds('POST', path, 'owner', { body: { question: 'Why?' } }, false),
  ]),
  // GET /api/trajectories/{session_id}/discussions
  { method: 'GET', path: DISCUSSIONS, as: 'member', ids: { session_id: SESSION_SHARED }, status: 403 },
  ...hiddenRows('GET', DISCUSSIONS),
  ...badSessionIds('GET', DISCUSSIONS, 'owner', {}, false),
  // GET /api/admin/trajectories?owner&lab_id&q&limit
  ...[0, 501, -1, 'abc', 1.5, '', 99999999999].map((limit): Row => ({
    method: 'GET',
    path: ADMIN_TRAJECTORIES,
    as: 'admin',
    query: { limit },
    status: 422,
    loc: ['query', 'limit'],
  })),
  { method: 'GET', path: ADMIN_TRAJECTORIES, as: 'admin', search: 'limit=1&limit=2', status: 422, loc: ['query', 'limit'] },
  { method: 'GET', path: ADMIN_TRAJECTORIES, as: 'admin', search: 'q=a&q=b', status: 422, loc: ['query', 'q'] },
  { method: 'GET', path: ADMIN_TRAJECTORIES, as: 'admin', query: { q: 'nul\u0000byte' }, status: 422, loc: ['query', 'q'] },
  { method: 'GET', path: ADMIN_TRAJECTORIES, as: 'admin', search: 'owner=a&owner=b', status: 422, loc: ['query', 'owner'] },
  { method: 'GET', path: ADMIN_TRAJECTORIES, as: 'admin', query: { owner: 'usr_x\u0000' }, status: 422, loc: ['query', 'owner'] },
  { method: 'GET', path: ADMIN_TRAJECTORIES, as: 'admin', search: 'lab_id=a&lab_id=b', status: 422, loc: ['query', 'lab_id'] },
  { method: 'GET', path: ADMIN_TRAJECTORIES, as: 'admin', query: { lab_id: 'lab_x\u0000' }, status: 422, loc: ['query', 'lab_id'] },
  // GET /api/admin/storage_summary takes no input: its rows are the generated credential rows (401, and 403 for a non-admin).
  // GET /api/admin/stats takes no input either. GET /api/admin/segmentation?domain&limit (limit 1-200)
  ...[0, 201, -1, 'abc', 1.5, '', 99999999999].map((limit): Row => ({
    method: 'GET',
    path: ADMIN_SEGMENTATION,
    as: 'admin',
    query: { limit },
    status: 422,
    loc: ['query', 'limit'],
  })),
  { method: 'GET', path: ADMIN_SEGMENTATION, as: 'admin', search: 'limit=1&limit=2', status: 422, loc: ['query', 'limit'] },
  { method: 'GET', path: ADMIN_SEGMENTATION, as: 'admin', search: 'domain=a&domain=b', status: 422, loc: ['query', 'domain'] },
  { method: 'GET', path: ADMIN_SEGMENTATION, as: 'admin', query: { domain: '' }, status: 422, loc: ['query', 'domain'] },
  { method: 'GET', path: ADMIN_SEGMENTATION, as: 'admin', query: { domain: long(101) }, status: 422, loc: ['query', 'domain'] },
];

const FIGURES = '/api/trajectories/{session_id}/figures';
const FIGURE_UPLOAD = '/api/trajectories/{session_id}/figures/upload';
const FIGURE_RAW = '/api/trajectories/{session_id}/figures/raw';
/** The first issue of a bad member of figure row `i`. */
const figAt = (i: number, member?: string) => (member === undefined ? ['body', 'figures', i] : ['body', 'figures', i, member]);
const ZERO_SHA = long(64, '0');

const figureRows: Row[] = [
  // POST /api/trajectories/{session_id}/figures {figures: [row, ...]}
  ...[{}, { figures: null }, { figures: 'x' }, { figures: FIG }, { figures: [] }].map((body): Row => ({
    method: 'POST',
    path: FIGURES,
    as: 'owner',
    body,
    status: 422,
    loc: ['body', 'figures'],
  })),
  {
    method: 'POST',
    path: FIGURES,
    as: 'owner',
    body: { figures: Array.from({ length: 1001 }, (_v, i) => ({ ...FIG, canonical_path: `/many/${i}.png` })) },
    note: '1001 rows',
    status: 422,
    loc: ['body', 'figures'],
  },
  ...[5, '/a.png', [FIG], null, true].map((row): Row => ({
    method: 'POST',
    path: FIGURES,
    as: 'owner',
    body: { figures: [row] },
    status: 422,
    loc: figAt(0),
  })),
  {
    method: 'POST',
    path: FIGURES,
    as: 'owner',
    body: { figures: [FIG], session_id: 'val-other' },
    status: 422,
    loc: ['body', 'session_id'],
  },
  { method: 'POST', path: FIGURES, as: 'owner', body: { Figures: [FIG] }, status: 422, loc: ['body', 'Figures'] },
  // canonical_path: required, a string of at most 1024 characters of text (no NUL, no lone surrogate)
  ...[undefined, null, '', 5, ['/a.png'], long(1025), 'nul\u0000byte', '/lone\ud800surrogate.png'].map((canonical_path): Row => ({
    method: 'POST',
    path: FIGURES,
    as: 'owner',
    body: { figures: [{ ...FIG, canonical_path }] },
    status: 422,
    loc: figAt(0, 'canonical_path'),
  })),
  // cdn_url or storage_uri: at least one
  {
    method: 'POST',
    path: FIGURES,
    as: 'owner',
    body: { figures: [{ canonical_path: '/a.png' }] },
    status: 422,
    loc: figAt(0, 'storage_uri'),
  },
  {
    method: 'POST',
    path: FIGURES,
    as: 'owner',
    body: { figures: [{ canonical_path: '/a.png', cdn_url: null, storage_uri: null }] },
    status: 422,
    loc: figAt(0, 'storage_uri'),
  },
  { method: 'POST', path: FIGURES, as: 'owner', body: { figures: [{ canonical_path: '/a.png', cdn_url: '' }] }, status: 422 },
  // cdn_url: an http(s) URL of at most 2048 characters
  ...[
    'ftp://cdn.example/a.png',
    'not a url',
    'javascript:alert(1)',
    '/relative/a.png',
    'cdn.example/a.png',
    5,
    { href: 'https://cdn.example/a.png' },
    `https://cdn.example/${long(2029)}`,
    'https://cdn.example/a\u0000.png',
    'https://cdn.example/a\ud800.png',
  ].map((cdn_url): Row => ({
    method: 'POST',
    path: FIGURES,
    as: 'owner',
    body: { figures: [{ ...FIG, cdn_url }] },
    status: 422,
    loc: figAt(0, 'cdn_url'),
  })),
  // storage_uri / original_uri: drive://sha256/<64 lowercase hex>
  ...[
    'drive://sha256/xyz',
    drive(long(64, 'A')),
    drive(long(63, '0')),
    drive(long(65, '0')),
    `s3://bucket/${ZERO_SHA}`,
    `${drive(OWNER_SHA)}/../x`,
    ` ${drive(OWNER_SHA)}`,
    5,
  ].flatMap((uri): Row[] => [
    {
      method: 'POST',
      path: FIGURES,
      as: 'owner',
      body: { figures: [{ ...FIG, storage_uri: uri }] },
      status: 422,
      loc: figAt(0, 'storage_uri'),
    },
    {
      method: 'POST',
      path: FIGURES,
      as: 'owner',
      body: { figures: [{ ...FIG, original_uri: uri }] },
      status: 422,
      loc: figAt(0, 'original_uri'),
    },
  ]),
  // compressed: a boolean; mime: type/subtype; bytes: a whole number ≥ 0
  ...['yes', 'true', 1, [true]].map((compressed): Row => ({
    method: 'POST',
    path: FIGURES,
    as: 'owner',
    body: { figures: [{ ...FIG, compressed }] },
    status: 422,
    loc: figAt(0, 'compressed'),
  })),
  ...['png', 'image/', '/png', '', 'image/png; charset=x', 'image/png\u0000', 5].map((mime): Row => ({
    method: 'POST',
    path: FIGURES,
    as: 'owner',
    body: { figures: [{ ...FIG, mime }] },
    status: 422,
    loc: figAt(0, 'mime'),
  })),
  ...[-1, 1.5, '10', 2 ** 53, 1e300, true].map((bytes): Row => ({
    method: 'POST',
    path: FIGURES,
    as: 'owner',
    body: { figures: [{ ...FIG, bytes }] },
    status: 422,
    loc: figAt(0, 'bytes'),
  })),
  // A bad row is named by its index, and the good rows before it are not kept.
  { method: 'POST', path: FIGURES, as: 'owner', body: { figures: [FIG, 5] }, status: 422, loc: figAt(1) },
  {
    method: 'POST',
    path: FIGURES,
    as: 'owner',
    body: { figures: [FIG, { canonical_path: '/b.png' }] },
    status: 422,
    loc: figAt(1, 'storage_uri'),
  },
  // Drive URIs must name a blob the session owner uploaded: an unknown hash, or one only 'member' uploaded.
  {
    method: 'POST',
    path: FIGURES,
    as: 'owner',
    body: { figures: [FIG, { canonical_path: '/b.png', storage_uri: drive(ZERO_SHA) }] },
    status: 422,
    loc: figAt(1, 'storage_uri'),
  },
  {
    method: 'POST',
    path: FIGURES,
    as: 'owner',
    body: { figures: [{ canonical_path: '/b.png', storage_uri: drive(MEMBER_SHA) }] },
    status: 422,
    loc: figAt(0, 'storage_uri'),
  },
  {
    method: 'POST',
    path: FIGURES,
    as: 'owner',
    body: { figures: [{ canonical_path: '/b.png', storage_uri: drive(OWNER_SHA), original_uri: drive(MEMBER_SHA) }] },
    status: 422,
    loc: figAt(0, 'original_uri'),
  },
  {
    method: 'POST',
    path: FIGURES,
    as: 'member',
    ids: { session_id: SESSION_MEMBER },
    body: { figures: [{ canonical_path: '/b.png', storage_uri: drive(OWNER_SHA) }] },
    status: 422,
    loc: figAt(0, 'storage_uri'),
  },
  // Owner only; figure rows never create a session.
  { method: 'POST', path: FIGURES, as: 'member', ids: { session_id: SESSION_SHARED }, body: { figures: [FIG] }, status: 403 },
  { method: 'POST', path: FIGURES, as: 'admin', body: { figures: [FIG] }, status: 403 }, // admins may view, not write
  { method: 'POST', path: FIGURES, as: 'owner', ids: { session_id: SESSION_NEW }, body: { figures: [FIG] }, status: 404 },
  ...hiddenRows('POST', FIGURES, { body: { figures: [FIG] } }),
  ...badSessionIds('POST', FIGURES, 'owner', { body: { figures: [FIG] } }, false),

  // POST /api/trajectories/{session_id}/figures/upload (multipart: file, original?, canonical_path, mime?, compressed?)
  { method: 'POST', path: FIGURE_UPLOAD, as: 'owner', body: { canonical_path: '/up.png' }, status: 415 },
  { method: 'POST', path: FIGURE_UPLOAD, as: 'owner', status: 415 },
  { method: 'POST', path: FIGURE_UPLOAD, as: 'owner', rawBody: 'figure bytes', headers: { 'content-type': 'image/png' }, status: 415 },
  {
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'owner',
    rawBody: 'x',
    headers: { 'content-type': 'multipart/form-data' },
    note: 'no boundary',
    status: 400,
  },
  {
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'owner',
    rawBody: 'not a multipart body',
    headers: { 'content-type': 'multipart/form-data; boundary=zzzz' },
    status: 400,
  },
  { method: 'POST', path: FIGURE_UPLOAD, as: 'owner', form: {}, status: 422, loc: ['body', 'file'] },
  { method: 'POST', path: FIGURE_UPLOAD, as: 'owner', form: { canonical_path: '/up.png' }, status: 422, loc: ['body', 'file'] },
  {
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'owner',
    form: { file: 'not a file part', canonical_path: '/up.png' },
    status: 422,
    loc: ['body', 'file'],
  },
  {
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'owner',
    form: { file: [new Blob(['one']), new Blob(['two'])], canonical_path: '/up.png' },
    status: 422,
    loc: ['body', 'file'],
  },
  { method: 'POST', path: FIGURE_UPLOAD, as: 'owner', form: { file: new Blob(['x']) }, status: 422, loc: ['body', 'canonical_path'] },
  ...['', long(1025), 'nul\u0000byte'].map((canonical_path): Row => ({
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'owner',
    form: { file: new Blob(['x']), canonical_path },
    status: 422,
    loc: ['body', 'canonical_path'],
  })),
  {
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'owner',
    form: { file: new Blob(['x']), canonical_path: new Blob(['/up.png']) },
    status: 422,
    loc: ['body', 'canonical_path'],
  },
  {
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'owner',
    form: { file: new Blob(['x']), canonical_path: '/up.png', original: 'not a file part' },
    status: 422,
    loc: ['body', 'original'],
  },
  ...['yes', 'TRUE', '', '2', 'constructor', '__proto__', 'toString'].map((compressed): Row => ({
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'owner',
    form: { file: new Blob(['x']), canonical_path: `/up-${compressed}.png`, compressed },
    status: 422,
    loc: ['body', 'compressed'],
  })),
  ...['png', 'image/', 'image/png; charset=x', long(256, 'a')].map((mime): Row => ({
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'owner',
    form: { file: new Blob(['x']), canonical_path: '/up.png', mime },
    status: 422,
    loc: ['body', 'mime'],
  })),
  // Unknown parts, however many known parts come before them.
  {
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'owner',
    form: { file: new Blob(['x']), canonical_path: '/up.png', extra: 'x' },
    status: 422,
    loc: ['body', 'extra'],
  },
  {
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'owner',
    form: { file: new Blob(['x']), canonicalPath: '/up.png' },
    status: 422,
    loc: ['body', 'canonicalPath'],
  },
  {
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'owner',
    form: { file: new Blob(['x']), canonical_path: '/up.png', thumbnail: new Blob(['t']) },
    status: 422,
    loc: ['body', 'thumbnail'],
  },
  {
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'owner',
    form: { file: new Blob(['x']), canonical_path: '/up-4-fields.png', mime: 'image/png', compressed: 'true', extra: 'x' },
    note: 'a 4th field',
    status: 422,
    loc: ['body', 'extra'],
  },
  {
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'owner',
    form: { file: new Blob(['x']), original: new Blob(['o']), thumbnail: new Blob(['t']), canonical_path: '/up-3-files.png' },
    note: 'a 3rd file',
    status: 422,
    loc: ['body', 'thumbnail'],
  },
  // Owner only, settled before the body is read: a viewer, an unknown or invisible session.
  {
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'member',
    ids: { session_id: SESSION_SHARED },
    form: { file: new Blob(['x']), canonical_path: '/up.png' },
    status: 403,
  },
  {
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'member',
    ids: { session_id: SESSION_SHARED },
    body: { canonical_path: '/up.png' },
    status: 403,
  },
  { method: 'POST', path: FIGURE_UPLOAD, as: 'admin', form: { file: new Blob(['x']), canonical_path: '/up.png' }, status: 403 },
  { method: 'POST', path: FIGURE_UPLOAD, as: 'plain', body: { canonical_path: '/up.png' }, status: 404 },
  {
    method: 'POST',
    path: FIGURE_UPLOAD,
    as: 'owner',
    ids: { session_id: SESSION_NEW },
    form: { file: new Blob(['x']), canonical_path: '/up.png' },
    status: 404,
  },
  ...hiddenRows('POST', FIGURE_UPLOAD, { form: { file: new Blob(['x']), canonical_path: '/up.png' } }),
  ...badSessionIds('POST', FIGURE_UPLOAD, 'owner', { form: { file: new Blob(['x']), canonical_path: '/up.png' } }, false),

  // GET /api/trajectories/{session_id}/figures/raw?path=
  { method: 'GET', path: FIGURE_RAW, as: 'owner', status: 422, loc: ['query', 'path'] },
  ...['', long(1025), 'nul\u0000byte'].map((path): Row => ({
    method: 'GET',
    path: FIGURE_RAW,
    as: 'owner',
    query: { path },
    status: 422,
    loc: ['query', 'path'],
  })),
  {
    method: 'GET',
    path: FIGURE_RAW,
    as: 'owner',
    search: `path=${encodeURIComponent(CDN_FIGURE)}&path=${encodeURIComponent(CDN_FIGURE)}`,
    status: 422,
    loc: ['query', 'path'],
  },
  {
    method: 'GET',
    path: FIGURE_RAW,
    as: 'owner',
    search: `path[a]=${encodeURIComponent(CDN_FIGURE)}`,
    status: 422,
    loc: ['query', 'path'],
  },
  { method: 'GET', path: FIGURE_RAW, as: 'owner', query: { path: '/nope.png' }, status: 404 },
  { method: 'GET', path: FIGURE_RAW, as: 'owner', query: { path: CDN_FIGURE.toUpperCase() }, status: 404 },
  { method: 'GET', path: FIGURE_RAW, as: 'owner', query: { path: SHARED_FIGURE }, status: 404 }, // a figure of another session
  { method: 'GET', path: FIGURE_RAW, as: 'owner', ids: { session_id: SESSION_NEW }, query: { path: CDN_FIGURE }, status: 404 },
  // A real figure: 302 to its cdn_url, or to a signed link of its blob; a lab viewer of a shared session too.
  { method: 'GET', path: FIGURE_RAW, as: 'owner', query: { path: CDN_FIGURE }, status: 302, location: cdnUrl(CDN_FIGURE) },
  {
    method: 'GET',
    path: FIGURE_RAW,
    as: 'owner',
    query: { path: DRIVE_FIGURE },
    status: 302,
    location: new RegExp(`/blobs/sha256/${OWNER_SHA}\\?expires=\\d+&type=image%2Fpng&signature=[\\w-]+$`),
  },
  {
    method: 'GET',
    path: FIGURE_RAW,
    as: 'member',
    ids: { session_id: SESSION_SHARED },
    query: { path: SHARED_FIGURE },
    status: 302,
    location: cdnUrl(SHARED_FIGURE),
  },
  { method: 'GET', path: FIGURE_RAW, as: 'admin', query: { path: CDN_FIGURE }, status: 302, location: cdnUrl(CDN_FIGURE) },
  ...hiddenRows('GET', FIGURE_RAW, { query: { path: CDN_FIGURE } }),
  { method: 'GET', path: FIGURE_RAW, as: 'member', query: { path: DRIVE_FIGURE }, status: 404 },
  ...badSessionIds('GET', FIGURE_RAW, 'owner', { query: { path: CDN_FIGURE } }, false),
];

const BLOB = '/blobs/sha256/{sha256}';
const LINK_INVALID = 'this link is invalid or has expired';
const inFiveMinutes = () => Math.floor(Date.now() / 1000) + 300;
/** A `/blobs` link's query string, signed with the store's real key (as `figures/raw` would sign it). */
function signed(
  fx: Fixtures,
  opts: { sha?: string; expires?: number; type?: string; send?: { expires?: string; type?: string } } = {},
): string {
  const { sha = OWNER_SHA, expires = inFiveMinutes(), type = 'image/png' } = opts;
  const signature = createHmac('sha256', fx.blobKey).update(`sha256/${sha}\n${expires}\n${type}`).digest('base64url');
  return new URLSearchParams({ expires: opts.send?.expires ?? String(expires), type: opts.send?.type ?? type, signature }).toString();
}

/** `GET /blobs/sha256/{sha256}` (signed file-store links; no bearer token): anything but a genuine, unexpired signature is 403. */
const blobRows: Row[] = [
  { method: 'GET', path: BLOB, as: 'none', note: 'no signature', status: 403, detail: LINK_INVALID },
  { method: 'GET', path: BLOB, as: 'owner', note: 'a bearer token is no signature', status: 403, detail: LINK_INVALID },
  {
    method: 'GET',
    path: BLOB,
    as: 'none',
    searchOf: () => `expires=${inFiveMinutes()}&type=image%2Fpng&signature=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
    note: 'forged signature',
    status: 403,
    detail: LINK_INVALID,
  },
  {
    method: 'GET',
    path: BLOB,
    as: 'none',
    searchOf: (fx) => signed(fx).replace(/&signature=.*/, ''),
    note: 'signature missing',
    status: 403,
    detail: LINK_INVALID,
  },
  {
    method: 'GET',
    path: BLOB,
    as: 'none',
    searchOf: (fx) => signed(fx).replace(/^expires=\d+&/, ''),
    note: 'expires missing',
    status: 403,
    detail: LINK_INVALID,
  },
  {
    method: 'GET',
    path: BLOB,
    as: 'none',
    searchOf: (fx) => signed(fx, { expires: Math.floor(Date.now() / 1000) - 60 }),
    note: 'genuine but expired',
    status: 403,
    detail: LINK_INVALID,
  },
  {
    method: 'GET',
    path: BLOB,
    as: 'none',
    searchOf: (fx) => signed(fx, { expires: 1e20 }),
    note: 'expiry out of range',
    status: 403,
    detail: LINK_INVALID,
  },
  {
    method: 'GET',
    path: BLOB,
    as: 'none',
    searchOf: (fx) => {
      const e = inFiveMinutes();
      return signed(fx, { expires: e, send: { expires: String(e + 1) } });
    },
    note: 'expiry changed',
    status: 403,
    detail: LINK_INVALID,
  },
  {
    method: 'GET',
    path: BLOB,
    as: 'none',
    searchOf: (fx) => signed(fx, { send: { type: 'text/html' } }),
    note: 'media type changed',
    status: 403,
    detail: LINK_INVALID,
  },
  {
    method: 'GET',
    path: BLOB,
    as: 'none',
    searchOf: (fx) => signed(fx, { sha: MEMBER_SHA }),
    note: 'signed for another blob',
    status: 403,
    detail: LINK_INVALID,
  },
  {
    method: 'GET',
    path: BLOB,
    as: 'none',
    searchOf: (fx) => `${signed(fx)}&${signed(fx)}`,
    note: 'parameters repeated',
    status: 403,
    detail: LINK_INVALID,
  },
  {
    method: 'GET',
    path: BLOB,
    as: 'none',
    ids: { sha256: OWNER_SHA.toUpperCase() },
    searchOf: (fx) => signed(fx, { sha: OWNER_SHA.toUpperCase() }),
    note: 'upper-case hex',
    status: 403,
    detail: LINK_INVALID,
  },
  {
    method: 'GET',
    path: BLOB,
    as: 'none',
    ids: { sha256: 'zz' },
    searchOf: (fx) => signed(fx, { sha: 'zz' }),
    note: 'not a digest',
    status: 403,
    detail: LINK_INVALID,
  },
  {
    method: 'GET',
    path: BLOB,
    as: 'none',
    ids: { sha256: '..%2F..%2Fetc%2Fpasswd' },
    searchOf: (fx) => signed(fx, { sha: '../../etc/passwd' }),
    note: 'traversal',
    status: 403,
    detail: LINK_INVALID,
  },
  {
    method: 'GET',
    path: BLOB,
    as: 'none',
    ids: { sha256: '%00' },
    searchOf: (fx) => signed(fx, { sha: '\u0000' }),
    status: 403,
    detail: LINK_INVALID,
  },
  // A genuine link: to a blob the store does not have, 404; to the owner's figure, its bytes.
  {
    method: 'GET',
    path: BLOB,
    as: 'none',
    ids: { sha256: ZERO_SHA },
    searchOf: (fx) => signed(fx, { sha: ZERO_SHA }),
    note: 'genuine, no such blob',
    status: 404,
  },
  { method: 'GET', path: BLOB, as: 'none', searchOf: (fx) => signed(fx), note: 'genuine', status: 200, contentType: /^image\/png/ },
];

const MODELS = '/api/admin/models';
const modelAt = (i: number, member: string) => ['body', 'models', i, member];
/** A catalog whose first model has `patch` applied (a member set to undefined is left out). */
const withModel = (patch: Record<string, unknown>) => ({ version: '2026.11', models: [{ ...MODEL, ...patch }] });

const catalogRows: Row[] = [
  // PUT /api/admin/models {version, models: [{id, provider, name, context_window, input_price, output_price, capabilities}]}
  { method: 'PUT', path: MODELS, as: 'admin', body: {}, status: 422 },
  { method: 'PUT', path: MODELS, as: 'admin', body: { models: [MODEL] }, status: 422, loc: ['body', 'version'] },
  ...['', long(101), 5, null, ['2026.11']].map((version): Row => ({
    method: 'PUT',
    path: MODELS,
    as: 'admin',
    body: { version, models: [MODEL] },
    status: 422,
    loc: ['body', 'version'],
  })),
  { method: 'PUT', path: MODELS, as: 'admin', body: { version: 'v' }, status: 422, loc: ['body', 'models'] },
  ...[[], null, 'x', MODEL].map((models): Row => ({
    method: 'PUT',
    path: MODELS,
    as: 'admin',
    body: { version: 'v', models },
    status: 422,
    loc: ['body', 'models'],
  })),
  {
    method: 'PUT',
    path: MODELS,
    as: 'admin',
    body: { version: 'v', models: Array.from({ length: 1001 }, (_v, i) => ({ ...MODEL, id: `m-${i}` })) },
    note: '1001 models',
    status: 422,
    loc: ['body', 'models'],
  },
  { method: 'PUT', path: MODELS, as: 'admin', body: { version: 'v', models: [MODEL, 5] }, status: 422, loc: ['body', 'models', 1] },
  {
    method: 'PUT',
    path: MODELS,
    as: 'admin',
    body: { version: 'v', models: [MODEL, { ...MODEL, name: 'Again' }] },
    note: 'duplicate id',
    status: 422,
    loc: modelAt(1, 'id'),
  },
  {
    method: 'PUT',
    path: MODELS,
    as: 'admin',
    body: { version: 'v', models: [MODEL], sha256: ZERO_SHA },
    status: 422,
    loc: ['body', 'sha256'],
  },
  ...[undefined, null, '', 'has space', long(201), 5, 'nul\u0000byte'].map((id): Row => ({
    method: 'PUT',
    path: MODELS,
    as: 'admin',
    body: withModel({ id }),
    status: 422,
    loc: modelAt(0, 'id'),
  })),
  ...[undefined, '', long(101), 5].map((provider): Row => ({
    method: 'PUT',
    path: MODELS,
    as: 'admin',
    body: withModel({ provider }),
    status: 422,
    loc: modelAt(0, 'provider'),
  })),
  ...[undefined, '', long(201)].map((name): Row => ({
    method: 'PUT',
    path: MODELS,
    as: 'admin',
    body: withModel({ name }),
    status: 422,
    loc: modelAt(0, 'name'),
  })),
  ...[undefined, 0, -1, 1.5, '1000', 2 ** 31, 100_000_001].map((context_window): Row => ({
    method: 'PUT',
    path: MODELS,
    as: 'admin',
    body: withModel({ context_window }),
    status: 422,
    loc: modelAt(0, 'context_window'),
  })),
  ...[undefined, -1, -0.01, '1.5', null, 1e7].map((input_price): Row => ({
    method: 'PUT',
    path: MODELS,
    as: 'admin',
    body: withModel({ input_price }),
    status: 422,
    loc: modelAt(0, 'input_price'),
  })),
  ...[undefined, -1, '2', 1e7].map((output_price): Row => ({
    method: 'PUT',
    path: MODELS,
    as: 'admin',
    body: withModel({ output_price }),
    status: 422,
    loc: modelAt(0, 'output_price'),
  })),
  ...[undefined, null, 'chat', Array.from({ length: 51 }, (_v, i) => `c${i}`)].map((capabilities): Row => ({
    method: 'PUT',
    path: MODELS,
    as: 'admin',
    body: withModel({ capabilities }),
    status: 422,
    loc: modelAt(0, 'capabilities'),
  })),
  ...[[5], [''], [null], [long(101)]].map((capabilities): Row => ({
    method: 'PUT',
    path: MODELS,
    as: 'admin',
    body: withModel({ capabilities }),
    status: 422,
    loc: [...modelAt(0, 'capabilities'), 0],
  })),
  { method: 'PUT', path: MODELS, as: 'admin', body: withModel({ max_tokens: 5 }), status: 422, loc: modelAt(0, 'max_tokens') },
  {
    method: 'PUT',
    path: MODELS,
    as: 'admin',
    body: withModel({ context_window: undefined, contextWindow: 1000 }),
    status: 422,
    loc: modelAt(0, 'contextWindow'),
  },
  { method: 'PUT', path: MODELS, as: 'owner', body: withModel({}), status: 403 },
  // GET /admin/api/public/models and …/models/manifest take no input and no credential.
  { method: 'GET', path: '/admin/api/public/models', as: 'none', status: 200, contentType: /^application\/json/ },
  { method: 'GET', path: '/admin/api/public/models/manifest', as: 'none', status: 200, contentType: /^application\/json/ },
];

const RELEASE_MANIFEST = '/admin/api/release/{product}/manifest';
const RELEASE_FILE = '/admin/api/release/{product}/files/{version}/{filename}';
const APP_MANIFEST = '/admin/api/public/app/{product}/manifest';
const DOWNLOAD = '/admin/api/public/app/{product}/download/{version}/{filename}';
const FEED = '/admin/api/public/app/{product}/update/{feed}';
const fileAt = (i: number, member: string) => ['body', 'files', i, member];
/** A desktop manifest of `version` whose first file has `patch` applied. */
const withFile = (patch: Record<string, unknown>, version = '1.1.0') => ({ version, files: [{ ...DESKTOP_FILE, ...patch }] });
const BAD_VERSIONS = [
  '',
  '1.0',
  '1',
  'v1.2.0',
  '1.2.0+build.1',
  '01.2.0',
  '1.02.0',
  '1.2.0-',
  '1.2.0-01',
  '1.2.0-beta..1',
  ' 1.2.0',
  '1.2.0 ',
  'latest',
  `1.2.0-${long(100, 'a')}`,
];
const BAD_FILENAMES = ['', '.hidden', '-rf', '_x', '../etc/passwd', 'a/b', 'a\\b', 'has space', 'app.dmg\u0000', long(201, 'a'), 'ü.dmg'];

const releaseRows: Row[] = [
  // PUT /admin/api/release/{product}/manifest {version, notes?, pub_date?, force?, files: [...]}
  { method: 'PUT', path: RELEASE_MANIFEST, as: 'release', body: {}, status: 422, loc: ['body', 'version'] },
  { method: 'PUT', path: RELEASE_MANIFEST, as: 'release', body: { files: [DESKTOP_FILE] }, status: 422, loc: ['body', 'version'] },
  { method: 'PUT', path: RELEASE_MANIFEST, as: 'release', body: { version: '1.1.0' }, status: 422, loc: ['body', 'files'] },
  ...[...BAD_VERSIONS, 5, null, ['1.1.0']].map((version): Row => ({
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: { version, files: [DESKTOP_FILE] },
    status: 422,
    loc: ['body', 'version'],
  })),
  ...[[], null, 'app.dmg', DESKTOP_FILE].map((files): Row => ({
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: { version: '1.1.0', files },
    status: 422,
    loc: ['body', 'files'],
  })),
  {
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: { version: '1.1.0', files: Array.from({ length: 201 }, (_v, i) => ({ ...DESKTOP_FILE, filename: `f${i}.dmg` })) },
    note: '201 files',
    status: 422,
    loc: ['body', 'files'],
  },
  ...[5, 'app.dmg', null].map((file): Row => ({
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: { version: '1.1.0', files: [file] },
    status: 422,
    loc: ['body', 'files', 0],
  })),
  ...[undefined, 5, ...BAD_FILENAMES].map((filename): Row => ({
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: withFile({ filename }),
    status: 422,
    loc: fileAt(0, 'filename'),
  })),
  ...[undefined, -1, 1.5, '46', null, 2 ** 53].map((size): Row => ({
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: withFile({ size }),
    status: 422,
    loc: fileAt(0, 'size'),
  })),
  ...[long(64, 'A'), long(63, '0'), long(65, '0'), long(64, 'g'), 5].map((sha256): Row => ({
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: withFile({ sha256 }),
    status: 422,
    loc: fileAt(0, 'sha256'),
  })),
  ...[undefined, null, ''].map((signature): Row => ({
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: withFile({ signature }),
    note: 'desktop needs a signature',
    status: 422,
    loc: fileAt(0, 'signature'),
  })),
  ...[undefined, null].map((sha256): Row => ({
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    ids: { product: 'core' },
    body: { version: '1.1.0', files: [{ filename: 'core.tar.gz', size: 1, sha256 }] },
    note: 'core needs a sha256',
    status: 422,
    loc: fileAt(0, 'sha256'),
  })),
  ...[
    ['platform', ''],
    ['platform', long(51)],
    ['arch', ''],
    ['arch', 5],
  ].map(([member, value]): Row => ({
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: withFile({ [member as string]: value }),
    status: 422,
    loc: fileAt(0, member as string),
  })),
  {
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: withFile({ url: 'https://evil.example/app.dmg' }),
    status: 422,
    loc: fileAt(0, 'url'),
  },
  {
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: { ...withFile({}), files: [DESKTOP_FILE, { ...DESKTOP_FILE }] },
    note: 'duplicate filename',
    status: 422,
    loc: fileAt(1, 'filename'),
  },
  ...[long(100_001), 5, 'nul\u0000byte', 'lone \ud800 surrogate'].map((notes): Row => ({
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: { ...withFile({}), notes },
    status: 422,
    loc: ['body', 'notes'],
  })),
  ...['tomorrow', '2026-13-45T99:00:00Z', 5].map((pub_date): Row => ({
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: { ...withFile({}), pub_date },
    status: 422,
    loc: ['body', 'pub_date'],
  })),
  ...['yes', 1].map((force): Row => ({
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: { ...withFile({}), force },
    status: 422,
    loc: ['body', 'force'],
  })),
  {
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: { ...withFile({}), channel: 'beta' },
    status: 422,
    loc: ['body', 'channel'],
  },
  {
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: { ...withFile({}), pubDate: '2026-11-21T10:00:00.000Z' },
    status: 422,
    loc: ['body', 'pubDate'],
  },
  // Every listed file must be in the release store with the declared size and digest (1.1.0 has app.dmg).
  {
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: withFile({}, '2.0.0'),
    note: 'version has no files',
    status: 422,
    loc: fileAt(0, 'filename'),
  },
  {
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: withFile({ filename: 'ghost.dmg' }),
    status: 422,
    loc: fileAt(0, 'filename'),
  },
  {
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: { ...withFile({}), files: [DESKTOP_FILE, { ...DESKTOP_FILE, filename: 'ghost.dmg' }] },
    status: 422,
    loc: fileAt(1, 'filename'),
  },
  {
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: withFile({ size: RELEASE_BYTES.length + 1 }),
    status: 422,
    loc: fileAt(0, 'size'),
  },
  { method: 'PUT', path: RELEASE_MANIFEST, as: 'release', body: withFile({ sha256: ZERO_SHA }), status: 422, loc: fileAt(0, 'sha256') },
  {
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    ids: { product: 'core' },
    body: { version: '1.1.0', files: [{ filename: 'app.dmg', size: RELEASE_BYTES.length, sha256: sha256Of(RELEASE_BYTES) }] },
    note: "desktop's file",
    status: 422,
    loc: fileAt(0, 'filename'),
  },
  // Published versions are immutable; older versions need force; re-publishing the same content changes nothing.
  { method: 'PUT', path: RELEASE_MANIFEST, as: 'release', body: { ...PUBLISHED, notes: 'other notes' }, status: 409 },
  {
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: { ...PUBLISHED, files: [{ ...PUBLISHED.files[0], platform: 'linux' }] },
    status: 409,
  },
  { method: 'PUT', path: RELEASE_MANIFEST, as: 'release', body: { ...PUBLISHED, version: '0.9.0' }, note: 'older than 1.0.0', status: 409 },
  {
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    body: PUBLISHED,
    note: 'same content again',
    status: 200,
    contentType: /^application\/json/,
  },
  // Products are desktop and core.
  ...['mobile', 'Desktop', 'desktop.', long(300, 'd')].map((product): Row => ({
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    ids: { product },
    body: withFile({}),
    status: 404,
  })),
  {
    method: 'PUT',
    path: RELEASE_MANIFEST,
    as: 'release',
    ids: { product: '%00' },
    body: withFile({}),
    status: 422,
    loc: ['path', 'product'],
  },

  // PUT /admin/api/release/{product}/files/{version}/{filename} (the binary, streamed)
  ...['mobile', 'Desktop', '..%2Fdesktop'].map((product): Row => ({
    method: 'PUT',
    path: RELEASE_FILE,
    as: 'release',
    ids: { product, version: '1.2.0' },
    ...BINARY,
    status: 404,
  })),
  ...BAD_VERSIONS.filter((v) => v !== '').map((version): Row => ({
    method: 'PUT',
    path: RELEASE_FILE,
    as: 'release',
    ids: { version: encodeURIComponent(version) },
    ...BINARY,
    status: 422,
    loc: ['path', 'version'],
  })),
  ...['..%2F..%2Fetc', '1.2.0%2F..', '%00'].map((version): Row => ({
    method: 'PUT',
    path: RELEASE_FILE,
    as: 'release',
    ids: { version },
    ...BINARY,
    status: 422,
    loc: ['path', 'version'],
  })),
  ...BAD_FILENAMES.filter((n) => n !== '').map((filename): Row => ({
    method: 'PUT',
    path: RELEASE_FILE,
    as: 'release',
    ids: { version: '1.2.0', filename: encodeURIComponent(filename) },
    ...BINARY,
    status: 422,
    loc: ['path', 'filename'],
  })),
  ...['..%2F..%2F..%2Fetc%2Fpasswd', '%2E%2Fapp.dmg', '%00'].map((filename): Row => ({
    method: 'PUT',
    path: RELEASE_FILE,
    as: 'release',
    ids: { version: '1.2.0', filename },
    ...BINARY,
    status: 422,
    loc: ['path', 'filename'],
  })),
  {
    method: 'PUT',
    path: RELEASE_FILE,
    as: 'release',
    ids: { version: 'v1', filename: '.x' },
    ...BINARY,
    status: 422,
    loc: ['path', 'version'],
  },
  // A published version's files cannot change, nor can files be added to it.
  { method: 'PUT', path: RELEASE_FILE, as: 'release', ...BINARY, note: 'published', status: 409 },
  { method: 'PUT', path: RELEASE_FILE, as: 'release', ids: { filename: 'new.dmg' }, ...BINARY, note: 'published', status: 409 },

  // GET /admin/api/public/app/{product}/manifest: the current release, 204 when there is none.
  { method: 'GET', path: APP_MANIFEST, as: 'none', status: 200, contentType: /^application\/json/ },
  { method: 'GET', path: APP_MANIFEST, as: 'none', ids: { product: 'core' }, note: 'nothing published', status: 204 },
  ...['mobile', 'Desktop', 'desktop%2F..', long(300, 'd')].map((product): Row => ({
    method: 'GET',
    path: APP_MANIFEST,
    as: 'none',
    ids: { product },
    status: 404,
  })),
  { method: 'GET', path: APP_MANIFEST, as: 'none', ids: { product: '%00' }, status: 422, loc: ['path', 'product'] },

  // GET /admin/api/public/app/{product}/download/{version}/{filename}: only files of a published manifest.
  ...(
    [
      ['mobile', '1.0.0', 'app.dmg'],
      ['core', '1.0.0', 'app.dmg'],
      ['Desktop', '1.0.0', 'app.dmg'],
      ['desktop', '9.9.9', 'app.dmg'],
      ['desktop', '1.0.0', 'missing.dmg'],
      ['desktop', '1.0.0', 'APP.dmg'],
      ['desktop', '1.0.0', 'unlisted.dmg'], // uploaded, in a published version, but not listed
      ['desktop', '1.1.0', 'app.dmg'], // uploaded, never published
      ['desktop', '0.9.0', 'app.dmg'],
      ['desktop', '1.0.0', '..%2F..%2Fetc%2Fpasswd'],
      ['desktop', '1.0.0', '..%2F1.1.0%2Fapp.dmg'],
      ['desktop', '..%2F..%2Fetc', 'passwd'],
      ['desktop', '1.0.0%2Fapp.dmg', 'app.dmg'],
      ['desktop', '1.0.0', '..%5C..%5Cwin.ini'],
      ['desktop', '1.0.0', 'app.dmg%00'],
      ['desktop', '1.0.0', '%00'],
      ['desktop', '%00', 'app.dmg'],
      ['%00', '1.0.0', 'app.dmg'],
      ['desktop', '1.0.0', long(300, 'a')],
    ] as const
  ).map(([product, version, filename]): Row => ({
    method: 'GET',
    path: DOWNLOAD,
    as: 'none',
    ids: { product, version, filename },
    status: 404,
  })),

  // GET /admin/api/public/app/{product}/update/{feed}: electron-updater feeds of the current desktop release.
  { method: 'GET', path: FEED, as: 'none', ids: { feed: 'latest-mac.yml' }, status: 200, contentType: /^text\/yaml/ },
  ...(
    [
      ['desktop', 'latest.yml'], // no windows file in the release
      ['desktop', 'latest-linux.yml'],
      ['core', 'latest.yml'],
      ['core', 'latest-mac.yml'],
      ['mobile', 'latest.yml'],
      ['Desktop', 'latest-mac.yml'],
      ['desktop', 'latest.json'],
      ['desktop', 'LATEST-MAC.yml'],
      ['desktop', 'latest-mac.yml%00'],
      ['desktop', '..%2Flatest-mac.yml'],
      ['desktop', 'constructor'],
      ['desktop', '__proto__'],
      ['desktop', 'toString'],
      ['desktop', 'hasOwnProperty'],
      ['%00', 'latest-mac.yml'],
    ] as const
  ).map(([product, feed]): Row => ({ method: 'GET', path: FEED, as: 'none', ids: { product, feed }, status: 404 })),
];

const PLANS = '/api/compute/plans';
const APPROVE = '/api/compute/plans/{plan_id}/approve';
const DECLINE = '/api/compute/plans/{plan_id}/decline';
const SESSIONS = '/api/compute/sessions';
const LEASE = '/api/compute/sessions/{lease_id}';
const TOPUP = '/api/compute/sessions/{lease_id}/topup';
const HEARTBEAT = '/api/compute/sessions/{lease_id}/heartbeat';
const BOOTSTRAP = '/api/compute/bootstrap';
const GRANT = '/api/admin/users/{user_id}/credits';
/** What the bootstrap answers for every claim token that opens nothing (unknown, used, released). */
const CLAIM_REFUSED = 'invalid or used claim token';
const GOAL = 'Fit the model.';
const FILE = { name: 'data.csv', bytes: 1000 };
const inputAt = (i: number, member?: string) => (member === undefined ? ['body', 'inputs', i] : ['body', 'inputs', i, member]);
/** A PlanIn whose first input has `patch` applied (a member set to undefined is left out). */
const withInput = (patch: Record<string, unknown>) => ({ goal: GOAL, inputs: [{ ...FILE, ...patch }] });
/** Path ids that are not integers (plan_id and lease_id are integers: docs/api/wire.md). */
const NOT_INTEGERS = ['abc', '1.5', '1e3', '0x10', '99999999999', '%00', '1%20'];
/** Ids that name no plan or lease of the caller: unknown, negative, zero. */
const NO_SUCH_IDS = ['999999', '-1', '0'];

/** `machine` of PlanIn and SessionIn: cpus 1–64, memory_gb 1–512 (integers), gpu a boolean; nothing else. */
const machineRows = (path: string, base: Record<string, unknown>): Row[] => [
  ...[5, 'big', [2]].map((machine): Row => ({
    method: 'POST',
    path,
    as: 'owner',
    body: { ...base, machine },
    status: 422,
    loc: ['body', 'machine'],
  })),
  ...[0, -1, 65, 1.5, '2', true, 2147483648].map((cpus): Row => ({
    method: 'POST',
    path,
    as: 'owner',
    body: { ...base, machine: { cpus } },
    status: 422,
    loc: ['body', 'machine', 'cpus'],
  })),
  ...[0, 513, 2.5, '8', false].map((memory_gb): Row => ({
    method: 'POST',
    path,
    as: 'owner',
    body: { ...base, machine: { memory_gb } },
    status: 422,
    loc: ['body', 'machine', 'memory_gb'],
  })),
  ...['yes', 'true', 1, [true]].map((gpu): Row => ({
    method: 'POST',
    path,
    as: 'owner',
    body: { ...base, machine: { gpu } },
    status: 422,
    loc: ['body', 'machine', 'gpu'],
  })),
  {
    method: 'POST',
    path,
    as: 'owner',
    body: { ...base, machine: { cpus: 2, disk_gb: 10 } },
    status: 422,
    loc: ['body', 'machine', 'disk_gb'],
    issueType: 'extra_forbidden',
  },
  {
    method: 'POST',
    path,
    as: 'owner',
    body: { ...base, machine: { memoryGb: 8 } },
    status: 422,
    loc: ['body', 'machine', 'memoryGb'],
    issueType: 'extra_forbidden',
  },
  {
    method: 'POST',
    path,
    as: 'owner',
    body: { ...base, machine: { rate_credits_per_minute: 0 } },
    status: 422,
    loc: ['body', 'machine', 'rate_credits_per_minute'],
    issueType: 'extra_forbidden',
  },
];

/** A plan id path on approve and decline: not an integer, or no plan of the caller. */
const planIdRows = (path: string): Row[] => [
  ...NOT_INTEGERS.map((plan_id): Row => ({ method: 'POST', path, as: 'owner', ids: { plan_id }, status: 422, loc: ['path', 'plan_id'] })),
  ...NO_SUCH_IDS.map((plan_id): Row => ({ method: 'POST', path, as: 'owner', ids: { plan_id }, status: 404 })),
  // Someone else's plan is absent for the caller, whatever its status.
  ...['@pending', '@approved', '@declined'].map((plan_id): Row => ({ method: 'POST', path, as: 'member', ids: { plan_id }, status: 404 })),
  { method: 'POST', path, as: 'admin', note: "an admin too: plans are their owner's", status: 404 },
  // Deciding twice (or a superseded draft) is a state conflict.
  ...['@approved', '@declined', '@superseded'].map((plan_id): Row => ({
    method: 'POST',
    path,
    as: 'owner',
    ids: { plan_id },
    status: 409,
  })),
];

/** A lease id path: not an integer, or no lease of the caller. */
const leaseIdRows = (method: string, path: string, request: Pick<Row, 'body'> = {}): Row[] => [
  ...NOT_INTEGERS.map((lease_id): Row => ({
    method,
    path,
    as: 'owner',
    ids: { lease_id },
    ...request,
    status: 422,
    loc: ['path', 'lease_id'],
  })),
  ...NO_SUCH_IDS.map((lease_id): Row => ({ method, path, as: 'owner', ids: { lease_id }, ...request, status: 404 })),
  { method, path, as: 'member', ...request, note: "owner's lease", status: 404 },
  { method, path, as: 'admin', ...request, note: "owner's lease", status: 404 },
];

const computeRows: Row[] = [
  // POST /api/compute/plans {goal, inputs?: [{name, bytes}], machine?: {cpus, memory_gb, gpu}}
  { method: 'POST', path: PLANS, as: 'owner', body: {}, status: 422, loc: ['body', 'goal'] },
  { method: 'POST', path: PLANS, as: 'owner', body: { inputs: [FILE] }, status: 422, loc: ['body', 'goal'] },
  ...[null, '', long(4001), 5, ['x'], { text: 'x' }, true, 'nul\u0000byte', 'lone \ud800 surrogate'].map((goal): Row => ({
    method: 'POST',
    path: PLANS,
    as: 'owner',
    body: { goal },
    status: 422,
    loc: ['body', 'goal'],
  })),
  ...['x', 5, FILE, { 0: FILE }].map((inputs): Row => ({
    method: 'POST',
    path: PLANS,
    as: 'owner',
    body: { goal: GOAL, inputs },
    status: 422,
    loc: ['body', 'inputs'],
  })),
  {
    method: 'POST',
    path: PLANS,
    as: 'owner',
    body: { goal: GOAL, inputs: Array.from({ length: 1001 }, (_v, i) => ({ name: `f${i}.csv`, bytes: 1 })) },
    note: '1001 inputs',
    status: 422,
    loc: ['body', 'inputs'],
  },
  ...[5, 'data.csv', null, [FILE]].map((input): Row => ({
    method: 'POST',
    path: PLANS,
    as: 'owner',
    body: { goal: GOAL, inputs: [input] },
    status: 422,
    loc: inputAt(0),
  })),
  ...[undefined, null, '', long(501), 5, ['a.csv'], 'nul\u0000byte'].map((name): Row => ({
    method: 'POST',
    path: PLANS,
    as: 'owner',
    body: withInput({ name }),
    status: 422,
    loc: inputAt(0, 'name'),
  })),
  ...[undefined, null, -1, 1e15 + 1, 1e16, '10', true, [1]].map((bytes): Row => ({
    method: 'POST',
    path: PLANS,
    as: 'owner',
    body: withInput({ bytes }),
    status: 422,
    loc: inputAt(0, 'bytes'),
  })),
  {
    method: 'POST',
    path: PLANS,
    as: 'owner',
    body: withInput({ path: '/data.csv' }),
    status: 422,
    loc: inputAt(0, 'path'),
    issueType: 'extra_forbidden',
  },
  {
    method: 'POST',
    path: PLANS,
    as: 'owner',
    body: { goal: GOAL, inputs: [FILE, { ...FILE, name: '' }] },
    status: 422,
    loc: inputAt(1, 'name'),
  },
  {
    method: 'POST',
    path: PLANS,
    as: 'owner',
    body: { goal: GOAL, inputs: [FILE, { name: 'b.csv', bytes: -5 }] },
    status: 422,
    loc: inputAt(1, 'bytes'),
  },
  ...machineRows(PLANS, { goal: GOAL }),
  ...['status', 'steps', 'spend_ceiling_credits', 'estimated_credits', 'user_id', 'provider', 'Goal'].map((member): Row => ({
    method: 'POST',
    path: PLANS,
    as: 'owner',
    body: { goal: GOAL, [member]: member === 'steps' ? ['x'] : 'x' },
    status: 422,
    loc: ['body', member],
    issueType: 'extra_forbidden',
  })),
  // POST /api/compute/plans/{plan_id}/approve: reserves the ceiling (402 when the credits do not cover it)
  ...planIdRows(APPROVE),
  { method: 'POST', path: APPROVE, as: 'owner', note: 'ceiling over the credits', status: 402 },
  // POST /api/compute/plans/{plan_id}/decline
  ...planIdRows(DECLINE),
  // POST /api/compute/sessions {provider?, machine?}
  ...['cloud', 'MANUAL', 'Local', '', ' manual', long(21), 5, ['manual'], true].map((provider): Row => ({
    method: 'POST',
    path: SESSIONS,
    as: 'owner',
    body: { provider },
    status: 422,
    loc: ['body', 'provider'],
  })),
  ...machineRows(SESSIONS, { provider: 'manual' }),
  ...['plan_id', 'ceiling_credits', 'claim_token', 'state'].map((member): Row => ({
    method: 'POST',
    path: SESSIONS,
    as: 'owner',
    body: { provider: 'manual', [member]: 1 },
    status: 422,
    loc: ['body', member],
    issueType: 'extra_forbidden',
  })),
  // GET /api/compute/sessions/{lease_id}
  ...leaseIdRows('GET', LEASE),
  { method: 'GET', path: LEASE, as: 'owner', status: 200, contentType: /^application\/json/ },
  // DELETE /api/compute/sessions/{lease_id}: releasing an ended lease again changes nothing
  ...leaseIdRows('DELETE', LEASE),
  {
    method: 'DELETE',
    path: LEASE,
    as: 'owner',
    ids: { lease_id: '@released' },
    note: 'already released',
    status: 200,
    contentType: /^application\/json/,
  },
  // POST /api/compute/sessions/{lease_id}/topup {credits}: > 0, at most 1,000,000
  { method: 'POST', path: TOPUP, as: 'owner', body: {}, status: 422, loc: ['body', 'credits'] },
  ...[null, 0, -1, -0.5, 0.00001, 1_000_001, 1e300, '5', true, [1], { amount: 1 }].map((credits): Row => ({
    method: 'POST',
    path: TOPUP,
    as: 'owner',
    body: { credits },
    status: 422,
    loc: ['body', 'credits'],
  })),
  {
    method: 'POST',
    path: TOPUP,
    as: 'owner',
    body: { credits: 1, reason: 'more' },
    status: 422,
    loc: ['body', 'reason'],
    issueType: 'extra_forbidden',
  },
  { method: 'POST', path: TOPUP, as: 'owner', body: { amount: 1 }, status: 422, loc: ['body', 'amount'] },
  ...leaseIdRows('POST', TOPUP, { body: { credits: 1 } }),
  { method: 'POST', path: TOPUP, as: 'owner', ids: { lease_id: '@direct' }, body: { credits: 1 }, note: 'no ceiling', status: 409 },
  { method: 'POST', path: TOPUP, as: 'owner', ids: { lease_id: '@released' }, body: { credits: 1 }, note: 'released', status: 409 },
  { method: 'POST', path: TOPUP, as: 'owner', body: { credits: 1_000_000 }, note: 'more than the free credits', status: 402 },
  // POST /api/compute/bootstrap {claim_token}: the claim token is the credential (route auth none)
  { method: 'POST', path: BOOTSTRAP, as: 'none', body: {}, status: 422, loc: ['body', 'claim_token'] },
  ...[null, 5, ['ldk_ct_x'], { token: 'ldk_ct_x' }, true, 'ldk_ct_nul\u0000byte'].map((claim_token): Row => ({
    method: 'POST',
    path: BOOTSTRAP,
    as: 'none',
    body: { claim_token },
    status: 422,
    loc: ['body', 'claim_token'],
  })),
  {
    method: 'POST',
    path: BOOTSTRAP,
    as: 'none',
    body: { claimToken: 'ldk_ct_x' },
    status: 422,
    loc: ['body', 'claimToken'],
    issueType: 'extra_forbidden',
  },
  {
    method: 'POST',
    path: BOOTSTRAP,
    as: 'none',
    body: { claim_token: 'ldk_ct_x', lease_id: 1 },
    status: 422,
    loc: ['body', 'lease_id'],
    issueType: 'extra_forbidden',
  },
  ...[
    '',
    'ldk_ct_unknown',
    `ldk_ct_${long(40, 'A')}`,
    'ldk_pt_unknown',
    'ldk_pat_garbage',
    long(5000, 'A'),
    `ldk_ct_${long(5000, 'A')}`,
  ].map((claim_token): Row => ({ method: 'POST', path: BOOTSTRAP, as: 'none', body: { claim_token }, status: 401, detail: CLAIM_REFUSED })),
  {
    method: 'POST',
    path: BOOTSTRAP,
    as: 'none',
    bodyOf: (fx) => ({ claim_token: fx.compute.usedClaimToken }),
    note: 'used',
    status: 401,
    detail: CLAIM_REFUSED,
  },
  {
    method: 'POST',
    path: BOOTSTRAP,
    as: 'none',
    bodyOf: (fx) => ({ claim_token: fx.compute.releasedClaimToken }),
    note: 'lease released',
    status: 401,
    detail: CLAIM_REFUSED,
  },
  {
    method: 'POST',
    path: BOOTSTRAP,
    as: 'none',
    bodyOf: (fx) => ({ claim_token: fx.compute.disabledClaimToken }),
    note: 'owner disabled',
    status: 401,
    detail: CLAIM_REFUSED,
  },
  {
    method: 'POST',
    path: BOOTSTRAP,
    as: 'none',
    bodyOf: (fx) => ({ claim_token: fx.compute.usedClaimToken.toUpperCase() }),
    note: 'used, upper-cased',
    status: 401,
    detail: CLAIM_REFUSED,
  },
  // A user's credential is no claim token.
  { method: 'POST', path: BOOTSTRAP, as: 'owner', body: { claim_token: 'ldk_ct_unknown' }, status: 401, detail: CLAIM_REFUSED },
  // POST /api/compute/sessions/{lease_id}/heartbeat {active, process_token?}: the process token is the credential (route auth none)
  { method: 'POST', path: HEARTBEAT, as: 'sandbox', body: {}, status: 422, loc: ['body', 'active'] },
  { method: 'POST', path: HEARTBEAT, as: 'sandbox', body: { process_token: 'ldk_pt_x' }, status: 422, loc: ['body', 'active'] },
  ...[null, 'true', 'yes', 1, 0, [true]].map((active): Row => ({
    method: 'POST',
    path: HEARTBEAT,
    as: 'sandbox',
    body: { active },
    status: 422,
    loc: ['body', 'active'],
  })),
  ...[5, ['ldk_pt_x'], true, 'ldk_pt_nul\u0000byte'].map((process_token): Row => ({
    method: 'POST',
    path: HEARTBEAT,
    as: 'sandbox',
    body: { active: false, process_token },
    status: 422,
    loc: ['body', 'process_token'],
  })),
  {
    method: 'POST',
    path: HEARTBEAT,
    as: 'sandbox',
    body: { active: false, processToken: 'ldk_pt_x' },
    status: 422,
    loc: ['body', 'processToken'],
    issueType: 'extra_forbidden',
  },
  {
    method: 'POST',
    path: HEARTBEAT,
    as: 'sandbox',
    body: { active: false, spent_credits: 0 },
    status: 422,
    loc: ['body', 'spent_credits'],
    issueType: 'extra_forbidden',
  },
  ...NOT_INTEGERS.map((lease_id): Row => ({
    method: 'POST',
    path: HEARTBEAT,
    as: 'sandbox',
    ids: { lease_id },
    body: { active: false },
    status: 422,
    loc: ['path', 'lease_id'],
  })),
  // Missing or wrong process token: 401, without saying whether the lease exists.
  { method: 'POST', path: HEARTBEAT, as: 'none', body: { active: true }, status: 401 },
  { method: 'POST', path: HEARTBEAT, as: 'none', body: { active: false, process_token: '' }, status: 401 },
  { method: 'POST', path: HEARTBEAT, as: 'none', body: { active: true, process_token: `ldk_pt_${long(40, 'A')}` }, status: 401 },
  {
    method: 'POST',
    path: HEARTBEAT,
    as: 'none',
    headers: { authorization: `Bearer ldk_pt_${long(40, 'A')}` },
    body: { active: true },
    status: 401,
  },
  {
    method: 'POST',
    path: HEARTBEAT,
    as: 'none',
    bodyOf: (fx) => ({ active: true, process_token: fx.compute.processToken.toUpperCase() }),
    note: 'upper-cased',
    status: 401,
  },
  {
    method: 'POST',
    path: HEARTBEAT,
    as: 'none',
    bodyOf: (fx) => ({ active: true, process_token: fx.compute.processToken.slice(0, -1) }),
    note: 'one character short',
    status: 401,
  },
  {
    method: 'POST',
    path: HEARTBEAT,
    as: 'none',
    bodyOf: (fx) => ({ active: true, process_token: fx.compute.usedClaimToken }),
    note: 'the claim token',
    status: 401,
  },
  ...(['owner', 'admin', 'garbage'] as Who[]).map((as): Row => ({
    method: 'POST',
    path: HEARTBEAT,
    as,
    body: { active: true },
    status: 401,
  })),
  // The process token opens its own lease only, and an unknown lease looks the same.
  ...['@direct', '@released', ...NO_SUCH_IDS].map((lease_id): Row => ({
    method: 'POST',
    path: HEARTBEAT,
    as: 'sandbox',
    ids: { lease_id },
    body: { active: true },
    status: 401,
  })),
  // The right token, not active: answered, and nothing changes (active: true would refresh the idle clock).
  { method: 'POST', path: HEARTBEAT, as: 'sandbox', body: { active: false }, status: 200, contentType: /^application\/json/ },
  {
    method: 'POST',
    path: HEARTBEAT,
    as: 'none',
    bodyOf: (fx) => ({ active: false, process_token: fx.compute.processToken }),
    note: 'token in the body',
    status: 200,
    contentType: /^application\/json/,
  },
  // An ended lease's process token is still heard (to be told `stop`), on that lease only; nothing is refreshed.
  {
    method: 'POST',
    path: HEARTBEAT,
    as: 'none',
    ids: { lease_id: '@ended' },
    bodyOf: (fx) => ({ active: true, process_token: fx.compute.endedProcessToken }),
    note: 'released lease',
    status: 200,
    contentType: /^application\/json/,
  },
  {
    method: 'POST',
    path: HEARTBEAT,
    as: 'none',
    bodyOf: (fx) => ({ active: true, process_token: fx.compute.endedProcessToken }),
    note: "another lease's token",
    status: 401,
  },
  {
    method: 'POST',
    path: HEARTBEAT,
    as: 'sandbox',
    ids: { lease_id: '@ended' },
    body: { active: true },
    note: "another lease's token",
    status: 401,
  },
  // A process token is no user credential.
  { method: 'GET', path: LEASE, as: 'sandbox', status: 401 },
  { method: 'POST', path: TOPUP, as: 'sandbox', body: { credits: 1 }, status: 401 },
  // POST /api/admin/users/{user_id}/credits {credits, reason?}
  { method: 'POST', path: GRANT, as: 'admin', body: {}, status: 422, loc: ['body', 'credits'] },
  { method: 'POST', path: GRANT, as: 'admin', body: { reason: 'x' }, status: 422, loc: ['body', 'credits'] },
  ...[null, 0, -1, -0.5, 0.00001, 1_000_001, 1e300, '5', true, [1]].map((credits): Row => ({
    method: 'POST',
    path: GRANT,
    as: 'admin',
    body: { credits },
    status: 422,
    loc: ['body', 'credits'],
  })),
  ...[long(501), 5, ['x'], 'nul\u0000byte', 'lone \ud800 surrogate'].map((reason): Row => ({
    method: 'POST',
    path: GRANT,
    as: 'admin',
    body: { credits: 1, reason },
    status: 422,
    loc: ['body', 'reason'],
  })),
  ...['kind', 'user_id', 'balance_credits', 'Credits'].map((member): Row => ({
    method: 'POST',
    path: GRANT,
    as: 'admin',
    body: { credits: 1, [member]: 'x' },
    status: 422,
    loc: ['body', member],
    issueType: 'extra_forbidden',
  })),
  { method: 'POST', path: GRANT, as: 'admin', ids: { user_id: 'usr_nope' }, body: { credits: 1 }, status: 404 },
  { method: 'POST', path: GRANT, as: 'admin', ids: { user_id: long(300) }, body: { credits: 1 }, status: 404 },
  { method: 'POST', path: GRANT, as: 'admin', ids: { user_id: '%00' }, body: { credits: 1 }, status: 422, loc: ['path', 'user_id'] },
  ...(['owner', 'member'] as Who[]).map((as): Row => ({ method: 'POST', path: GRANT, as, body: { credits: 1 }, status: 403 })),
];

/** A valid request for each authenticated route, so the credential is the only thing wrong. */
function validRequest(route: (typeof ROUTES)[number]): Pick<Row, 'body' | 'query'> {
  const body = BODY_ROUTES.find((r) => r.method === route.method && r.path === route.path)?.valid;
  if (route.path === '/api/labs/preview') return { query: { code: 'ZZZZZZZZZZZZ' } };
  return body === undefined ? {} : { body };
}

/** Who is refused (401) by a route's auth gate; `plain` gets 403 from an admin route. Only the release token opens a release route. */
const REFUSED: Record<'user' | 'admin' | 'release', Who[]> = {
  user: ['none', 'garbage', 'revoked'],
  admin: ['none', 'garbage', 'revoked'],
  release: ['none', 'garbage', 'revoked', 'owner', 'admin'],
};

/** Bad credentials: every authenticated route, then the kinds of bad token on a few routes. */
const credentialRows: Row[] = [
  ...ROUTES.filter((r) => r.auth !== 'none').flatMap((route): Row[] => [
    ...REFUSED[route.auth as keyof typeof REFUSED].map((as): Row => ({
      method: route.method,
      path: route.path,
      as,
      ...validRequest(route),
      status: 401,
    })),
    ...(route.auth === 'admin'
      ? [{ method: route.method, path: route.path, as: 'plain' as Who, ...validRequest(route), status: 403 }]
      : []),
  ]),
  // The release token exactly, as a bearer token: nothing near it, and no user credential.
  ...[
    `Bearer ${RELEASE_TOKEN}x`,
    `Bearer ${RELEASE_TOKEN.slice(0, -1)}`,
    `Bearer ${RELEASE_TOKEN.toUpperCase()}`,
    `Bearer ${RELEASE_TOKEN} extra`,
    `Token ${RELEASE_TOKEN}`,
    `Basic ${Buffer.from(`release:${RELEASE_TOKEN}`).toString('base64')}`,
    RELEASE_TOKEN,
    'Bearer',
    `Bearer ${long(5000, 'A')}`,
  ].flatMap((authorization): Row[] => [
    {
      method: 'PUT',
      path: RELEASE_MANIFEST,
      as: 'none',
      headers: { authorization },
      body: { version: '1.2.0', files: [DESKTOP_FILE] },
      status: 401,
    },
    {
      method: 'PUT',
      path: RELEASE_FILE,
      as: 'none',
      ids: { version: '1.2.0' },
      headers: { authorization, 'content-type': 'application/octet-stream' },
      rawBody: RELEASE_BYTES,
      status: 401,
    },
  ]),
  ...(['disabled', 'refresh'] as Who[]).flatMap((as): Row[] => [
    { method: 'GET', path: '/api/me', as, status: 401 },
    { method: 'POST', path: LABS, as, body: { name: 'Never created' }, status: 401 },
    { method: 'POST', path: ADMIN_USERS, as, body: { email: okEmail, name: 'Fresh' }, status: 401 },
  ]),
  ...[
    'Basic YWRtaW46YWRtaW4=',
    'Bearer',
    'Bearer ',
    'Token ldk_pat_AAAAAAAAAAAAxxxxxxxxxxxx',
    'Bearer ldk_pat_AAAAAAAAAAAAxxxxxxxxxxxx',
    'Bearer ldk_at_AAAAAAAAAAAAxxxxxxxxxxxx',
    'Bearer ldk_pat_short',
    `Bearer ${long(5000, 'A')}`,
    'Bearer a b',
  ].map((authorization): Row => ({ method: 'GET', path: '/api/me', as: 'none', headers: { authorization }, status: 401 })),
  // A login's refresh token is no bearer (above), and its access token is no refresh token.
  { method: 'POST', path: '/api/auth/refresh', as: 'none', bodyOf: (fx) => ({ refresh_token: fx.accessToken }), status: 401 },
];

/** The outbound agent registry: entries are the caller's own (another's, or none, is 404). */
const agentRows: Row[] = [
  {
    method: 'POST',
    path: '/api/a2a/agents',
    as: 'plain',
    body: { name: 'Peer', url: 'https://peer.example.org', enabled: true },
    status: 422,
    loc: ['body', 'id'],
  },
  {
    method: 'POST',
    path: '/api/a2a/agents',
    as: 'plain',
    body: { id: 'Not An Id!', name: 'Peer', url: 'https://peer.example.org', enabled: true },
    status: 422,
    loc: ['body', 'id'],
  },
  {
    method: 'POST',
    path: '/api/a2a/agents',
    as: 'plain',
    body: { id: 'peer', name: 'Peer', url: 'ftp://peer.example.org', enabled: true },
    status: 422,
    loc: ['body', 'url'],
  },
  { method: 'GET', path: '/api/a2a/agents/{id}', as: 'plain', status: 404 },
  { method: 'PATCH', path: '/api/a2a/agents/{id}', as: 'plain', body: { name: 'Renamed' }, status: 404 },
  { method: 'DELETE', path: '/api/a2a/agents/{id}', as: 'plain', status: 404 },
  { method: 'POST', path: '/api/a2a/agents/{id}/test', as: 'plain', status: 404 },
];

const ROWS: Row[] = [
  ...agentRows,
  ...shapeRows,
  ...authRows,
  ...labRows,
  ...scanRows,
  ...pageRows,
  ...adminRows,
  ...trajectoryRows,
  ...trajectoryExtraRows,
  ...figureRows,
  ...blobRows,
  ...catalogRows,
  ...releaseRows,
  ...computeRows,
  ...credentialRows,
];

// ---------------------------------------------------------------------------------------------
// Running a row
// ---------------------------------------------------------------------------------------------

function tokenFor(who: Who, app: TestApp = t): string | undefined {
  switch (who) {
    case 'admin':
      return app.adminToken;
    case 'owner':
      return f.owner.token;
    case 'member':
      return f.member.token;
    case 'plain':
      return f.plain.token;
    case 'garbage':
      return 'ldk_pat_garbage';
    case 'revoked':
      return f.revokedToken;
    case 'disabled':
      return f.disabledToken;
    case 'refresh':
      return f.refreshToken;
    case 'release':
      return RELEASE_TOKEN;
    case 'sandbox':
      return f.compute.processToken;
    case 'none':
      return undefined;
  }
}

function urlOf(row: Row): string {
  const defaults: Record<string, string> = {
    lab_id: f.lab.id,
    member_user_id: f.member.id,
    user_id: f.plain.id,
    token_id: f.plainTokenId,
    session_id: SESSION_OWNED,
    annotation_id: f.annotationId,
    sha256: OWNER_SHA,
    product: 'desktop',
    version: '1.0.0',
    filename: 'app.dmg',
    feed: 'latest-mac.yml',
    plan_id: '@pending',
    lease_id: '@lease',
    id: 'no-such-peer',
  };
  const filled = row.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    let value = row.ids?.[name] ?? defaults[name];
    // `@name`: a compute fixture's id.
    if (value?.startsWith('@')) value = String(f.compute.ids[value.slice(1)] ?? fail(`no compute fixture ${value}`));
    if (value === undefined) throw new Error(`no value for {${name}} in ${row.path}`);
    return value; // given as is: '%00' is meant to reach the server percent-encoded
  });
  const search = row.searchOf ? row.searchOf(f) : row.search;
  return search ? `${filled}?${search}` : filled;
}

/** A short, readable title: long strings are shown by length. */
function title(row: Row): string {
  const shorten = (value: unknown): unknown =>
    typeof value === 'string' && value.length > 24
      ? `<${value.length} chars>`
      : Array.isArray(value)
        ? value.map(shorten)
        : value && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v)]))
          : value;
  const path = row.path.replace(/\{([^}]+)\}/g, (m, name: string) =>
    row.ids?.[name] ? (row.ids[name].length > 24 ? `<${row.ids[name].length} chars>` : row.ids[name]) : m,
  );
  const parts = [`${row.method} ${path}${row.searchOf ? '?<signed link>' : row.search ? `?${row.search}` : ''}`, `as ${row.as}`];
  if (row.note) parts.push(`(${row.note})`);
  if (row.query) parts.push(`query ${JSON.stringify(shorten(row.query))}`);
  if (row.headers?.authorization) parts.push(`authorization ${JSON.stringify(shorten(row.headers.authorization))}`);
  if (row.headers?.['content-type']) parts.push(`content-type ${row.headers['content-type']}`);
  const part = (v: string | Blob) => (typeof v === 'string' ? shorten(v) : `<file ${v.size} bytes>`);
  if (row.form)
    parts.push(
      `form ${JSON.stringify(Object.fromEntries(Object.entries(row.form).map(([k, v]) => [k, Array.isArray(v) ? v.map(part) : part(v)])))}`,
    );
  else if (row.rawBody !== undefined) parts.push(`raw ${row.rawBody}`);
  else if (row.bodyOf) parts.push('body <from fixtures>');
  else if (row.body !== undefined) parts.push(`body ${JSON.stringify(shorten(row.body))}`);
  else if (['POST', 'PUT', 'PATCH'].includes(row.method)) parts.push('no body');
  return `${parts.join(' ')} → ${row.status}${row.loc ? ` ${JSON.stringify(row.loc)}` : ''}`;
}

const STACK = /at .*\.(ts|js):\d|node_modules|\.ts:\d/;

function expectNoStack(reply: Reply) {
  expect(reply.text).not.toMatch(STACK);
}

interface SendOptions {
  token?: string;
  body?: unknown;
  rawBody?: string;
  form?: FormParts;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
}

function formOf(parts: FormParts): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v === 'string') form.append(name, v);
      else form.append(name, v, `${name}.png`);
    }
  }
  return form;
}

/**
 * One request over real HTTP, as `TestApp.call` sends it (JSON body, raw body, query, bearer
 * token), and also multipart bodies (fetch sets the boundary); redirects are not followed.
 */
async function call(app: TestApp, method: string, path: string, opts: SendOptions = {}): Promise<Reply> {
  const url = new URL(path, app.url);
  for (const [key, value] of Object.entries(opts.query ?? {})) url.searchParams.set(key, String(value));
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let payload: string | FormData | undefined = opts.rawBody;
  if (opts.body !== undefined) payload = JSON.stringify(opts.body);
  if (typeof payload === 'string') headers['content-type'] ??= 'application/json';
  if (opts.form) payload = formOf(opts.form);
  return replyOf(await fetch(url, { method, headers, body: payload, redirect: 'manual' }));
}

/** One request, recorded for the stack-trace sweep at the end before any assertion can stop the test. */
async function send(app: TestApp, what: string, method: string, path: string, opts: SendOptions): Promise<Reply> {
  const reply = await call(app, method, path, opts);
  seen.push({ what, text: reply.text });
  return reply;
}

/** What a row expecting success checks beyond the status. */
function expectSuccess(reply: Reply, row: Row) {
  if (row.status === 204) expect(reply.text).toBe('');
  if (row.location !== undefined) {
    expect(reply.headers.get('location')).toEqual(typeof row.location === 'string' ? row.location : expect.stringMatching(row.location));
    expect(reply.headers.get('cache-control')).toBe('no-store');
  }
  if (row.contentType) expect(reply.headers.get('content-type') ?? '').toMatch(row.contentType);
}

/** The two error shapes of docs/api/wire.md. */
function expectErrorShape(reply: Reply, row: Pick<Row, 'status' | 'loc' | 'issueType' | 'detail'>) {
  // The whole reply is printed when the status is wrong.
  expect({ status: reply.status, body: reply.body }).toEqual(expect.objectContaining({ status: row.status }));
  expect(reply.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  if (row.status === 422) {
    expect(Object.keys(reply.body)).toEqual(['detail']);
    expect(Array.isArray(reply.body.detail)).toBe(true);
    expect(reply.body.detail.length).toBeGreaterThan(0);
    for (const issue of reply.body.detail) {
      expect(issue).toEqual({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
      expect(['body', 'query', 'path', 'header']).toContain(issue.loc[0]);
      for (const part of issue.loc) expect(['string', 'number']).toContain(typeof part);
    }
    if (row.loc) expect(reply.body.detail[0].loc).toEqual(row.loc);
    if (row.issueType) expect(reply.body.detail[0].type).toBe(row.issueType);
  } else {
    expect(reply.body).toEqual(expect.objectContaining({ detail: expect.any(String) }));
    expect(reply.body.detail.length).toBeGreaterThan(0);
    if (row.detail !== undefined) expect(reply.body.detail).toBe(row.detail);
    if (row.status === 401) expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer/);
  }
}

/** Sends a row to `app` and checks the answer, and that the tables did not change. */
async function runRow(app: TestApp, client: Client, row: Row) {
  const before = await snapshot(client);
  const reply = await send(app, title(row), row.method, urlOf(row), {
    token: tokenFor(row.as, app),
    body: row.bodyOf ? row.bodyOf(f) : row.body,
    rawBody: row.rawBody,
    form: row.form,
    query: row.query,
    headers: row.headers,
  });
  const after = await snapshot(client);
  // The headline first, so a failure shows status, first loc, changed tables and body together.
  const changed = TABLES.filter((table) => JSON.stringify(before[table]) !== JSON.stringify(after[table]));
  expect({ status: reply.status, ...(row.loc ? { loc: reply.body?.detail?.[0]?.loc } : {}), changed, body: reply.body }).toEqual({
    status: row.status,
    ...(row.loc ? { loc: row.loc } : {}),
    changed: [],
    // On a wrong status the diff then prints the body received.
    body: reply.status !== row.status ? '(a body answering with the expected status)' : row.status === 204 ? undefined : expect.anything(),
  });
  expectNoStack(reply);
  if (row.status >= 400) expectErrorShape(reply, row);
  else expectSuccess(reply, row);
  expect(after).toEqual(before);
}

describe('validation table', () => {
  test.each(ROWS.map((row) => [title(row), row] as const))('%s', async (_title, row) => {
    await runRow(t, db, row);
  });

  test('every route that takes input (body, query or path) has rows in the table', () => {
    // Stream routes read their own input: path parameters, a query, or a body they consume.
    const takesInput = ROUTES.filter((r) =>
      r.kind !== 'stream' ? Object.keys(r.variables).length > 0 : r.path.includes('{') || !!r.consumes,
    );
    expect(takesInput.length).toBeGreaterThan(0);
    const missing = takesInput.filter(
      (r) => !ROWS.some((row) => row.method === r.method && row.path === r.path && row.status !== 401 && row.status !== 403),
    );
    expect(missing.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });
});

describe('outside the route table', () => {
  test.each([
    ['GET', '/api/nope'],
    ['POST', '/api/labs/lab_x/nope'],
    ['GET', '/api/admin/userz'],
    ['GET', '/api/labs/'],
    ['DELETE', '/nope'],
  ])('%s %s (unknown path) → 404 {detail}', async (method, path) => {
    const before = await snapshot();
    const reply = await send(t, `${method} ${path}`, method, path, { token: t.adminToken });
    expectNoStack(reply);
    expectErrorShape(reply, { status: 404 });
    expect(await snapshot()).toEqual(before);
  });

  test.each([
    ['PUT', '/api/labs', ['GET', 'POST']],
    ['DELETE', '/api/me', ['GET']],
    ['POST', '/api/labs/preview', ['GET']],
    ['PUT', '/api/labs/lab_x', ['GET']],
    ['PUT', '/api/labs/join', ['POST']],
    ['GET', '/api/auth/cli/poll', ['POST']],
    ['GET', '/api/auth/refresh', ['POST']],
    ['POST', '/api/admin/users/usr_x', ['GET', 'PATCH']],
    ['PATCH', '/api/admin/users/usr_x/tokens', ['POST']],
    ['DELETE', '/api/admin/labs', ['GET']],
    ['DELETE', '/api/trajectories', ['GET']],
    ['POST', '/api/trajectories/val-owned', ['GET', 'DELETE']],
    ['GET', '/api/trajectories/val-owned/append', ['PUT']],
    ['POST', '/api/trajectories/val-owned/full', ['PUT']],
    ['PUT', '/api/trajectories/val-owned/visibility', ['PATCH']],
    ['PUT', '/api/trajectories/val-owned/meta', ['GET']],
    ['PUT', '/api/trajectories/reconcile', ['POST']],
    ['DELETE', '/api/trajectories/val-owned/annotations', ['GET', 'POST']],
    ['GET', '/api/trajectories/val-owned/annotations/ann_x/resolve', ['POST']],
    ['GET', '/api/trajectories/val-owned/critique', ['POST']],
    ['GET', '/api/trajectories/val-owned/fork', ['POST']],
    ['PUT', '/api/trajectories/val-owned/summary', ['GET', 'POST']],
    ['GET', '/api/trajectories/val-owned/summary/refresh', ['POST']],
    ['GET', '/api/trajectories/val-owned/discuss', ['POST']],
    ['POST', '/api/trajectories/val-owned/discussions', ['GET']],
    ['POST', '/api/admin/trajectories', ['GET']],
    ['DELETE', '/api/admin/storage_summary', ['GET']],
    ['POST', '/api/admin/stats', ['GET']],
    ['POST', '/api/admin/segmentation', ['GET']],
    ['GET', '/api/trajectories/val-owned/figures', ['POST']],
    ['GET', '/api/trajectories/val-owned/figures/upload', ['POST']],
    ['POST', '/api/trajectories/val-owned/figures/raw', ['GET']],
    ['DELETE', `/blobs/sha256/${OWNER_SHA}`, ['GET']],
    ['GET', '/api/admin/models', ['PUT']],
    ['POST', '/admin/api/public/models', ['GET']],
    ['PUT', '/admin/api/public/models/manifest', ['GET']],
    ['PUT', '/admin/api/public/app/desktop/manifest', ['GET']],
    ['GET', '/admin/api/release/desktop/manifest', ['PUT']],
    ['POST', '/admin/api/release/desktop/files/1.2.0/app.dmg', ['PUT']],
    ['DELETE', '/admin/api/public/app/desktop/download/1.0.0/app.dmg', ['GET']],
    ['POST', '/admin/api/public/app/desktop/update/latest.yml', ['GET']],
  ] as const)('%s %s (wrong method) → 405 with allow', async (method, path, allowed) => {
    const before = await snapshot();
    const reply = await send(t, `${method} ${path}`, method, path, {
      token: t.adminToken,
      body: method === 'GET' || method === 'DELETE' ? undefined : { name: 'x' },
    });
    expectNoStack(reply);
    expectErrorShape(reply, { status: 405 });
    const allow = (reply.headers.get('allow') ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
    expect([...allow].sort()).toEqual([...allowed].sort());
    expect(await snapshot()).toEqual(before);
  });
});

/**
 * A server without RELEASE_TOKEN refuses every publishing request with 403, whatever the
 * credential (docs/api/releases.md); reading stays public, and there is nothing to read.
 */
describe('release publishing on a server without RELEASE_TOKEN', () => {
  let bare: TestApp;
  let bareDb: Client;
  beforeAll(async () => {
    bare = await startTestApp();
    bareDb = new Client({ connectionString: bare.databaseUrl });
    await bareDb.connect();
  });
  afterAll(async () => {
    await bareDb?.end();
    await bare?.close();
  });

  const DISABLED = 'release publishing is not enabled on this server (RELEASE_TOKEN is unset)';
  const rows: Row[] = [
    ...(['none', 'garbage', 'admin', 'release'] as Who[]).flatMap((as): Row[] => [
      { method: 'PUT', path: RELEASE_MANIFEST, as, body: { version: '1.2.0', files: [DESKTOP_FILE] }, status: 403, detail: DISABLED },
      { method: 'PUT', path: RELEASE_MANIFEST, as, body: {}, status: 403, detail: DISABLED },
      {
        method: 'PUT',
        path: RELEASE_MANIFEST,
        as,
        ids: { product: 'mobile' },
        body: { version: '1.2.0', files: [DESKTOP_FILE] },
        status: 403,
        detail: DISABLED,
      },
      { method: 'PUT', path: RELEASE_FILE, as, ids: { version: '1.2.0' }, ...BINARY, status: 403, detail: DISABLED },
      { method: 'PUT', path: RELEASE_FILE, as, ids: { version: 'v1' }, ...BINARY, status: 403, detail: DISABLED },
    ]),
    {
      method: 'PUT',
      path: RELEASE_MANIFEST,
      as: 'none',
      headers: { authorization: 'Bearer ' },
      body: { version: '1.2.0', files: [DESKTOP_FILE] },
      status: 403,
      detail: DISABLED,
    },
    { method: 'GET', path: APP_MANIFEST, as: 'none', note: 'nothing published', status: 204 },
    { method: 'GET', path: FEED, as: 'none', note: 'nothing published', status: 404 },
    { method: 'GET', path: FEED, as: 'none', ids: { feed: 'latest.yml' }, note: 'nothing published', status: 404 },
    { method: 'GET', path: DOWNLOAD, as: 'none', note: 'nothing published', status: 404 },
  ];
  test.each(rows.map((row) => [title(row), row] as const))('%s', async (_title, row) => {
    await runRow(bare, bareDb, row);
  });
});

describe('body size limit', () => {
  let small: TestApp;
  let smallDb: Client;
  beforeAll(async () => {
    small = await startTestApp({ MAX_JSON_BODY_BYTES: '2048' });
    smallDb = new Client({ connectionString: small.databaseUrl });
    await smallDb.connect();
  });
  afterAll(async () => {
    await smallDb?.end();
    await small?.close();
  });

  test.each([
    ['POST', '/api/labs', { name: 'Big', padding: long(4096) }],
    ['POST', '/api/admin/users', { email: okEmail, name: long(4096) }],
    ['POST', '/api/auth/refresh', { refresh_token: long(4096) }],
  ] as const)('%s %s with a ~4 KB body over a 2 KB limit → 413 {detail}', async (method, path, body) => {
    const before = await snapshot(smallDb);
    const reply = await send(small, `${method} ${path} (413)`, method, path, { token: small.adminToken, body });
    expectNoStack(reply);
    expectErrorShape(reply, { status: 413 });
    expect(await snapshot(smallDb)).toEqual(before);
  });

  test('a body under the limit is still served', async () => {
    const reply = await send(small, 'POST /api/labs (small)', 'POST', '/api/labs', { token: small.adminToken, body: { name: 'Small' } });
    expectNoStack(reply);
    expect(reply.status).toBe(200);
  });
});

test('no response body in this file carries a stack trace, a source path or node_modules', () => {
  expect(seen.length).toBeGreaterThan(ROWS.length);
  expect(seen.filter((s) => STACK.test(s.text)).map((s) => s.what)).toEqual([]);
});

describe('compute answers beyond the table', () => {
  test('a claim token that opens nothing gets one answer, whatever the reason (unknown, used, of a released lease, of a disabled user)', async () => {
    const before = await snapshot();
    const tokens = [
      'ldk_ct_unknown',
      `ldk_ct_${long(40, 'A')}`,
      f.compute.usedClaimToken,
      f.compute.releasedClaimToken,
      f.compute.disabledClaimToken,
    ];
    const replies = [];
    for (const claim_token of tokens)
      replies.push(await send(t, 'POST /api/compute/bootstrap (refused)', 'POST', '/api/compute/bootstrap', { body: { claim_token } }));
    const shapes = replies.map((r) => ({
      status: r.status,
      text: r.text,
      authenticate: r.headers.get('www-authenticate'),
      type: r.headers.get('content-type'),
    }));
    expect(shapes[0]).toEqual({
      status: 401,
      text: JSON.stringify({ detail: CLAIM_REFUSED }),
      authenticate: expect.stringMatching(/^Bearer/),
      type: expect.stringMatching(/^application\/json/),
    });
    for (const shape of shapes) expect(shape).toEqual(shapes[0]);
    expect(await snapshot()).toEqual(before);
  });

  test('a plan at every documented limit at once (1000 inputs of 1e15 bytes, the largest machine) is drafted or refused with 422, never a server error', async () => {
    const user = await makeUser(t, { name: 'Big planner' });
    const body = {
      goal: long(4000, 'g'),
      inputs: Array.from({ length: 1000 }, (_v, i) => ({ name: `${i}-${long(20, 'n')}`, bytes: 1e15 })),
      machine: { cpus: 64, memory_gb: 512, gpu: true },
    };
    const reply = await send(t, 'POST /api/compute/plans (at the limits)', 'POST', '/api/compute/plans', { token: user.token, body });
    expectNoStack(reply);
    // On another status the diff prints the body received.
    if (![201, 422].includes(reply.status))
      expect({ status: reply.status, body: reply.body }).toEqual({ status: '201 or 422', body: expect.anything() });
    if (reply.status === 422) expect(reply.body.detail[0].loc.slice(0, 2)).toEqual(['body', 'inputs']);
  });
});
