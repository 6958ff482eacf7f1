import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/**
 * Headless Debian Chromium for the page tests (`apt-get install chromium`, or CHROMIUM_PATH).
 * Without it a browser test says so and passes, unless LABDESK_BROWSER_TESTS=required (CI),
 * where it fails.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const BROWSER_REQUIRED = process.env.LABDESK_BROWSER_TESTS === 'required';
/** Flags that keep Chromium from calling out to the (closed) network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const OUTPUT_DIR = path.resolve(__dirname, '..', '..', 'test-output');

/** A fresh browser profile; undefined when there is no Chromium (and it is not required). */
export async function launchBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> } | undefined> {
  if (!fs.existsSync(CHROMIUM)) {
    if (BROWSER_REQUIRED)
      throw new Error(`LABDESK_BROWSER_TESTS=required, but there is no Chromium at ${CHROMIUM}: apt-get install chromium`);
    process.stdout.write(`\nbrowser tests: no Chromium at ${CHROMIUM}; the browser parts were not run.\n`);
    return undefined;
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What a page did that it must not: CSP violations, script errors, requests that left `origin`. */
export interface Watched {
  problems: string[];
  foreign: string[];
  /** Every request a page made to `origin` (not the navigations), as `METHOD /path`, but those of the pages `unwatched` names. */
  requests: string[];
}

export function watch(page: Page, origin: string, unwatched: string[] = []): Watched {
  const watched: Watched = { problems: [], foreign: [], requests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) watched.problems.push(message.text());
  });
  page.on('pageerror', (error) => watched.problems.push(`script error: ${error.message}`));
  page.on('request', (request) => {
    const url = request.url();
    let from = '';
    try {
      from = new URL(request.frame().url()).pathname;
    } catch {
      // a request before the first document (the navigation itself)
    }
    if (url.startsWith(`${origin}/`)) {
      if (!request.isNavigationRequest() && !unwatched.includes(from))
        watched.requests.push(`${request.method()} ${new URL(url).pathname}`);
    } else if (!url.startsWith('data:') && !url.startsWith('blob:')) watched.foreign.push(url);
  });
  return watched;
}

/** The page to test-output/NAME.png: all of it, or (`fullPage: false`) the window, for a page as long as a long transcript. */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  const file = path.join(OUTPUT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  process.stdout.write(`screenshot: ${file}\n`);
  return file;
}

/** axe-core's WCAG 2 A and AA rules on the page as it is: the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/**
 * A browser for the file, launched before its tests and closed after them; the returned
 * `inBrowser(name, body)` defines a test that drives it (skipped, saying so, where there is no
 * Chromium and it is not required), its cookies cleared after each.
 */
export function useBrowser(timeout = 120_000) {
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return function inBrowser(name: string, body: (context: BrowserContext) => Promise<void>) {
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
      timeout,
    );
  };
}
