/**
 * A browser's User-Agent in words a person recognises: "Chrome 131 on macOS", "Safari 17 on
 * iOS". A small table, not a full parser: the browsers and systems people sign in with; anything
 * else is "Another browser" or "an unknown system" rather than the raw string.
 */

/** Checked in order: browsers built on Chrome or Safari name themselves before the engine's token. */
const BROWSERS: [name: string, pattern: RegExp][] = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\b(?:OPR|Opera)\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Vivaldi', /\bVivaldi\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Headless Chrome', /\bHeadlessChrome\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)(?:\.\d+)*(?: Mobile\/\S+)? Safari\//],
  ['curl', /^curl\/(\d+)/],
];

/** Checked in order: iOS and Android before the desktop systems they mention ("like Mac OS X", "Linux"). */
const SYSTEMS: [name: string, pattern: RegExp][] = [
  ['iPadOS', /\biPad\b/],
  ['iOS', /\b(?:iPhone|iPod)\b/],
  ['Android', /\bAndroid\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['Windows', /\bWindows\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['Linux', /\bLinux\b|\bX11\b/],
];

export interface UserAgentName {
  /** "Chrome 131", or "Another browser". */
  browser: string;
  /** "macOS", or null when no system is named. */
  system: string | null;
}

/** The browser (with its major version) and the system a User-Agent names. */
export function parseUserAgent(userAgent: string | null | undefined): UserAgentName {
  const ua = userAgent ?? '';
  let browser = 'Another browser';
  for (const [name, pattern] of BROWSERS) {
    const match = pattern.exec(ua);
    if (match) {
      browser = `${name} ${match[1]}`;
      break;
    }
  }
  const system = SYSTEMS.find(([, pattern]) => pattern.test(ua))?.[0] ?? null;
  return { browser, system };
}

/** "Chrome 131 on macOS"; "Another browser" when nothing is recognised. */
export function describeUserAgent(userAgent: string | null | undefined): string {
  const { browser, system } = parseUserAgent(userAgent);
  return system ? `${browser} on ${system}` : browser;
}
