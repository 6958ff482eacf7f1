/**
 * The read anchor of bench:request-path: `GET /api/me` and `GET /api/labs/{lab_id}` written by
 * hand, as a service without our layers would answer them: Express 5 and `pg` (node-postgres)
 * only, no GraphQL, no ORM, no cache. Each route sends the SQL statements labdesk sends for it
 * (the same texts, as named prepared statements: the token lookup of every authenticated
 * request, src/modules/auth/token.repository.ts; the lab read and its member list,
 * src/modules/labs/lab.repository.ts), applies the same rules (the bearer token's shape, its
 * SHA-256 compared in constant time, kind, expiry, revocation, a disabled user; who sees a lab,
 * its members and its invitation code: src/modules/labs/lab.policy.ts) and answers the same JSON
 * body, members in the same order (bench/request-path.ts checks it against labdesk's before
 * measuring). What it leaves out: the activity write (labdesk's is one upsert a minute per
 * token, so nearly none in the rounds), rate limits, request ids, logs and metrics.
 *
 * Settings (environment): PORT; DATABASE_URL, the bench's labdesk database (the labdesk
 * server's, on which the bench made its user and lab). Sends `'ready'` when listening; answers
 * the IPC message `'statements'` with `{ statements, texts }`: the SQL statements it has sent so
 * far, and the distinct texts sent since the previous such message.
 * Started by bench/request-path.ts (`fork`).
 */
import { createDecipheriv, createHash, timingSafeEqual } from 'node:crypto';
import express, { type Response } from 'express';
import { Pool, type QueryResultRow } from 'pg';

/** Every statement goes through here, so the bench can count them and compare their texts with labdesk's. */
let statements = 0;
/** The distinct SQL texts sent since the latest `'statements'` message. */
const texts = new Set<string>();

// The texts labdesk sends (as its driver receives them), whitespace included.
const TOKEN_WITH_USER = {
  name: 'auth_presented_token',
  text: `select t.id as token_id, t.kind as token_kind, t.secret_hash as token_secret_hash, t.family_id as token_family_id, t.lease_id as token_lease_id,
                  t.expires_at as token_expires_at, t.revoked_at as token_revoked_at, t.used_at as token_used_at,
                  exists (select from lab_members m join labs l on l.id = m.lab_id where m.user_id = t.user_id and m.status = 'active' and l.status = 'active') as token_user_in_active_lab, u.id, u.created_at, u.updated_at, u.email, u.name, u.phone, u.plan_code, u.plan_source, u.plan_expires_at, u.is_admin, u.disabled, u.domain, u.institution, u.institution_tier, u.institution_type, u.institution_name, u.storage_quota_bytes, u.storage_used_bytes, u.last_active_at
             from auth_tokens t join users u on u.id = t.user_id where t.id = $1`,
};
const LAB_READ = {
  name: 'anchor_lab_read',
  text: `select l.id, l.name, l.status, l.seat_quota, l.owner_id, l.code_sealed, l.code_expires_at, l.created_at,
         m.role as member_role, m.status as member_status,
         (select count(*)::int from lab_members a where a.lab_id = l.id and a.status = 'active') as seats_used from labs l left join lab_members m on m.lab_id = l.id and m.user_id = $1 where l.id = $2`,
};
const LAB_MEMBERS = {
  name: 'anchor_lab_members',
  text: `select m.lab_id, m.role, m.status, m.joined_at, m.created_at, u.id as user_id, u.name, u.email
       from lab_members m join users u on u.id = m.user_id
      where m.lab_id = any($1::text[])
      order by m.id`,
};

/** Storage quota per plan (src/modules/users/plans.ts), for a user without an admin override. */
const GIB = 1024 ** 3;
const STORAGE_QUOTA_BY_PLAN: Record<string, number> = { free: 1 * GIB, pro: 20 * GIB, lab: 50 * GIB, enterprise: 200 * GIB };
const PLAN_RANK: Record<string, number> = { free: 0, pro: 1, lab: 2, enterprise: 3 };

const TOKEN_SHAPE = /^ldk_(pat|at|rt)_([A-Za-z0-9_-]{12})[A-Za-z0-9_-]{4,200}$/;
const KIND_OF: Record<string, string> = { pat: 'pat', at: 'access', rt: 'refresh' };

interface Caller {
  user: QueryResultRow;
  inActiveLab: boolean;
  /** A sandbox's token (bound to a lease): never an admin. */
  sandbox: boolean;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function refuse(res: Response, error: unknown): void {
  if (!(error instanceof Refusal)) {
    process.stderr.write(`read anchor: ${error instanceof Error ? error.stack : String(error)}\n`);
    return void res.status(500).json({ detail: 'internal error' });
  }
  if (error.status === 401) res.set('WWW-Authenticate', 'Bearer');
  res.status(error.status).json({ detail: error.message });
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/** AES-256-GCM `iv.tag.body` (base64url), as src/db/instance-keys.ts seals invitation codes. */
function openSealed(key: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

async function main() {
  const port = Number(process.env.PORT ?? 0);
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set');
  // labdesk's pool: 20 connections, its statement timeout; idle ones stay open, as its pool keeps them.
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20, idleTimeoutMillis: 0, statement_timeout: 30_000 });
  // An idle connection cut by the database (an embedded one stops with the labdesk server that
  // owns it) is dropped by the pool; the anchor must outlive it.
  pool.on('error', () => undefined);
  const query = async (statement: { name: string; text: string }, values: unknown[]) => {
    statements++;
    texts.add(statement.text);
    return (await pool.query({ ...statement, values })).rows;
  };
  // The key labdesk made in its database (no SEAL_KEY in the bench), read once at start.
  const { rows: secrets } = await pool.query<{ value: string }>(`select value from instance_secrets where name = 'seal_key'`);
  if (!secrets.length) throw new Error('no seal_key in instance_secrets: start the labdesk server on this database first');
  const sealKey = Buffer.from(secrets[0].value, 'base64');

  /** The caller of a bearer token, as src/modules/auth/auth.service.ts `authenticate` decides. */
  async function authenticate(header: string | undefined): Promise<Caller> {
    if (header === undefined || header === '') throw new Refusal(401, 'sign in first');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new Refusal(401, 'the authorization header must be "Bearer <token>"');
    const token = match[1];
    const shape = TOKEN_SHAPE.exec(token);
    const [row] = shape ? await query(TOKEN_WITH_USER, [`tok_${shape[2]}`]) : [];
    const digest = createHash('sha256').update(token).digest();
    const stored = row ? Buffer.from(row.token_secret_hash as string, 'hex') : undefined;
    if (
      !row ||
      row.token_kind !== KIND_OF[shape![1]] ||
      stored!.length !== digest.length ||
      !timingSafeEqual(stored!, digest) ||
      row.token_kind === 'refresh' ||
      row.token_revoked_at ||
      (row.token_expires_at && (row.token_expires_at as Date) <= new Date())
    )
      throw new Refusal(401, 'invalid or expired token');
    if (row.disabled) throw new Refusal(401, 'this account is disabled');
    return { user: row, inActiveLab: row.token_user_in_active_lab as boolean, sandbox: row.token_lease_id !== null };
  }

  const app = express();
  // labdesk's Express settings.
  app.disable('x-powered-by');
  app.set('query parser', 'simple');

  app.get('/api/me', async (req, res) => {
    try {
      const { user, inActiveLab } = await authenticate(req.headers.authorization);
      const planExpiresAt = user.plan_expires_at as Date | null;
      const own = planExpiresAt && planExpiresAt <= new Date() ? 'free' : (user.plan_code as string);
      const tier = inActiveLab && PLAN_RANK[own] < PLAN_RANK.lab ? 'lab' : own;
      res.json({
        user_id: user.id,
        email: user.email,
        name: user.name,
        phone: user.phone,
        plan_code: user.plan_code,
        plan_source: user.plan_source,
        plan_expires_at: iso(planExpiresAt),
        effective_tier: tier,
        is_admin: user.is_admin,
        disabled: user.disabled,
        domain: user.domain,
        institution: user.institution,
        institution_tier: user.institution_tier,
        institution_type: user.institution_type,
        institution_name: user.institution_name,
        // bigint columns: the driver answers text.
        storage_quota_bytes:
          user.storage_quota_bytes === null ? STORAGE_QUOTA_BY_PLAN[user.plan_code as string] : Number(user.storage_quota_bytes),
        storage_used_bytes: Number(user.storage_used_bytes),
        created_at: iso(user.created_at as Date),
        last_active_at: iso(user.last_active_at as Date | null),
      });
    } catch (error) {
      refuse(res, error);
    }
  });

  app.get('/api/labs/:lab_id', async (req, res) => {
    try {
      const caller = await authenticate(req.headers.authorization);
      const [lab] = await query(LAB_READ, [caller.user.id, req.params.lab_id]);
      const active = lab?.member_status === 'active';
      const admin = (caller.user.is_admin as boolean) && !caller.sandbox;
      // Not found unless an admin or an active member: a lab's existence is never revealed.
      if (!lab || !(admin || active)) throw new Refusal(404, 'lab not found');
      const owner = lab.owner_id === caller.user.id && active;
      const seesMembers = admin || owner || (active && lab.member_role === 'mentor');
      const members = seesMembers ? await query(LAB_MEMBERS, [[lab.id]]) : null;
      res.json({
        lab_id: lab.id,
        name: lab.name,
        owner_id: lab.owner_id,
        status: lab.status,
        seat_quota: lab.seat_quota,
        seats_used: lab.seats_used,
        role: active ? lab.member_role : null,
        created_at: iso(lab.created_at as Date),
        // Only the owner sees the code; for anyone else both members are left out.
        ...(owner
          ? { invitation_code: openSealed(sealKey, lab.code_sealed as string), code_expires_at: iso(lab.code_expires_at as Date) }
          : {}),
        members:
          members?.map((member) => ({
            member_user_id: member.user_id,
            name: member.name,
            email: member.email,
            role: member.role,
            status: member.status,
            joined_at: iso(member.joined_at as Date | null),
            requested_at: iso(member.created_at as Date),
          })) ?? null,
      });
    } catch (error) {
      refuse(res, error);
    }
  });

  const server = app.listen(port, '127.0.0.1', () => process.send?.('ready'));
  process.on('message', (message) => {
    if (message !== 'statements') return;
    process.send?.({ statements, texts: [...texts] });
    texts.clear();
  });
  process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
}

main().catch((error) => {
  process.stderr.write(`read anchor server failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
