import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { makePubSub } from '../src/pubsub';
import { buildAppSchema, printAppSchema } from '../src/schema';
import { makeUser, startTestApp, useTestApp, type TestApp } from './support/app';
import { freePort, signOnSettings, startProvider, type TestProvider } from './support/oidc';
import { BROWSER_REQUIRED, CHROMIUM, CHROMIUM_ARGS, screenshot } from './support/browser';

/**
 * The service's web pages (issue 11): the device-login approval page `labdesk login` points at,
 * GraphiQL on `GET /graphql` from the package's own files, and the SDL at a stable URL.
 *
 * The pages are checked over HTTP everywhere (status, headers, CSP, no outside URLs). Driving them
 * needs Debian's Chromium (`apt-get install chromium`, or CHROMIUM_PATH): without it the browser
 * tests say so and check nothing more, unless LABDESK_BROWSER_TESTS=required (CI), where a missing
 * Chromium fails them. Screenshots go to test-output/ (git-ignored); their paths are printed.
 */

const t = useTestApp();

// What the functions run in the page (not in Node) use of the DOM; the project compiles without the DOM library.
interface PageStorage extends Iterable<never> {
  getItem(key: string): string | null;
}
declare const document: {
  getElementById(id: string): { classList: { contains(name: string): boolean }; textContent: string | null } | null;
  querySelector(selector: string): { textContent: string | null } | null;
};
declare const sessionStorage: PageStorage;
declare const localStorage: PageStorage;

// The browser, its flags and where screenshots go: test/support/browser.ts.
const CLI = path.resolve(__dirname, '..', 'dist', 'src', 'cli', 'main.js');

let browser: BrowserContext | undefined;
let profileDir: string | undefined;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) {
    process.stdout.write(
      `\nbrowser tests: no Chromium at ${CHROMIUM}, so the pages were checked over HTTP only. ` +
        `To drive them in a browser: apt-get install chromium (or set CHROMIUM_PATH).\n`,
    );
    return;
  }
  profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-chromium-'));
  browser = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (profileDir) fs.rmSync(profileDir, { recursive: true, force: true });
});

/** A test that drives Chromium; without one it says so (and fails when the browser is required). */
function inBrowser(name: string, body: (context: BrowserContext) => Promise<void>) {
  test(
    name,
    async () => {
      if (!browser) {
        if (BROWSER_REQUIRED)
          throw new Error(
            `LABDESK_BROWSER_TESTS=required, but there is no Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`,
          );
        process.stdout.write(`browser part not run (needs apt-get install chromium): ${name}\n`);
        return;
      }
      await body(browser);
    },
    120_000,
  );
}

interface WatchedPage {
  page: Page;
  /** Content-Security-Policy violations and uncaught script errors. */
  problems: string[];
  /** Requests that left this service. */
  foreign: string[];
}

async function openPage(context: BrowserContext, url: string): Promise<WatchedPage> {
  const page = await context.newPage();
  const problems: string[] = [];
  const foreign: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
  page.on('request', (request) => {
    if (!request.url().startsWith(`${t.url}/`) && !request.url().startsWith('data:')) foreign.push(request.url());
  });
  await page.goto(url);
  return { page, problems, foreign };
}

const messageOf = (page: Page) => page.locator('#message');

/** Waits until the page's status line has `kind` (ok, error, info) and returns its text. */
async function waitForMessage(page: Page, kind: 'ok' | 'error' | 'info', containing: string): Promise<string> {
  await page.waitForFunction(
    ([k, text]) => {
      const element = document.getElementById('message');
      return Boolean(element && element.classList.contains(k) && element.textContent?.includes(text));
    },
    [kind, containing] as const,
    { timeout: 10_000 },
  );
  return (await messageOf(page).textContent()) ?? '';
}

interface CliLogin {
  /** The approval link and the code `labdesk login` printed. */
  prompt: Promise<{ link: string; userCode: string }>;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  configDir: string;
}

/** Runs the real `labdesk login --url <app>` with a config folder of its own. */
function startCliLogin(): CliLogin {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm test (it builds first) or npm run build`);
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-cli-'));
  const child = spawn(process.execPath, [CLI, 'login', '--url', t.url], {
    env: { ...process.env, XDG_CONFIG_HOME: configDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let announce: (value: { link: string; userCode: string }) => void;
  const prompt = new Promise<{ link: string; userCode: string }>((resolve) => (announce = resolve));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    const shown = /open (\S+)\nand approve code (\S+) /.exec(stdout);
    if (shown) announce({ link: shown[1], userCode: shown[2] });
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  const timer = setTimeout(() => child.kill(), 60_000);
  void done.then(() => clearTimeout(timer));
  return {
    prompt: Promise.race([prompt, done.then((end) => Promise.reject(new Error(`labdesk login ended early: ${JSON.stringify(end)}`)))]),
    done,
    configDir,
  };
}

/** `src`/`href` values of an HTML page. */
const linksOf = (html: string) => [...html.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/g)].map((match) => match[1]);

describe('over HTTP (always)', () => {
  test('GET /device: the approval page, with a strict CSP, no framing, and nothing from outside', async () => {
    const reply = await t.call('GET', '/device', { query: { code: 'ABCD-EFGH' } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = reply.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    expect(reply.headers.get('x-frame-options')).toBe('DENY');
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect(reply.headers.get('referrer-policy')).toBe('no-referrer');
    expect(reply.headers.get('set-cookie')).toBeNull();
    expect(reply.text).not.toMatch(/https?:|\/\/[a-z]/i);
    expect(reply.text).not.toMatch(/<script>|<script [^>]*>[^<]|\son[a-z]+=|style=/i); // no inline script, handler or style
    const links = linksOf(reply.text);
    expect(links).toEqual(expect.arrayContaining(['/assets/session.js', '/assets/device.js', '/assets/labdesk.css']));
    for (const link of links) {
      expect(link).toMatch(/^\/assets\/[a-z-]+\.[a-z]+$|^\/login\?next=\/device$/); // its files, and the sign-in page
      expect({ link, status: (await t.call('GET', link)).status }).toEqual({ link, status: 200 });
    }
    expect((await t.call('POST', '/device')).status).toBe(405);
  });

  test('GET /graphql from a browser: GraphiQL from the package, no CDN; a GraphQL client still gets GraphQL', async () => {
    const page = await t.call('GET', '/graphql', {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    expect(page.text).not.toMatch(/https?:|\/\/[a-z]/i);
    expect(page.text).not.toMatch(/apollo|sandbox|cdn/i);
    const links = linksOf(page.text);
    expect(links).toEqual(
      expect.arrayContaining([
        '/assets/graphiql.min.js',
        '/assets/graphiql.min.css',
        '/assets/react.production.min.js',
        '/assets/react-dom.production.min.js',
      ]),
    );
    for (const link of links) {
      const asset = await fetch(new URL(link, t.url));
      expect({ link, status: asset.status }).toEqual({ link, status: 200 });
      if (link.endsWith('.js')) expect(asset.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
      if (link.endsWith('.css')) expect(asset.headers.get('content-type')).toMatch(/^text\/css/);
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    }

    // GraphQL over GET and POST is untouched.
    const json = await t.call('GET', '/graphql', { headers: { accept: 'application/json' } });
    expect(json.headers.get('content-type')).not.toMatch(/html/);
    const viaGet = await t.call('GET', '/graphql', {
      query: { query: '{ __typename }' },
      headers: { accept: 'text/html, application/json', 'apollo-require-preflight': 'true' },
    });
    expect(viaGet.body).toEqual({ data: { __typename: 'Query' } });
    expect((await t.call('POST', '/graphql', { body: { query: '{ __typename }' } })).body).toEqual({ data: { __typename: 'Query' } });
  });

  test('/assets serves only its listed files', async () => {
    for (const name of ['nope.js', '..%2Fpackage.json', '%2e%2e%2fsrc%2fapp.ts', 'constructor', '__proto__']) {
      expect({ name, status: (await t.call('GET', `/assets/${name}`)).status }).toEqual({ name, status: 404 });
    }
    expect((await t.call('GET', '/assets/../package.json')).status).toBe(404);
    expect((await t.call('DELETE', '/assets/device.js')).status).toBe(405);
  });

  test('GET /graphql/schema.graphql: the SDL for a signed-in caller (401 anonymously, like introspection)', async () => {
    const anonymous = await t.call('GET', '/graphql/schema.graphql');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect(anonymous.body).toEqual({ detail: expect.stringMatching(/authentication/) });
    expect((await t.call('GET', '/graphql/schema.graphql', { token: 'ldk_pat_notarealtokennotarealtoken' })).status).toBe(401);

    const user = await makeUser(t);
    const sdl = await t.call('GET', '/graphql/schema.graphql', { token: user.token });
    expect(sdl.status).toBe(200);
    expect(sdl.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(sdl.text).toBe(printAppSchema(buildAppSchema(makePubSub())));
    expect(sdl.text).toBe(fs.readFileSync(path.resolve(__dirname, '..', 'schema', 'schema.graphql'), 'utf8'));
    expect((await t.call('POST', '/graphql/schema.graphql', { token: user.token })).status).toBe(405);
  });
});

describe('in Chromium', () => {
  inBrowser(
    'device page: sign in with a token, the code comes from the CLI’s link, approve; labdesk login then saves tokens of that user',
    async (context) => {
      const user = await makeUser(t, { name: 'Ada Lovelace' });
      const cli = startCliLogin();
      const { link, userCode } = await cli.prompt;
      expect(link).toBe(`${t.url}/device?code=${userCode}`);

      const { page, problems, foreign } = await openPage(context, link);
      await page.waitForSelector('#signin:not([hidden])');
      expect(await page.inputValue('#code')).toBe(userCode);
      expect(await page.isDisabled('#approve')).toBe(true);
      expect(await page.isDisabled('#deny')).toBe(true);

      await page.fill('#token', 'ldk_pat_notarealtokennotarealtoken');
      await page.click('#signin-button');
      expect(await waitForMessage(page, 'error', 'not accepted')).toMatch(/invalid or expired token/);

      await page.fill('#token', user.token);
      await page.click('#signin-button');
      await page.waitForSelector('#session:not([hidden])');
      expect(await page.textContent('#session')).toContain('Ada Lovelace');
      expect(await page.textContent('#session')).toContain(user.email);
      expect(await page.isEnabled('#approve')).toBe(true);

      await page.click('#approve');
      const approved = await waitForMessage(page, 'ok', 'Approved');
      expect(approved).toContain(`Approved ${userCode}.`);
      await screenshot(page, 'device-approved');

      const cliEnd = await cli.done;
      expect({ code: cliEnd.code, stderr: cliEnd.stderr }).toEqual({ code: 0, stderr: '' });
      expect(cliEnd.stdout).toContain('Signed in.');
      const saved = JSON.parse(fs.readFileSync(path.join(cli.configDir, 'labdesk', 'credentials.json'), 'utf8'));
      expect(saved.access_token).toMatch(/^ldk_at_/);
      expect((await t.call('GET', '/api/me', { token: saved.access_token })).body).toMatchObject({
        user_id: user.id,
        name: 'Ada Lovelace',
      });
      fs.rmSync(cli.configDir, { recursive: true, force: true });

      // The token lives in this tab's sessionStorage only: no cookie, nothing in localStorage.
      expect(await page.evaluate(() => sessionStorage.getItem('labdesk.token'))).toBe(user.token);
      expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(user.token);
      expect(await context.cookies()).toEqual([]);
      expect(problems).toEqual([]);
      expect(foreign).toEqual([]);
      await page.close();
    },
  );

  inBrowser(
    'device page: the tab’s existing session is used; deny stops labdesk login with "login denied", and the code cannot be approved after',
    async (context) => {
      const user = await makeUser(t, { name: 'Alan Turing' });
      const { page, problems, foreign } = await openPage(context, `${t.url}/device`);
      await page.fill('#token', user.token);
      await page.click('#signin-button');
      await waitForMessage(page, 'info', 'Enter the code');

      const cli = startCliLogin();
      const { link, userCode } = await cli.prompt;
      await page.goto(link);
      // Signed in from the session kept in the tab: no token typed this time.
      await page.waitForSelector('#session:not([hidden])');
      expect(await page.textContent('#session')).toContain('Alan Turing');
      expect(await page.inputValue('#code')).toBe(userCode);

      await page.click('#deny');
      expect(await waitForMessage(page, 'ok', 'Denied')).toContain(`Denied ${userCode}.`);
      await screenshot(page, 'device-denied');

      const cliEnd = await cli.done;
      expect(cliEnd.code).not.toBe(0);
      expect(cliEnd.stderr).toMatch(/denied.*login denied/);
      expect(fs.existsSync(path.join(cli.configDir, 'labdesk', 'credentials.json'))).toBe(false);
      fs.rmSync(cli.configDir, { recursive: true, force: true });

      // Decided once: the page keeps the code but turns its buttons off, even when it is typed again.
      expect(await page.isDisabled('#approve')).toBe(true);
      await page.fill('#code', userCode.replace('-', '').toLowerCase());
      expect(await page.isDisabled('#approve')).toBe(true);
      // Opened again from the link, the page lets one try, and the server finds no login waiting.
      await page.goto(link);
      await page.waitForSelector('#approve:not([disabled])');
      await page.click('#approve');
      expect(await waitForMessage(page, 'error', 'No login is waiting')).toContain(userCode);
      await screenshot(page, 'device-code-gone');

      // Signing out forgets the token.
      await page.click('#signout');
      await page.waitForSelector('#signin:not([hidden])');
      expect(await page.evaluate(() => sessionStorage.getItem('labdesk.token'))).toBeNull();
      expect(problems).toEqual([]);
      expect(foreign).toEqual([]);
      await page.close();
    },
  );

  inBrowser(
    'GraphiQL on /graphql: from the package’s own files, signs in, loads the schema by the standard introspection query, runs a typed query and shows the result',
    async (context) => {
      const user = await makeUser(t, { name: 'Grace Hopper' });
      const { page, problems, foreign } = await openPage(context, `${t.url}/graphql`);
      await page.waitForSelector('.graphiql-container');
      await page.waitForSelector('#signin-form:not([hidden])');

      const introspection = page.waitForResponse(
        (response) =>
          response.url() === `${t.url}/graphql` && (response.request().postData() ?? '').includes('__schema') && response.status() === 200,
      );
      await page.fill('#token', user.token);
      await page.click('#signin-form button[type=submit]');
      await page.waitForSelector('#session:not([hidden])');
      const schemaReply = await (await introspection).json();
      expect(schemaReply.errors).toBeUndefined();
      expect(schemaReply.data.__schema.queryType).toEqual({ name: 'Query' });

      await page.click('.graphiql-query-editor .CodeMirror');
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.type('query Who { me { email name isAdmin } }');
      // GraphiQL takes the operation name from the editor a moment after typing.
      await page.waitForFunction(() => (localStorage.getItem('graphiql:tabState') ?? '').includes('"operationName":"Who"'));
      await page.click('.graphiql-execute-button');
      await page.waitForFunction((email) => document.querySelector('.result-window')?.textContent?.includes(email), user.email, {
        timeout: 10_000,
      });
      const result = await page.innerText('.result-window');
      expect(result).toContain(`"email": "${user.email}"`);
      expect(result).toContain('"name": "Grace Hopper"');
      expect(result).toContain('"isAdmin": false');

      // The schema is there for the docs pane too.
      await page.click('[aria-label="Show Documentation Explorer"]');
      await page.waitForSelector('.graphiql-doc-explorer >> text=Root Types');
      await screenshot(page, 'graphiql-result');

      // Headers are not persisted: the token stays in sessionStorage.
      expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(user.token);
      expect(await context.cookies()).toEqual([]);
      expect(problems).toEqual([]);
      expect(foreign).toEqual([]);
      await page.close();
    },
  );
});

describe('signing in with a password (issue 24)', () => {
  inBrowser(
    'a sign-in from /login?next=/%09/evil.example/tab stays on this site (hardening III): the page and single sign-on share one rule',
    async (context) => {
      const email = `tab${Date.now().toString(36)}@example.org`;
      const password = 'a long enough browser password';
      expect(
        (await t.call('POST', '/api/admin/users', { token: t.adminToken, body: { email, name: 'Tab Tester', password } })).status,
      ).toBe(201);
      try {
        for (const next of ['%2F%09%2Fevil.example%2Ftab', '%2F%0A%2Fevil.example', '%2F%0D%2Fevil.example', '%2F%5Cevil.example']) {
          const { page } = await openPage(context, `${t.url}/login?next=${next}`);
          await page.getByLabel('Email').fill(email);
          await page.getByLabel('Password').fill(password);
          await page.getByRole('button', { name: 'Sign in' }).click();
          await page.waitForURL((url) => url.pathname !== '/login');
          expect(new URL(page.url()).origin).toBe(t.url);
          await page.close();
          await context.clearCookies();
        }
      } finally {
        await context.clearCookies();
      }
    },
  );

  inBrowser(
    'the start page sends a signed-out person to /login; Email and Password sign them in; GraphiQL and /device then need no token',
    async (context) => {
      const email = `ada${Date.now().toString(36)}@example.org`;
      const password = 'a long enough browser password';
      const created = await t.call('POST', '/api/admin/users', { token: t.adminToken, body: { email, name: 'Ada Lovelace', password } });
      expect(created.status).toBe(201);
      try {
        const { page, problems, foreign } = await openPage(context, `${t.url}/`);
        await page.waitForURL(`${t.url}/login?next=/`);
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill('not the password');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await waitForMessage(page, 'error', 'Wrong email or password');
        await page.getByLabel('Password').fill(password);
        await page.getByRole('button', { name: 'Sign in' }).press('Enter');
        await page.waitForURL(`${t.url}/labs`); // the console
        await page.waitForFunction(() => document.getElementById('who-name')?.textContent === 'Ada Lovelace');
        await page.getByRole('link', { name: 'Ada Lovelace' }).click();
        await page.waitForURL(`${t.url}/account`); // the console's account page
        await page.locator('#sessions li', { hasText: 'This browser' }).waitFor();
        await page.getByRole('heading', { name: 'Change your password' }).waitFor();
        await screenshot(page, 'account');
        // The cookie is out of the page's reach.
        const [cookie] = await context.cookies();
        expect(cookie).toMatchObject({ name: 'labdesk_session', httpOnly: true, sameSite: 'Lax', path: '/' });
        expect(await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).toBe('');

        const graphiql = await openPage(context, `${t.url}/graphql`);
        await graphiql.page.waitForSelector('#session:not([hidden])');
        expect(await graphiql.page.innerText('#who-name')).toBe('Ada Lovelace');
        await graphiql.page.close();
        const device = await openPage(context, `${t.url}/device`);
        await device.page.waitForSelector('#session:not([hidden])');
        await device.page.close();

        await page.getByRole('button', { name: 'Sign out', exact: true }).click();
        await page.waitForURL(`${t.url}/login`);
        expect(await context.cookies()).toEqual([]);
        expect(problems).toEqual([]);
        expect(foreign).toEqual([]);
        await page.close();
      } finally {
        await context.clearCookies();
      }
    },
  );

  inBrowser('a set-password link: the page reads its secret from the fragment, sets the password and signs in', async (context) => {
    const user = await makeUser(t, { name: 'Lin Link' });
    const link = await t.call('POST', `/api/admin/users/${user.id}/password-link`, { token: t.adminToken });
    try {
      const { page, problems, foreign } = await openPage(context, link.body.url);
      expect(page.url()).toBe(`${t.url}/set-password`); // the secret is gone from the address bar
      await page.getByLabel('New password').fill('my very own password');
      await page.getByLabel('Repeat the password').fill('my very own password');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.waitForURL(`${t.url}/labs`);
      await page.waitForFunction(() => document.getElementById('who-name')?.textContent === 'Lin Link');
      expect(problems).toEqual([]);
      expect(foreign).toEqual([]);
      await page.close();
    } finally {
      await context.clearCookies();
    }
    expect((await t.call('POST', '/api/auth/login', { body: { email: user.email, password: 'my very own password' } })).status).toBe(200);
  });
});

describe('single sign-on (issue 24)', () => {
  let provider: TestProvider | undefined;
  let sso: TestApp | undefined;
  beforeAll(async () => {
    const port = await freePort();
    provider = await startProvider([`http://127.0.0.1:${port}/auth/oidc/callback`]);
    sso = await startTestApp({
      PORT: String(port),
      ...signOnSettings(provider, { OIDC_ALLOW_SIGNUP: 'true', OIDC_ALLOWED_DOMAINS: 'example.test' }),
    });
  }, 60_000);
  afterAll(async () => {
    await sso?.close();
    await provider?.close();
  });

  inBrowser('"Sign in with SSO" goes through the provider and back, signed in; a refusal is shown on the sign-in page', async (context) => {
    const app = sso!;
    const login = `sso${Date.now().toString(36)}`;
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    try {
      await page.goto(`${app.url}/`);
      await page.waitForURL(`${app.url}/login?next=/`);
      // By keyboard: the link is focusable and Enter follows it.
      await page.getByRole('link', { name: 'Sign in with SSO' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(`${provider!.issuer}/interaction/**`);
      await page.locator('input[name=login]').fill(login);
      await page.locator('input[name=password]').fill('any password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${app.url}/labs`);
      await page.waitForFunction((name) => document.getElementById('who-name')?.textContent === name, `Person ${login}`);
      await page.goto(`${app.url}/account`);
      await page.locator('#sessions li', { hasText: 'This browser' }).waitFor();
      await page.getByText('with single sign-on').waitFor();
      // No password yet: the page offers to set one, without asking for a current one.
      await page.getByRole('heading', { name: 'Set a password' }).waitFor();
      expect(await page.getByLabel('Current password').count()).toBe(0);
      await screenshot(page, 'signed-on');
      await page.getByLabel('New password', { exact: true }).fill('a password beside single sign-on');
      await page.getByLabel('Repeat the new password').fill('a password beside single sign-on');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByText('Your password is set', { exact: false }).waitFor();
      await page.getByRole('heading', { name: 'Change your password' }).waitFor();
      await page.getByLabel('Current password').waitFor();
      // The pending sign-on's cookie is gone. (The provider, on the same host, keeps cookies of its own.)
      const ours = (await context.cookies(app.url)).map((cookie) => cookie.name).filter((name) => name.startsWith('labdesk_'));
      expect(ours).toEqual(['labdesk_session']);

      // Signed out, a person from a domain not open to new accounts is told so.
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL(`${app.url}/login`);
      await context.clearCookies(); // signed out at the provider too, so that another person can sign in there
      await page.getByRole('link', { name: 'Sign in with SSO' }).click();
      await page.waitForURL(`${provider!.issuer}/interaction/**`);
      await page.locator('input[name=login]').fill(`${login}@elsewhere.org`);
      await page.locator('input[name=password]').fill('any password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${app.url}/login?sso=domain`);
      await waitForMessage(page, 'error', 'New accounts are not open to your email domain');
      await screenshot(page, 'sign-on-refused');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await context.clearCookies();
    }
  });
});
