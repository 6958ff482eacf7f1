import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { makeLab, makeUser, startTestApp, type TestApp, type TestLab, type TestUser } from './app';
import { launchBrowser, OUTPUT_DIR, screenshot, seriousViolations } from './browser';
import { startFakeLlm } from './fake-llm';
import { newSessionId, trajectoryCalls } from './trajectories';

/**
 * One working day per role (issue 37): a lab's owner, a mentor, a member, an outsider and an
 * administrator each sign in to the console in Chromium, at 1440×900 and at 390×844, and do their
 * day's work by real clicks and keystrokes against a real service. Each (role, screen) gets a
 * world of its own: a lab, six people, seven trajectories (one of 420 records, one a fork), a
 * review note, a pending request to join.
 *
 * On every page a role reaches, the day checks what a person would meet: nothing wider than the
 * screen, no person shown as an id (`usr_…`), no serious or critical axe-core violation, and then
 * it **clicks every action the page offers** (each button, filling the forms it submits,
 * confirming the dialogs they open) and fails if the service refuses any of them or any request
 * the page makes on the way: an action the page offers must be one the viewer may take.
 * Screenshots of each step land in test-output/role-day-*.png.
 */

const PASSWORD = 'a long enough role-day password';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
export type Screen = 'desktop' | 'phone';
export type Role = 'owner' | 'mentor' | 'member' | 'outsider' | 'admin';

/** The answers that mean "you may not": an offered action must never get one. */
const REFUSALS = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'PAYMENT_REQUIRED', 'INTERNAL']);

/** The little of the DOM the page-side functions use (the tests compile without the DOM library). */
interface PageElement {
  innerText: string;
  tagName: string;
  disabled?: boolean;
  labels?: ArrayLike<{ innerText: string }> | null;
  closest(selector: string): PageElement | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  getClientRects(): { length: number };
  querySelectorAll(selector: string): ArrayLike<PageElement>;
}

/** The people and things of one day. */
interface World {
  app: TestApp;
  lab: TestLab;
  /** A lab none of the day's people is in: its code is the one they try on "Join a lab". */
  otherLab: TestLab;
  people: Record<Role | 'requester', TestUser & { name: string }>;
  /** Session ids by title. */
  runs: Record<'atlas' | 'rnaseq' | 'variants' | 'proteomics' | 'fork' | 'private' | 'outsiders', string>;
}

/** A conversation as the clients sync it: user, then assistant with a tool call and its usage. */
function conversation(prefix: string, turns: number, topic: string) {
  // A minute a turn, ending now, as a client stamps them.
  const at = (i: number, second: number) => new Date(Date.now() - (turns - i) * 60_000 + second * 1000).toISOString();
  return Array.from({ length: turns }, (_, i) => [
    {
      uuid: `${prefix}-u${i}`,
      type: 'user',
      timestamp: at(i, 0),
      message: { role: 'user', content: `Step ${i + 1}: ${topic} in sample ${i + 1}` },
    },
    {
      uuid: `${prefix}-a${i}`,
      type: 'assistant',
      timestamp: at(i, 20),
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: `Done with ${topic} for sample ${i + 1}.` },
          { type: 'tool_use', id: `${prefix}-t${i}`, name: 'bash', input: { command: `run-${i + 1}.sh` } },
        ],
        usage: { input_tokens: 120, output_tokens: 30 },
      },
    },
  ]).flat();
}

async function seedWorld(app: TestApp): Promise<World> {
  const named = async (name: string, extra: Record<string, unknown> = {}) => ({
    ...(await makeUser(app, { name, password: PASSWORD, plan_code: 'pro', ...extra })),
    name,
  });
  const [owner, mentor, member, outsider, requester, admin] = await Promise.all([
    named('Olivia Owner'),
    named('Milo Mentor'),
    named('Mara Member'),
    named('Otto Outsider'),
    named('Rita Requester'),
    named('Ada Admin', { is_admin: true }),
  ]);
  const [lab, otherLab] = await Promise.all([
    makeLab(app, { owner, name: 'Cell Biology Lab' }),
    makeLab(app, { name: 'Neighbouring Lab' }),
  ]);
  const join = (who: TestUser) => app.call('POST', '/api/labs/join', { token: who.token, body: { code: lab.code } });
  const approve = (who: TestUser, role: string) =>
    app.call('PATCH', `/api/labs/${lab.id}/members/${who.id}`, { token: owner.token, body: { status: 'active', role } });
  for (const [who, role] of [
    [mentor, 'mentor'],
    [member, 'member'],
  ] as const) {
    expect((await join(who)).status).toBe(200);
    expect((await approve(who, role)).status).toBe(200);
  }
  expect((await join(requester)).status).toBe(200);

  const calls = trajectoryCalls(app);
  const run = async (who: TestUser, title: string, records: unknown[], shared = true) => {
    const id = newSessionId('day');
    expect((await calls.append(who, id, null, records, { title })).status).toBe(200);
    if (shared) expect((await calls.setVisibility(who, id, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
    return id;
  };
  const runs = {
    atlas: await run(owner, 'Single-cell atlas', conversation('atlas', 210, 'clustering the cells')),
    rnaseq: await run(owner, 'RNA-seq DE: treated vs control', conversation('rna', 4, 'testing the genes')),
    variants: await run(member, 'Variant calling on chr21', conversation('var', 3, 'calling the variants')),
    proteomics: await run(mentor, 'Proteomics QC', conversation('prot', 2, 'checking the spectra')),
    private: await run(owner, 'Grant draft numbers', conversation('priv', 2, 'estimating the budget'), false),
    outsiders: await run(outsider, 'My own pilot', conversation('out', 2, 'reading the plates'), false),
    fork: '',
  };
  const forked = await app.call('POST', `/api/trajectories/${encodeURIComponent(runs.rnaseq)}/fork`, {
    token: member.token,
    body: { head_uuid: 'rna-a1' },
  });
  expect(forked.status).toBe(201);
  runs.fork = forked.body.session_id;
  const noted = await app.call('POST', `/api/trajectories/${encodeURIComponent(runs.variants)}/annotations`, {
    token: mentor.token,
    body: { record_uuid: 'var-a0', body: 'Which reference genome is this?' },
  });
  expect(noted.status).toBe(201);
  return { app, lab, otherLab, people: { owner, mentor, member, outsider, requester, admin }, runs };
}

/**
 * A signed-in person's page, watched: every GraphQL answer that refuses (REFUSALS) is kept with
 * what the day was doing then, and the number of requests in flight tells when the page is quiet.
 */
export class Day {
  readonly refusals: string[] = [];
  readonly screenshots: string[] = [];
  /** Each page walked, with the actions clicked there. */
  readonly walked: string[] = [];
  doing = 'signing in';
  /** While set, a step that must be refused (an outsider's look at a lab's run) is: its refusals are not counted. */
  private refusalExpected = false;
  private inFlight = 0;
  private step = 0;

  constructor(
    readonly page: Page,
    readonly world: World,
    readonly role: Role,
    readonly screen: Screen,
  ) {
    const graphql = (url: string) => new URL(url).pathname === '/graphql';
    page.on('request', (request) => {
      if (graphql(request.url())) this.inFlight++;
    });
    const done = (url: string) => {
      if (graphql(url)) this.inFlight--;
    };
    page.on('requestfailed', (request) => done(request.url()));
    page.on('response', (response) => {
      if (!graphql(response.url())) return;
      const operation = /"operationName":"(\w+)"/.exec(response.request().postData() ?? '')?.[1] ?? 'an operation';
      void response
        .json()
        .then((body: { errors?: { message: string; extensions?: { code?: string } }[] }) => {
          for (const error of body.errors ?? [])
            if (REFUSALS.has(error.extensions?.code ?? 'INTERNAL') && !this.refusalExpected)
              this.refusals.push(`${this.doing}: ${operation} → ${error.extensions?.code}: ${error.message}`);
        })
        .catch(() => {
          if (response.status() >= 400) this.refusals.push(`${this.doing}: ${operation} → HTTP ${response.status()}`);
        })
        .finally(() => done(response.url()));
    });
  }

  get person() {
    return this.world.people[this.role];
  }
  url(route: string) {
    return `${this.world.app.url}${route}`;
  }

  /** Opens `route`, which must not be shown to this person, and waits for the page to say `says`. */
  async refused(route: string, says: RegExp) {
    this.refusalExpected = true;
    this.doing = `opening ${route}, which must be refused`;
    await this.page.goto(this.url(route));
    await this.page.getByText(says).first().waitFor();
    await this.quiet();
    this.refusalExpected = false;
  }

  /** Until no GraphQL request has been in flight for a moment (the page has its answers). */
  async quiet() {
    let still = 0;
    for (let i = 0; i < 100 && still < 3; i++) {
      await this.page.waitForTimeout(100);
      still = this.inFlight <= 0 ? still + 1 : 0;
    }
  }

  /** Opens a section from the navigation, through the menu on a phone. */
  async navigate(section: string) {
    this.doing = `opening ${section} from the navigation`;
    const menu = this.page.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) await menu.click();
    // The sections, and one's own name (the account) beside them.
    await this.page.locator('#console-menu').getByRole('link', { name: section, exact: true }).click();
    await this.quiet();
  }

  /** What every page must be: its width, names not ids, axe-clean; then a screenshot of the step. */
  async check(name: string) {
    await this.quiet();
    const where = `${this.role} (${this.screen}) at ${name}, ${new URL(this.page.url()).pathname}`;
    const { width, height, text } = await this.page.evaluate(() => {
      const { document } = globalThis as unknown as {
        document: { documentElement: { scrollWidth: number; scrollHeight: number }; body: { innerText: string } };
      };
      return { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight, text: document.body.innerText };
    });
    const viewport = this.page.viewportSize()!.width;
    expect({ where, width: Math.min(width, viewport + 1) }).toEqual({ where, width: viewport });
    expect({ where, ids: text.match(/\busr_\w+/g) ?? [] }).toEqual({ where, ids: [] });
    expect({ where, violations: await seriousViolations(this.page) }).toEqual({ where, violations: [] });
    const file = `role-day-${this.role}-${this.screen}-${String(++this.step).padStart(2, '0')}-${name}`;
    // The whole page, but for a long transcript: the screen as the reader sees it.
    this.screenshots.push(await screenshot(this.page, file, { fullPage: height <= 5000 }));
  }

  /**
   * Opens `route` and checks it; on the desktop, then clicks every action it offers once (buttons
   * by name; a form's empty fields filled first; a confirmation confirmed), going back to the page
   * whenever an action leaves it, and follows its links: none may lead to a page that says "not
   * found" or "Access denied". (The phone shows the same actions, stacked: its walk checks the layout.)
   */
  async walk(route: string) {
    const page = this.page;
    const start = this.url(route);
    const open = async () => {
      await page.goto(start);
      await page.locator('main h1, main h2').first().waitFor();
      await this.quiet();
    };
    await open();
    const [, section, id] = route.replace(/\?.*/, '').split('/');
    const one: Record<string, string> = { labs: 'lab', trajectories: 'trajectory' };
    await this.check(
      (id ? (one[section] ?? section) : section) + (route.includes('?') ? `-${route.split('=')[1].replace('%20', '-')}` : ''),
    );
    if (this.screen === 'phone') return;
    // A code people may really try: a lab none of them is in.
    const values = { 'Invitation code': this.world.otherLab.code };
    const tried = new Set<string>();
    for (let clicks = 0; clicks < 60; clicks++) {
      const next = await this.untried(tried);
      if (!next) break;
      tried.add(next.name);
      this.doing = `${this.role} (${this.screen}) clicking "${next.name}" on ${route}`;
      await this.fill(next.button, values);
      if (!(await next.button.isEnabled())) continue; // still waiting for something the day cannot give (a file)
      const act = next.name.startsWith('select ') ? this.choose(next.button) : next.button.click({ timeout: 5_000 });
      await act.catch((error: Error) => {
        throw new Error(`${this.doing}: ${error.message}`);
      });
      const dialog = page.getByRole('alertdialog');
      if (await dialog.isVisible().catch(() => false)) await dialog.getByRole('button').last().click();
      await this.quiet();
      if (page.url() !== start) await open();
    }
    this.walked.push(`${route}: ${[...tried].join(', ')}`);
    // Where the links lead (each distinct page once; a row of each list is enough).
    const hrefs = await page
      .locator('main a[href^="/"]')
      .evaluateAll((links) => [...new Set(links.map((link) => link.getAttribute('href')!))]);
    const seen = new Set<string>();
    for (const href of hrefs) {
      const shape = href.replace(/[?#].*/, '').replace(/\/[^/]*[\d.:][^/]*$/, '/:id');
      if (seen.has(shape) || href.startsWith('/blobs/') || href.startsWith('/api/')) continue;
      seen.add(shape);
      this.doing = `${this.role} (${this.screen}) following ${href} from ${route}`;
      await page.goto(this.url(href));
      await page.locator('main h1, main h2').first().waitFor();
      await this.quiet();
      const heading = await page.locator('main h1').first().innerText();
      expect({ from: route, href, heading }).not.toEqual({ from: route, href, heading: expect.stringMatching(/not found|access denied/i) });
    }
  }

  /**
   * The next action to try: the first visible, enabled button of the open dialog, or else of the
   * page, outside navigation (tabs and menus are walked as pages), whose text has not been tried
   * yet: one "Suspend" stands for a row of them. Buttons outside forms come first, so that a
   * search submitted later cannot empty a list before its rows' actions are tried.
   */
  private async untried(tried: Set<string>) {
    const dialog = this.page.locator('dialog[open]');
    const scope = (await dialog.count()) ? dialog.first() : this.page.locator('main');
    const name = await scope.evaluate(
      (root, before) => {
        const all = Array.from((root as unknown as PageElement).querySelectorAll('button, [role="button"], select'));
        // A form's submit button waits for its fields: it counts, and gets them filled before the click.
        const usable = all.filter(
          (button) =>
            !button.closest('nav') &&
            (!button.disabled || (button.closest('form') && button.getAttribute('type') === 'submit')) &&
            button.getClientRects().length > 0,
        );
        // A form that has just opened (its field has the focus: a note being written) is finished first.
        const focused = (root as unknown as { ownerDocument: { activeElement: PageElement | null } }).ownerDocument.activeElement?.closest(
          'form',
        );
        const ordered = [
          ...usable.filter((button) => focused && button.closest('form') === focused),
          ...usable.filter((button) => !button.closest('form')),
          ...usable.filter((button) => button.closest('form')),
        ];
        for (const old of Array.from((root as unknown as PageElement).querySelectorAll('[data-role-day-next]')))
          old.removeAttribute('data-role-day-next');
        for (const button of ordered) {
          // A select is named by its label: changing it is the action.
          const text =
            button.tagName === 'SELECT'
              ? `select ${(button.getAttribute('aria-label') ?? button.labels?.[0]?.innerText ?? '').split('\n')[0].replace(/ of .*/, '')}`
              : button.innerText.trim() || button.getAttribute('aria-label') || '';
          if (!text || before.includes(text) || /^(Cancel|Close)$/.test(text)) continue;
          button.setAttribute('data-role-day-next', '');
          return text;
        }
        return null;
      },
      [...tried],
    );
    return name === null ? undefined : { name, button: this.page.locator('[data-role-day-next]') };
  }

  /** Changes a select to its next option (the first, from the last). */
  private async choose(select: ReturnType<Page['locator']>) {
    const { count, selected } = await select.evaluate((element) => {
      const { options, selectedIndex } = element as unknown as { options: { length: number }; selectedIndex: number };
      return { count: options.length, selected: selectedIndex };
    });
    await select.selectOption({ index: (selected + 1) % count }, { timeout: 5_000 });
  }

  /**
   * Before a submit: the form's empty text fields get `values[label]` or a plausible text, but
   * for searches and filters, which stay empty (everything listed).
   */
  private async fill(button: ReturnType<Page['locator']>, values: Record<string, string>) {
    const form = button.locator('xpath=ancestor::form[1]');
    if (!(await form.count())) return;
    for (const field of await form.locator('input:visible, textarea:visible').all()) {
      const type = (await field.getAttribute('type')) ?? 'text';
      if (['checkbox', 'radio', 'hidden', 'file', 'submit', 'button', 'date', 'datetime-local'].includes(type)) continue;
      if (!(await field.isEditable()) || (await field.inputValue())) continue;
      const label =
        (await field.getAttribute('aria-label')) ??
        (await field.evaluate((input) => (input as unknown as PageElement).labels?.[0]?.innerText ?? ''));
      if (type === 'search' || /search|filter/i.test(label)) continue;
      const value =
        values[label.trim()] ??
        (type === 'email'
          ? `someone.${Date.now()}@example.org`
          : type === 'number'
            ? '1'
            : type === 'password'
              ? PASSWORD
              : `role day ${label}`);
      await field.fill(value);
    }
  }
}

/**
 * The file's services and browser: a service with the manual provider, and with `local` one
 * with the local provider too, on a fake language model; `day(…)` runs a role's day on them.
 */
export function useRoleDays({ screen, local: withLocal = false }: { screen: Screen; local?: boolean }) {
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  const apps: { manual?: TestApp; local?: TestApp } = {};
  const workspaceParent = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-role-days-'));
  fs.chmodSync(workspaceParent, 0o711); // bubblewrap runs code as another uid: it must search the parents

  beforeAll(async () => {
    // This run's screenshots only (of this screen: the other size runs in another file).
    for (const file of fs.existsSync(OUTPUT_DIR) ? fs.readdirSync(OUTPUT_DIR) : [])
      if (file.startsWith('role-day-') && file.includes(`-${screen}-`)) fs.rmSync(path.join(OUTPUT_DIR, file));
    browser = await launchBrowser();
    if (!browser) return;
    fake = await startFakeLlm(() => ({ kind: 'answer', text: 'The counts look right.', tokensIn: 3, tokensOut: 5 }));
    const env = {
      AGENT_WORKSPACE_DIR: path.join(workspaceParent, 'workspaces'),
      LLM_PROVIDER: 'openai',
      LLM_MODEL: 'gpt-5',
      LLM_API_KEY: 'sk-test',
      LLM_BASE_URL: fake.baseUrl,
      LLM_MAX_RETRIES: '0',
      COMPUTE_PROVIDERS: 'manual,local',
      SANDBOX_HEARTBEAT_SECONDS: '1',
      METER_INTERVAL_SECONDS: '1',
    };
    [apps.manual, apps.local] = await Promise.all([
      startTestApp({ ...env, COMPUTE_PROVIDER: 'manual' }),
      withLocal ? startTestApp({ ...env, COMPUTE_PROVIDER: 'local' }) : undefined,
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([apps.manual?.close(), apps.local?.close()]);
    await fake?.close();
    await browser?.close();
    fs.rmSync(workspaceParent, { recursive: true, force: true });
  });

  /** Runs `script` as `role` on a fresh world, then fails on any refusal it met. */
  return async function day(role: Role, script: (day: Day) => Promise<void>, provider: 'manual' | 'local' = 'manual') {
    if (!browser) return void process.stdout.write(`browser part not run (needs apt-get install chromium): ${role} ${screen}\n`);
    const world = await seedWorld(apps[provider]!);
    const context: BrowserContext = browser.context;
    const page = await context.newPage();
    await page.setViewportSize(screen === 'phone' ? PHONE : DESKTOP);
    const today = new Day(page, world, role, screen);
    try {
      await page.goto(today.url('/'));
      await page.waitForURL(/\/login/);
      await page.getByLabel('Email').fill(today.person.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(today.url('/labs'));
      await today.check('signed-in');
      const began = Date.now();
      await script(today);
      const walked = today.walked.map((line) => `  clicked on ${line}\n`).join('');
      process.stdout.write(`role day: ${role} at ${screen} on ${provider} compute, ${Date.now() - began} ms\n${walked}`);
      expect({ role, screen, refusals: today.refusals }).toEqual({ role, screen, refusals: [] });
    } catch (error) {
      await screenshot(page, `role-day-${role}-${screen}-failed`).catch(() => undefined);
      throw error;
    } finally {
      await page.close();
      await context.clearCookies();
    }
  };
}

const enc = encodeURIComponent;

/** The pages a member of the lab reaches in a day, with `run`'s page. */
const labPages = (world: World, run: string) => [
  '/labs',
  `/labs/${world.lab.id}`,
  '/trajectories',
  `/trajectories/${enc(run)}`,
  '/compute',
  '/agents',
  '/account',
];

/** Each role's day: what it does, by clicks and keystrokes, then the pages it walks. */
export const ROLE_DAYS: { role: Role; title: string; script: (day: Day) => Promise<void> }[] = [
  {
    role: 'owner',
    title: 'the lab owner: approves a request, reviews a run, shares a view, makes and revokes a token',
    script: async (d) => {
      const { page, world } = d;
      await page.getByRole('link', { name: 'Cell Biology Lab' }).click();
      await page.getByText('Rita Requester').first().waitFor();
      await d.check('lab');
      d.doing = 'approving Rita Requester';
      await page
        .getByRole('button', { name: /Approve/ })
        .first()
        .click();
      await d.quiet();
      await page.getByText(/4 active members/).waitFor();
      await d.check('lab-approved');

      await page.getByRole('link', { name: 'Single-cell atlas' }).first().click();
      await page.getByText('Step 1: clustering the cells in sample 1').waitFor();
      await d.check('atlas');
      d.doing = 'commenting on a record';
      const record = page.getByRole('article', { name: 'Record 2' });
      await record.getByRole('button', { name: 'Comment' }).click();
      await page.getByLabel('Comment on record 2').fill('Which resolution did the clustering use?');
      await page.getByRole('button', { name: 'Post' }).click();
      await record.getByText('Which resolution did the clustering use?').waitFor();
      await d.check('atlas-commented');

      await d.navigate('Trajectories');
      await page.getByLabel('Search').fill('treated');
      await page.getByLabel('Search').press('Enter');
      await page.getByRole('link', { name: 'RNA-seq DE: treated vs control' }).first().waitFor();
      await d.check('search');

      await d.navigate('Olivia Owner'); // one's own name: the account
      await page.waitForURL(d.url('/account'));
      d.doing = 'creating a token';
      await page.getByRole('button', { name: 'Create token', exact: true }).click();
      await page.getByLabel('Token label').fill('laptop');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByText('it will not be shown again').waitFor();
      await d.check('account-token');

      for (const route of [...labPages(world, world.runs.rnaseq), '/releases']) await d.walk(route);
    },
  },
  {
    role: 'mentor',
    title: 'the mentor: reviews a member’s run, answers a note, resolves it',
    script: async (d) => {
      const { page, world } = d;
      await d.navigate('Trajectories');
      await page.getByRole('combobox', { name: /^Lab\b/ }).selectOption({ label: 'Cell Biology Lab' });
      const row = page.getByRole('row', { name: /Variant calling on chr21/ });
      await row.getByText('Mara Member').waitFor();
      await d.check('trajectories');
      await row.getByRole('link', { name: 'Variant calling on chr21' }).click();
      await page.getByText('Which reference genome is this?').waitFor();
      const record = page.getByRole('article', { name: 'Record 2' });
      await record.getByText('Milo Mentor').first().waitFor();
      d.doing = 'replying and resolving';
      await record.getByRole('button', { name: 'Reply' }).click();
      await page.getByLabel('Reply').fill('hg38, see the tool call');
      await page.getByRole('button', { name: 'Post' }).click();
      await record.getByText('hg38, see the tool call').waitFor();
      // The page says so once it has read the thread back: a click before that can land on the
      // button the refresh then replaces (seen once, under CI's load).
      await page.getByText('Replied.').waitFor();
      await record.getByRole('button', { name: 'Resolve' }).first().click();
      await record.getByText('Resolved').first().waitFor();
      await d.check('variants-reviewed');

      for (const route of labPages(world, world.runs.variants)) await d.walk(route);
    },
  },
  {
    role: 'member',
    title: 'the member: reads the 420-record run to its end, finds a step, forks there, starts a sandbox',
    script: async (d) => {
      const { page, world, app } = { ...d, app: d.world.app };
      await page.goto(d.url(`/trajectories/${enc(world.runs.atlas)}`));
      await page.getByText('Step 1: clustering the cells in sample 1').waitFor();
      d.doing = 'reading to the end';
      for (let i = 0; i < 40 && !(await page.getByText('Done with clustering the cells for sample 210.').isVisible()); i++) {
        await page.keyboard.press('End');
        await page.mouse.wheel(0, 20_000);
        await page.waitForTimeout(150);
      }
      await page.getByText('Done with clustering the cells for sample 210.').waitFor();
      await d.check('atlas-end');
      d.doing = 'finding in the transcript';
      await page.getByLabel('Find in transcript').fill('sample 150');
      await page.getByLabel('Find in transcript').press('Enter');
      await page.getByText('Step 150: clustering the cells in sample 150').waitFor();
      await d.check('atlas-find');
      d.doing = 'forking';
      await page.getByRole('article', { name: 'Record 299' }).getByRole('button', { name: 'Fork from here' }).click(); // the one found
      await page.getByText('Your run, forked from Single-cell atlas (Olivia Owner’s) at record 299').waitFor();
      await d.check('fork');

      // A plan the agent drafted: approved on the Compute page, the sandbox started as it says.
      const drafted = await app.call('POST', '/api/compute/plans', { token: d.person.token, body: { goal: 'Re-cluster the atlas.' } });
      expect(drafted.status).toBe(201);
      await d.navigate('Compute');
      await page.getByText('Re-cluster the atlas.').waitFor();
      d.doing = 'approving the plan';
      await page.getByRole('button', { name: 'Approve' }).click();
      const start = page.getByRole('region', { name: 'Start the sandbox' });
      const command = await start.locator('pre.command').innerText();
      await d.check('compute-approved');
      const claimToken = /LABDESK_CLAIM_TOKEN=(\S+)/.exec(command)![1];
      expect((await app.call('POST', '/api/compute/bootstrap', { body: { claim_token: claimToken } })).status).toBe(200);
      await page.getByRole('table').getByText('Running', { exact: true }).waitFor({ timeout: 20_000 });
      await d.check('compute-ready');

      for (const route of labPages(world, world.runs.rnaseq)) await d.walk(route);
    },
  },
  {
    role: 'outsider',
    title: 'an outsider: asks to join with a code, waits, cannot see the lab’s runs, is told so',
    script: async (d) => {
      const { page, world } = d;
      d.doing = 'joining with the code';
      await page.getByLabel('Invitation code').fill(world.lab.code);
      await page.getByRole('button', { name: 'Ask to join' }).click();
      const waiting = page.getByRole('region', { name: 'Waiting for approval' });
      await waiting.getByText('Cell Biology Lab').waitFor();
      await page.reload(); // the request is the service's, not the page's
      await waiting.getByText('Cell Biology Lab').waitFor();
      await d.check('join-requested');
      // A lab of one's own opens as it is created: its code is what its owner needs next.
      await page.getByLabel('Lab name').fill('Plate Reader Pilots');
      await page.getByRole('button', { name: 'Create lab' }).click();
      await page.getByRole('heading', { name: 'Plate Reader Pilots' }).waitFor();
      expect(new URL(page.url()).pathname).toMatch(/^\/labs\/lab_/);
      await d.refused(`/trajectories/${enc(world.runs.rnaseq)}`, /not found/i);
      await d.check('not-found');
      await d.refused('/admin', /access denied/i);
      await d.check('access-denied');
      await page.goto(d.url(`/trajectories/${enc(world.runs.outsiders)}`));
      await page.getByText('Step 1: reading the plates in sample 1').waitFor();
      await d.check('own-run');

      for (const route of ['/labs', '/trajectories', `/trajectories/${enc(world.runs.outsiders)}`, '/compute', '/agents', '/account'])
        await d.walk(route);
    },
  },
  {
    role: 'admin',
    title: 'the administrator: people, labs and runs by name, the audit log, no way to lock everyone out',
    script: async (d) => {
      const { page, world } = d;
      await d.navigate('Admin');
      await page.getByText('Active this month').waitFor();
      await d.check('admin');
      for (const section of ['Users', 'Labs', 'Trajectories', 'Audit log']) {
        d.doing = `opening Admin → ${section}`;
        await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('button', { name: section }).click();
        await d.quiet();
        await d.check(`admin-${section.toLowerCase().replace(' ', '-')}`);
      }
      await page.goto(d.url('/admin?section=Trajectories'));
      await page.getByRole('link', { name: 'Single-cell atlas' }).first().click();
      await page.getByText('Step 1: clustering the cells in sample 1').waitFor();
      await d.check('admin-opens-run');
      expect(world.people.admin.name).toBe('Ada Admin');

      for (const route of [
        '/admin',
        ...['Users', 'Labs', 'Trajectories', 'Storage', 'Audit%20log'].map((section) => `/admin?section=${section}`),
        '/agents',
        '/releases',
      ])
        await d.walk(route);
    },
  },
];
