import { makeLab, makeUser, TestLab, TestUser, useTestApp } from './support/app';

/**
 * Memory of whole-lab and whole-session reads does not grow with the size of the records
 * (issue 10, finding 2): the board reads a bounded projection of each session's tail in SQL,
 * and critique streams a session in batches. The data is made in SQL so the test stays quick.
 * Process RSS growth is sampled while the requests run and printed; the bound is generous.
 */

const t = useTestApp();

const RECORD_BYTES = 200 * 1024;
const MB = 1024 * 1024;

let member: TestUser;
let lab: TestLab;

/** A session of `records` assistant records of about 200 KB each, shared with the lab, made in one statement. */
async function bigSession(id: string, records: number, owner: TestUser, labId: string) {
  await t.sql(
    `with s as (insert into trajectories (id, owner_id, lab_id, visibility, title, source, count, head_uuid, bytes)
                values ($1, $2, $3, 'lab', 'big', 'api', $4::int, $1 || '-' || $4::int, 0) returning id)
     insert into trajectory_records (session_id, seq, uuid, parent_uuid, type, raw, bytes)
     select s.id, n, s.id || '-' || n, case when n > 1 then s.id || '-' || (n - 1) end, 'assistant', rec.raw, octet_length(rec.raw)
       from s, generate_series(1, $4::int) as n,
            lateral (select '{"uuid":"' || s.id || '-' || n || '","type":"assistant","message":{"content":[{"type":"text","text":"' || repeat(md5(n::text), $5::int / 32) || '"}]}}' as raw) rec`,
    [id, owner.id, labId, records, RECORD_BYTES],
  );
  await t.sql(`update trajectories set bytes = (select sum(bytes) from trajectory_records where session_id = $1) where id = $1`, [id]);
}

/** Runs `work` while sampling RSS every few milliseconds; answers the peak growth over the start. */
async function rssGrowth(work: () => Promise<unknown>): Promise<number> {
  const start = process.memoryUsage().rss;
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, process.memoryUsage().rss) - start;
}

beforeAll(async () => {
  member = await makeUser(t);
  lab = await makeLab(t, { owner: member });
  for (let i = 0; i < 60; i++) await bigSession(`big-${i}`, 20, member, lab.id);
  await bigSession('huge', 300, member, lab.id); // 60 MB
}, 120_000);

test('the board of 61 sessions of 20 × 200 KB records (244 MB) stays within 200 MB of RSS growth, and still reads each run', async () => {
  let reply: Awaited<ReturnType<typeof t.call>> | undefined;
  const started = performance.now();
  const growth = await rssGrowth(async () => {
    reply = await t.call('GET', `/api/labs/${lab.id}/board`, { token: member.token, query: { limit: 100 } });
  });
  process.stdout.write(
    `board?limit=100 over 61 sessions of 200 KB records: ${(performance.now() - started).toFixed(0)} ms, RSS growth ${(growth / MB).toFixed(0)} MB\n`,
  );
  const body = reply!.body as { items: any[] };
  expect(reply!.status).toBe(200);
  expect(body.items).toHaveLength(61);
  const row = body.items.find((r: { session_id: string }) => r.session_id === 'big-0');
  expect(row).toMatchObject({ state: 'stopped', count: 20, stopped_at_uuid: 'big-0-20', error: null });
  expect(row.last_text).toHaveLength(2000);
  expect(growth).toBeLessThan(200 * MB);
}, 60_000);

test('six parallel critiques of a 60 MB session stay within 200 MB of RSS growth', async () => {
  const started = performance.now();
  let replies: Awaited<ReturnType<typeof t.call>>[] = [];
  const growth = await rssGrowth(async () => {
    replies = await Promise.all(
      Array.from({ length: 6 }, () => t.call('POST', '/api/trajectories/huge/critique', { token: member.token })),
    );
  });
  process.stdout.write(
    `6 parallel critiques of a 60 MB session: ${(performance.now() - started).toFixed(0)} ms, RSS growth ${(growth / MB).toFixed(0)} MB\n`,
  );
  for (const reply of replies) expect(reply).toMatchObject({ status: 200, body: { findings: [] } });
  expect(growth).toBeLessThan(200 * MB);
}, 60_000);
