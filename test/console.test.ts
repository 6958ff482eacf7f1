import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { makeLab, makeUser, useTestApp, type TestUser } from './support/app';
import { launchBrowser, screenshot, seriousViolations, watch, type Watched } from './support/browser';

/**
 * The web console (issue 25): served at / and its section paths from the package's build, on the
 * GraphQL API only. Checked over HTTP, then driven in headless Chromium with axe-core on each
 * page. Screenshots go to test-output/.
 */

const t = useTestApp();
const PASSWORD = 'a long enough console password';

let browser: Awaited<ReturnType<typeof launchBrowser>>;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** A browser test: skipped (with a line saying so) where there is no Chromium and it is not required. */
function inBrowser(name: string, body: (context: BrowserContext) => Promise<void>) {
  test(
    name,
    async () => {
      if (!browser) return void process.stdout.write(`browser part not run (needs apt-get install chromium): ${name}\n`);
      try {
        await body(browser.context);
      } finally {
        await browser.context.clearCookies();
      }
    },
    120_000,
  );
}

/** A person with a password and a token. */
async function person(name: string, extra: Record<string, unknown> = {}): Promise<TestUser> {
  return makeUser(t, { name, password: PASSWORD, ...extra });
}

/** Signs `user` in at /login and waits for the console. */
async function signIn(context: BrowserContext, user: TestUser): Promise<{ page: Page; watched: Watched }> {
  const page = await context.newPage();
  const watched = watch(page, t.url, ['/login']); // the sign-in page is not the console
  await page.goto(`${t.url}/`);
  await page.waitForURL(`${t.url}/login?next=/`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${t.url}/labs`);
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
  return { page, watched };
}

/** The console talks to the service through GraphQL only: no REST path, nothing elsewhere. */
function expectGraphQLOnly(watched: Watched) {
  const data = watched.requests.filter((request) => !/^GET \/(console\/)?assets\//.test(request));
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
    for (const route of ['/', '/labs', '/labs/lab_x', '/trajectories', '/admin']) {
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

describe('in Chromium', () => {
  inBrowser('a lab owner signs in, sees the navigation, and approves a request to join from the lab page', async (context) => {
    const owner = await person('Olga Owner');
    const lab = await makeLab(t, { owner, name: 'Proteomics Lab', seatQuota: 5 });
    const requester = await person('Rita Requester');
    expect((await t.call('POST', '/api/labs/join', { token: requester.token, body: { code: lab.code } })).status).toBe(200);

    const { page, watched } = await signIn(context, owner);
    const nav = page.getByRole('navigation', { name: 'Console' });
    for (const section of ['Labs', 'Trajectories', 'Compute', 'Releases', 'Agents'])
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

    // A section not built yet says so.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Trajectories' }).click();
    await page.getByText('This part of the console is not built yet.').waitFor();

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
