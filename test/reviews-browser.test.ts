import type { BrowserContext, Page } from 'playwright-core';
import { addMember, makeLab, makeUser, useTestApp, type TestLab, type TestUser } from './support/app';
import { screenshot, seriousViolations, useBrowser, watch } from './support/browser';
import { newSessionId, newUuid, trajectoryCalls } from './support/trajectories';

/**
 * The review queue in Chromium (issue 41, 3): a mentor asks for a review on the trajectory's
 * page; a member is offered nothing and refused when they try anyway; the reviewer finds it in
 * the navigation's count and on the Reviews page, takes it, is stopped from asking for changes
 * without saying what, and approves; the requester is told, and the lab page shows the verdict
 * and the turnaround. Screenshots at 1440×900 and 390×844 go to test-output/.
 */
const t = useTestApp();
const inBrowser = useBrowser(240_000);
const PASSWORD = 'a long enough review password';

let lab: TestLab;
let mentor: TestUser;
let reviewer: TestUser;
let member: TestUser;
let author: TestUser;
let sessionId: string;
beforeAll(async () => {
  const labOwner = await makeUser(t, { name: 'Lia Labowner', password: PASSWORD });
  lab = await makeLab(t, { name: 'Kinetics Lab', owner: labOwner });
  author = await makeUser(t, { name: 'Ana Author', password: PASSWORD });
  [mentor, reviewer, member] = await Promise.all(
    ['Mira Mentor', 'Rey Reviewer', 'Mo Member'].map((name) => makeUser(t, { name, password: PASSWORD })),
  );
  await addMember(t, lab, author);
  await addMember(t, lab, mentor, 'mentor');
  await addMember(t, lab, reviewer, 'mentor');
  await addMember(t, lab, member);
  sessionId = newSessionId('review-view');
  const [ask, answer] = [newUuid(), newUuid()];
  const records = [
    { uuid: ask, parentUuid: null, type: 'user', message: { role: 'user', content: 'Fit the first-order decay to the absorbance data.' } },
    {
      uuid: answer,
      parentUuid: ask,
      type: 'assistant',
      message: { role: 'assistant', content: 'k = 0.041 s⁻¹ (R² 0.998), fit from 5 to 120 s.' },
    },
  ];
  const calls = trajectoryCalls(t);
  expect((await calls.append(author, sessionId, null, records, { lab_id: lab.id, title: 'Absorbance decay fit' })).status).toBe(200);
  expect((await calls.setVisibility(author, sessionId, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
});

/** A page signed in as `user` (any earlier session's cookies gone), at 1440×900. */
async function signedIn(context: BrowserContext, user: TestUser): Promise<Page> {
  await context.clearCookies();
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${t.url}/login`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${t.url}/labs`);
  return page;
}

const trajectoryUrl = () => `${t.url}/trajectories/${encodeURIComponent(sessionId)}`;

/** A GraphQL call from the page, with its session, as a person trying the API by hand would. */
const tryFromPage = (page: Page, query: string, variables: Record<string, unknown>) =>
  page.evaluate(
    async ({ query, variables }) => {
      const response = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
    },
    { query, variables },
  );

inBrowser('a mentor asks, the reviewer takes it and approves, the requester is told; others are offered nothing', async (context) => {
  // The mentor asks on the trajectory's page.
  const asking = await signedIn(context, mentor);
  const watched = watch(asking, t.url);
  await asking.goto(trajectoryUrl());
  const panel = asking.getByRole('region', { name: 'Reviews' });
  await panel.getByLabel('Reviewer').selectOption({ label: 'Rey Reviewer (mentor)' });
  // Lia, the lab's owner, may review too, as may Mira herself; Ana, the author, is not offered.
  expect(await panel.getByLabel('Reviewer').locator('option').allTextContents()).toEqual([
    'Lia Labowner (owner)',
    'Mira Mentor (mentor, you)',
    'Rey Reviewer (mentor)',
  ]);
  await panel.getByLabel('What to look at (optional)').fill('Is the fit window justified?');
  await panel.getByRole('button', { name: 'Ask for a review' }).click();
  await panel.getByText('Review requested. The reviewer is told.').waitFor();
  await panel.getByText('Requested', { exact: true }).waitFor();
  // Rey has it open now: not offered again (the server would refuse a second open review).
  await expect(panel.getByLabel('Reviewer').locator('option').allTextContents()).resolves.toEqual([
    'Lia Labowner (owner)',
    'Mira Mentor (mentor, you)',
  ]);
  await screenshot(asking, 'review-request-1440');
  expect(watched.problems).toEqual([]);
  expect(await seriousViolations(asking)).toEqual([]);
  await asking.close();

  // A member reads the trajectory and its review, and is offered no way to act; trying anyway is refused.
  const reading = await signedIn(context, member);
  await reading.goto(trajectoryUrl());
  const readerPanel = reading.getByRole('region', { name: 'Reviews' });
  await readerPanel.getByText('Is the fit window justified?').waitFor();
  expect(await readerPanel.getByRole('button').count()).toBe(0);
  const [{ reviewId }] = await t.sql<{ reviewId: string }>(`select id as "reviewId" from trajectory_reviews where session_id = $1`, [
    sessionId,
  ]);
  const start = `mutation($id: ID!) { trajectoryReviewStart(reviewId: $id) { state } }`;
  expect((await tryFromPage(reading, start, { id: reviewId })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  const ask = `mutation($id: ID!, $input: ReviewRequestInput!) { trajectoryReviewRequest(sessionId: $id, input: $input) { reviewId } }`;
  expect((await tryFromPage(reading, ask, { id: sessionId, input: { reviewerId: reviewer.id } })).errors?.[0]?.extensions?.code).toBe(
    'FORBIDDEN',
  );
  await reading.close();

  // The reviewer sees the count in the navigation, the notice and the queue.
  const reviewing = await signedIn(context, reviewer);
  await reviewing.getByRole('link', { name: /Reviews\s*1/ }).click();
  await reviewing.waitForURL(`${t.url}/reviews`);
  await reviewing.getByText('Mira Mentor asks you to review “Absorbance decay fit”').waitFor();
  const row = reviewing.getByRole('row', { name: /Absorbance decay fit/ });
  await row.getByText('Is the fit window justified?').waitFor();
  await screenshot(reviewing, 'review-queue-1440');
  expect(await seriousViolations(reviewing)).toEqual([]);
  await reviewing.setViewportSize({ width: 390, height: 844 });
  await screenshot(reviewing, 'review-queue-390');
  expect(await reviewing.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
  await reviewing.setViewportSize({ width: 1440, height: 900 });
  await row.getByRole('button', { name: 'Take it: Absorbance decay fit' }).click();
  await reviewing.waitForURL(/\/trajectories\/.*#reviews$/);

  const verdictPanel = reviewing.getByRole('region', { name: 'Reviews' });
  await verdictPanel.getByText('In review', { exact: true }).waitFor();
  // The page opens at the panel, not at the transcript's top.
  await reviewing.waitForFunction(() => {
    const top = (globalThis as any).document.getElementById('reviews')?.getBoundingClientRect().top;
    return top !== undefined && top >= 0 && top < (globalThis as any).innerHeight / 2;
  });
  await verdictPanel.getByRole('button', { name: 'Ask for changes' }).click();
  await verdictPanel.getByText('Say what to change before asking for changes.').waitFor();
  expect(await t.sql(`select state from trajectory_reviews where id = $1`, [reviewId])).toEqual([{ state: 'in_review' }]);
  await verdictPanel
    .getByLabel('Your notes (what to change, or why it is good)')
    .fill('The window from 5 s is right: the lamp settles by then.');
  await reviewing.setViewportSize({ width: 390, height: 844 });
  await verdictPanel.scrollIntoViewIfNeeded();
  await screenshot(reviewing, 'review-verdict-390', { fullPage: false });
  await reviewing.setViewportSize({ width: 1440, height: 900 });
  await verdictPanel.getByRole('button', { name: 'Approve' }).click();
  await verdictPanel.getByText('Approved. The requester is told.').waitFor();
  // The buttons are gone with the state that offered them: focus goes on from what was said, not the page's top.
  await reviewing.waitForFunction(() => (globalThis as any).document.activeElement?.textContent === 'Approved. The requester is told.');
  await verdictPanel.getByText('Approved', { exact: true }).waitFor();
  await verdictPanel.getByText('The window from 5 s is right').waitFor();
  // Done: nothing more to do with it; Rey, a mentor, may still ask someone else for another.
  expect(await verdictPanel.getByRole('button').allTextContents()).toEqual(['Ask for a review']);
  // Acting on it read what Rey was told: the navigation no longer calls.
  await reviewing.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Reviews', exact: true }).waitFor();
  await reviewing.close();

  // The requester is told, and the lab page shows the verdict and the turnaround.
  const told = await signedIn(context, mentor);
  await told.getByRole('link', { name: /Reviews\s*1/ }).click();
  await told.getByText('Rey Reviewer approved “Absorbance decay fit”.').waitFor();
  await told
    .getByRole('row', { name: /Absorbance decay fit.*Rey Reviewer/ })
    .getByText('Approved')
    .waitFor();
  await told.goto(`${t.url}/labs/${lab.id}`);
  await told.getByText(/Turnaround: a first verdict in \d+ min \(median of 1 review, last 90 days\)\./).waitFor();
  await told
    .getByRole('row', { name: /Absorbance decay fit/ })
    .getByText('Approved')
    .waitFor();
  await screenshot(told, 'review-lab-1440');
  await told.setViewportSize({ width: 390, height: 844 });
  await screenshot(told, 'review-lab-390');
  expect(await seriousViolations(told)).toEqual([]);
  await told.close();
});

inBrowser('changes asked for: the author follows the notice to the notes, makes the changes and asks for another look', async (context) => {
  const calls = trajectoryCalls(t);
  const id = newSessionId('review-again');
  const first = newUuid();
  const records = [{ uuid: first, parentUuid: null, type: 'user', message: { role: 'user', content: 'Titrate the sample.' } }];
  expect((await calls.append(author, id, null, records, { lab_id: lab.id, title: 'Titration' })).status).toBe(200);
  expect((await calls.setVisibility(author, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
  const gql = (who: TestUser, query: string, variables: Record<string, unknown>) =>
    t.call<{ data: any }>('POST', '/graphql', { token: who.token, body: { query, variables } });
  const asked = await gql(
    mentor,
    `mutation($id: ID!, $input: ReviewRequestInput!) { trajectoryReviewRequest(sessionId: $id, input: $input) { reviewId } }`,
    {
      id,
      input: { reviewerId: reviewer.id },
    },
  );
  const reviewId = asked.body.data.trajectoryReviewRequest.reviewId as string;
  await gql(
    reviewer,
    `mutation($id: ID!) { trajectoryReviewDecide(reviewId: $id, input: { verdict: changes_requested, note: "Subtract the blank first." }) { state } }`,
    {
      id: reviewId,
    },
  );

  // The author is told (besides the first test's verdict), and the notice opens the trajectory at the reviewer's notes.
  const page = await signedIn(context, author);
  // On a phone the count shows on the folded menu's button.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Menu 2 new' }).click();
  await page.getByRole('link', { name: /Reviews\s*2/ }).click();
  await page.setViewportSize({ width: 1440, height: 900 });
  // Her work's reviews are listed, whether or not she still has the notice.
  await page
    .getByRole('region', { name: 'Of your work' })
    .getByRole('row', { name: /Titration.*Rey Reviewer.*Changes requested/ })
    .waitFor();
  await page.getByRole('link', { name: 'Rey Reviewer asks for changes to “Titration”.' }).click();
  await page.waitForURL(/#reviews$/);
  const panel = page.getByRole('region', { name: 'Reviews' });
  await panel.getByText('Subtract the blank first.').waitFor();
  await expect(panel.getByRole('button').allTextContents()).resolves.toEqual(['Ask for another look']);
  // The changes made, the author asks for another look.
  const more = [{ uuid: newUuid(), parentUuid: first, type: 'user', message: { role: 'user', content: 'Blank subtracted.' } }];
  expect((await calls.append(author, id, first, more)).status).toBe(200);
  await panel.getByRole('button', { name: 'Ask for another look' }).click();
  await panel.getByText('Asked for another look. The reviewer is told.').waitFor();
  await panel.getByText('Requested', { exact: true }).waitFor();
  expect(await panel.getByRole('button').count()).toBe(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await panel.scrollIntoViewIfNeeded();
  await screenshot(page, 'review-again-390', { fullPage: false });
  expect(await seriousViolations(page)).toEqual([]);
  await page.close();

  // Rey reviews for a second lab too: the queue then says which lab each review is for.
  const optics = await makeLab(t, { name: 'Optics Lab' });
  await addMember(t, optics, reviewer, 'mentor');
  const lens = newSessionId('review-optics');
  const lensRecords = [{ uuid: newUuid(), parentUuid: null, type: 'user', message: { role: 'user', content: 'Focus the lens.' } }];
  expect((await calls.append(optics.owner, lens, null, lensRecords, { lab_id: optics.id, title: 'Lens focus' })).status).toBe(200);
  expect((await calls.setVisibility(optics.owner, lens, { visibility: 'lab', lab_id: optics.id })).status).toBe(200);
  await gql(
    optics.owner,
    `mutation($id: ID!, $input: ReviewRequestInput!) { trajectoryReviewRequest(sessionId: $id, input: $input) { reviewId } }`,
    {
      id: lens,
      input: { reviewerId: reviewer.id },
    },
  );

  // The reviewer finds it asked again, ready to take.
  const reviewing = await signedIn(context, reviewer);
  await reviewing.goto(`${t.url}/reviews`);
  await reviewing.getByText('Ana Author asks you to look again at “Titration”: the changes are made.').waitFor();
  const again = reviewing.getByRole('row', { name: /Titration/ });
  await again.getByRole('button', { name: 'Take it: Titration' }).waitFor();
  await again.getByText('by Ana Author · Kinetics Lab').waitFor();
  await reviewing
    .getByRole('row', { name: /Lens focus/ })
    .getByText(/· Optics Lab$/)
    .waitFor();
  await reviewing.close();
});
