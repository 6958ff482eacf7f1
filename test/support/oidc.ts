import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/** The tests' OpenID provider (test/support/oidc-provider.mjs), a real `oidc-provider` in its own process. */
export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** Starts the provider with one client allowed to come back to `redirectUris`. */
export async function startProvider(redirectUris: string[]): Promise<TestProvider> {
  const child = spawn(process.execPath, [path.join(__dirname, 'oidc-provider.mjs'), ...redirectUris], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const issuer = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((text) => text.startsWith('{"issuer"'));
      if (line) resolve((JSON.parse(line) as { issuer: string }).issuer);
    });
    child.once('exit', (code) => reject(new Error(`the OpenID provider exited (${code}): ${errors}`)));
  });
  return { issuer, clientId: 'labdesk', clientSecret: 'test-secret', close: () => stop(child) };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  await exited;
}

/** A port nothing listens on now (for a service that must know its own URL before it starts). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The settings that point a service at the provider. */
export const signOnSettings = (provider: TestProvider, more: Record<string, string> = {}) => ({
  OIDC_ISSUER: provider.issuer,
  OIDC_CLIENT_ID: provider.clientId,
  OIDC_CLIENT_SECRET: provider.clientSecret,
  ...more,
});

/**
 * Plays the person at the provider, as a browser without script would: from the authorization
 * URL, follows redirects and submits the development sign-in form (`login`, any password) and
 * the consent form, keeping the provider's cookies, until the provider sends the browser back to
 * `redirectUri`. Returns that URL (the callback, not fetched).
 */
export async function signInAtProvider(authorizationUrl: string, redirectUri: string, login: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form?.toString(),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    form = undefined;
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url).href;
      if (next.startsWith(redirectUri)) return next;
      url = next;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`the provider answered ${response.status} with no form: ${html.slice(0, 300)}`);
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1] ?? '';
    form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any password' } : { prompt });
    url = new URL(action.replace(/&amp;/g, '&'), url).href;
  }
  throw new Error('the provider never sent the browser back');
}
