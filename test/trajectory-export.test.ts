import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv-draft-04';
import { addMember, makeLab, makeUser, useTestApp, type TestUser } from './support/app';
import { PLANTED, plantedTranscript } from './support/secrets';
import { newSessionId, sessionPath, TINY_PNG as PNG, trajectoryCalls, uploadFigure } from './support/trajectories';

/**
 * Exports (issue 41, 4): a trajectory as a Jupyter notebook, valid against nbformat 4.5's own
 * JSON schema (test/fixtures/nbformat, from jupyter/nbformat), and as one HTML report that
 * fetches nothing; code cells with their output, figures inside the file, resolved review notes
 * (and not open ones); secrets masked when the export is for sharing.
 */
const t = useTestApp();
const schema = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'nbformat', 'nbformat.v4.5.schema.json'), 'utf8'));
const validNotebook = new Ajv({ allErrors: true, strict: false }).compile(schema);

let owner: TestUser;
let mentor: TestUser;
let outsider: TestUser;
let id: string;
beforeAll(async () => {
  const lab = await makeLab(t, { name: 'Export Lab', owner: await makeUser(t, { name: 'Rita Reviewer' }) });
  [owner, mentor, outsider] = await Promise.all(['Eve Owner', 'Max Mentor', 'Ola Outsider'].map((name) => makeUser(t, { name })));
  await addMember(t, lab, owner);
  await addMember(t, lab, mentor, 'mentor');
  id = newSessionId('export');
  const calls = trajectoryCalls(t);
  const records = [
    { uuid: 'x1', parentUuid: null, type: 'user', message: { role: 'user', content: 'Fit the **decay** curve in data.csv' } },
    {
      uuid: 'x2',
      parentUuid: 'x1',
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'First the environment, then the fit.' },
          { type: 'tool_use', id: 'run1', name: 'bash', input: { command: 'env | sort' } },
        ],
      },
    },
    {
      uuid: 'x3',
      parentUuid: 'x2',
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'run1', content: plantedTranscript() }] },
    },
    {
      uuid: 'x4',
      parentUuid: 'x3',
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'run2', name: 'python', input: { code: 'import numpy as np\nfit = np.polyfit(t, np.log(y), 1)' } },
        ],
      },
    },
    {
      uuid: 'x5',
      parentUuid: 'x4',
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'run2',
            is_error: true,
            content: [{ type: 'text', text: "NameError: name 't' is not defined" }],
          },
        ],
      },
    },
    {
      uuid: 'x6',
      parentUuid: 'x5',
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'The half-life is 4.2 h.' },
          { type: 'image', path: 'plots/decay.png' },
        ],
      },
    },
  ];
  expect((await calls.append(owner, id, null, records, { lab_id: lab.id, title: 'Decay <fit> & friends' })).status).toBe(200);
  expect((await calls.setVisibility(owner, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
  await uploadFigure(t, owner, id, 'plots/decay.png');
  // A resolved thread (with a reply) and an open note: only the resolved one goes out.
  const note = async (body: string, replyTo?: string) =>
    (await t.call('POST', sessionPath(id, '/annotations'), { token: mentor.token, body: { record_uuid: 'x6', body, reply_to: replyTo } }))
      .body.annotation_id as string;
  const resolved = await note('Check the units of the half-life.');
  await note('Hours, confirmed against the log.', resolved);
  expect((await t.call('POST', sessionPath(id, `/annotations/${resolved}/resolve`), { token: mentor.token })).status).toBeLessThan(300);
  await note('Still open: is the baseline subtracted?');
  // The lab owner's verdict, asked for by the mentor, heads the export.
  const gql = async (token: string, query: string, variables: Record<string, unknown>) =>
    (await t.call('POST', '/graphql', { token, body: { query, variables } })).body.data;
  const { trajectoryReviewRequest: review } = await gql(
    mentor.token,
    `mutation($id: ID!, $input: ReviewRequestInput!) { trajectoryReviewRequest(sessionId: $id, input: $input) { reviewId } }`,
    { id, input: { reviewerId: lab.owner.id } },
  );
  await gql(
    lab.owner.token,
    `mutation($id: ID!, $input: ReviewVerdictInput!) { trajectoryReviewDecide(reviewId: $id, input: $input) { state } }`,
    { id: review.reviewId, input: { verdict: 'approved', note: `The fit holds; rotate ${PLANTED.openai}.` } },
  );
});

const exported = (query: Record<string, string>, token = owner.token) => t.call('GET', sessionPath(id, '/export'), { token, query });

test('the notebook is valid nbformat 4.5: turns as Markdown, code with its output, the figure inside, resolved notes only', async () => {
  const reply = await exported({ format: 'ipynb' });
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-type')).toMatch(/^application\/x-ipynb\+json/);
  expect(reply.headers.get('content-disposition')).toBe('attachment; filename="Decay _fit_ _ friends.ipynb"');
  const notebook = JSON.parse(reply.text);
  expect(validNotebook(notebook) ? [] : validNotebook.errors).toEqual([]);
  // The schema does refuse: a 4.5 cell without its id is not a notebook.
  expect(validNotebook({ ...notebook, cells: [{ cell_type: 'markdown', metadata: {}, source: [] }] })).toBe(false);
  const cells = notebook.cells as {
    cell_type: string;
    source: string[];
    outputs?: { name: string; text: string[] }[];
    attachments?: Record<string, Record<string, string>>;
  }[];
  const text = (cell: (typeof cells)[number]) => cell.source.join('');
  // Escaped for Markdown: Jupyter would take `<fit>` for HTML.
  expect(text(cells[0])).toMatch(/^# Decay \\<fit\\> & friends\n\nEve Owner’s run · api · 6 records · exported /);
  expect(text(cells[0])).toContain(
    `\n\n**Reviews**\n\n- **Approved** by Rita Reviewer, ${new Date().toISOString().slice(0, 10)}: The fit holds; rotate ${PLANTED.openai}.`,
  );
  expect(text(cells[1])).toBe('**User** · record 1\n\nFit the **decay** curve in data.csv');
  const code = cells.filter((cell) => cell.cell_type === 'code');
  expect(code.map(text)).toEqual(['%%bash\nenv | sort', 'import numpy as np\nfit = np.polyfit(t, np.log(y), 1)']);
  expect(code[0].outputs![0].name).toBe('stdout');
  expect(code[0].outputs![0].text.join('')).toContain(PLANTED.github); // the owner's own export keeps what the records hold
  expect(code[1].outputs).toEqual([{ output_type: 'stream', name: 'stderr', text: ["NameError: name 't' is not defined"] }]);
  const figure = cells.find((cell) => cell.attachments)!;
  expect(text(figure)).toBe('![Figure plots/decay.png](attachment:figure-1.png)');
  expect(Buffer.from(figure.attachments!['figure-1.png']['image/png'], 'base64')).toEqual(PNG);
  const notes = cells.map(text).filter((source) => source.startsWith('> **Review note**'));
  expect(notes).toEqual([
    '> **Review note** by Max Mentor, resolved\n>\n> Check the units of the half-life.',
    '> **Review note** by Max Mentor (reply)\n>\n> Hours, confirmed against the log.',
  ]);
});

test('for sharing: no planted secret anywhere in the notebook or the report', async () => {
  for (const format of ['ipynb', 'html']) {
    const reply = await exported({ format, for_sharing: 'true' });
    expect(reply.status).toBe(200);
    // Told apart from the plain copy in a downloads folder.
    expect(reply.headers.get('content-disposition')).toBe(`attachment; filename="Decay _fit_ _ friends (secrets masked).${format}"`);
    const leaked = Object.entries(PLANTED).filter(
      ([, secret]) => reply.text.includes(secret) || reply.text.includes(JSON.stringify(secret).slice(1, -1)),
    );
    expect({ format, leaked: leaked.map(([kind]) => kind) }).toEqual({ format, leaked: [] });
    expect(reply.text).toContain('masked: GitHub token');
  }
});

test('the report is one HTML file that fetches nothing, its text escaped, the figure inside', async () => {
  const reply = await exported({ format: 'html' });
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const html = reply.text;
  expect(html).toContain(
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`,
  );
  expect(html).toContain('<h1>Decay &lt;fit&gt; &amp; friends</h1>');
  expect(html).not.toMatch(/<script|<link|(src|href)="(https?:)?\/\//i);
  expect(html).toContain(`src="data:image/png;base64,${PNG.toString('base64')}"`);
  expect(html).toContain('Fit the <strong>decay</strong> curve');
  expect(html).toContain('Check the units of the half-life.');
  expect(html).toContain('<section class="reviews"><p><strong>Reviews</strong><br><br>- <strong>Approved</strong> by Rita Reviewer');
  expect(html).not.toContain('is the baseline subtracted');
  expect(html.trimEnd().endsWith('</body></html>')).toBe(true);
});

test('who may export: whoever may view it; bad parameters are refused (422)', async () => {
  expect((await exported({}, mentor.token)).status).toBe(200);
  expect((await exported({}, outsider.token)).status).toBe(404);
  expect((await t.call('GET', sessionPath(id, '/export'))).status).toBe(401);
  expect((await exported({ format: 'pdf' })).status).toBe(422);
  expect((await exported({ for_sharing: 'yes' })).status).toBe(422);
  expect((await t.call('GET', sessionPath(newSessionId('none'), '/export'), { token: owner.token })).status).toBe(404);
});

test('a fork keeps the figures of the records it copies, and exports them', async () => {
  // Another figure the parent has, named only by no copied record: not the fork's.
  await uploadFigure(t, owner, id, 'plots/later.png');
  const fork = async (head: string) =>
    (await t.call('POST', sessionPath(id, '/fork'), { token: mentor.token, body: { head_uuid: head } })).body.session_id as string;
  const withFigure = await fork('x6');
  const before = await fork('x5');
  const figures = async (session: string) =>
    (await t.sql<{ path: string }>(`select canonical_path as path from figures where session_id = $1`, [session])).map((row) => row.path);
  expect(await figures(withFigure)).toEqual(['plots/decay.png']);
  expect(await figures(before)).toEqual([]);
  const url = await t.call<{ data: { trajectoryFigureUrl: string } }>('POST', '/graphql', {
    token: mentor.token,
    body: { query: `query($id: ID!) { trajectoryFigureUrl(sessionId: $id, path: "plots/decay.png") }`, variables: { id: withFigure } },
  });
  expect(Buffer.from(await (await fetch(url.body.data.trajectoryFigureUrl)).arrayBuffer())).toEqual(PNG);
  const report = await t.call('GET', sessionPath(withFigure, '/export'), { token: mentor.token, query: { format: 'html' } });
  expect(report.text).toContain(`src="data:image/png;base64,${PNG.toString('base64')}"`);
});
