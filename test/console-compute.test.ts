import type { BrowserContext, Page } from 'playwright-core';
import { makeUser, useTestApp, type TestApp, type TestUser } from './support/app';
import { screenshot, seriousViolations, useBrowser, watch, type Watched } from './support/browser';
import { until } from './support/until';

/**
 * The Compute page end to end (issue 37, item 3), in headless Chromium, with both providers: a
 * person approves a plan, the sandbox claims its lease (by hand with `manual`, by the service
 * with `local`), and the page follows the lease live through the lease subscription (no polling):
 * state, meter, balance; leases that end move to Past leases with why they ended. The meter runs
 * every second here. Screenshots go to test-output/.
 */

const PASSWORD = 'a long enough compute password';
const FAST = { METER_INTERVAL_SECONDS: '1', SANDBOX_HEARTBEAT_SECONDS: '1' };

const inBrowser = useBrowser();

async function signIn(context: BrowserContext, t: TestApp, user: TestUser): Promise<{ page: Page; watched: Watched }> {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  const watched = watch(page, t.url, ['/login']);
  await page.goto(`${t.url}/`);
  await page.waitForURL(`${t.url}/login?next=/`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${t.url}/labs`);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Compute' }).click();
  await page.getByRole('heading', { name: 'Compute', level: 1 }).waitFor();
  return { page, watched };
}

const pageWidth = (page: Page) =>
  page.evaluate(
    () => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth,
  );
const clipboard = (page: Page) =>
  page.evaluate(() =>
    (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
  );

/** Both widths: the page fits a phone without sideways scrolling, and axe finds nothing serious. */
async function shoot(page: Page, name: string) {
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, `console-${name}`);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await pageWidth(page)).toBeLessThanOrEqual(390);
  await screenshot(page, `console-phone-${name}`);
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** A credits figure as the page writes it (the browser's locale is en-US here). */
const figureOf = (text: string) => Number(/([\d,]+\.\d{4})/.exec(text)![1].replace(/,/g, ''));

describe('manual provider', () => {
  // Idle clocks far longer than the clock jump that takes a lease to its ceiling here.
  const t = useTestApp({ COMPUTE_PROVIDER: 'manual', ...FAST, LEASE_IDLE_MINUTES: '240' });

  inBrowser(
    'decline asks first; approve shows the claim token once with the command; the claim turns the lease running and its meter moves live; an unclaimed lease expires into Past leases with why; release asks first',
    async (context) => {
      const user = await makeUser(t, { name: 'Mia Manual', password: PASSWORD });
      const call = (method: string, path: string, body?: unknown) => t.call(method, path, { token: user.token, body });
      // Ten leases that ended before: Past leases is a list of pages.
      for (let i = 0; i < 10; i++) {
        const lease = await call('POST', '/api/compute/sessions', {});
        expect((await call('DELETE', `/api/compute/sessions/${lease.body.lease_id}`)).status).toBe(200);
      }
      const declined = await call('POST', '/api/compute/plans', { goal: 'Sort the samples. Count them.' });
      expect(declined.status).toBe(201);

      const { page, watched } = await signIn(context, t, user);
      await page.getByText('Sort the samples. Count them.').waitFor();
      // One credits format: the balance and every figure beside it carry four decimals.
      const facts = await page.locator('dl.facts').innerText();
      expect(facts.match(/[\d,]+(\.\d+)? credits/g)!.every((figure) => /\.\d{4} credits$/.test(figure))).toBe(true);

      // Decline asks first; Cancel changes nothing.
      await page.getByRole('button', { name: 'Decline' }).click();
      const question = page.getByRole('alertdialog', { name: 'Decline this plan?' });
      await question.getByText('Drafting it cost').waitFor();
      await question.getByRole('button', { name: 'Cancel' }).click();
      expect((await call('GET', '/api/compute/plans/current')).body.status).toBe('awaiting_decision');
      await page.getByRole('button', { name: 'Decline' }).click();
      await page.getByRole('alertdialog', { name: 'Decline this plan?' }).getByRole('button', { name: 'Decline plan' }).click();
      await page.getByText('Declined.').waitFor();
      expect((await call('GET', '/api/compute/plans/current')).status).toBe(204);

      // A new plan, approved in the page.
      expect((await call('POST', '/api/compute/plans', { goal: 'Align the reads. Call variants.' })).status).toBe(201);
      await page.reload();
      await page.getByText('Align the reads. Call variants.').waitFor();
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('Approved: the lease is open.').waitFor();
      const [lease] = (await call('GET', '/api/compute/credits')).body.leases;
      expect(lease.state).toBe('awaiting_sandbox');
      const row = page.getByRole('row').filter({ hasText: `#${lease.lease_id},` });
      await row.getByRole('cell', { name: 'Waiting for its sandbox' }).waitFor();

      // The claim token, once, in the exact command, with copy buttons.
      const start = page.getByRole('region', { name: 'Start the sandbox' });
      const command = await start.locator('pre.command').innerText();
      expect(command).toMatch(new RegExp(`^LABDESK_CLAIM_TOKEN=ldk_ct_\\S+ labdesk sandbox run --server ${t.url}$`));
      const claimToken = /LABDESK_CLAIM_TOKEN=(\S+)/.exec(command)![1];
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
      await start.getByRole('button', { name: 'Copy command' }).click();
      await start.getByRole('button', { name: 'Copied' }).waitFor();
      expect(await clipboard(page)).toBe(command);
      await start.getByRole('button', { name: 'Copy claim token only' }).click();
      await until('the token on the clipboard', async () => (await clipboard(page)) === claimToken);
      await start.getByText('(15 minutes)', { exact: false }).waitFor();
      await shoot(page, 'compute-claim');

      // Every disabled button says why: Top up without an amount, and with more than is free.
      const topUp = row.getByRole('button', { name: 'Top up' });
      expect(await topUp.isDisabled()).toBe(true);
      const reasonOf = async () => {
        const id = await topUp.getAttribute('aria-describedby');
        return id ? page.locator(`[id="${id}"]`).innerText() : null;
      };
      expect(await reasonOf()).toBe('Enter the credits to add first.');
      await row.getByLabel(`Credits to add to lease ${lease.lease_id}`).fill('5000');
      expect(await topUp.isDisabled()).toBe(true);
      expect(await reasonOf()).toMatch(/^You have [\d,]+\.\d{4} credits free, less than the 5,000\.0000 credits to add\.$/);
      expect(await topUp.getAttribute('title')).toBe(await reasonOf());
      await row.getByLabel(`Credits to add to lease ${lease.lease_id}`).fill('1');
      expect(await topUp.isDisabled()).toBe(false);
      expect(await topUp.getAttribute('aria-describedby')).toBeNull();
      await topUp.click();
      await page.getByText('Topped up.').waitFor();
      await row.getByText(`of ${(lease.ceiling_credits + 1).toFixed(4)} credits`).waitFor();

      // The sandbox claims the lease, as `labdesk sandbox run` does, over HTTP: the page turns
      // running and its meter moves, by the subscription alone (the page asks nothing meanwhile).
      const asked = watched.requests.length;
      const balanceBefore = await page.locator('dl.facts dd').first().innerText();
      const booted = await t.call('POST', '/api/compute/bootstrap', { body: { claim_token: claimToken } });
      expect(booted.status).toBe(200);
      await row.getByRole('cell', { name: 'Running' }).waitFor({ timeout: 5_000 });
      await page.getByText(`Lease #${lease.lease_id} is now running.`).waitFor();
      await start.getByText('A sandbox claimed lease', { exact: false }).waitFor();
      expect(await start.locator('pre.command').count()).toBe(0); // used up: not shown again
      const heartbeat = await t.call('POST', `/api/compute/sessions/${lease.lease_id}/heartbeat`, {
        token: booted.body.process_token,
        body: { active: true },
      });
      expect(heartbeat.body.action).toBe('continue');
      const spent = page.getByTestId(`spent-${lease.lease_id}`);
      await until('the meter to move', async () => figureOf(await spent.innerText()) > 0, { seconds: 10 });
      await until('the balance to follow it', async () => (await page.locator('dl.facts dd').first().innerText()) !== balanceBefore, {
        seconds: 10,
      });
      const meterValue = await row.getByRole('meter').evaluate((meter) => (meter as unknown as { value: number }).value);
      expect(meterValue).toBeGreaterThan(0);
      expect(watched.requests.slice(asked)).toEqual([]);
      await shoot(page, 'compute-running');

      // At its ceiling the meter pauses it (the service's clock jumps past it); a top-up in the
      // page runs it again. Both seen live.
      const ceiling = lease.ceiling_credits + 1;
      const jump = Math.ceil(ceiling / lease.machine.rate_credits_per_minute + 5) * 60_000;
      t.app.services.clock.now = () => new Date(Date.now() + jump);
      try {
        await row.getByRole('cell', { name: 'Paused: spend ceiling reached' }).waitFor({ timeout: 10_000 });
      } finally {
        t.app.services.clock.now = () => new Date();
      }
      await page.getByText(`Lease #${lease.lease_id} is now paused: spend ceiling reached.`).waitFor();
      await row.getByText(`${ceiling.toFixed(4)} of ${ceiling.toFixed(4)} credits`).waitFor();
      await row.getByText('does not idle out while paused').waitFor();
      await start.getByText('it is paused, its spend ceiling reached', { exact: false }).waitFor();
      await shoot(page, 'compute-paused');
      await row.getByLabel(`Credits to add to lease ${lease.lease_id}`).fill('1');
      await topUp.click();
      await row.getByRole('cell', { name: 'Running' }).waitFor();
      expect((await call('GET', `/api/compute/sessions/${lease.lease_id}`)).body.state).toBe('ready');

      // A lease nobody claims: expired by the meter after its bootstrap deadline, said at once and
      // moved to Past leases with why.
      const unclaimed = (await call('POST', '/api/compute/sessions', {})).body.lease_id as number;
      await page.reload();
      await page
        .getByRole('row')
        .filter({ hasText: `#${unclaimed},` })
        .getByRole('cell', { name: 'Waiting for its sandbox' })
        .waitFor();
      await t.sql(
        `update compute_leases set created_at = now() - interval '15 minutes 1 second', bootstrap_deadline = now() - interval '1 second' where id = $1`,
        [unclaimed],
      );
      await page.getByText(`Lease #${unclaimed} expired: no sandbox claimed it within 15 minutes.`).waitFor({ timeout: 10_000 });
      const pastLeases = page.getByRole('region', { name: 'Past leases' });
      await pastLeases
        .getByRole('row')
        .filter({ hasText: `#${unclaimed},` })
        .getByRole('cell', { name: 'expired: no sandbox claimed it within 15 minutes' })
        .waitFor();
      expect(await page.getByRole('region', { name: 'Open leases' }).getByText(`#${unclaimed}`).count()).toBe(0);

      // Release asks first, then the lease moves to Past leases, newest first.
      await row.getByRole('button', { name: `Release lease ${lease.lease_id}` }).click();
      const release = page.getByRole('alertdialog', { name: `Release lease ${lease.lease_id}?` });
      await release.getByRole('button', { name: 'Cancel' }).click();
      expect((await call('GET', `/api/compute/sessions/${lease.lease_id}`)).body.state).toBe('ready');
      await row.getByRole('button', { name: `Release lease ${lease.lease_id}` }).click();
      await release.getByRole('button', { name: 'Release lease' }).click();
      await page.getByText('Released.').waitFor();
      const released = (await call('GET', `/api/compute/sessions/${lease.lease_id}`)).body;
      expect(released.state).toBe('released');
      const firstPast = pastLeases.getByRole('row').nth(1);
      await firstPast.getByText(`#${lease.lease_id}`).waitFor();
      expect(await firstPast.getByRole('cell').last().innerText()).toBe('released by you');
      // What it spent, exactly as the API says, in the one format.
      expect(await firstPast.innerText()).toContain(
        `${released.spent_credits.toFixed(4)} of ${released.ceiling_credits.toFixed(4)} credits`,
      );
      await page.getByRole('region', { name: 'Open leases' }).getByText('No open lease.').waitFor();

      // Twelve past leases: ten a page, newest first.
      const pager = pastLeases.getByRole('navigation', { name: 'Past leases pages' });
      await pager.getByText('1–10 of 12').waitFor();
      expect(await pager.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
      await shoot(page, 'compute-past');
      await pager.getByRole('button', { name: 'Next' }).click();
      await pager.getByText('11–12 of 12').waitFor();
      expect(await pastLeases.getByRole('row').count()).toBe(3); // the heading row and two
      await pager.getByRole('button', { name: 'Previous' }).click();
      await pager.getByText('1–10 of 12').waitFor();

      // Only GraphQL (the subscription rides a WebSocket on /graphql).
      expect(watched.requests.filter((request) => !/^GET \/(console\/)?assets\//.test(request) && request !== 'POST /graphql')).toEqual([]);
      expect(watched.problems).toEqual([]);
      await page.close();
    },
  );

  inBrowser('approving a plan whose ceiling the free credits do not cover is disabled, and says why', async (context) => {
    const user = await makeUser(t, { name: 'Pia Poor', password: PASSWORD });
    // A plan on a GPU machine for a big input: its ceiling is beyond the 10 credits of a free account.
    const drafted = await t.call('POST', '/api/compute/plans', {
      token: user.token,
      body: { goal: 'Train the model.', inputs: [{ name: 'reads.bam', bytes: 20e9 }], machine: { gpu: true } },
    });
    expect(drafted.status).toBe(201);
    expect(drafted.body.spend_ceiling_credits).toBeGreaterThan(10);
    const { page } = await signIn(context, t, user);
    const approve = page.getByRole('button', { name: 'Approve' });
    await approve.waitFor();
    expect(await approve.isDisabled()).toBe(true);
    const id = await approve.getAttribute('aria-describedby');
    const reason = await page.locator(`[id="${id}"]`).innerText();
    expect(reason).toContain(
      `spend ceiling of ${drafted.body.spend_ceiling_credits.toLocaleString('en-US', { minimumFractionDigits: 4 })} credits`,
    );
    expect(reason).toMatch(/you have [\d,]+\.\d{4} credits free/);
    await shoot(page, 'compute-cannot-approve');
    await page.close();
  });
});

describe('local provider', () => {
  const t = useTestApp({ COMPUTE_PROVIDER: 'local', COMPUTE_PROVIDERS: 'manual,local', ...FAST });

  inBrowser(
    'approving starts the sandbox by itself: the page shows it running and metered, live; release moves it to Past leases',
    async (context) => {
      const user = await makeUser(t, { name: 'Lou Local', password: PASSWORD });
      expect((await t.call('POST', '/api/compute/plans', { token: user.token, body: { goal: 'Fit the model.' } })).status).toBe(201);
      const { page, watched } = await signIn(context, t, user);
      await page.getByText('No lease has ended yet.', { exact: false }).waitFor();
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('Approved: the lease is open.').waitFor();
      const start = page.getByRole('region', { name: 'Start the sandbox' });
      expect(await start.locator('pre.command').count()).toBe(0); // nothing for a person to run
      const [lease] = (await t.call('GET', '/api/compute/credits', { token: user.token })).body.leases;
      expect(lease.provider).toBe('local');
      const row = page.getByRole('row').filter({ hasText: `#${lease.lease_id},` });
      const asked = watched.requests.length;
      await row.getByRole('cell', { name: 'Running' }).waitFor({ timeout: 20_000 });
      await start.getByText(`The service started the sandbox of lease #${lease.lease_id}: it is running`, { exact: false }).waitFor();
      await until('the meter to move', async () => figureOf(await page.getByTestId(`spent-${lease.lease_id}`).innerText()) > 0, {
        seconds: 10,
      });
      expect(watched.requests.slice(asked)).toEqual([]); // live, not polled
      await shoot(page, 'compute-local-running');

      await row.getByRole('button', { name: `Release lease ${lease.lease_id}` }).click();
      await page
        .getByRole('alertdialog', { name: `Release lease ${lease.lease_id}?` })
        .getByRole('button', { name: 'Release lease' })
        .click();
      await page.getByText('Released.').waitFor();
      const pastLeases = page.getByRole('region', { name: 'Past leases' });
      await pastLeases
        .getByRole('row')
        .filter({ hasText: `#${lease.lease_id},` })
        .getByRole('cell', { name: 'released by you' })
        .waitFor();
      await start.getByText(`Lease #${lease.lease_id} is over`, { exact: false }).waitFor();
      expect((await t.call('GET', `/api/compute/sessions/${lease.lease_id}`, { token: user.token })).body.state).toBe('released');
      expect(watched.problems).toEqual([]);
      await page.close();
    },
  );
});
