import fs from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { addMember, makeLab, makeUser, useTestApp, type TestLab, type TestUser } from './support/app';
import { launchBrowser, screenshot, seriousViolations, useBrowser, watch } from './support/browser';
import { PLANTED, plantedTranscript } from './support/secrets';
import { newSessionId, newUuid, trajectoryCalls, uploadFigure } from './support/trajectories';

/**
 * Share links and exports in Chromium (issue 41, 1 and 4): the owner downloads a notebook and a
 * masked report from the trajectory's page; then makes a link there; a fresh
 * browser with no account opens it and reads the transcript with the planted secrets masked, in
 * no part of the page, its HTML or its network answers; the owner revokes it and the reader's
 * next visit finds it gone. Screenshots at 1440×900 and 390×844 go to test-output/.
 */
const t = useTestApp();
const inBrowser = useBrowser(180_000);
const PASSWORD = 'a long enough sharing password';

let owner: TestUser;
let lab: TestLab;
let sessionId: string;
beforeAll(async () => {
  lab = await makeLab(t, { name: 'Spectroscopy Lab' });
  owner = await makeUser(t, { name: 'Sofia Owner', password: PASSWORD });
  await addMember(t, lab, owner);
  sessionId = newSessionId('shared-view');
  const [ask, run, result, answer] = [newUuid(), newUuid(), newUuid(), newUuid()];
  const records = [
    { uuid: ask, parentUuid: null, type: 'user', message: { role: 'user', content: 'Why does the calibration drift after noon?' } },
    {
      uuid: run,
      parentUuid: ask,
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'I will look at the environment the instrument job runs in first.' },
          { type: 'tool_use', id: 't1', name: 'bash', input: { command: 'env | sort; cat ~/.aws/credentials ~/.ssh/id_rsa' } },
        ],
      },
    },
    {
      uuid: result,
      parentUuid: run,
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: plantedTranscript() }] },
    },
    {
      uuid: answer,
      parentUuid: result,
      type: 'assistant',
      message: { role: 'assistant', content: 'The drift follows the room temperature log: the chiller cycles at 12:10.' },
    },
  ];
  const appended = await trajectoryCalls(t).append(owner, sessionId, null, records, { lab_id: lab.id, title: 'Calibration drift' });
  expect(appended.status).toBe(200);
});

const secretsIn = (text: string) =>
  Object.entries(PLANTED)
    .filter(([, secret]) => text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1)))
    .map(([kind]) => kind);

/** A page of the owner's, signed in at /login, at 1440×900. */
async function ownerSignedIn(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${t.url}/login`);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${t.url}/labs`);
  return page;
}

inBrowser(
  'the owner makes a link; a fresh browser reads it signed out, secrets masked everywhere; revoked, it is gone',
  async (context) => {
    // The owner, signed in, on the trajectory's page.
    const page = await ownerSignedIn(context);
    await page.goto(`${t.url}/trajectories/${encodeURIComponent(sessionId)}`);
    // The export links download with the browser's session: a notebook, and a report with the secrets masked.
    const exports = page.getByRole('region', { name: 'Export' });
    const [notebook] = await Promise.all([
      page.waitForEvent('download'),
      exports.getByRole('link', { name: 'Jupyter notebook (.ipynb)' }).click(),
    ]);
    expect(notebook.suggestedFilename()).toBe('Calibration drift.ipynb');
    const cells = JSON.parse(fs.readFileSync(await notebook.path(), 'utf8')).cells as { source: string[] }[];
    expect(cells.some((cell) => cell.source.join('').includes('the chiller cycles at 12:10'))).toBe(true);
    const [report] = await Promise.all([
      page.waitForEvent('download'),
      exports.getByRole('link', { name: 'HTML report, secrets masked' }).click(),
    ]);
    const html = fs.readFileSync(await report.path(), 'utf8');
    expect(html).toContain('<h1>Calibration drift</h1>');
    expect(secretsIn(html)).toEqual([]);

    const panel = page.getByRole('region', { name: 'Share outside the lab' });
    // Before making a link, the owner previews what it would show: the same page, secrets masked.
    const [previewPage] = await Promise.all([
      context.waitForEvent('page'),
      panel.getByRole('link', { name: 'Preview what it shows' }).click(),
    ]);
    await previewPage
      .getByText('Preview: what a share link made with these settings shows its readers. This page is not a link.')
      .waitFor();
    await previewPage.getByText('the chiller cycles at 12:10').waitFor();
    await previewPage.getByText('Tool result').first().click();
    await previewPage.locator('.transcript .masked').first().waitFor();
    expect(secretsIn(await previewPage.content())).toEqual([]);
    await previewPage.close();
    expect(await t.sql(`select 1 from trajectory_share_links where session_id = $1`, [sessionId])).toEqual([]);

    await panel.getByLabel('Expires').selectOption({ label: 'in 7 days' });
    await panel.getByRole('button', { name: 'Make a link' }).click();
    const url = await panel.getByLabel('The new link').inputValue();
    expect(url).toMatch(new RegExp(`^${t.url}/shared#ldk_shr_`));
    await panel.getByRole('row').nth(1).waitFor();
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'share-owner-1440', { fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await panel.getByRole('button', { name: 'Make a link' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'share-owner-390', { fullPage: false });
    await page.setViewportSize({ width: 1440, height: 900 });

    // Someone else, in a browser of their own with no account.
    const reader = await launchBrowser();
    try {
      const answers: string[] = [];
      const readerPage = await reader!.context.newPage();
      readerPage.on(
        'response',
        (response) =>
          void response.text().then(
            (body) => answers.push(body),
            () => undefined,
          ),
      );
      const watched = watch(readerPage, t.url);
      await readerPage.setViewportSize({ width: 1440, height: 900 });
      const opened = await readerPage.goto(url);
      expect(opened!.status()).toBe(200);
      expect(opened!.headers()['x-robots-tag']).toBe('noindex, nofollow, noarchive');
      expect(opened!.headers()['content-security-policy']).toContain("img-src 'self' data:;");
      await readerPage.getByRole('heading', { name: 'Calibration drift' }).waitFor();
      await readerPage.getByText('the chiller cycles at 12:10').waitFor();
      await readerPage.getByText('Tool result').first().click();
      await readerPage.locator('.masked').first().waitFor();
      expect(await readerPage.locator('.transcript .masked').count()).toBeGreaterThanOrEqual(Object.keys(PLANTED).length);
      await screenshot(readerPage, 'share-reader-1440');
      expect(secretsIn(await readerPage.content())).toEqual([]);
      expect(secretsIn(answers.join('\n'))).toEqual([]);
      expect(await readerPage.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex');
      // No navigation, no account: nothing of the console's but the page.
      expect(await readerPage.getByRole('navigation', { name: 'Console' }).count()).toBe(0);
      expect(watched.problems).toEqual([]);
      expect(watched.foreign).toEqual([]);
      expect(watched.requests.filter((request) => !/^GET \/(console\/)?assets\//.test(request) && request !== 'POST /graphql')).toEqual([]);
      expect(await seriousViolations(readerPage)).toEqual([]);
      await readerPage.setViewportSize({ width: 390, height: 844 });
      await screenshot(readerPage, 'share-reader-390');
      const overflow = await readerPage.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document
          .documentElement;
        return root.scrollWidth - root.clientWidth;
      });
      expect(overflow).toBeLessThanOrEqual(0); // nothing wider than the phone: the page never scrolls sideways

      // The owner revokes it; the reader's next visit finds it gone.
      await page.reload();
      const row = page.getByRole('region', { name: 'Share outside the lab' }).getByRole('row').nth(1);
      expect((await row.getByRole('cell').nth(3).textContent())?.trim()).toBe('1'); // the reader's one visit
      await row.getByRole('button', { name: /^Revoke the link made/ }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke link' }).click();
      await row.getByText('revoked').waitFor();
      await readerPage.reload();
      await readerPage.getByRole('heading', { name: 'This link does not open' }).waitFor();
      expect(secretsIn(await readerPage.content())).toEqual([]);
      await screenshot(readerPage, 'share-reader-revoked-390');
    } finally {
      await reader?.close();
    }
  },
);

inBrowser('a link with its figures shows them to its reader; one without says where they were', async (context) => {
  const plotted = newSessionId('shared-figures');
  const records = [
    { uuid: 'p1', parentUuid: null, type: 'user', message: { role: 'user', content: 'Plot the calibration residuals.' } },
    {
      uuid: 'p2',
      parentUuid: 'p1',
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Residuals by hour: flat until noon.' },
          { type: 'image', path: 'plots/residuals.png' },
        ],
      },
    },
  ];
  expect((await trajectoryCalls(t).append(owner, plotted, null, records, { title: 'Residuals' })).status).toBe(200);
  await uploadFigure(t, owner, plotted, 'plots/residuals.png');
  const shown = (page: Page) =>
    page
      .getByRole('img', { name: 'Figure plots/residuals.png' })
      .evaluate((image) => (image as unknown as { complete: boolean; naturalWidth: number }).naturalWidth);

  const page = await ownerSignedIn(context);
  await page.goto(`${t.url}/trajectories/${encodeURIComponent(plotted)}`);
  const panel = page.getByRole('region', { name: 'Share outside the lab' });
  await panel.getByRole('button', { name: 'Make a link' }).click();
  const without = await panel.getByLabel('The new link').inputValue();
  await panel.getByLabel('Include its figures').check();
  // The preview shows the figure the link will.
  const [previewPage] = await Promise.all([
    context.waitForEvent('page'),
    panel.getByRole('link', { name: 'Preview what it shows' }).click(),
  ]);
  await previewPage.getByText('Figures are shown as they are.').waitFor();
  await expect(shown(previewPage)).resolves.toBe(1);
  await previewPage.close();
  await panel.getByRole('button', { name: 'Make a link' }).click();
  await panel.getByText('with figures').waitFor();
  const withFigures = await panel.getByLabel('The new link').inputValue();
  expect(withFigures).not.toBe(without);

  const reader = await launchBrowser();
  try {
    const readerPage = await reader!.context.newPage();
    const watched = watch(readerPage, t.url);
    await readerPage.setViewportSize({ width: 390, height: 844 });
    await readerPage.goto(withFigures);
    await readerPage.getByText('Residuals by hour').waitFor();
    await expect(shown(readerPage)).resolves.toBe(1); // a real 1×1 PNG, loaded under the page's policy
    await screenshot(readerPage, 'share-reader-figures-390');
    expect(watched.problems).toEqual([]);
    expect(watched.foreign).toEqual([]);
    expect(await seriousViolations(readerPage)).toEqual([]);

    // The other link pasted into the same tab: only what follows `#` changes, and that link opens.
    await readerPage.goto(without);
    await readerPage.getByText('Figure plots/residuals.png: not included in this link.').waitFor();
    await readerPage.getByText('Figures are not included.').waitFor();
    expect(await readerPage.getByRole('img').count()).toBe(0);
  } finally {
    await reader?.close();
  }
});

inBrowser('from a fork, “Compare with it” opens the comparison where the two part, side by side and on a phone', async (context) => {
  const calls = trajectoryCalls(t);
  const parent = newSessionId('compare-parent');
  const say = (uuid: string, parentUuid: string | null, text: string, type = 'assistant') => ({
    uuid,
    parentUuid,
    type,
    message: { role: type, content: text },
  });
  const records = [
    say('c1', null, 'Fit the absorbance peaks.', 'user'),
    say('c2', 'c1', 'Found 3 peaks at 412, 520 and 610 nm.'),
    say('c3', 'c2', 'Fitting Gaussians with a linear baseline.'),
    say('c4', 'c3', 'The fit does not converge (chi² 14.2).'),
  ];
  expect((await calls.append(owner, parent, null, records, { title: 'Peak fit' })).status).toBe(200);
  const forked = await t.call<{ data: { trajectoryFork: { sessionId: string } } }>('POST', '/graphql', {
    token: owner.token,
    body: {
      query: `mutation($id: ID!, $input: ForkInput!) { trajectoryFork(sessionId: $id, input: $input) { sessionId } }`,
      variables: { id: parent, input: { headUuid: 'c2' } },
    },
  });
  const fork = forked.body.data.trajectoryFork.sessionId;
  expect(
    (
      await calls.append(owner, fork, 'c2', [
        say('d3', 'c2', 'Fitting Voigt profiles with a spline baseline.'),
        say('d4', 'd3', 'Converged: chi² 1.04.'),
      ])
    ).status,
  ).toBe(200);

  const page = await ownerSignedIn(context);
  const watched = watch(page, t.url);
  await page.goto(`${t.url}/trajectories/${encodeURIComponent(fork)}`);
  await page.getByRole('link', { name: 'Compare with it' }).click();
  await page.waitForURL(new RegExp(`/trajectories/${encodeURIComponent(fork).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/compare$`));
  const status = page.getByRole('status').filter({ hasText: 'They part at' });
  await expect(status.textContent()).resolves.toBe(
    'They part at record 3 of Peak fit: 2 shared, 0 changed, 2 only in Peak fit, 2 only in Peak fit (fork).',
  );
  const rows = page.getByRole('list', { name: 'Records side by side' }).getByRole('listitem');
  // The page opens on the last shared record, then the parting.
  await expect(rows.first().textContent()).resolves.toContain('Found 3 peaks');
  await expect(rows.nth(1).textContent()).resolves.toContain('linear baseline');
  await expect(rows.nth(3).textContent()).resolves.toContain('Voigt profiles');
  await screenshot(page, 'compare-1440', { fullPage: false });
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'compare-390');
  const overflow = await page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document
      .documentElement;
    return root.scrollWidth - root.clientWidth;
  });
  expect(overflow).toBeLessThanOrEqual(0);
  expect(watched.problems).toEqual([]);
  await page.close();
});

inBrowser('any two: from a trajectory that is no fork, “Compare with another” lets the reader pick one by title', async (context) => {
  const calls = trajectoryCalls(t);
  const say = (uuid: string, parentUuid: string | null, text: string) => ({
    uuid,
    parentUuid,
    type: 'assistant',
    message: { role: 'assistant', content: text },
  });
  const [monday, tuesday] = [newSessionId('monday'), newSessionId('tuesday')];
  expect((await calls.append(owner, monday, null, [say('m1', null, 'Baseline drift 0.4 %.')], { title: 'Monday run' })).status).toBe(200);
  expect((await calls.append(owner, tuesday, null, [say('t1', null, 'Baseline drift 0.1 %.')], { title: 'Tuesday run' })).status).toBe(200);

  // Someone else's, shared with the lab: offered too.
  const wednesday = newSessionId('wednesday');
  const theirs = [say('w1', null, 'Baseline drift 0.2 %.')];
  expect((await calls.append(lab.owner, wednesday, null, theirs, { lab_id: lab.id, title: 'Wednesday run' })).status).toBe(200);
  expect((await calls.setVisibility(lab.owner, wednesday, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);

  const page = await ownerSignedIn(context);
  const watched = watch(page, t.url);
  await page.goto(`${t.url}/trajectories/${encodeURIComponent(tuesday)}`);
  await page.getByRole('link', { name: 'Compare with another' }).click();
  const picker = page.getByRole('region', { name: 'Compare with' });
  await picker.getByLabel('Title').fill('wednesday');
  await expect(picker.getByRole('link').allTextContents()).resolves.toEqual(['Wednesday run']);
  await picker.getByLabel('Title').fill('monday');
  await expect(picker.getByRole('link').allTextContents()).resolves.toEqual(['Monday run']);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'compare-pick-390', { fullPage: false });
  await picker.getByRole('link', { name: 'Monday run' }).click();
  await page.getByRole('status').filter({ hasText: 'They part at' }).waitFor();
  const rows = page.getByRole('list', { name: 'Records side by side' }).getByRole('listitem');
  await expect(rows.first().textContent()).resolves.toContain('0.4 %');
  await page.setViewportSize({ width: 1440, height: 900 });
  // From a comparison, the other side can be switched: the list loads when opened.
  await page.getByText('Compare with another trajectory').click();
  const others = page.getByRole('region', { name: 'Compare with' }).getByRole('link');
  await others.getByText('Calibration drift').waitFor();
  const listed = await others.allTextContents();
  expect([listed.includes('Monday run'), listed.includes('Tuesday run')]).toEqual([false, false]); // neither side offered again
  await screenshot(page, 'compare-picked-1440', { fullPage: false });
  expect(await seriousViolations(page)).toEqual([]);
  expect(watched.problems).toEqual([]);
  await page.close();
});
