import { addMember, makeLab, makeUser, useTestApp, type TestLab, type TestUser } from './support/app';
import { PLANTED, plantedTranscript } from './support/secrets';
import { newSessionId, newUuid, TINY_PNG, trajectoryCalls, uploadFigure } from './support/trajectories';

/**
 * Share links (docs/api/sharing.md): made by who may share, opened by anyone with the token,
 * every secret masked before it leaves, stopped by a revoke, an expiry, or its maker losing the
 * right; the token kept only as its hash.
 */
const t = useTestApp();

type Reply = { data?: Record<string, any> | null; errors?: { message: string; extensions?: { code?: string } }[] };
const gql = async (token: string | undefined, query: string, variables: Record<string, unknown> = {}): Promise<Reply> => {
  const reply = await t.call<Reply>('POST', '/graphql', { token, body: { query, variables } });
  expect(reply.status).toBe(200);
  return reply.body;
};
const code = (reply: Reply) => reply.errors?.[0]?.extensions?.code;

const CREATE = `mutation($id: ID!, $input: ShareLinkInput) {
  trajectoryShareLinkCreate(sessionId: $id, input: $input) { url link { linkId open views expiresAt maskEmails createdBy { name } } } }`;
const LINKS = `query($id: ID!) { trajectoryShareLinks(sessionId: $id) { linkId open views revokedAt lastViewedAt } }`;
const REVOKE = `mutation($linkId: ID!) { trajectoryShareLinkRevoke(linkId: $linkId) { linkId open revokedAt } }`;
const SHARED = `query($token: String!) { sharedTrajectory(token: $token) { title recordCount source maskEmails includeFigures } }`;
const RECORDS = `query($token: String!, $after: Int, $first: Int) {
  sharedTrajectoryRecords(token: $token, after: $after, first: $first) { hasMore items { seq text masked } } }`;

let lab: TestLab;
let owner: TestUser;
let mentor: TestUser;
let member: TestUser;
let outsider: TestUser;
beforeAll(async () => {
  lab = await makeLab(t, { name: 'Sharing Lab' });
  [owner, mentor, member, outsider] = await Promise.all(
    ['Sam Owner', 'Mira Mentor', 'Mo Member', 'Oz Outsider'].map((name) => makeUser(t, { name })),
  );
  await addMember(t, lab, owner);
  await addMember(t, lab, mentor, 'mentor');
  await addMember(t, lab, member);
});

/** The owner's trajectory in the lab (shared with it unless `private`), a tool result holding every planted secret. */
async function trajectory(kind: 'shared' | 'private' = 'shared') {
  const calls = trajectoryCalls(t);
  const id = newSessionId('share');
  const [ask, run, result] = [newUuid(), newUuid(), newUuid()];
  const records = [
    { uuid: ask, parentUuid: null, type: 'user', message: { role: 'user', content: 'Fit the decay curve; the data is in the bucket.' } },
    {
      uuid: run,
      parentUuid: ask,
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'env; cat ~/.aws/credentials' } }],
      },
    },
    {
      uuid: result,
      parentUuid: run,
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: plantedTranscript() }] },
    },
  ];
  expect((await calls.append(owner, id, null, records, { lab_id: lab.id, title: 'Decay fit' })).status).toBe(200);
  if (kind === 'shared') expect((await calls.setVisibility(owner, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
  return id;
}

const tokenOf = (url: string) => url.split('#')[1];

test('the owner makes a link; anyone with it reads the transcript with every secret masked, and it counts the view', async () => {
  const id = await trajectory();
  const made = await gql(owner.token, CREATE, { id });
  expect(made.errors).toBeUndefined();
  const { url, link } = made.data!.trajectoryShareLinkCreate;
  expect(url).toMatch(/\/shared#ldk_shr_[A-Za-z0-9]{40}$/);
  expect(link).toMatchObject({ open: true, views: 0, expiresAt: null, maskEmails: false, createdBy: { name: 'Sam Owner' } });
  // Only the hash is kept.
  const [row] = await t.sql<{ token_hash: string }>(`select token_hash from trajectory_share_links where id = $1`, [link.linkId]);
  expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
  expect(row.token_hash).not.toContain(tokenOf(url));

  const token = tokenOf(url);
  expect((await gql(undefined, SHARED, { token })).data!.sharedTrajectory).toEqual({
    title: 'Decay fit',
    recordCount: 3,
    source: expect.any(String),
    maskEmails: false,
    includeFigures: false,
  });
  const page = await t.call<Reply>('POST', '/graphql', { body: { query: RECORDS, variables: { token } } });
  const items = page.body.data!.sharedTrajectoryRecords.items as { seq: number; text: string; masked: number }[];
  expect(items.map((item) => item.seq)).toEqual([1, 2, 3]);
  expect(items[0].text).toContain('Fit the decay curve');
  expect(items[2].masked).toBeGreaterThanOrEqual(Object.keys(PLANTED).length);
  // Nowhere in the answer's bytes: not even JSON-escaped.
  for (const [kind, secret] of Object.entries(PLANTED))
    for (const form of [secret, JSON.stringify(secret).slice(1, -1)])
      expect({ kind, leaked: page.text.includes(form) }).toEqual({ kind, leaked: false });
  expect(page.text).toContain('⟦masked: GitHub token⟧');

  const links = await gql(owner.token, LINKS, { id });
  expect(links.data!.trajectoryShareLinks).toEqual([
    expect.objectContaining({ linkId: link.linkId, open: true, views: 1, revokedAt: null }),
  ]);
  expect(links.data!.trajectoryShareLinks[0].lastViewedAt).not.toBeNull();
});

test('a preview shows what a link would, from the same masking, before any link is made; only to who may make one', async () => {
  const id = await trajectory();
  const PREVIEW = `query($id: ID!, $emails: Boolean) {
    sharedTrajectoryPreview(sessionId: $id, maskEmails: $emails) { title recordCount expiresAt maskEmails }
    sharedTrajectoryPreviewRecords(sessionId: $id, maskEmails: $emails) { hasMore items { seq text masked } } }`;
  const shown = await gql(mentor.token, PREVIEW, { id, emails: true });
  expect(shown.errors).toBeUndefined();
  expect(shown.data!.sharedTrajectoryPreview).toEqual({ title: 'Decay fit', recordCount: 3, expiresAt: null, maskEmails: true });
  // Exactly what a link with the same setting answers, record for record.
  const made = (await gql(owner.token, CREATE, { id, input: { maskEmails: true } })).data!.trajectoryShareLinkCreate;
  const linked = await gql(undefined, RECORDS, { token: tokenOf(made.url) });
  expect(shown.data!.sharedTrajectoryPreviewRecords).toEqual(linked.data!.sharedTrajectoryRecords);
  expect(JSON.stringify(shown.data)).not.toContain(PLANTED.github);
  // No view counted, no link made by the preview.
  expect((await gql(owner.token, LINKS, { id })).data!.trajectoryShareLinks).toEqual([expect.objectContaining({ views: 0 })]);
  expect(code(await gql(member.token, PREVIEW, { id }))).toBe('FORBIDDEN');
  expect(code(await gql(outsider.token, PREVIEW, { id }))).toBe('NOT_FOUND');
  expect(code(await gql(undefined, PREVIEW, { id }))).toBe('UNAUTHENTICATED');
});

test('an archived trajectory gets no link and no preview: a link to it would not open', async () => {
  const id = await trajectory();
  await t.sql(`update trajectories set archived_at = now() where id = $1`, [id]);
  const made = await gql(owner.token, CREATE, { id });
  expect([code(made), made.errors?.[0]?.message]).toEqual(['CONFLICT', 'this trajectory is archived: a link to it would not open']);
  expect(code(await gql(owner.token, `query($id: ID!) { sharedTrajectoryPreview(sessionId: $id) { title } }`, { id }))).toBe('CONFLICT');
  const records = await gql(owner.token, `query($id: ID!) { sharedTrajectoryPreviewRecords(sessionId: $id) { hasMore } }`, { id });
  expect(code(records)).toBe('CONFLICT');
  expect(await t.sql(`select 1 from trajectory_share_links where session_id = $1`, [id])).toEqual([]);
});

test('revoked, expired or unknown: the same NOT_FOUND, never a hint of which', async () => {
  const id = await trajectory();
  const revoked = (await gql(owner.token, CREATE, { id })).data!.trajectoryShareLinkCreate;
  const again = await gql(owner.token, REVOKE, { linkId: revoked.link.linkId });
  expect(again.data!.trajectoryShareLinkRevoke).toMatchObject({ open: false, revokedAt: expect.any(String) });
  const expiring = (await gql(owner.token, CREATE, { id, input: { expiresInDays: 1 } })).data!.trajectoryShareLinkCreate;
  expect(new Date(expiring.link.expiresAt).getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
  await t.sql(`update trajectory_share_links set expires_at = now() - interval '1 second' where id = $1`, [expiring.link.linkId]);
  for (const token of [tokenOf(revoked.url), tokenOf(expiring.url), `ldk_shr_${'x'.repeat(40)}`, 'not a token', '']) {
    const shared = await gql(undefined, SHARED, { token });
    const records = await gql(undefined, RECORDS, { token });
    expect([code(shared), shared.errors?.[0]?.message, code(records)]).toEqual(['NOT_FOUND', 'shared trajectory not found', 'NOT_FOUND']);
  }
  // Revoking twice keeps the first time.
  const twice = await gql(owner.token, REVOKE, { linkId: revoked.link.linkId });
  expect(twice.data!.trajectoryShareLinkRevoke.revokedAt).toBe(again.data!.trajectoryShareLinkRevoke.revokedAt);
});

test('who may share: the owner and a mentor of the lab it is shared with; a member is refused, an outsider finds nothing', async () => {
  const id = await trajectory();
  expect((await gql(mentor.token, CREATE, { id })).errors).toBeUndefined();
  expect(code(await gql(member.token, CREATE, { id }))).toBe('FORBIDDEN');
  expect(code(await gql(member.token, LINKS, { id }))).toBe('FORBIDDEN');
  expect(code(await gql(outsider.token, CREATE, { id }))).toBe('NOT_FOUND');
  const theirs = (await gql(owner.token, LINKS, { id })).data!.trajectoryShareLinks[0].linkId;
  expect(code(await gql(outsider.token, REVOKE, { linkId: theirs }))).toBe('NOT_FOUND');
  expect(code(await gql(member.token, REVOKE, { linkId: theirs }))).toBe('FORBIDDEN');
  expect(code(await gql(owner.token, CREATE, { id: newSessionId('nothing') }))).toBe('NOT_FOUND');
});

test('a mentor’s link stops when the trajectory is made private; the owner’s goes on', async () => {
  const id = await trajectory();
  const byMentor = tokenOf((await gql(mentor.token, CREATE, { id })).data!.trajectoryShareLinkCreate.url);
  const byOwner = tokenOf((await gql(owner.token, CREATE, { id })).data!.trajectoryShareLinkCreate.url);
  expect((await trajectoryCalls(t).setVisibility(owner, id, { visibility: 'private' })).status).toBe(200);
  expect(code(await gql(undefined, SHARED, { token: byMentor }))).toBe('NOT_FOUND');
  expect((await gql(undefined, SHARED, { token: byOwner })).data!.sharedTrajectory.title).toBe('Decay fit');
});

test('a link stops while its maker’s account is disabled', async () => {
  const id = await trajectory('private');
  const token = tokenOf((await gql(owner.token, CREATE, { id })).data!.trajectoryShareLinkCreate.url);
  await t.sql(`update users set disabled = true where id = $1`, [owner.id]);
  try {
    expect(code(await gql(undefined, SHARED, { token }))).toBe('NOT_FOUND');
  } finally {
    await t.sql(`update users set disabled = false where id = $1`, [owner.id]);
  }
  expect((await gql(undefined, SHARED, { token })).data!.sharedTrajectory.title).toBe('Decay fit');
});

test('bad input is refused and changes nothing; the open links of one trajectory are bounded', async () => {
  const id = await trajectory('private');
  for (const expiresInDays of [0, 366, -1])
    expect(code(await gql(owner.token, CREATE, { id, input: { expiresInDays } }))).toBe('VALIDATION_FAILED');
  expect(code(await gql(undefined, RECORDS, { token: 'x', first: 0 }))).toBe('VALIDATION_FAILED');
  expect((await gql(owner.token, LINKS, { id })).data!.trajectoryShareLinks).toEqual([]);
  for (let n = 0; n < 20; n++) expect((await gql(owner.token, CREATE, { id })).errors).toBeUndefined();
  const refused = await gql(owner.token, CREATE, { id });
  expect([code(refused), refused.errors?.[0]?.message]).toEqual(['CONFLICT', 'this trajectory has 20 open share links; revoke one first']);
  // Anonymous callers cannot list or make links.
  expect(code(await gql(undefined, LINKS, { id }))).toBe('UNAUTHENTICATED');
});

test('e-mail addresses are masked when the link says so', async () => {
  const id = await trajectory('private');
  const token = tokenOf((await gql(owner.token, CREATE, { id, input: { maskEmails: true } })).data!.trajectoryShareLinkCreate.url);
  const page = await t.call<Reply>('POST', '/graphql', { body: { query: RECORDS, variables: { token } } });
  expect(page.text).not.toContain('ada@lab.example.org');
  expect(page.text).toContain('⟦masked: e-mail address⟧');
});

test('figures show only when the link includes them: their bytes, by a short-lived URL, until the link stops', async () => {
  const id = await trajectory();
  await uploadFigure(t, owner, id, 'plots/decay.png');
  const FIGURE = `query($token: String!, $path: String!) { sharedTrajectoryFigureUrl(token: $token, path: $path) }`;
  const without = tokenOf((await gql(owner.token, CREATE, { id })).data!.trajectoryShareLinkCreate.url);
  const withFigures = (await gql(mentor.token, CREATE, { id, input: { includeFigures: true } })).data!.trajectoryShareLinkCreate;
  const token = tokenOf(withFigures.url);

  // Left out: the same NOT_FOUND as a figure that does not exist.
  const refused = await gql(undefined, FIGURE, { token: without, path: 'plots/decay.png' });
  expect([code(refused), refused.errors?.[0]?.message]).toEqual(['NOT_FOUND', 'figure not found']);
  expect((await gql(undefined, SHARED, { token })).data!.sharedTrajectory.includeFigures).toBe(true);
  const url = (await gql(undefined, FIGURE, { token, path: 'plots/decay.png' })).data!.sharedTrajectoryFigureUrl as string;
  const image = await fetch(url);
  expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
  expect(Buffer.from(await image.arrayBuffer())).toEqual(TINY_PNG);
  expect(code(await gql(undefined, FIGURE, { token, path: 'plots/other.png' }))).toBe('NOT_FOUND');
  expect(code(await gql(undefined, FIGURE, { token, path: '' }))).toBe('VALIDATION_FAILED');
  // The list says which links show figures; a preview says what one would.
  const listed = await gql(owner.token, `query($id: ID!) { trajectoryShareLinks(sessionId: $id) { includeFigures } }`, { id });
  expect(listed.data!.trajectoryShareLinks).toEqual([{ includeFigures: true }, { includeFigures: false }]);
  const preview = `query($id: ID!, $figures: Boolean) { sharedTrajectoryPreview(sessionId: $id, includeFigures: $figures) { includeFigures } }`;
  expect((await gql(owner.token, preview, { id, figures: true })).data!.sharedTrajectoryPreview).toEqual({ includeFigures: true });
  expect((await gql(owner.token, preview, { id })).data!.sharedTrajectoryPreview).toEqual({ includeFigures: false });

  // Revoked: no more figure URLs (ones already given lapse within five minutes).
  expect((await gql(owner.token, REVOKE, { linkId: withFigures.link.linkId })).errors).toBeUndefined();
  expect(code(await gql(undefined, FIGURE, { token, path: 'plots/decay.png' }))).toBe('NOT_FOUND');
});
