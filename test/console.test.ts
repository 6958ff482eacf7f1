import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { SendMessageRequest, Task } from '@a2a-js/sdk';
import os from 'node:os';
import { addMember, makeLab, makeUser, startTestApp, useTestApp, type TestApp, type TestUser } from './support/app';
import { createA2aKey, enableA2a, officialClient, rpc, rpcCall, userMessage } from './support/a2a';
import { startFakeLlm } from './support/fake-llm';
import { until } from './support/until';
import { CHROMIUM, CHROMIUM_ARGS, screenshot, seriousViolations, useBrowser, watch, type Watched } from './support/browser';
import { s3Env, startS3 } from './support/s3';
import { newSessionId, sessionPath, trajectoryCalls, uploadFigure } from './support/trajectories';
import { describeUserAgent } from '../web/console/src/user-agent';

/**
 * The web console (issue 25): served at / and its section paths from the package's build, on the
 * GraphQL API only. Checked over HTTP, then driven in headless Chromium with axe-core on each
 * page. Screenshots go to test-output/.
 */

const RELEASE_TOKEN = 'rel_console_token_0123456789abcdefghijkl';
const t = useTestApp({ RELEASE_TOKEN });
const PASSWORD = 'a long enough console password';

/** A browser test: skipped (with a line saying so) where there is no Chromium and it is not required. */
const inBrowser = useBrowser();

/** A person with a password and a token. */
async function person(name: string, extra: Record<string, unknown> = {}, app: TestApp = t): Promise<TestUser> {
  return makeUser(app, { name, password: PASSWORD, ...extra });
}

/** Signs `user` in at /login and waits for the console. */
async function signIn(context: BrowserContext, user: TestUser, app: TestApp = t): Promise<{ page: Page; watched: Watched }> {
  const page = await context.newPage();
  const watched = watch(page, app.url, ['/login']); // the sign-in page is not the console
  await page.goto(`${app.url}/`);
  await page.waitForURL(`${app.url}/login?next=/`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${app.url}/labs`);
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
  return { page, watched };
}

/** The console talks to the service through GraphQL only: no REST path, nothing elsewhere. */
function expectGraphQLOnly(watched: Watched) {
  // Besides GraphQL: the console's own files, and figures from the short-lived URLs GraphQL gave (byte streams).
  const data = watched.requests.filter((request) => !/^GET \/((console\/)?assets|blobs\/sha256)\//.test(request));
  expect(data.length).toBeGreaterThan(0);
  expect(data.filter((request) => request !== 'POST /graphql')).toEqual([]);
  expect(watched.foreign).toEqual([]);
  expect(watched.problems).toEqual([]);
}

describe('over HTTP', () => {
  test('signed out, a console path goes to /login with the way back; signed in, the app with a strict CSP', async () => {
    const signedOut = await fetch(`${t.url}/labs/lab_x?tab=members`, { redirect: 'manual' });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get('location')).toBe('/login?next=/labs/lab_x%3Ftab%3Dmembers');

    const user = await person('Http Reader');
    const login = await t.call('POST', '/api/auth/login', { body: { email: user.email, password: PASSWORD } });
    const cookie = /^(labdesk_session=[^;]*)/.exec(login.headers.get('set-cookie') ?? '')![1];
    for (const route of ['/', '/labs', '/labs/lab_x', '/trajectories', '/admin', '/account']) {
      const page = await fetch(`${t.url}${route}`, { headers: { cookie }, redirect: 'manual' });
      expect({ route, status: page.status }).toEqual({ route, status: 200 });
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self';");
      expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
      expect(page.headers.get('cache-control')).toBe('no-cache');
      const html = await page.text();
      expect(html).toMatch(/<script type="module" crossorigin src="\/console\/assets\/index-[\w-]+\.js"><\/script>/);
      expect(html).not.toMatch(/https?:\/\//);
    }
  });

  test('the built files: hashed, immutable, and the initial JavaScript within 250 kB gzip', async () => {
    const dir = path.resolve(__dirname, '..', 'dist', 'console');
    const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1];
    const reply = await fetch(`${t.url}${script}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(`${t.url}/console/assets/nope.js`)).status).toBe(404);
    expect((await fetch(`${t.url}/console/assets/..%2f..%2fpackage.json`)).status).toBe(404);
  });
});

describe('the records query the console reads trajectories with', () => {
  const gql = (token: string, variables: Record<string, unknown>) =>
    t.call('POST', '/graphql', {
      token,
      body: {
        query:
          'query ($id: ID!, $after: Int, $first: Int) { trajectoryRecords(sessionId: $id, after: $after, first: $first) { hasMore items { seq text } } }',
        variables,
      },
    });

  test('pages in order, each record exactly as sent; another person gets not found; bad bounds are refused', async () => {
    const owner = await person('Paige Pager');
    const id = newSessionId('pages');
    const records = conversation('p', 5); // 10 records
    expect((await trajectoryCalls(t).append(owner, id, null, records)).status).toBe(200);
    const first = await gql(owner.token, { id, first: 4 });
    expect(first.body.data.trajectoryRecords.hasMore).toBe(true);
    expect(first.body.data.trajectoryRecords.items.map((item: { seq: number }) => item.seq)).toEqual([1, 2, 3, 4]);
    expect(first.body.data.trajectoryRecords.items[0].text).toBe(JSON.stringify(records[0]));
    const rest = await gql(owner.token, { id, after: 4, first: 100 });
    expect(rest.body.data.trajectoryRecords).toMatchObject({ hasMore: false });
    expect(rest.body.data.trajectoryRecords.items.map((item: { text: string }) => item.text)).toEqual(
      records.slice(4).map((r) => JSON.stringify(r)),
    );

    const stranger = await person('Stan Stranger');
    const refused = await gql(stranger.token, { id });
    expect(refused.body.errors[0].extensions.code).toBe('NOT_FOUND');
    for (const bad of [{ first: 0 }, { first: 501 }, { after: -1 }]) {
      const reply = await gql(owner.token, { id, ...bad });
      expect(reply.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('the aggregates the console shows', () => {
  const gql = (token: string, query: string, variables: Record<string, unknown> = {}) =>
    t.call('POST', '/graphql', { token, body: { query, variables } });
  const utcDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

  test("a lab's usage per UTC day: one entry per day, zeros included, today last; the owner's only; bad windows refused", async () => {
    const owner = await person('Dora Daily');
    const lab = await makeLab(t, { owner });
    const id = newSessionId('daily');
    expect((await trajectoryCalls(t).append(owner, id, null, conversation('d', 2), { lab_id: lab.id })).status).toBe(200);
    const daily = (token: string, days: number) =>
      gql(token, 'query ($lab: ID!, $days: Int!) { labUsage(labId: $lab) { daily(days: $days) { day tokensIn tokensOut sessions } } }', {
        lab: lab.id,
        days,
      });
    const reply = await daily(owner.token, 3);
    // Past midnight UTC between the append and the read, the figures would sit one day earlier: the sum says so either way.
    expect(reply.body.data.labUsage.daily.map((d: { day: string }) => d.day)).toEqual([utcDay(2), utcDay(1), utcDay(0)]);
    expect(reply.body.data.labUsage.daily.reduce((sum: number, d: { tokensIn: number }) => sum + d.tokensIn, 0)).toBe(200);
    expect(reply.body.data.labUsage.daily[2]).toEqual({ day: utcDay(0), tokensIn: 200, tokensOut: 40, sessions: 1 });
    expect(reply.body.data.labUsage.daily[0]).toEqual({ day: utcDay(2), tokensIn: 0, tokensOut: 0, sessions: 0 });
    expect((await daily(owner.token, 30)).body.data.labUsage.daily).toHaveLength(30);
    for (const bad of [0, 367]) expect((await daily(owner.token, bad)).body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    const stranger = await person('Stu Stranger');
    expect((await daily(stranger.token, 3)).body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  test("a trajectory's token total is every turn's usage, not only the records a page has loaded", async () => {
    const owner = await person('Tom Total');
    const id = newSessionId('total');
    const calls = trajectoryCalls(t);
    expect((await calls.append(owner, id, null, conversation('n', 3))).status).toBe(200);
    expect((await calls.append(owner, id, 'n-a2', conversation('n', 2, 3))).status).toBe(200);
    const tokens = async (token: string) =>
      (await gql(token, 'query ($id: ID!) { trajectoryMeta(sessionId: $id) { tokens { input output } } }', { id })).body;
    expect((await tokens(owner.token)).data.trajectoryMeta.tokens).toEqual({ input: 500, output: 100 });
    const stranger = await person('Sal Stranger');
    expect((await tokens(stranger.token)).errors[0].extensions.code).toBe('NOT_FOUND');
  });

  test("an administrator lists a user's personal access tokens, never their secrets; revoked ones say so; others are refused", async () => {
    const user = await person('Pat Tokens');
    const list = (token: string, userId: string) =>
      gql(token, 'query ($user: ID!) { adminUserTokens(userId: $user) { total items { tokenId label createdAt expiresAt revokedAt } } }', {
        user: userId,
      });
    const mint = (label: string) =>
      gql(
        t.adminToken,
        'mutation ($user: ID!, $label: String!) { adminTokenCreate(userId: $user, input: { label: $label }) { tokenId token } }',
        {
          user: user.id,
          label,
        },
      );
    const first = (await mint('laptop')).body.data.adminTokenCreate;
    const second = (await mint('cluster')).body.data.adminTokenCreate;
    await gql(t.adminToken, 'mutation ($user: ID!, $token: ID!) { adminTokenRevoke(userId: $user, tokenId: $token) }', {
      user: user.id,
      token: first.tokenId,
    });
    const reply = await list(t.adminToken, user.id);
    const listed = reply.body.data.adminUserTokens;
    expect(listed.items.map((item: { tokenId: string }) => item.tokenId)).toEqual(expect.arrayContaining([first.tokenId, second.tokenId]));
    expect(listed.items.find((item: { tokenId: string }) => item.tokenId === first.tokenId)).toMatchObject({
      label: 'laptop',
      revokedAt: expect.any(String),
    });
    expect(listed.items.find((item: { tokenId: string }) => item.tokenId === second.tokenId)).toMatchObject({
      label: 'cluster',
      revokedAt: null,
    });
    expect(reply.text).not.toContain(first.token.slice(-20));
    expect(reply.text).not.toContain(second.token.slice(-20));
    expect((await list(user.token, user.id)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await list(t.adminToken, 'usr_nobody')).body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('in Chromium', () => {
  inBrowser('a lab owner signs in, sees the navigation, and approves a request to join from the lab page', async (context) => {
    const owner = await person('Olga Owner');
    const lab = await makeLab(t, { owner, name: 'Proteomics Lab', seatQuota: 5 });
    const requester = await person('Rita Requester');
    expect((await t.call('POST', '/api/labs/join', { token: requester.token, body: { code: lab.code } })).status).toBe(200);

    const { page, watched } = await signIn(context, owner);
    const nav = page.getByRole('navigation', { name: 'Console' });
    for (const section of ['Labs', 'Trajectories', 'Reviews', 'Compute', 'Releases', 'Agents'])
      await nav.getByRole('link', { name: section }).waitFor();
    expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0); // not an administrator
    await page.locator('#who-name', { hasText: 'Olga Owner' }).waitFor();
    await page.getByRole('link', { name: 'Proteomics Lab' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'console-labs');

    await page.getByRole('link', { name: 'Proteomics Lab' }).click();
    await page.waitForURL(`${t.url}/labs/${lab.id}`);
    await page.getByRole('heading', { name: 'Proteomics Lab' }).waitFor();
    expect(await page.locator('#invitation-code').innerText()).toBe(lab.code);
    await page.getByText('1 used, 4 free (of 5)').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'console-lab');

    // By keyboard.
    await page.getByRole('button', { name: 'Approve Rita Requester' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Approved Rita Requester.').waitFor();
    await page.getByText('2 used, 3 free (of 5)').waitFor();
    await page.getByRole('button', { name: 'Revoke Rita Requester' }).waitFor();
    const members = await t.call('GET', `/api/labs/${lab.id}`, { token: owner.token });
    expect(members.body.members.find((m: { member_user_id: string }) => m.member_user_id === requester.id)).toMatchObject({
      status: 'active',
    });

    // Live: someone asks to join while the owner looks at the page.
    const late = await person('Lou Late');
    expect((await t.call('POST', '/api/labs/join', { token: late.token, body: { code: lab.code } })).status).toBe(200);
    await page.getByRole('button', { name: 'Reject Lou Late' }).click();
    await page
      .getByRole('alertdialog', { name: "Reject Lou Late's request to join Proteomics Lab?" })
      .getByRole('button', { name: 'Reject request' })
      .click();
    await page.getByText('Rejected Lou Late.').waitFor();
    // The owner's usage report: tokens per day over a window, and per member.
    const usage = page.getByRole('region', { name: 'Usage' });
    await usage.getByRole('heading', { name: 'Tokens per day (UTC)' }).waitFor();
    await usage.locator('.recharts-wrapper svg').first().waitFor();
    await usage.getByLabel('Over the last').selectOption('7');
    await usage.getByText('in these 7 days').waitFor();
    await page.waitForURL((url) => url.searchParams.get('days') === '7'); // the window lives in the URL
    // Fresh without a reload (issue 37): the approval made two active members; the rejected
    // requester is on no chart.
    await usage.getByText(/^2 active members\./).waitFor();
    const charts = await usage.locator('.recharts-wrapper').allInnerTexts();
    expect(charts.join(' ')).not.toContain('Lou Late');

    expectGraphQLOnly(watched);
    await page.close();
  });

  inBrowser('an administrator also sees "Admin"; a person in no lab is told what to do; errors are messages', async (context) => {
    const admin = await person('Ada Admin', { is_admin: true });
    const { page, watched } = await signIn(context, admin);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Admin' }).waitFor();
    await page.getByText('You are in no lab yet.').waitFor();
    // A bad invitation code: the API's answer, as a message.
    await page.getByLabel('Invitation code').fill('NOPE-NOPE');
    await page.getByRole('button', { name: 'Ask to join' }).click();
    await page.getByRole('alert').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // A lab that is not the reader's: the API's not-found, not a blank page.
    await page.goto(`${t.url}/labs/lab_doesnotexist`);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toMatch(/not found/i);
    expectGraphQLOnly(watched);
    await page.close();
  });
});

describe('the account page (issue 37, item 9)', () => {
  test('a browser is named from its User-Agent by browser, major version and system, never by the raw string', () => {
    const cases: [string | null, string][] = [
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        'Chrome 131 on macOS',
      ],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox 133 on Windows'],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
        'Edge 131 on Windows',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        'Safari 17 on iOS',
      ],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
        'Safari 18 on macOS',
      ],
      [
        'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
        'Chrome 131 on iPadOS',
      ],
      [
        'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
        'Samsung Internet 26 on Android',
      ],
      [
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
        'Opera 115 on Linux',
      ],
      [
        'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        'Chrome 131 on ChromeOS',
      ],
      [
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
        'Headless Chrome 131 on Linux',
      ],
      ['curl/8.5.0', 'curl 8'],
      ['something else entirely', 'Another browser'],
      [null, 'Another browser'],
    ];
    expect(cases.map(([ua]) => describeUserAgent(ua))).toEqual(cases.map(([, name]) => name));
  });

  /** A second, separate browser (its own cookies) that says it is Firefox on Windows. */
  async function otherBrowser() {
    const other = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    const context = await other.newContext({
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
    });
    return { context, close: () => other.close() };
  }

  /** Opens /account from the person's name in the header. */
  async function openAccount(page: Page, name: string) {
    await page.getByRole('link', { name, exact: true }).click();
    await page.waitForURL(`${t.url}/account`);
    await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
  }

  /** Screenshots at a desktop's and a phone's size; at the phone's, nothing scrolls sideways. */
  async function screenshots(page: Page, name: string) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, `${name}-1440`);
    await page.setViewportSize({ width: 390, height: 844 });
    const sideways = await page.evaluate(() => {
      const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document
        .documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    await screenshot(page, `${name}-390`);
    expect({ name, sideways }).toEqual({ name, sideways: 0 });
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  const myTokens = async (token: string) =>
    (
      await t.call('POST', '/graphql', {
        token,
        body: { query: '{ myTokens { items { tokenId label createdAt expiresAt revokedAt lastUsedAt } } }' },
      })
    ).body.data.myTokens.items as { label: string; createdAt: string; expiresAt: string | null; lastUsedAt: string | null }[];

  inBrowser(
    'a person creates a token from the header link, reads it once, uses it, sees its last use, and revokes it after confirming',
    async (context) => {
      const user = await person('Tia Tokens');
      const { page, watched } = await signIn(context, user);
      await openAccount(page, 'Tia Tokens');
      const profile = page.getByRole('region', { name: 'Profile' });
      await profile.getByText(user.email).waitFor();
      await profile.getByText('Free', { exact: true }).waitFor();
      // makeUser's token for the API is listed already.
      await page.locator('#tokens li').first().waitFor();

      await page.getByRole('button', { name: 'Create token', exact: true }).click();
      await page.getByLabel('Token label').fill('laptop script');
      await page.getByLabel('Expires after').selectOption('1 year');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      const token = (await page.locator('#new-token').innerText()).trim();
      expect(token).toMatch(/^ldk_pat_/);
      await page.getByText('it will not be shown again').waitFor();
      // Copy puts it on the clipboard.
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
      await page.getByRole('button', { name: 'Copy', exact: true }).click();
      await page.getByText('Copied to the clipboard.').waitFor();
      const clipboard = () =>
        (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText();
      expect(await page.evaluate(clipboard)).toBe(token);
      await context.clearPermissions();
      const row = page.locator('#tokens li', { hasText: 'laptop script' });
      expect(await row.locator('.last-used').innerText()).toBe('never');
      await row.getByText('Active').waitFor();
      const [stored] = (await myTokens(user.token)).filter((item) => item.label === 'laptop script');
      expect(Math.round((Date.parse(stored.expiresAt!) - Date.parse(stored.createdAt)) / 86_400_000)).toBe(365);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshots(page, 'console-account-token');

      // The token works as the person, and its use shows once the page is read again; the secret does not.
      const me = await t.call('GET', '/api/me', { token });
      expect({ status: me.status, email: me.body.email }).toEqual({ status: 200, email: user.email });
      await until(
        'the last use recorded',
        async () => (await myTokens(user.token)).find((item) => item.label === 'laptop script')?.lastUsedAt,
      );
      await page.reload();
      await row.locator('.last-used time').waitFor();
      expect(await page.locator('#new-token').count()).toBe(0);
      expect(await page.content()).not.toContain(token);

      // Revoking asks first; Escape keeps the token.
      await page.getByRole('button', { name: 'Revoke laptop script' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Revoke the token laptop script?' });
      await dialog.waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      const focused = () =>
        page.evaluate(() =>
          (
            globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } | null } }
          ).document.activeElement?.getAttribute('aria-label'),
        );
      expect(await focused()).toBe('Revoke laptop script');
      expect((await t.call('GET', '/api/me', { token })).status).toBe(200);
      await page.getByRole('button', { name: 'Revoke laptop script' }).click();
      await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
      await page.getByText('The token laptop script is revoked.').waitFor();
      await row.getByText('Revoked').waitFor();
      expect(await row.getByRole('button').count()).toBe(0);
      expect((await t.call('GET', '/api/me', { token })).status).toBe(401);

      // A token that never expires says so.
      await page.getByRole('button', { name: 'Create token', exact: true }).click();
      await page.getByLabel('Token label').fill('forever');
      await page.getByLabel('Expires after').selectOption('Never');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.locator('#new-token').waitFor();
      const forever = page.locator('#tokens li', { hasText: 'forever' });
      await forever.getByText('Active').waitFor();
      expect(await forever.locator('.card-facts').innerText()).toMatch(/Expires\s+never/);
      expect((await myTokens(user.token)).find((item) => item.label === 'forever')?.expiresAt).toBeNull();
      await screenshots(page, 'console-account-tokens');
      expectGraphQLOnly(watched);
      await page.close();
    },
  );

  inBrowser(
    'a person changes their password, signs out another browser, then all other sessions; the other browser is signed out',
    async (context) => {
      const user = await person('Sol Sessions');
      const { page, watched } = await signIn(context, user);
      const other = await otherBrowser();
      try {
        const elsewhere = await signIn(other.context, user);
        await openAccount(page, 'Sol Sessions');
        const sessions = page.locator('#sessions li');
        await sessions.nth(1).waitFor();
        expect(await sessions.count()).toBe(2);
        await sessions
          .filter({ hasText: 'This browser' })
          .getByText(/^Headless Chrome \d+ on Linux$/)
          .waitFor();
        const firefox = sessions.filter({ hasText: 'Firefox 133 on Windows' });
        await firefox.getByText('127.0.0.1').waitFor();
        expect(await page.locator('#sessions').innerText()).not.toContain('Mozilla/5.0');
        expect(await seriousViolations(page)).toEqual([]);
        await screenshots(page, 'console-account');

        // One browser: asked first, then signed out; its next request finds it signed out.
        await firefox.getByRole('button', { name: /^Sign out Firefox 133 on Windows, signed in / }).click();
        const dialog = page.getByRole('alertdialog', { name: 'Sign out Firefox 133 on Windows?' });
        await dialog.waitFor();
        await page.setViewportSize({ width: 390, height: 844 });
        await screenshot(page, 'console-account-confirm-390');
        await page.setViewportSize({ width: 1280, height: 800 });
        await dialog.getByRole('button', { name: 'Sign out', exact: true }).click();
        await page.getByText('Firefox 133 on Windows is signed out.').waitFor();
        await firefox.waitFor({ state: 'detached' });
        await elsewhere.page.reload();
        await elsewhere.page.waitForURL(/\/login\?next=/);

        // Signed in there again; "Sign out all other sessions" ends it too, this browser stays.
        const again = await signIn(other.context, user);
        await page.reload();
        await sessions.nth(1).waitFor();
        await page.getByRole('button', { name: 'Sign out all other sessions' }).click();
        const all = page.getByRole('alertdialog', { name: 'Sign out all other sessions?' });
        await all.getByText('This browser stays signed in', { exact: false }).waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await all.getByRole('button', { name: 'Sign out others' }).click();
        await page.getByText('Every other browser is signed out.').waitFor();
        await page.getByText('No other browser is signed in as you.').waitFor();
        expect(await sessions.count()).toBe(1);
        await again.page.reload();
        await again.page.waitForURL(/\/login\?next=/);

        // The password: a wrong current one is refused in words; the right one changes it.
        const form = page.getByRole('region', { name: 'Change your password' });
        await form.getByLabel('Current password').fill('not the password at all');
        await form.getByLabel('New password', { exact: true }).fill('a brand new console password');
        await form.getByLabel('Repeat the new password').fill('a brand new console passwort');
        await form.getByRole('button', { name: 'Change password' }).click();
        await form.getByRole('alert').getByText('The two new passwords differ.', { exact: false }).waitFor();
        await form.getByLabel('Repeat the new password').fill('a brand new console password');
        await form.getByRole('button', { name: 'Change password' }).click();
        await form.getByRole('alert').getByText('The current password is wrong.').waitFor();
        await form.getByLabel('Current password').fill(PASSWORD);
        await form.getByRole('button', { name: 'Change password' }).click();
        await form.getByText('Your password is changed.', { exact: false }).waitFor();
        expect(await form.getByLabel('Current password').inputValue()).toBe('');
        const login = (password: string) => t.call('POST', '/api/auth/login', { body: { email: user.email, password } });
        expect((await login(PASSWORD)).status).toBe(401);
        expect((await login('a brand new console password')).status).toBe(200);
        // This browser is still signed in.
        await page.reload();
        await page.locator('#sessions li', { hasText: 'This browser' }).waitFor();
        expectGraphQLOnly(watched);
        await page.close();
      } finally {
        await other.close();
      }
    },
  );
});

/** A conversation in the transcript shape the clients sync: user, assistant with a tool call, the tool's result. */
function conversation(prefix: string, turns: number, from = 0) {
  const records: Record<string, unknown>[] = [];
  for (let i = from; i < from + turns; i++) {
    records.push({
      uuid: `${prefix}-u${i}`,
      type: 'user',
      message: { role: 'user', content: `Question ${i}: count the reads in sample ${i}` },
    });
    records.push({
      uuid: `${prefix}-a${i}`,
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: `Answer ${i}: I will run the counter.` },
          { type: 'tool_use', id: `t${i}`, name: 'bash', input: { command: `wc -l sample${i}.fastq` } },
        ],
        usage: { input_tokens: 100, output_tokens: 20 },
      },
    });
  }
  return records;
}

describe('trajectories in Chromium', () => {
  inBrowser(
    'a trajectory reads as a conversation; a record appended meanwhile appears; a comment, a reply, resolve; fork',
    async (context) => {
      const owner = await person('Tara Tracer');
      const calls = trajectoryCalls(t);
      const id = newSessionId('console');
      const records = conversation('c', 3);
      expect((await calls.append(owner, id, null, records, { title: 'Read counts' })).status).toBe(200);

      const { page, watched } = await signIn(context, owner);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Trajectories' }).click();
      await page.getByRole('link', { name: 'Read counts' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'console-trajectories');
      await page.getByRole('link', { name: 'Read counts' }).click();
      await page.waitForURL(`${t.url}/trajectories/${encodeURIComponent(id)}`);
      await page.getByText('Question 0: count the reads in sample 0').waitFor();
      await page.getByText('Tool call: bash').first().waitFor();
      await page.getByText('300 in, 60 out').waitFor(); // three turns of 100 in and 20 out
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'console-trajectory');

      // Live: a record the client appends shows up without a reload, and counts in the total.
      const more = conversation('c', 1, 3);
      expect((await calls.append(owner, id, 'c-a2', more)).status).toBe(200);
      await page.getByText('Question 3: count the reads in sample 3').waitFor();
      await page.getByText('400 in, 80 out').waitFor();

      // Review: comment on a record, reply, resolve.
      const second = page.getByRole('article', { name: 'Record 2' });
      await second.getByRole('button', { name: 'Comment' }).click();
      await page.getByLabel('Comment on record 2').fill('Which counter is this?');
      await page.getByRole('button', { name: 'Post' }).click();
      await page.getByText('Which counter is this?').waitFor();
      await second.getByRole('button', { name: 'Reply' }).click();
      await page.getByLabel('Reply').fill('wc -l, lines not reads');
      await page.getByRole('button', { name: 'Post' }).click();
      await page.getByText('wc -l, lines not reads').waitFor();
      await second.getByRole('button', { name: 'Resolve' }).click();
      await second.getByText('Resolved').waitFor();
      const notes = await t.call('GET', `/api/trajectories/${encodeURIComponent(id)}/annotations`, { token: owner.token });
      expect(notes.body.items.map((note: { body: string; status: string }) => [note.body, note.status])).toEqual([
        ['Which counter is this?', 'resolved'],
        ['wc -l, lines not reads', expect.any(String)],
      ]);

      // Review aids: the rules find the tool calls that never got a result, each linked to its record.
      await page.getByRole('button', { name: 'Find problems' }).click();
      await page.getByRole('button', { name: 'Go to record 2' }).click();
      await second.waitFor();
      await page.getByRole('region', { name: 'Summary' }).waitFor();

      // Fork from the second record: a new trajectory with the first two records.
      await second.getByRole('button', { name: 'Fork from here' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/trajectories/') && !url.pathname.endsWith(encodeURIComponent(id)));
      await page.getByText('Your run, forked from Read counts at record 2').waitFor();
      await page.getByRole('heading', { name: 'Read counts (fork)' }).waitFor();
      await page.getByRole('article', { name: 'Record 2' }).waitFor();
      expect(await page.getByRole('article', { name: 'Record 3' }).count()).toBe(0);
      await page.getByText('100 in, 20 out').waitFor(); // the tokens of the turns it was seeded with
      expectGraphQLOnly(watched);
      await page.close();
    },
  );

  inBrowser(
    '10,000 records: the first are on screen soon, and the list keeps a bounded number of nodes while scrolling',
    async (context) => {
      const owner = await person('Lena Long');
      const id = newSessionId('long');
      expect((await trajectoryCalls(t).append(owner, id, null, conversation('l', 5000), { title: 'Long run' })).status).toBe(200);
      const { page, watched } = await signIn(context, owner);
      const started = Date.now();
      await page.goto(`${t.url}/trajectories/${encodeURIComponent(id)}`);
      await page.getByText('Question 0: count the reads in sample 0').waitFor();
      process.stdout.write(`console: first records of a 10,000-record trajectory visible in ${Date.now() - started} ms\n`);
      const feed = page.getByRole('feed', { name: 'Records' });
      const rendered = [await feed.getByRole('article').count()];
      // The page scrolls (the list is no box of its own): to a fraction of the way down the list.
      const scrollTo = (fraction: number) =>
        feed.evaluate((element, at) => {
          const box = (element as unknown as { getBoundingClientRect(): { top: number; height: number } }).getBoundingClientRect();
          const view = globalThis as unknown as { scrollY: number; innerHeight: number; scrollTo(x: number, y: number): void };
          view.scrollTo(0, view.scrollY + box.top + (box.height - view.innerHeight) * at);
        }, fraction);
      for (const fraction of [0.25, 0.5]) {
        await scrollTo(fraction);
        await page.waitForTimeout(300);
        rendered.push(await feed.getByRole('article').count());
      }
      // To the end: the list's height settles as the records there are measured.
      const lastRecord = page.getByText('Question 4999: count the reads in sample 4999');
      for (let tries = 0; tries < 20 && !(await lastRecord.isVisible()); tries++) {
        await scrollTo(1);
        await page.waitForTimeout(250);
        rendered.push(await feed.getByRole('article').count());
      }
      await lastRecord.waitFor();
      process.stdout.write(`console: records in the DOM while scrolling: ${rendered.join(', ')}\n`);
      expect(Math.max(...rendered)).toBeLessThanOrEqual(40);
      expectGraphQLOnly(watched);
      await page.close();
    },
  );
});

/** The records with a `timestamp` each, a minute apart from `start`. */
const timed = (records: Record<string, unknown>[], start: number): Record<string, unknown>[] =>
  records.map((record, index) => ({ ...record, timestamp: new Date(start + index * 60_000).toISOString() }));

/** Whether the record is (at least partly) in the window. */
const inView = async (page: Page, name: string) => {
  const article = page.getByRole('article', { name, exact: true });
  if ((await article.count()) === 0) return false; // not drawn: the list draws the records near the window only
  const box = await article.boundingBox();
  const height = page.viewportSize()!.height;
  return box !== null && box.y < height && box.y + box.height > 0;
};

/** Elements that stick out of the window on the right (a page wider than a phone). */
const wider = (page: Page) =>
  page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): Iterable<Element> } }).document;
    const width = (globalThis as unknown as { innerWidth: number }).innerWidth;
    type Element = { getBoundingClientRect(): { right: number; width: number }; tagName: string; className: string };
    return [...doc.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().width > 0 && element.getBoundingClientRect().right > width + 1)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
  });

describe('a transcript to review (issue 37)', () => {
  inBrowser(
    '420 records: one scrollbar, record times, find across pages, ?record= kept on reload, follow-tail and a live header',
    async (context) => {
      const owner = await person('Rhea Reviewer');
      const calls = trajectoryCalls(t);
      const id = newSessionId('review');
      const start = Date.UTC(2026, 10, 20, 9, 30);
      const records = timed(conversation('r', 210), start);
      // "Zebrafish" in three records: in the first page of 200, and in the third (a page boundary apart).
      for (const seq of [3, 397, 405]) (records[seq - 1].message as { content: string }).content = `Question about zebraFISH fin ${seq}`;
      expect((await calls.append(owner, id, null, records, { title: 'Fin regeneration' })).status).toBe(200);

      const { page, watched } = await signIn(context, owner);
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${t.url}/trajectories/${encodeURIComponent(id)}`);
      const record = (seq: number) => page.getByRole('article', { name: `Record ${seq}`, exact: true });
      await record(1).getByText('Question 0: count the reads in sample 0').waitFor();

      // One scrollbar: the page's. The list is as tall as its records, no box that scrolls of its own.
      const feed = page.getByRole('feed', { name: 'Records' });
      const scrolls = await feed.evaluate((element) => {
        const box = element as unknown as { scrollHeight: number; clientHeight: number };
        const root = (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document.documentElement;
        return { inner: box.scrollHeight - box.clientHeight, page: root.scrollHeight };
      });
      expect(scrolls.inner).toBeLessThanOrEqual(1);
      expect(scrolls.page).toBeGreaterThan(420 * 50);
      expect(await feed.getByRole('article').count()).toBeLessThanOrEqual(40); // still virtualised

      // Each record's own time, short in the reader's locale (with the day: not today), in full on hover.
      const firstTime = record(1).locator('time');
      expect(await firstTime.getAttribute('datetime')).toBe(new Date(start).toISOString());
      expect(await firstTime.getAttribute('title')).toMatch(/2026/);
      expect(await firstTime.textContent()).toContain(
        await page.evaluate((at) => new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(at)), start),
      );
      expect(await seriousViolations(page)).toEqual([]);

      // Find: the records holding the text, counted; each marked; Enter, Shift+Enter and the buttons step through them.
      const findField = page.getByRole('searchbox', { name: 'Find in transcript' });
      const counter = page.locator('#transcript-find-count');
      await findField.fill('zebrafish');
      await counter.getByText('1 of 3').waitFor();
      await record(3).locator('mark', { hasText: 'zebraFISH' }).waitFor();
      expect(await record(3).getAttribute('class')).toContain('match-current');
      await findField.press('Enter');
      await counter.getByText('2 of 3').waitFor();
      await record(397).locator('mark', { hasText: 'zebraFISH' }).waitFor(); // loaded from a page not yet read
      await until('Record 397 in view', () => inView(page, 'Record 397'));
      expect(await record(397).getAttribute('class')).toContain('match-current');
      await screenshot(page, 'console-transcript-find-1440', { fullPage: false });
      await findField.press('Shift+Enter');
      await counter.getByText('1 of 3').waitFor();
      await until('Record 3 in view', () => inView(page, 'Record 3'));
      await page.getByRole('button', { name: 'Previous match' }).click();
      await counter.getByText('3 of 3').waitFor();
      await until('Record 405 in view', () => inView(page, 'Record 405'));
      await page.getByRole('button', { name: 'Next match' }).click();
      await counter.getByText('1 of 3').waitFor();
      await findField.fill('no such words');
      await counter.getByText('No matches').waitFor();
      expect(await page.locator('.turn mark').count()).toBe(0);

      // A record's link puts it in the address; opened again (reloaded), the page goes to it and marks it.
      await findField.fill('zebrafish');
      await counter.getByText('1 of 3').waitFor();
      await page.getByRole('button', { name: 'Next match' }).click();
      await until('Record 397 in view', () => inView(page, 'Record 397'));
      await record(397).getByRole('link', { name: /^#397/ }).click();
      await page.waitForURL(`${t.url}/trajectories/${encodeURIComponent(id)}?record=397`);
      await page.reload();
      await record(397).waitFor();
      await until('Record 397 in view', () => inView(page, 'Record 397'));
      expect(await record(397).getAttribute('aria-current')).toBe('true');
      expect(await record(396).getAttribute('aria-current')).toBeNull();

      // Follow-tail: at the transcript's end, appended records are followed.
      const header = async () => ({
        records: await page.locator('.facts dd').nth(1).textContent(),
        updated: await page.locator('[data-fact="updated"] time').getAttribute('datetime'),
        tokens: await page.locator('.facts dd').nth(4).textContent(),
      });
      const before = await header();
      expect(before).toMatchObject({ records: '420', tokens: '21,000 in, 4,200 out' });
      await page.goto(`${t.url}/trajectories/${encodeURIComponent(id)}?record=420`);
      await until('Record 420 in view', () => inView(page, 'Record 420'));
      let head = 'r-a209';
      const appendMore = async (n: number, from: number) => {
        const more = timed(conversation('r', n, from), start + 3_600_000);
        expect((await calls.append(owner, id, head, more)).status).toBe(200);
        head = more[more.length - 1].uuid as string;
      };
      await appendMore(2, 210); // records 421-424
      await record(424).getByText('Answer 211: I will run the counter.').waitFor();
      await until('Record 424 in view', () => inView(page, 'Record 424'));
      expect(await page.getByRole('button', { name: /new record/ }).count()).toBe(0);
      // The header follows too: records, the time of the last update, tokens.
      await page.locator('.facts dd').nth(1).getByText('424').waitFor();
      await page.getByText('21,200 in, 4,240 out').waitFor();
      expect((await header()).updated).not.toBe(before.updated);

      // Elsewhere in the transcript, new records are counted instead, and the count leads to them.
      await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
      await appendMore(1, 212); // records 425-426
      const news = page.getByRole('button', { name: '2 new records' });
      await news.waitFor();
      expect(await inView(page, 'Record 426')).toBe(false);
      await screenshot(page, 'console-transcript-new-records-1440', { fullPage: false });
      await news.click();
      await until('Record 426 in view', () => inView(page, 'Record 426'));
      await until('no new-records button', async () => (await page.getByRole('button', { name: /new record/ }).count()) === 0);

      // A phone: the text wraps, nothing is wider than the screen, the find bar fits.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${t.url}/trajectories/${encodeURIComponent(id)}?record=3`);
      await until('Record 3 in view', () => inView(page, 'Record 3'));
      await findField.fill('zebrafish');
      await counter.getByText('1 of 3').waitFor();
      await page.waitForTimeout(300);
      expect(await wider(page)).toEqual([]);
      expect(await pageWidth(page)).toBe(390);
      const text = (await record(3).getByText('Question about').boundingBox())!;
      expect(text.width).toBeGreaterThan(250);
      expect(text.x + text.width).toBeLessThanOrEqual(390);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'console-transcript-find-390', { fullPage: false });
      expectGraphQLOnly(watched);
      await page.close();
    },
  );

  inBrowser('a short transcript with times, notes and a find, at 1440×900 and 390×844 (screenshots)', async (context) => {
    const owner = await person('Sol Shortrun');
    const id = newSessionId('short');
    const start = Date.UTC(2026, 10, 21, 14, 5);
    expect((await trajectoryCalls(t).append(owner, id, null, timed(conversation('s', 4), start), { title: 'Short run' })).status).toBe(200);
    expect(
      (
        await t.call('POST', `/api/trajectories/${encodeURIComponent(id)}/annotations`, {
          token: owner.token,
          body: { record_uuid: 's-a1', body: 'Lines, not reads: divide by four.' },
        })
      ).status,
    ).toBe(201);
    const { page } = await signIn(context, owner);
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      await page.goto(`${t.url}/trajectories/${encodeURIComponent(id)}?record=4`);
      await page.getByText('Lines, not reads: divide by four.').waitFor();
      await page.getByRole('searchbox', { name: 'Find in transcript' }).fill('sample 1');
      await page.locator('#transcript-find-count').getByText('1 of 1').waitFor();
      await page.waitForTimeout(300);
      expect({ width, wider: await wider(page) }).toEqual({ width, wider: [] });
      // From the top: a whole-page picture shows the find bar where it sits when not scrolled.
      await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
      await page.waitForTimeout(100);
      await screenshot(page, `console-transcript-short-${width}x${height}`);
      if (width === 390) {
        const text = (await page.getByRole('article', { name: 'Record 4' }).getByText('Answer 1').boundingBox())!;
        const notes = (await page.getByRole('complementary', { name: 'Review notes on record 4' }).boundingBox())!;
        expect(notes.y).toBeGreaterThanOrEqual(text.y + text.height);
      }
    }
    await page.close();
  });
});

describe('compute and releases in Chromium', () => {
  inBrowser(
    'a plan is approved from the Compute page; the page says how to start the sandbox, shows it running, and releases it',
    async (context) => {
      const user = await person('Carl Compute', { plan_code: 'pro' });
      const drafted = await t.call('POST', '/api/compute/plans', { token: user.token, body: { goal: 'Align the reads. Call variants.' } });
      expect(drafted.status).toBe(201);
      const { page, watched } = await signIn(context, user);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Compute' }).click();
      await page.getByText('Align the reads. Call variants.').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'console-compute');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('Approved: the lease is open.').waitFor();
      await page.getByText('No plan is waiting.').waitFor();
      const lease = (await t.call('GET', '/api/compute/credits', { token: user.token })).body.leases[0];
      await page.getByRole('meter', { name: `Spent on lease ${lease.lease_id}` }).waitFor();
      // The manual provider: the page says how to start the sandbox, with the claim token shown once.
      const start = page.getByRole('region', { name: 'Start the sandbox' });
      const command = await start.locator('pre.command').innerText();
      expect(command).toMatch(new RegExp(`^LABDESK_CLAIM_TOKEN=ldk_ct_\\S+ labdesk sandbox run --server ${t.url}$`));
      await screenshot(page, 'console-compute-start');
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await pageWidth(page)).toBeLessThanOrEqual(390);
      await screenshot(page, 'console-phone-compute-start');
      await page.setViewportSize({ width: 1440, height: 900 });
      // Run as the command says (its bootstrap): the page, which follows the lease live, shows it running.
      const claimToken = /LABDESK_CLAIM_TOKEN=(\S+)/.exec(command)![1];
      expect((await t.call('POST', '/api/compute/bootstrap', { body: { claim_token: claimToken } })).status).toBe(200);
      await page.getByRole('cell', { name: 'Running', exact: true }).waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: `Release lease ${lease.lease_id}` }).click();
      await page
        .getByRole('alertdialog', { name: `Release lease ${lease.lease_id}?` })
        .getByRole('button', { name: 'Release lease' })
        .click();
      await page.getByText('Released.').waitFor();
      expect((await t.call('GET', `/api/compute/sessions/${lease.lease_id}`, { token: user.token })).body.state).toBe('released');
      expectGraphQLOnly(watched);
      await page.close();
    },
  );

  inBrowser("the Releases page lists each product's files with size and SHA-256; administrators see download counts", async (context) => {
    const bytes = Buffer.from('labdesk core build for the console test');
    const put = await fetch(`${t.url}/admin/api/release/core/files/2.1.0/labdesk-core-linux-x64.tar.gz`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${RELEASE_TOKEN}`, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(put.status).toBe(201);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const published = await t.call('PUT', '/admin/api/release/core/manifest', {
      token: RELEASE_TOKEN,
      body: {
        version: '2.1.0',
        notes: 'Faster alignment.',
        files: [{ filename: 'labdesk-core-linux-x64.tar.gz', size: bytes.length, sha256, platform: 'linux', arch: 'x64' }],
      },
    });
    expect(published.status).toBe(200);
    const admin = await person('Rae Releaser', { is_admin: true });
    const { page, watched } = await signIn(context, admin);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Releases' }).click();
    await page.getByRole('link', { name: 'labdesk-core-linux-x64.tar.gz' }).waitFor();
    await page.getByText(sha256).first().waitFor();
    await page.getByText('No desktop release is published yet.', { exact: false }).waitFor();
    await page.getByRole('heading', { name: 'Downloads by file' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'console-releases');
    expectGraphQLOnly(watched);
    await page.close();
  });
});

/** The page's visible text (what a reader sees), for scans such as "no user id shows". */
const visibleText = (page: Page) => page.locator('body').innerText(); // document.body.innerText

/** Screenshots of the page as it is, at a desktop and at a phone size. */
async function screenshotsAtTwoSizes(page: Page, name: string) {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(100);
    await screenshot(page, `${name}-${width}x${height}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('people and permissions in Chromium (issue 37)', () => {
  inBrowser(
    'a plain member reads a lab trajectory: names not ids, no Comment/Reply/Resolve, forks it; lists and admin show owners by name',
    async (context) => {
      const labOwner = await person('Lou Labowner');
      const lab = await makeLab(t, { owner: labOwner, name: 'Genomics Lab' });
      const [owner, mentor, member] = await Promise.all([person('Tom Owner'), person('Mira Mentor'), person('Pia Plain')]);
      await addMember(t, lab, owner);
      await addMember(t, lab, mentor, 'mentor');
      await addMember(t, lab, member);
      const calls = trajectoryCalls(t);
      const id = newSessionId('names');
      const title = 'RNA-seq DE: treated vs control';
      expect((await calls.append(owner, id, null, conversation('n', 2), { title, lab_id: lab.id })).status).toBe(200);
      expect((await calls.setVisibility(owner, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
      const note = await t.call('POST', '/graphql', {
        token: mentor.token,
        body: {
          query: 'mutation($id: ID!, $input: AnnotationInput!) { trajectoryAnnotate(sessionId: $id, input: $input) { annotationId } }',
          variables: { id, input: { recordUuid: 'n-a0', body: 'Check the size factors before the DE call.' } },
        },
      });
      expect(note.body.errors).toBeUndefined();

      const { page, watched } = await signIn(context, member);
      await page.goto(`${t.url}/trajectories/${encodeURIComponent(id)}`);
      await page.getByRole('heading', { name: title }).waitFor();
      await page.getByText('Tom Owner’s run').waitFor();
      const notes = page.getByRole('complementary', { name: 'Review notes on record 2' });
      await notes.getByText('Check the size factors before the DE call.').waitFor();
      await notes.getByText('Mira Mentor').waitFor();
      // A plain member may not annotate: nothing offers it. They may fork.
      const second = page.getByRole('article', { name: 'Record 2' });
      for (const action of ['Comment', 'Reply', 'Resolve'])
        expect({ action, offered: await page.getByRole('button', { name: action }).count() }).toEqual({ action, offered: 0 });
      await second.getByRole('button', { name: 'Fork from here' }).waitFor();
      expect(await page.locator('select#visibility').count()).toBe(0);
      expect(await visibleText(page)).not.toMatch(/usr_/);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshotsAtTwoSizes(page, 'console-member-trajectory');

      // The fork is theirs, says so, and links its parent at the record it was made at.
      await second.getByRole('button', { name: 'Fork from here' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/trajectories/') && !url.pathname.endsWith(encodeURIComponent(id)));
      await page.getByRole('heading', { name: `${title} (fork)` }).waitFor();
      await page.getByText('Your run, forked from').waitFor();
      await page.getByRole('link', { name: title }).waitFor();
      await page.getByText('(Tom Owner’s) at record 2').waitFor();
      expect(await visibleText(page)).not.toMatch(/usr_/);
      await screenshotsAtTwoSizes(page, 'console-member-fork');

      // The list: an Owner column tells the parent from the fork.
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Trajectories' }).click();
      await page.getByRole('form', { name: 'Filters' }).locator('select').first().selectOption({ label: 'Genomics Lab' });
      const rows = page.getByRole('row');
      await rows
        .filter({ hasText: `${title} (fork)` })
        .getByRole('cell', { name: 'Pia Plain (you)' })
        .waitFor();
      await rows.filter({ hasText: title }).filter({ hasNotText: '(fork)' }).getByRole('cell', { name: 'Tom Owner' }).waitFor();
      await page.getByRole('columnheader', { name: 'Owner' }).waitFor();
      expect(await visibleText(page)).not.toMatch(/usr_/);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshotsAtTwoSizes(page, 'console-member-trajectories');
      expectGraphQLOnly(watched);
      await page.close();

      // Admin Trajectories: owners by name (and email, which an admin may read), never an id.
      await context.clearCookies();
      const admin = await person('Ada Admin', { is_admin: true });
      const signedIn = await signIn(context, admin);
      await signedIn.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Admin' }).click();
      await signedIn.page.getByRole('navigation', { name: 'Admin sections' }).getByRole('button', { name: 'Trajectories' }).click();
      await signedIn.page.getByLabel('Search by title or id').fill('RNA-seq DE');
      await signedIn.page.getByRole('cell', { name: `Tom Owner (${owner.email})` }).waitFor();
      await signedIn.page.getByRole('cell', { name: `Pia Plain (${member.email})` }).waitFor();
      expect(await visibleText(signedIn.page)).not.toMatch(/usr_/);
      expect(await seriousViolations(signedIn.page)).toEqual([]);
      await screenshotsAtTwoSizes(signedIn.page, 'console-admin-trajectories-owners');
      await signedIn.page.close();
    },
  );

  inBrowser('a member sees no "Create key" on Agents: the A2A keys and tasks are for the A2A owner and admins', async (context) => {
    const member = await person('Nora Nokeys');
    const { page } = await signIn(context, member);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Agents' }).click();
    await page.getByText("The A2A endpoint's keys and tasks are for its owner and the administrators.").waitFor();
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    await page.getByRole('heading', { name: 'Outbound agents' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});

describe('admin in Chromium', () => {
  inBrowser(
    'an administrator reads each admin section, finds a user, issues a link and a token, changes a plan, suspends',
    async (context) => {
      const admin = await person('Ada Stats', { is_admin: true });
      const someone = await person('Sam Suspended');
      const { page, watched } = await signIn(context, admin);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Admin' }).click();
      await page.getByText('Active this month').waitFor();
      await page.locator('.recharts-wrapper svg').first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'console-admin');
      const sections = page.getByRole('navigation', { name: 'Admin sections' });
      for (const [section, shows] of [
        ['Labs', 'Search labs'],
        ['Trajectories', 'Search by title or id'],
        ['Storage', 'stored in all'],
        ['Segmentation', 'Users by institution tier'],
      ]) {
        await sections.getByRole('button', { name: section }).click();
        await page.getByText(shows).first().waitFor();
        expect({ section, violations: await seriousViolations(page) }).toEqual({ section, violations: [] });
        await screenshot(page, `console-admin-${section.toLowerCase()}`);
      }

      await sections.getByRole('button', { name: 'Users' }).click();
      await page.getByLabel('Search users').fill(someone.email);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByRole('cell', { name: someone.email }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'console-admin-users');
      await page.getByRole('button', { name: 'Set-password link for Sam Suspended' }).click();
      await page.getByText(/Set-password link for Sam Suspended: .*\/set-password#ldk_pwl_/).waitFor();
      await page.getByLabel('Plan of Sam Suspended').selectOption('pro');
      await page
        .getByRole('alertdialog', { name: 'Move Sam Suspended to the pro plan?' })
        .getByRole('button', { name: 'Move to pro' })
        .click();
      await until(
        'the plan to be pro',
        async () => (await t.call('GET', `/api/admin/users/${someone.id}`, { token: t.adminToken })).body.plan_code === 'pro',
      );
      await page.getByRole('button', { name: 'Suspend Sam Suspended' }).click();
      await page.getByRole('alertdialog', { name: 'Suspend Sam Suspended?' }).getByRole('button', { name: 'Suspend' }).click();
      await page.getByRole('button', { name: 'Restore Sam Suspended' }).waitFor();
      expect((await t.call('GET', '/api/me', { token: someone.token })).status).toBe(401);

      // A new user, then a token for them, shown once.
      const email = `new${Date.now().toString(36)}@example.org`;
      await page.getByLabel("New user's name").fill('Nina New');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByRole('button', { name: 'Create user' }).click();
      await page.getByText('Created Nina New.', { exact: false }).waitFor();
      await page.getByLabel('Search users').fill(email);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByRole('button', { name: 'New token for Nina New' }).click();
      const shown = await page.getByText(/Token for Nina New, shown once: ldk_pat_/).innerText();
      const token = /ldk_pat_\S+/.exec(shown)![0];
      expect((await t.call('GET', '/api/me', { token })).body.email).toBe(email);
      // Her tokens, and revoke the new one.
      await page.getByRole('button', { name: 'Tokens of Nina New' }).click();
      await page.getByRole('heading', { name: 'Tokens of Nina New' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Revoke token console of Nina New' }).click();
      await page
        .getByRole('alertdialog', { name: 'Revoke token console of Nina New?' })
        .getByRole('button', { name: 'Revoke token' })
        .click();
      await page.getByRole('region', { name: 'Tokens of Nina New' }).getByText('revoked').waitFor();
      expect((await t.call('GET', '/api/me', { token })).status).toBe(401);
      expectGraphQLOnly(watched);
      await page.close();
    },
  );
});

/** Screenshots at 1440×900 and 390×844; at 390 nothing is wider than the viewport. */
async function atBothSizes(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForTimeout(100);
  await screenshot(page, `${name}-1440x900`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(100);
  await screenshot(page, `${name}-390x844`);
  expect({ name, width: await pageWidth(page) }).toEqual({ name, width: 390 });
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('asking first, and views in the URL (issue 37, items 4 and 5)', () => {
  const membership = async (labId: string, userId: string) =>
    (
      await t.sql<{ status: string; role: string }>(`select status, role from lab_members where lab_id = $1 and user_id = $2`, [
        labId,
        userId,
      ])
    )[0];

  inBrowser('a lab owner is asked before rejecting a request and before changing a role: Cancel changes nothing', async (context) => {
    const owner = await person('Olive Owner');
    const lab = await makeLab(t, { owner, name: 'Proteomics Lab' });
    const [asker, member] = await Promise.all([person('Reggie Request'), person('Mona Member')]);
    await addMember(t, lab, member);
    expect((await t.call('POST', '/api/labs/join', { token: asker.token, body: { code: lab.code } })).status).toBe(200);
    const { page, watched } = await signIn(context, owner);
    await page.goto(`${t.url}/labs/${lab.id}`);

    // Reject: asked first; Cancel leaves the request waiting, by keyboard too.
    const reject = page.getByRole('button', { name: 'Reject Reggie Request' });
    await reject.focus();
    await page.keyboard.press('Enter');
    let dialog = await confirmation(page, "Reject Reggie Request's request to join Proteomics Lab?");
    expect(await seriousViolations(page)).toEqual([]);
    await atBothSizes(page, 'console-lab-reject-asks');
    await page.keyboard.press('Enter'); // Cancel has the focus
    await dialog.waitFor({ state: 'detached' });
    expect(await membership(lab.id, asker.id)).toMatchObject({ status: 'pending' });
    await reject.click();
    dialog = await confirmation(page, "Reject Reggie Request's request to join Proteomics Lab?");
    await dialog.getByRole('button', { name: 'Reject request' }).click();
    await page.getByText('Rejected Reggie Request.').waitFor();
    await until('the request to be rejected', async () => (await membership(lab.id, asker.id)).status === 'rejected');

    // A role through its select: asked first; Cancel puts the select back.
    const role = page.getByLabel('Role of Mona Member');
    await role.selectOption('mentor');
    dialog = await confirmation(page, 'Make Mona Member a mentor of Proteomics Lab?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The dialog leaves first; the select is rendered back in a task after it.
    await until('the role select back to member', async () => (await role.inputValue()) === 'member');
    expect(await membership(lab.id, member.id)).toMatchObject({ role: 'member' });
    await role.selectOption('mentor');
    await (await confirmation(page, 'Make Mona Member a mentor of Proteomics Lab?')).getByRole('button', { name: 'Make mentor' }).click();
    await page.getByText('Changed the role of Mona Member.').waitFor();
    await until('the role to be mentor', async () => (await membership(lab.id, member.id)).role === 'mentor');
    expect(await role.inputValue()).toBe('mentor');
    await atBothSizes(page, 'console-lab-after-decisions');
    expectGraphQLOnly(watched);
    await page.close();
  });

  inBrowser("the trajectories list's filters live in the URL: a reload keeps them, Back goes to the filter before", async (context) => {
    const owner = await person('Fiona Filters');
    const lab = await makeLab(t, { owner, name: 'Filter Lab' });
    const calls = trajectoryCalls(t);
    /** A session shared with the lab, synced by the client `kind` (its source). */
    const synced = async (kind: string, title: string) => {
      const id = newSessionId(`filters-${kind}`);
      const appended = await t.call('PUT', sessionPath(id, '/append'), {
        token: owner.token,
        headers: { 'X-Client-Kind': kind },
        body: { base_uuid: null, records: conversation(kind, 1), title, lab_id: lab.id },
      });
      expect(appended.status).toBe(200);
      expect((await calls.setVisibility(owner, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
    };
    await synced('cli', 'Kinase screen (cli)');
    await synced('desktop', 'Kinase screen (desktop)');

    const { page, watched } = await signIn(context, owner);
    await page.goto(`${t.url}/trajectories`);
    const filters = page.getByRole('form', { name: 'Filters' });
    // A select's name takes in its chosen option's text: found by place (Lab, Owner, Source).
    const labSelect = filters.locator('select').nth(0);
    const sourceSelect = filters.locator('select').nth(2);
    await labSelect.selectOption({ label: 'Filter Lab' });
    await page.waitForURL((url) => url.searchParams.get('lab') === lab.id);
    await sourceSelect.selectOption('cli');
    await page.waitForURL((url) => url.searchParams.get('source') === 'cli');
    await filters.getByLabel('Shared with the lab only').check();
    await filters.getByLabel('Title').fill('kinase');
    await page.waitForURL((url) => url.searchParams.get('title') === 'kinase' && url.searchParams.get('shared') === 'true');
    const rows = page.getByRole('row');
    await rows.filter({ hasText: 'Kinase screen (cli)' }).waitFor();
    expect(await rows.filter({ hasText: 'Kinase screen (desktop)' }).count()).toBe(0);

    await page.reload();
    await rows.filter({ hasText: 'Kinase screen (cli)' }).waitFor();
    expect(await rows.filter({ hasText: 'Kinase screen (desktop)' }).count()).toBe(0);
    expect(await labSelect.inputValue()).toBe(lab.id);
    expect(await sourceSelect.inputValue()).toBe('cli');
    expect(await filters.getByLabel('Shared with the lab only').isChecked()).toBe(true);
    expect(await filters.getByLabel('Title').inputValue()).toBe('kinase');
    await atBothSizes(page, 'console-trajectories-filters-in-url');

    // Back: the source filter before it was cli (the title, typed, replaced its entries).
    await page.goBack(); // before "Shared with the lab only"
    await page.goBack(); // before "cli"
    await page.waitForURL((url) => url.searchParams.get('source') === null && url.searchParams.get('lab') === lab.id);
    await rows.filter({ hasText: 'Kinase screen (desktop)' }).waitFor();
    expect(await sourceSelect.inputValue()).toBe('');

    // A search keeps the filters beside it.
    await page.getByLabel('Search', { exact: true }).fill('kinase');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === 'kinase' && url.searchParams.get('lab') === lab.id);
    expectGraphQLOnly(watched);
    await page.close();
  });

  inBrowser(
    "an administrator is asked before a lab's status or a user's plan changes; the admin lists' searches and pages survive a reload",
    async (context) => {
      const admin = await person('Ada Asks', { is_admin: true });
      const someone = await person('Pete Planless');
      const labName = `Status Lab ${Date.now().toString(36)}`;
      const lab = await makeLab(t, { name: labName });
      const { page, watched } = await signIn(context, admin);
      const labStatus = async () => (await t.sql<{ status: string }>(`select status from labs where id = $1`, [lab.id]))[0].status;
      const plan = async () => (await t.sql<{ plan_code: string }>(`select plan_code from users where id = $1`, [someone.id]))[0].plan_code;

      await page.goto(`${t.url}/admin?section=Labs`);
      await page.getByLabel('Search labs').fill('Status Lab');
      await page.waitForURL((url) => url.searchParams.get('q') === 'Status Lab' && url.searchParams.get('section') === 'Labs');
      await page.reload();
      expect(await page.getByLabel('Search labs').inputValue()).toBe('Status Lab');
      const status = page.getByLabel(`Status of ${labName}`);
      await status.selectOption('suspended');
      let dialog = await confirmation(page, `Make ${labName} suspended?`);
      expect(await dialog.innerText()).toContain('lose the lab plan');
      expect(await seriousViolations(page)).toEqual([]);
      await atBothSizes(page, 'console-admin-lab-status-asks');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await until('the status select back to active', async () => (await status.inputValue()) === 'active');
      expect(await labStatus()).toBe('active');
      await status.selectOption('suspended');
      dialog = await confirmation(page, `Make ${labName} suspended?`);
      await dialog.getByRole('button', { name: 'Suspend lab' }).click();
      await until('the lab to be suspended', async () => (await labStatus()) === 'suspended');
      await until('the select to say suspended', async () => (await status.inputValue()) === 'suspended');

      // Users: the search in the URL; the plan asks first.
      await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('button', { name: 'Users' }).click();
      await page.getByLabel('Search users').fill(someone.email);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get('q') === someone.email && url.searchParams.get('section') === 'Users');
      await page.reload();
      await page.getByRole('cell', { name: someone.email }).waitFor();
      expect(await page.getByLabel('Search users').inputValue()).toBe(someone.email);
      const planSelect = page.getByLabel('Plan of Pete Planless');
      await planSelect.selectOption('pro');
      dialog = await confirmation(page, 'Move Pete Planless to the pro plan?');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await until('the plan select back to free', async () => (await planSelect.inputValue()) === 'free');
      expect(await plan()).toBe('free');
      await planSelect.selectOption('pro');
      await (await confirmation(page, 'Move Pete Planless to the pro plan?')).getByRole('button', { name: 'Move to pro' }).click();
      await until('the plan to be pro', async () => (await plan()) === 'pro');

      // The audit log's filter, applied, survives a reload; Back returns to the Users search.
      await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('button', { name: 'Audit log' }).click();
      const auditFilters = page.getByRole('search', { name: 'Audit log filters' });
      await auditFilters.getByLabel('Action').selectOption('user.update');
      await auditFilters.getByLabel('When').selectOption('7');
      await auditFilters.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL((url) => url.searchParams.get('action') === 'user.update' && url.searchParams.get('days') === '7');
      await page
        .getByRole('cell', { name: /Pete Planless/ })
        .first()
        .waitFor();
      await page.reload();
      expect(await auditFilters.getByLabel('Action').inputValue()).toBe('user.update');
      expect(await auditFilters.getByLabel('When').inputValue()).toBe('7');
      await page
        .getByRole('cell', { name: /Pete Planless/ })
        .first()
        .waitFor();
      await atBothSizes(page, 'console-admin-audit-filter-in-url');
      await page.goBack();
      await page.waitForURL((url) => url.searchParams.get('section') === 'Audit log' && !url.searchParams.get('action'));
      await page.goBack();
      await page.waitForURL((url) => url.searchParams.get('section') === 'Users');
      await page.getByRole('cell', { name: someone.email }).waitFor();
      expectGraphQLOnly(watched);
      await page.close();
    },
  );
});

/** The session cookie of `user`, signed in with their password over the API. */
async function sessionCookie(user: TestUser): Promise<string> {
  const login = await t.call('POST', '/api/auth/login', { body: { email: user.email, password: PASSWORD } });
  return /^(labdesk_session=[^;]*)/.exec(login.headers.get('set-cookie') ?? '')![1];
}

/** The text of the element that has the focus. */
const focusedText = (page: Page) =>
  page.evaluate(
    () => (globalThis as unknown as { document: { activeElement: { textContent: string } | null } }).document.activeElement?.textContent,
  );

/** How wide the page is, scrolled sideways to its end: the viewport's width unless something sticks out. */
const pageWidth = (page: Page) =>
  page.evaluate(
    () => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth,
  );

/** The dialog a button of what cannot be undone opens: its question, Cancel focused, nothing done yet. */
async function confirmation(page: Page, question: string | RegExp) {
  const dialog = page.getByRole('alertdialog', { name: question });
  await dialog.waitFor();
  expect(await focusedText(page)).toBe('Cancel');
  return dialog;
}

describe('the console for daily work (issue 37)', () => {
  const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

  test('an unknown path: a browser gets the console with 404; API clients, API prefixes and other methods get the JSON 404', async () => {
    const cookie = await sessionCookie(await person('Nora Nowhere'));
    for (const route of ['/nope', '/labs/x/y/z', '/trajectories/a/b', '/agents/tasks']) {
      const page = await fetch(`${t.url}${route}`, { headers: { cookie, accept: HTML }, redirect: 'manual' });
      expect({ route, status: page.status }).toEqual({ route, status: 404 });
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self';");
      expect(await page.text()).toMatch(/src="\/console\/assets\/index-[\w-]+\.js"/);
    }
    // Signed out, the way back goes through the sign-in page, as for any console page.
    const signedOut = await fetch(`${t.url}/nope`, { headers: { accept: HTML }, redirect: 'manual' });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get('location')).toBe('/login?next=/nope');

    const jsonNotFound = async (route: string, init: RequestInit) => {
      const reply = await fetch(`${t.url}${route}`, { redirect: 'manual', ...init });
      expect({ route, method: init.method ?? 'GET', status: reply.status }).toEqual({ route, method: init.method ?? 'GET', status: 404 });
      expect(reply.headers.get('content-type')).toMatch(/json/);
      return reply.json();
    };
    expect(await jsonNotFound('/nope', { headers: { cookie, accept: 'application/json' } })).toEqual({ detail: 'no such endpoint' });
    expect(await jsonNotFound('/nope', { headers: { cookie } })).toEqual({ detail: 'no such endpoint' });
    expect(await jsonNotFound('/nope', { method: 'POST', headers: { accept: HTML } })).toEqual({ detail: 'no such endpoint' });
    // What the APIs answer there (Apollo's own 400 under /graphql): never the console.
    for (const route of [
      '/api/nope',
      '/graphql/nope',
      '/a2a/nope',
      '/assets/nope.js',
      '/console/assets/nope.js',
      '/auth/nope',
      '/blobs/nope',
      '/healthz/nope',
      '/readyz/nope',
      '/metrics/nope',
      '/openapi.json/nope',
      '/.well-known/nope',
      '/admin/api/nope',
    ]) {
      const reply = await fetch(`${t.url}${route}`, { headers: { cookie, accept: HTML }, redirect: 'manual' });
      expect({ route, status: reply.status, type: reply.headers.get('content-type') }).toEqual({
        route,
        status: route.startsWith('/graphql') ? 400 : 404,
        type: expect.stringMatching(/json/),
      });
    }
  });

  inBrowser(
    'an unknown console URL says "Not found" inside the layout; /admin for a non-administrator says "Access denied"',
    async (context) => {
      const { page, watched } = await signIn(context, await person('Nick Notadmin'));
      for (const route of ['/nope', '/labs/x/y/z']) {
        const reply = await page.goto(`${t.url}${route}`);
        expect({ route, status: reply!.status() }).toEqual({ route, status: 404 });
        await page.getByRole('heading', { name: 'Not found' }).waitFor();
        await page
          .getByText(/not found/i)
          .first()
          .waitFor();
        await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Labs' }).waitFor();
      }
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'console-not-found');
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Labs' }).click();
      await page.getByRole('heading', { name: 'Labs' }).waitFor();

      await page.goto(`${t.url}/admin`);
      await page.getByRole('heading', { name: 'Access denied' }).waitFor();
      await page.getByText('for administrators', { exact: false }).waitFor();
      await page.waitForTimeout(500);
      expect(
        await page
          .getByRole('status')
          .filter({ hasText: /Loading/ })
          .count(),
      ).toBe(0);
      expect(await page.getByText(/Loading/).count()).toBe(0);
      expect(await page.getByRole('navigation', { name: 'Admin sections' }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'console-access-denied');
      expectGraphQLOnly(watched);
      await page.close();
    },
  );

  inBrowser("every row leads somewhere: a lab's latest sessions, the admin's trajectories and labs open their pages", async (context) => {
    const admin = await person('Rowan Rows', { is_admin: true });
    const lab = await makeLab(t, { owner: admin, name: 'Rows Lab' });
    const id = newSessionId('rows');
    const calls = trajectoryCalls(t);
    expect((await calls.append(admin, id, null, conversation('r', 1), { title: 'Row run' })).status).toBe(200);
    expect((await calls.setVisibility(admin, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
    const { page, watched } = await signIn(context, admin);

    await page.goto(`${t.url}/labs/${lab.id}`);
    await page.getByRole('region', { name: 'Latest sessions' }).getByRole('link', { name: 'Row run' }).click();
    await page.waitForURL(`${t.url}/trajectories/${encodeURIComponent(id)}`);
    await page.getByRole('heading', { name: 'Row run' }).waitFor();

    await page.goto(`${t.url}/admin`);
    const sections = page.getByRole('navigation', { name: 'Admin sections' });
    await sections.getByRole('button', { name: 'Trajectories' }).click();
    await page.getByLabel('Search by title or id').fill('Row run');
    await page.getByRole('region', { name: 'Trajectories' }).getByRole('link', { name: 'Row run' }).click();
    await page.waitForURL(`${t.url}/trajectories/${encodeURIComponent(id)}`);
    await page.getByRole('heading', { name: 'Row run' }).waitFor();

    await page.goto(`${t.url}/admin`);
    await sections.getByRole('button', { name: 'Labs' }).click();
    await page.getByLabel('Search labs').fill('Rows Lab');
    await page.getByRole('region', { name: 'Labs' }).getByRole('link', { name: 'Rows Lab' }).click();
    await page.waitForURL(`${t.url}/labs/${lab.id}`);
    await page.getByRole('heading', { name: 'Rows Lab' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expectGraphQLOnly(watched);
    await page.close();
  });

  inBrowser(
    'a session that ends while a comment is written says so; signing in again leads back with the comment kept',
    async (context) => {
      const owner = await person('Dana Draft');
      const id = newSessionId('draft');
      expect((await trajectoryCalls(t).append(owner, id, null, conversation('d', 1), { title: 'Draft run' })).status).toBe(200);
      const { page } = await signIn(context, owner);
      await page.goto(`${t.url}/trajectories/${encodeURIComponent(id)}`);
      const record = page.getByRole('article', { name: 'Record 1' });
      await record.getByRole('button', { name: 'Comment' }).click();
      await page.getByLabel('Comment on record 1').fill('Half a thought about the read counts');
      // The session ends elsewhere (signed out on another device, expired).
      await t.sql(`update user_sessions set revoked_at = now() where user_id = $1`, [owner.id]);
      await page.getByRole('button', { name: 'Post' }).click();
      await page.getByRole('alert').getByText('Your session has ended.').waitFor();
      await screenshot(page, 'console-session-ended');
      await page.getByRole('link', { name: 'Sign in again' }).click();
      await page.waitForURL(`${t.url}/login?next=${encodeURIComponent(`/trajectories/${encodeURIComponent(id)}`)}`);
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${t.url}/trajectories/${encodeURIComponent(id)}`);
      // The comment comes back as it was; posting it drops the kept draft.
      expect(await page.getByLabel('Comment on record 1').inputValue()).toBe('Half a thought about the read counts');
      await page.getByRole('button', { name: 'Post' }).click();
      // Posted (the note, not the text still in the form) and the kept draft dropped, before reloading.
      await page.locator('.note-body', { hasText: 'Half a thought about the read counts' }).waitFor();
      await page.waitForFunction(() =>
        Object.keys((globalThis as any).localStorage as Record<string, string>).every((key) => !key.startsWith('labdesk:draft:')),
      );
      await page.reload();
      await page.getByText('Half a thought about the read counts').waitFor();
      expect(await page.getByLabel('Comment on record 1').count()).toBe(0);
      await page.close();
    },
  );

  inBrowser('"Search" on Trajectories finds words in the titles and records one can read, and leads to the session', async (context) => {
    const owner = await person('Sasha Finder');
    const id = newSessionId('search');
    const records = [
      { uuid: 'find-u0', type: 'user', message: { role: 'user', content: 'Align the axolotl limb samples' } },
      {
        uuid: 'find-a0',
        parentUuid: 'find-u0',
        type: 'assistant',
        message: { role: 'assistant', content: 'Aligned 12 axolotl samples with STAR' },
      },
    ];
    expect((await trajectoryCalls(t).append(owner, id, null, records, { title: 'Limb regeneration' })).status).toBe(200);
    const { page, watched } = await signIn(context, owner);
    await page.goto(`${t.url}/trajectories`);
    await page.getByLabel('Search').fill('axolotl');
    await page.getByLabel('Search').press('Enter');
    const results = page.getByRole('region', { name: 'Matches' });
    await results.getByText('2 matches for “axolotl”').waitFor();
    expect(await results.locator('mark').first().innerText()).toBe('axolotl');
    await screenshot(page, 'console-search');
    // The query is in the URL: the same search opens from a link.
    await page.waitForURL(`${t.url}/trajectories?q=axolotl`);
    await page.goto(`${t.url}/trajectories?q=axolotl`);
    await results.getByText('2 matches for “axolotl”').waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await screenshot(page, 'console-phone-search');
    await page.setViewportSize({ width: 1440, height: 900 });
    await results.getByRole('link', { name: 'Limb regeneration' }).first().click();
    await page.waitForURL(`${t.url}/trajectories/${encodeURIComponent(id)}`);
    await page.goto(`${t.url}/trajectories`);
    await page.getByLabel('Search').fill('zebrafish');
    await page.getByLabel('Search').press('Enter');
    await results.getByText('Nothing matches “zebrafish” in the trajectories you can read.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expectGraphQLOnly(watched);
    await page.close();
  });

  inBrowser('Admin → "Audit log" names who did what to whom, filters by action; one’s own row offers no Suspend', async (context) => {
    const admin = await person('Avery Audit', { is_admin: true });
    const subject = await person('Sol Subject');
    expect((await t.call('PATCH', `/api/admin/users/${subject.id}`, { token: admin.token, body: { plan_code: 'pro' } })).status).toBe(200);
    const { page, watched } = await signIn(context, admin);
    await page.goto(`${t.url}/admin`);
    const sections = page.getByRole('navigation', { name: 'Admin sections' });
    await sections.getByRole('button', { name: 'Users' }).click();
    await page.getByLabel('Search users').fill(admin.email);
    await page.getByRole('button', { name: 'Tokens of Avery Audit' }).waitFor();
    expect(await page.getByRole('button', { name: 'Suspend Avery Audit' }).count()).toBe(0);
    await sections.getByRole('button', { name: 'Audit log' }).click();
    // The section is in the URL: a reload comes back to it.
    await page.waitForURL(`${t.url}/admin?section=Audit+log`);
    await page.reload();
    const log = page.getByRole('region', { name: 'Audit log' });
    await log.waitFor();
    await page.getByLabel('Actor').fill(admin.email);
    await page.getByLabel('Action').selectOption('user.update');
    await page.getByRole('button', { name: 'Show' }).click();
    // The filtered page: the one update, once the answer replaced the unfiltered one.
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } }).document.querySelectorAll(
          'section[aria-labelledby="admin-audit-title"] tbody tr',
        ).length === 1,
    );
    await log.getByRole('cell', { name: `Sol Subject (${subject.email})` }).waitFor();
    expect(await log.getByRole('cell', { name: `Avery Audit (${admin.email})` }).count()).toBe(1);
    expect(await log.getByRole('row').count()).toBe(2); // the header and the one update
    await screenshot(page, 'console-audit-log');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await screenshot(page, 'console-phone-audit-log');
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await seriousViolations(page)).toEqual([]);
    expectGraphQLOnly(watched);
    await page.close();
  });

  inBrowser('what cannot be undone asks first: Cancel and Escape change nothing, confirming does it', async (context) => {
    const admin = await person('Connie Confirm', { is_admin: true, plan_code: 'pro' });
    const lab = await makeLab(t, { owner: admin, name: 'Confirm Lab' });
    const member = await person('Mel Member');
    await addMember(t, lab, member);
    const drafted = await t.call('POST', '/api/compute/plans', { token: admin.token, body: { goal: 'Count the reads.' } });
    expect(drafted.status).toBe(201);
    const approved = await t.call('POST', `/api/compute/plans/${drafted.body.plan_id}/approve`, { token: admin.token });
    expect(approved.status).toBe(201);
    const leaseId = approved.body.lease_id;
    const gql = (query: string, variables: Record<string, unknown> = {}) =>
      t.call('POST', '/graphql', { token: t.adminToken, body: { query, variables } });
    const key = (await gql('mutation { a2aKeyCreate(label: "confirm agent") { key { id } } }')).body.data.a2aKeyCreate.key.id;
    const suspendee = await person('Sue Spender');
    const { page, watched } = await signIn(context, admin);

    // Revoke a member.
    const membership = async () =>
      (await t.call('GET', `/api/labs/${lab.id}`, { token: admin.token })).body.members.find(
        (m: { member_user_id: string }) => m.member_user_id === member.id,
      ).status;
    await page.goto(`${t.url}/labs/${lab.id}`);
    await page.getByRole('button', { name: 'Revoke Mel Member' }).click();
    let dialog = await confirmation(page, "Revoke Mel Member's membership of Confirm Lab?");
    await dialog.getByText('lose access').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'console-confirm-revoke-member');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await membership()).toBe('active');
    await page.getByRole('button', { name: 'Revoke Mel Member' }).click();
    await (await confirmation(page, /^Revoke Mel Member/)).getByRole('button', { name: 'Revoke membership' }).click();
    await page.getByText('Revoked Mel Member.').waitFor();
    expect(await membership()).toBe('revoked');

    // Rotate the invitation code: Escape closes the dialog.
    await page.getByRole('button', { name: 'Rotate' }).click();
    dialog = await confirmation(page, 'Rotate the invitation code of Confirm Lab?');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.locator('#invitation-code').innerText()).toBe(lab.code);
    await page.getByRole('button', { name: 'Rotate' }).click();
    await (await confirmation(page, /^Rotate/)).getByRole('button', { name: 'Rotate code' }).click();
    await page.getByText('Rotated the invitation code.').waitFor();
    expect(await page.locator('#invitation-code').innerText()).not.toBe(lab.code);
    expect((await t.call('POST', '/api/labs/preview', { token: member.token, body: { code: lab.code } })).status).not.toBe(200);

    // Release a lease.
    const leaseState = async () => (await t.call('GET', `/api/compute/sessions/${leaseId}`, { token: admin.token })).body.state;
    await page.goto(`${t.url}/compute`);
    await page.getByRole('button', { name: `Release lease ${leaseId}` }).click();
    dialog = await confirmation(page, `Release lease ${leaseId}?`);
    await dialog.getByText('The sandbox stops and is charged up to now.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await leaseState()).not.toBe('released');
    await page.getByRole('button', { name: `Release lease ${leaseId}` }).click();
    await (await confirmation(page, `Release lease ${leaseId}?`)).getByRole('button', { name: 'Release lease' }).click();
    await page.getByText('Released.').waitFor();
    expect(await leaseState()).toBe('released');

    // Revoke a key of the A2A endpoint.
    const keyRevoked = async () =>
      (await gql('{ a2aKeys { id revokedAt } }')).body.data.a2aKeys.find((k: { id: string }) => k.id === key).revokedAt;
    await page.goto(`${t.url}/agents`);
    await page.getByRole('button', { name: 'Revoke the key of confirm agent' }).click();
    dialog = await confirmation(page, 'Revoke the key of confirm agent?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await keyRevoked()).toBeNull();
    await page.getByRole('button', { name: 'Revoke the key of confirm agent' }).click();
    await (await confirmation(page, 'Revoke the key of confirm agent?')).getByRole('button', { name: 'Revoke key' }).click();
    await until('the key to be revoked', async () => Boolean(await keyRevoked()));

    // Suspend a user, and revoke a token (admin).
    await page.goto(`${t.url}/admin`);
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('button', { name: 'Users' }).click();
    await page.getByLabel('Search users').fill(suspendee.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: 'Suspend Sue Spender' }).click();
    dialog = await confirmation(page, 'Suspend Sue Spender?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await t.call('GET', '/api/me', { token: suspendee.token })).status).toBe(200);
    await page.getByRole('button', { name: 'Suspend Sue Spender' }).click();
    await (await confirmation(page, 'Suspend Sue Spender?')).getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('button', { name: 'Restore Sue Spender' }).waitFor();
    expect((await t.call('GET', '/api/me', { token: suspendee.token })).status).toBe(401);

    const tokenHolder = await person('Tina Token');
    await page.getByLabel('Search users').fill(tokenHolder.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: 'Tokens of Tina Token' }).click();
    await page.getByRole('button', { name: 'Revoke token test of Tina Token' }).click();
    dialog = await confirmation(page, 'Revoke token test of Tina Token?');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await t.call('GET', '/api/me', { token: tokenHolder.token })).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke token test of Tina Token' }).click();
    await (await confirmation(page, 'Revoke token test of Tina Token?')).getByRole('button', { name: 'Revoke token' }).click();
    await page.getByRole('region', { name: 'Tokens of Tina Token' }).getByText('revoked').waitFor();
    expect((await t.call('GET', '/api/me', { token: tokenHolder.token })).status).toBe(401);
    expectGraphQLOnly(watched);
    await page.close();
  });

  inBrowser(
    'every page fits a phone (390×844) with a menu button for the navigation, and still a wide screen (1440×900)',
    async (context) => {
      const admin = await person('Phoebe Phone-Owner With A Long Name', { is_admin: true, plan_code: 'pro' });
      const lab = await makeLab(t, { owner: admin, name: 'Structural Biology and Proteomics Laboratory' });
      await addMember(t, lab, await person('Maximilian Member-Longname'));
      expect(
        (await t.call('POST', '/api/labs/join', { token: (await person('Rita Requester')).token, body: { code: lab.code } })).status,
      ).toBe(200);
      const id = newSessionId('phone');
      const calls = trajectoryCalls(t);
      expect((await calls.append(admin, id, null, conversation('ph', 3), { title: 'Read counts on a phone' })).status).toBe(200);
      expect((await calls.setVisibility(admin, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
      for (const [uuid, body] of [
        ['ph-u0', 'Which counter is this? It should count reads, not lines, so the figure is four times too high.'],
        ['ph-a1', 'Check the tool call below.'],
      ])
        expect(
          (
            await t.call('POST', `/api/trajectories/${encodeURIComponent(id)}/annotations`, {
              token: admin.token,
              body: { record_uuid: uuid, body },
            })
          ).status,
        ).toBe(201);
      const drafted = await t.call('POST', '/api/compute/plans', { token: admin.token, body: { goal: 'Align the reads. Call variants.' } });
      expect((await t.call('POST', `/api/compute/plans/${drafted.body.plan_id}/approve`, { token: admin.token })).status).toBe(201);
      await t.call('POST', '/graphql', {
        token: t.adminToken,
        body: { query: 'mutation { a2aKeyCreate(label: "phone agent") { secret } }' },
      });

      const { page, watched } = await signIn(context, admin);
      const pages: [name: string, path: string, shows: string][] = [
        ['labs', '/labs', 'Create a lab'],
        ['lab', `/labs/${lab.id}`, 'Latest sessions'],
        ['trajectories', '/trajectories', 'Read counts on a phone'],
        ['trajectory', `/trajectories/${encodeURIComponent(id)}`, 'Which counter is this?'],
        ['compute', '/compute', 'Reserved by open leases'],
        ['releases', '/releases', 'Core (CLI and agent runtime)'],
        ['agents', '/agents', 'phone agent'],
        ['admin', '/admin', 'Active this month'],
        ['admin-users', '/admin#Users', 'Create user'],
        ['admin-labs', '/admin#Labs', 'Search labs'],
        ['admin-trajectories', '/admin#Trajectories', 'Search by title or id'],
        ['admin-storage', '/admin#Storage', 'stored in all'],
        ['admin-segmentation', '/admin#Segmentation', 'Users by institution tier'],
      ];
      const open = async (path: string, shows: string) => {
        const [route, section] = path.split('#');
        await page.goto(`${t.url}${route}`);
        if (section) {
          await page.getByText('Active this month').waitFor();
          await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('button', { name: section }).click();
        }
        await page
          .getByText(shows)
          .first()
          .waitFor({ timeout: 10_000 })
          .catch(async (error: Error) => {
            await screenshot(page, `console-failed-${path.replace(/\W+/g, '-')}`);
            throw error;
          });
        await page.waitForTimeout(300); // charts and lazy parts settle
      };
      const scrollWidth = () => pageWidth(page);

      await page.setViewportSize({ width: 390, height: 844 });
      for (const [name, path, shows] of pages) {
        await open(path, shows);
        await screenshot(page, `console-phone-${name}`);
        expect({ name, scrollWidth: await scrollWidth() }).toEqual({ name, scrollWidth: 390 });
        const menu = page.getByRole('button', { name: 'Menu' });
        expect(await menu.getAttribute('aria-expanded')).toBe('false');
        const nav = page.getByRole('navigation', { name: 'Console' });
        expect(await nav.isVisible()).toBe(false);
        await menu.click();
        expect(await menu.getAttribute('aria-expanded')).toBe('true');
        await nav.getByRole('link', { name: 'Trajectories' }).waitFor();
        await page.getByRole('button', { name: 'Sign out' }).waitFor();
        expect(await page.getByRole('button', { name: 'Sign out' }).boundingBox()).toMatchObject({ x: expect.any(Number) });
        const signOut = (await page.getByRole('button', { name: 'Sign out' }).boundingBox())!;
        expect(signOut.x + signOut.width).toBeLessThanOrEqual(390);
        expect({ name, scrollWidth: await scrollWidth() }).toEqual({ name, scrollWidth: 390 });
        if (name === 'labs' || name === 'trajectory' || name === 'admin-users') {
          expect({ name, violations: await seriousViolations(page) }).toEqual({ name, violations: [] });
          await screenshot(page, `console-phone-${name}-menu`);
        }
        // By keyboard: Escape closes it and gives the focus back to the button; Enter opens it again.
        await page.keyboard.press('Escape');
        expect(await menu.getAttribute('aria-expanded')).toBe('false');
        expect(await focusedText(page)).toBe('Menu');
        await page.keyboard.press('Enter');
        expect(await menu.getAttribute('aria-expanded')).toBe('true');
        await page.keyboard.press('Enter');
        expect(await menu.getAttribute('aria-expanded')).toBe('false');
        if (name === 'admin-users') {
          // Stacked, a table is still a table to assistive technology: rows, cells, and their headings.
          expect(await page.getByRole('table').count()).toBe(1);
          expect(await page.getByRole('columnheader', { name: 'Email' }).count()).toBe(1);
          expect(await page.getByRole('cell', { name: admin.email }).count()).toBe(1);
        }
        if (name === 'trajectory') {
          // The record's text has the width of the screen, its notes below it.
          const text = (await page.getByText('Question 0: count the reads in sample 0').boundingBox())!;
          expect(text.width).toBeGreaterThan(250);
          const notes = (await page.getByRole('complementary', { name: 'Review notes on record 1' }).boundingBox())!;
          expect(notes.y).toBeGreaterThanOrEqual(text.y + text.height);
          expect(notes.width).toBeGreaterThan(250);
          expect(notes.x + notes.width).toBeLessThanOrEqual(390);
        }
      }
      // A link in the menu goes there, and the menu closes.
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Compute' }).click();
      await page.waitForURL(`${t.url}/compute`);
      expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false');

      await page.setViewportSize({ width: 1440, height: 900 });
      for (const [name, path, shows] of pages) {
        await open(path, shows);
        expect({ name, scrollWidth: await scrollWidth() }).toEqual({ name, scrollWidth: 1440 });
        expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
        await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Trajectories' }).waitFor();
        await page.getByRole('button', { name: 'Sign out' }).waitFor();
        await screenshot(page, `console-wide-${name}`);
        if (name === 'trajectory') {
          // Notes beside their record.
          const text = (await page.getByText('Question 0: count the reads in sample 0').boundingBox())!;
          const notes = (await page.getByRole('complementary', { name: 'Review notes on record 1' }).boundingBox())!;
          expect(notes.x).toBeGreaterThan(text.x + text.width);
        }
      }
      expectGraphQLOnly(watched);
      await page.close();
    },
  );
});

describe('untrusted content in Chromium', () => {
  inBrowser(
    'script, javascript: links, SVG with script and <img onerror> in records, notes and file names render as text and never run',
    async (context) => {
      const owner = await person('Xena Xss');
      const id = newSessionId('xss');
      const payloads = [
        '<script>window.__pwned = "script"</script>',
        '<img src=x onerror="window.__pwned = \'img\'">',
        '<a href="javascript:window.__pwned = \'link\'">click me</a>',
        '<svg onload="window.__pwned = \'svg\'"><script>window.__pwned = "svg-script"</script></svg>',
      ];
      const records = payloads.map((text, i) => ({
        uuid: `x${i}`,
        type: i % 2 ? 'assistant' : 'user',
        message: {
          content: [
            { type: 'text', text },
            { type: 'tool_result', content: text, is_error: true },
            // As a figure's file name.
            { type: 'image', path: `${text}.png` },
          ],
        },
      }));
      expect((await trajectoryCalls(t).append(owner, id, null, records, { title: '<img src=x onerror="window.__pwned=1">' })).status).toBe(
        200,
      );
      for (const [i, body] of payloads.entries())
        expect(
          (
            await t.call('POST', `/api/trajectories/${encodeURIComponent(id)}/annotations`, {
              token: owner.token,
              body: { record_uuid: `x${i}`, body },
            })
          ).status,
        ).toBe(201);

      const { page, watched } = await signIn(context, owner);
      await page.goto(`${t.url}/trajectories/${encodeURIComponent(id)}`);
      await page.getByText(payloads[0]).first().waitFor();
      await page.getByText(payloads[3]).first().waitFor();
      await page.getByRole('heading', { name: '<img src=x onerror="window.__pwned=1">' }).waitFor();
      await page.getByText(`Figure ${payloads[1]}.png: not available`).first().waitFor();
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
      // Nothing became markup: no element but our own came from the records (each record's link to itself is ours).
      expect(await page.locator('.transcript script, .transcript img, .transcript svg, .transcript a:not(.record-link)').count()).toBe(0);
      expect(await page.locator('.transcript a.record-link').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(
        expect.arrayContaining([`/trajectories/${encodeURIComponent(id)}?record=1`]),
      );
      await screenshot(page, 'console-untrusted');
      expectGraphQLOnly(watched);
      await page.close();
    },
  );
});

describe('agents in Chromium', () => {
  const workspaceParent = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-console-ws-'));
  // Bubblewrap runs the code as another uid (the tests run as root): it must be able to search the parents.
  fs.chmodSync(workspaceParent, 0o711);
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  let agents: TestApp;
  beforeAll(async () => {
    fake = await startFakeLlm(() => ({ kind: 'answer', text: 'fallback answer', tokensIn: 1, tokensOut: 1 }));
    agents = await startTestApp({
      AGENT_WORKSPACE_DIR: path.join(workspaceParent, 'workspaces'),
      LLM_PROVIDER: 'openai',
      LLM_MODEL: 'gpt-5',
      LLM_API_KEY: 'sk-test',
      LLM_BASE_URL: fake.baseUrl,
      LLM_MAX_RETRIES: '0',
    });
  }, 120_000);
  afterAll(async () => {
    await agents?.close();
    await fake?.close();
    fs.rmSync(workspaceParent, { recursive: true, force: true });
  });

  inBrowser(
    'the A2A owner creates a key, an agent calls with it, its approval is answered "Allow once" from the task page, the key is revoked',
    async (context) => {
      const owner = await person('Otto Owner', { plan_code: 'pro' }, agents);
      await enableA2a(agents, ['--owner', owner.email]);
      const { page, watched } = await signIn(context, owner, agents);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Agents' }).click();
      await page.getByText('No key yet.').waitFor();
      await page.getByLabel('Key label').fill('stats lab agent');
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = (await page.locator('#new-key').innerText()).trim();
      expect(key).toMatch(/^ldk_a2a_/);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'console-agents');

      // An external agent calls with the key; the model wants to run code, which waits for an approval.
      fake.script.push(
        {
          kind: 'tools',
          calls: [{ id: 'call-1', name: 'run_code', input: { language: 'python', code: 'print(6 * 7)' } }],
          tokensIn: 10,
          tokensOut: 5,
        },
        { kind: 'answer', text: 'The result is 42.', tokensIn: 12, tokensOut: 4 },
      );
      const client = await officialClient(agents, key);
      const waiting = Task.toJSON(
        (await client.sendMessage(SendMessageRequest.fromJSON({ message: userMessage('Six times seven?') }))) as Task,
      ) as {
        id: string;
        status: { state: string };
      };
      expect(waiting.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      await page.reload();
      await page.getByRole('link', { name: waiting.id }).click();
      await page.getByRole('heading', { name: 'Approval needed' }).waitFor();
      await page
        .getByText(/run_code \(python\): print\(6 \* 7\)/)
        .first()
        .waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'console-agent-task');
      // On a phone too (issue 37): the approval's buttons wrap, nothing sticks out.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('button', { name: 'Menu' }).waitFor();
      await screenshot(page, 'console-phone-agent-task');
      expect(await pageWidth(page)).toBe(390);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole('button', { name: 'Allow once' }).click();
      // Live: the task moves on to completed without a reload.
      await page.locator('#task-state', { hasText: 'completed' }).waitFor({ timeout: 30_000 });
      await page.getByText('The result is 42.').first().waitFor();

      // A turn that fails says why on its page, as the JSON-RPC answer does.
      fake.script.push({ kind: 'status', status: 500 });
      const failed = Task.toJSON(
        (await client.sendMessage(SendMessageRequest.fromJSON({ message: userMessage('And its square root?') }))) as Task,
      ) as { id: string; status: { state: string; message?: { parts: { text?: string }[] } } };
      expect(failed.status.state).toBe('TASK_STATE_FAILED');
      const reason = failed.status.message!.parts[0].text!;
      await page.goto(`${agents.url}/agents/tasks/${encodeURIComponent(failed.id)}`);
      const why = page.getByRole('region', { name: 'Why it failed' });
      await why.waitFor();
      expect(await why.innerText()).toContain(reason);

      await page.getByRole('link', { name: 'Agents' }).first().click();
      await page.getByRole('button', { name: 'Revoke the key of stats lab agent' }).click();
      await page
        .getByRole('alertdialog', { name: 'Revoke the key of stats lab agent?' })
        .getByRole('button', { name: 'Revoke key' })
        .click();
      await page.getByText(/^revoked/).waitFor();
      const refused = await client
        .sendMessage(SendMessageRequest.fromJSON({ message: userMessage('again?') }))
        .catch((error: Error) => error);
      expect(refused).toBeInstanceOf(Error);
      expectGraphQLOnly(watched);
      await page.close();
    },
  );

  inBrowser('a question about a trajectory is answered by the model as it writes', async (context) => {
    const owner = await person('Quinn Question', { plan_code: 'pro' }, agents);
    const id = newSessionId('ask');
    expect((await trajectoryCalls(agents).append(owner, id, null, conversation('q', 2), { title: 'Ask me' })).status).toBe(200);
    const { page, watched } = await signIn(context, owner, agents);
    await page.goto(`${agents.url}/trajectories/${encodeURIComponent(id)}`);
    await page.getByLabel('Question').fill('How were the reads counted?');
    await page.getByRole('button', { name: 'Ask' }).click();
    // The scripted model answers what nothing scripted with its fallback.
    const panel = page.getByRole('region', { name: 'Ask about this session' });
    await panel.getByText('You: How were the reads counted?').waitFor();
    await panel.getByRole('button', { name: 'Ask' }).and(page.locator(':enabled')).waitFor();
    // A second question is answered after the first, and each answer is filed once.
    await page.getByLabel('Question').fill('And the duplicates?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await panel.getByText('You: And the duplicates?').waitFor();
    await panel.getByRole('button', { name: 'Ask' }).and(page.locator(':enabled')).waitFor();
    expect(await panel.getByText('fallback answer', { exact: true }).count()).toBe(2);
    expect(await panel.locator('.qa').count()).toBe(2);
    expect(fake.seen.some((request) => JSON.stringify(request.body).includes('How were the reads counted?'))).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'console-trajectory-discuss');
    expectGraphQLOnly(watched);
    await page.close();
  });

  test('keys and approvals are for the A2A owner and administrators only', async () => {
    const stranger = await person('Nobody Special', {}, agents);
    for (const query of [
      '{ a2aKeys { id } }',
      'mutation { a2aKeyCreate(label: "x") { secret } }',
      'mutation { a2aApprovalAnswer(taskId: "turn_x", decision: deny) { id } }',
    ]) {
      const reply = await agents.call('POST', '/graphql', { token: stranger.token, body: { query } });
      expect(reply.body.errors[0].extensions.code).toBe('FORBIDDEN');
    }
    const admin = await agents.call('POST', '/graphql', {
      token: agents.adminToken,
      body: { query: 'mutation { a2aKeyCreate(label: "bad label!") { secret } }' },
    });
    expect(admin.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });

  inBrowser(
    "a task's page names its caller by the key's label and times each message; Deny asks first; the tasks filter lives in the URL; Remove agent asks first",
    async (context) => {
      const owner = await person('Tess Taskowner', { plan_code: 'pro' }, agents);
      await enableA2a(agents, ['--owner', owner.email]);
      const key = await createA2aKey(agents, 'genomics pipeline');
      const before = Date.now();
      // Answered by the fake's fallback: a completed task of two messages.
      const done = await rpc(agents, key.plaintext, rpcCall(1, 'SendMessage', { message: userMessage('How many reads?') }));
      expect(done.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      const doneId = done.body.result.task.id as string;
      // The model wants to run code: the task waits for an approval.
      fake.script.push({
        kind: 'tools',
        calls: [{ id: 'call-deny', name: 'run_code', input: { language: 'python', code: 'print(1)' } }],
        tokensIn: 3,
        tokensOut: 2,
      });
      const waiting = await rpc(agents, key.plaintext, rpcCall(2, 'SendMessage', { message: userMessage('Run it?') }));
      expect(waiting.body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      const waitingId = waiting.body.result.task.id as string;
      const after = Date.now();
      const stateOf = async (id: string) =>
        (await agents.sql<{ state: string }>(`select state from a2a_tasks where id = $1`, [id]))[0].state;

      const { page, watched } = await signIn(context, owner, agents);
      await page.goto(`${agents.url}/agents/tasks/${encodeURIComponent(doneId)}`);
      const caller = page.locator('#task-caller');
      await caller.getByText('genomics pipeline').waitFor();
      expect(await caller.innerText()).toContain('Tess Taskowner');
      expect(await visibleText(page)).not.toMatch(/key_|key:/);
      const messages = page.locator('article.turn');
      await messages.nth(1).waitFor();
      expect(await messages.count()).toBe(2);
      expect(await messages.nth(0).locator('header').innerText()).toMatch(/^Caller\s+genomics pipeline\s/);
      for (let n = 0; n < 2; n++) {
        const at = await messages.nth(n).locator('time').getAttribute('datetime');
        expect(at).not.toBeNull();
        expect(Date.parse(at!)).toBeGreaterThanOrEqual(before - 1000);
        expect(Date.parse(at!)).toBeLessThanOrEqual(after + 1000);
      }
      await page.getByText('fallback answer').first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await atBothSizes(page, 'console-agent-task-caller');

      // Deny cancels the task: asked first; Cancel leaves it waiting.
      await page.goto(`${agents.url}/agents/tasks/${encodeURIComponent(waitingId)}`);
      await page.getByRole('heading', { name: 'Approval needed' }).waitFor();
      await page.getByRole('button', { name: 'Deny' }).click();
      let dialog = page.getByRole('alertdialog', { name: 'Deny the calls and cancel the task?' });
      await dialog.waitFor();
      await atBothSizes(page, 'console-agent-task-deny-asks');
      await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await stateOf(waitingId)).toBe('TASK_STATE_INPUT_REQUIRED');
      await page.getByRole('button', { name: 'Deny' }).click();
      await dialog.getByRole('button', { name: 'Deny and cancel' }).click();
      await page.locator('#task-state', { hasText: 'canceled' }).waitFor();
      expect(await stateOf(waitingId)).toBe('TASK_STATE_CANCELED');

      // The tasks list names callers; its state filter lives in the URL.
      await page.getByRole('link', { name: 'Agents' }).first().click();
      const tasks = page.getByRole('region', { name: 'Tasks' });
      await tasks.getByRole('row').filter({ hasText: doneId }).getByRole('cell', { name: 'genomics pipeline' }).waitFor();
      await tasks.getByLabel('State').selectOption('TASK_STATE_CANCELED');
      await page.waitForURL((url) => url.searchParams.get('state') === 'TASK_STATE_CANCELED');
      await page.reload();
      await tasks.getByRole('link', { name: waitingId }).waitFor();
      expect(await tasks.getByRole('link', { name: doneId }).count()).toBe(0);
      expect(await tasks.getByLabel('State').inputValue()).toBe('TASK_STATE_CANCELED');

      // Remove an outbound agent: asked first; Cancel keeps it.
      // Stored as registering it would store it (registering checks the address, which this sandbox cannot resolve).
      await agents.sql(
        `insert into a2a_agents (user_id, id, name, url) values ($1, 'peer-stats', 'Peer Stats', 'https://agent.example.com/')`,
        [owner.id],
      );
      const listed = async () =>
        (
          await agents.sql<{ n: number }>(`select count(*)::int as n from a2a_agents where user_id = $1 and id = 'peer-stats'`, [owner.id])
        )[0].n;
      await page.reload();
      await page.getByRole('button', { name: 'Remove Peer Stats' }).click();
      dialog = page.getByRole('alertdialog', { name: 'Remove the outbound agent Peer Stats?' });
      await dialog.waitFor();
      expect(await focusedText(page)).toBe('Cancel');
      expect(await seriousViolations(page)).toEqual([]);
      await atBothSizes(page, 'console-agents-remove-asks');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await listed()).toBe(1);
      await page.getByRole('button', { name: 'Remove Peer Stats' }).click();
      await dialog.getByRole('button', { name: 'Remove agent' }).click();
      await page.getByRole('button', { name: 'Remove Peer Stats' }).waitFor({ state: 'detached' });
      await until('the agent to be removed', async () => (await listed()) === 0);
      expectGraphQLOnly(watched);
      await page.close();
    },
  );
});

describe('figures in Chromium', () => {
  /** A trajectory of `owner` on `app` whose second record shows the uploaded plots/counts.png (a real 1×1 PNG) and a missing figure. */
  async function trajectoryWithFigure(app: TestApp, owner: TestUser): Promise<string> {
    const id = newSessionId('fig');
    const calls = trajectoryCalls(app);
    expect((await calls.append(owner, id, null, [{ uuid: 'f0', type: 'user', message: { content: 'Plot the counts' } }])).status).toBe(200);
    await uploadFigure(app, owner, id, 'plots/counts.png');
    const figureRecord = {
      uuid: 'f1',
      parentUuid: 'f0',
      type: 'assistant',
      message: {
        content: [
          { type: 'text', text: 'Here is the plot.' },
          { type: 'image', path: 'plots/counts.png' },
          { type: 'image', path: 'plots/missing.png' },
        ],
      },
    };
    expect((await calls.append(owner, id, 'f0', [figureRecord])).status).toBe(200);
    return id;
  }

  /** Opens the trajectory and waits until its figure has loaded (decoded, 1 pixel wide); answers the page's CSP. */
  async function openFigure(page: Page, app: TestApp, id: string): Promise<string> {
    const reply = await page.goto(`${app.url}/trajectories/${encodeURIComponent(id)}`);
    await page.getByRole('img', { name: 'Figure plots/counts.png' }).waitFor();
    await page.waitForFunction(() => {
      const img = (
        globalThis as unknown as { document: { querySelector(s: string): { complete: boolean; naturalWidth: number } | null } }
      ).document.querySelector('.figure img');
      return Boolean(img && img.complete && img.naturalWidth === 1);
    });
    await page.getByText('Figure plots/missing.png: not available').waitFor();
    return reply!.headers()['content-security-policy'];
  }

  inBrowser("a record's figure is shown inline from the short-lived URL GraphQL gives; an unknown one says so", async (context) => {
    const owner = await person('Fay Figure');
    const id = await trajectoryWithFigure(t, owner);
    const { page, watched } = await signIn(context, owner);
    expect(await openFigure(page, t, id)).toContain("img-src 'self' data:;");
    expect(await seriousViolations(page)).toEqual([]);
    expectGraphQLOnly(watched);
    expect(watched.requests.some((request) => request.startsWith('GET /blobs/sha256/'))).toBe(true);
    await page.close();
  });

  inBrowser('with the S3 store, a figure shows inline from the store, which the CSP allows as it does the CDN hosts', async (context) => {
    const s3 = await startS3();
    const app = await startTestApp(s3Env(s3.settings, { FIGURE_CDN_HOSTS: 'cdn.example.org, *.media.example.net' }));
    try {
      const owner = await person('Sue Store', {}, app);
      const id = await trajectoryWithFigure(app, owner);
      const { page, watched } = await signIn(context, owner, app);
      const policy = await openFigure(page, app, id);
      expect(policy).toContain(`img-src 'self' data: ${s3.settings.endpoint} https://cdn.example.org https://*.media.example.net;`);
      // The figure came from the bucket, through a signed URL; nothing else left this origin.
      expect(watched.foreign.length).toBeGreaterThan(0);
      expect(watched.foreign.filter((url) => !url.startsWith(`${s3.settings.endpoint}/${s3.settings.bucket}/sha256/`))).toEqual([]);
      expect(watched.problems).toEqual([]);
      await page.close();
    } finally {
      await app.close();
      await s3.close();
    }
  });

  test('trajectoryFigureUrl: a viewer gets a short-lived URL; anyone else not found; a bad path is refused', async () => {
    const owner = await person('Gus Graph');
    const stranger = await person('Sid Stranger');
    const id = newSessionId('figurl');
    expect((await trajectoryCalls(t).append(owner, id, null, [{ uuid: 'g0', type: 'user' }])).status).toBe(200);
    const ask = (token: string, path: string) =>
      t.call('POST', '/graphql', {
        token,
        body: { query: 'query ($id: ID!, $path: String!) { trajectoryFigureUrl(sessionId: $id, path: $path) }', variables: { id, path } },
      });
    expect((await ask(owner.token, 'nothing/here.png')).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await ask(stranger.token, 'nothing/here.png')).body.errors[0].extensions.code).toBe('NOT_FOUND');
    for (const bad of ['', 'a\u0000b', 'x'.repeat(1025)])
      expect((await ask(owner.token, bad)).body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });
});
