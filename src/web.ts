import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import { sendError } from './http/answers';
import { baseUrlOf, makeContext, requestFacts, Services } from './context';
import { contentKey } from './blobs/blob-store';
import { AppError, toAppError } from './errors';
import { clearedSignOnCookie, cookieName, readCookie, SIGN_ON_COOKIE, signOnCookie } from './http/cookies';
import { PENDING_SIGN_ON_SECONDS, signOn, SignOnRefused, SingleSignOn } from './modules/auth/oidc.service';
import type { Logger } from './logger';
import type { RequestLabels } from './metrics';
import { printAppSchema } from './schema';

/** The pages' own files (`web/` beside `src/`, also when running from `dist/`). */
const WEB_DIR = path.resolve(__dirname, '..', ...(__dirname.includes(`${path.sep}dist${path.sep}`) ? ['..'] : []), 'web');

/** A file of an installed package (whose `exports` do not list it). */
const packageFile = (name: string, file: string) => path.join(path.dirname(require.resolve(`${name}/package.json`)), file);

/**
 * Every file the pages load, by the name they are served under (`/assets/<name>`). Nothing else
 * is served from disk: no directory listing, no path from the request reaches the file system.
 * GraphiQL 3 ships a browser build (UMD) that runs on React 18's UMD builds, so GraphiQL needs
 * no bundler and no CDN.
 */
const ASSETS: Record<string, string> = {
  'favicon.svg': path.join(WEB_DIR, 'favicon.svg'),
  'labdesk.css': path.join(WEB_DIR, 'labdesk.css'),
  'session.js': path.join(WEB_DIR, 'session.js'),
  'device.js': path.join(WEB_DIR, 'device.js'),
  'login.js': path.join(WEB_DIR, 'login.js'),
  'set-password.js': path.join(WEB_DIR, 'set-password.js'),
  'graphiql-start.js': path.join(WEB_DIR, 'graphiql-start.js'),
  'graphiql-page.css': path.join(WEB_DIR, 'graphiql-page.css'),
  'graphiql.min.js': packageFile('graphiql', 'graphiql.min.js'),
  'graphiql.min.css': packageFile('graphiql', 'graphiql.min.css'),
  'react.production.min.js': packageFile('react', 'umd/react.production.min.js'),
  'react-dom.production.min.js': packageFile('react-dom', 'umd/react-dom.production.min.js'),
};

/**
 * The pages' policy: scripts, styles and requests from this origin only, no inline script, no
 * plugins, forms that post nowhere, and no framing (clickjacking). GraphiQL's stylesheet embeds
 * its fonts and icons as `data:` URLs.
 */
const PAGE_POLICY = {
  /** The plain pages: device approval, sign-in, set-password. */
  device:
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  graphiql:
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/**
 * The console's policy: the plain pages' one, with figures also from where figure URLs point
 * (the S3 store's public origin, the CDN hosts an operator allows in `FIGURE_CDN_HOSTS`).
 */
const consolePolicy = (imageSources: string[]) =>
  `default-src 'none'; script-src 'self'; style-src 'self'; img-src ${["'self'", 'data:', ...imageSources].join(' ')}; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/** Where figure URLs point besides this origin: the S3 store's origin, read off one signed URL (signed locally), and the CDN hosts. */
async function figureImageSources(services: Services): Promise<string[]> {
  const sources = services.config.figureCdnHosts.map((host) => `https://${host}`);
  const store = services.blobs.store;
  if (store?.kind === 's3') {
    const url = await store.signedUrl(contentKey('0'.repeat(64)), { baseUrl: services.config.publicUrl, ttlSeconds: 60 });
    sources.unshift(new URL(url).origin);
  }
  return sources;
}

/** Headers of every page and asset; `immutable` keeps the Cache-Control of a hashed file. */
function secure(res: Response, policy?: string, caching: 'no-cache' | 'immutable' = 'no-cache') {
  if (policy) res.setHeader('Content-Security-Policy', policy);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  if (caching === 'no-cache') res.setHeader('Cache-Control', 'no-cache');
}

const sendPage = (res: Response, file: string, policy: string, next: NextFunction) => {
  secure(res, policy);
  res.sendFile(
    path.join(WEB_DIR, file),
    { headers: { 'Content-Type': 'text/html; charset=utf-8' } },
    (error) => error && !res.headersSent && next(error),
  );
};

/** The web console's build (scripts/build-console.js): hashed files under assets/, and its index.html. */
const CONSOLE_DIR = path.resolve(WEB_DIR, '..', 'dist', 'console');

/** The console's pages (web/console/src/main.tsx): each is its index.html, which routes in the browser. */
const CONSOLE_ROUTES = [
  '/',
  '/labs',
  '/labs/:labId',
  '/trajectories',
  '/trajectories/:trajectoryId',
  '/trajectories/:trajectoryId/compare',
  '/reviews',
  '/compute',
  '/releases',
  '/agents',
  '/agents/tasks/:taskId',
  '/admin',
  '/account',
];

/** The console's page a share link opens (docs/api/sharing.md): no sign-in. */
const SHARED_PAGE = '/shared';

/**
 * The request metrics' route for what a handler that is not one route template serves. Every
 * console page is the same index.html (the browser does the routing), so all are one route,
 * `console`, rather than one per page pattern: nothing differs on the server between them, and
 * the series stay one per method and status however many pages the console grows (and its 404
 * page, which answers any path, is counted there too, never under the path asked for).
 */
const countedAs =
  (route: string): RequestHandler =>
  (_req, res, next) => {
    res.locals.metrics = { route } satisfies RequestLabels;
    next();
  };
const countedAsConsole = countedAs('console');

/**
 * Where an unknown path is an API's, not a page's: it answers the JSON 404 even to a browser
 * (`/admin` is a console page, `/admin/api/…` the release API).
 */
const NOT_PAGES =
  /^\/(api|graphql|a2a|assets|console\/assets|auth|blobs|healthz|readyz|metrics|openapi\.json|\.well-known|admin\/api)(\/|$)/;

/** A browser asking for a page that is not there (a GET that prefers HTML, outside the APIs' paths). */
function wantsMissingPage(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (NOT_PAGES.test(req.path)) return false;
  return req.accepts(['application/json', 'text/html']) === 'text/html';
}

function sendConsole(res: Response, policy: string, next: NextFunction) {
  secure(res, policy);
  res.sendFile(path.join(CONSOLE_DIR, 'index.html'), { headers: { 'Content-Type': 'text/html; charset=utf-8' } }, (error) => {
    if (!error || res.headersSent) return;
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return next(error);
    res.status(503).type('text/plain; charset=utf-8').send('The web console is not built. Run: npm run build\n');
  });
}

/** 405 for a method a page's path does not answer. */
const onlyGet = (_req: Request, res: Response) => {
  res.setHeader('Allow', 'GET, HEAD');
  sendError(res, new AppError('METHOD_NOT_ALLOWED', 'method not allowed; use GET, HEAD'));
};

/**
 * A browser asking for `/graphql` (a GET with no `query` that prefers HTML), as opposed to a
 * GraphQL client making a GET request.
 */
function wantsGraphiQL(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (req.query.query !== undefined) return false;
  return req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html';
}

/**
 * The service's own web pages, mounted before `/graphql`:
 * - `GET /device`: the device-login approval page that `labdesk login` points at;
 * - the console (`/`, `/labs`, … , `/account`: `CONSOLE_ROUTES`), for a signed-in browser
 *   (signed out: to `/login?next=…`); the console's files at `/console/assets/` (hashed, immutable);
 * - `GET /login`: the sign-in page; `GET /set-password`: the page a one-time link opens;
 * - `GET /graphql` from a browser: GraphiQL, from this package's own copy;
 * - `GET /graphql/schema.graphql`: the SDL, for a signed-in caller (as introspection is);
 * - `GET /assets/<name>`: the files these pages load;
 * - `missingPage`, mounted after every API: the console (status 404) for a browser's GET of a
 *   path nothing answers, outside the APIs' paths (`NOT_PAGES`), where the JSON 404 stays.
 */
export function webRouter(schema: GraphQLSchema, services: Services, logger: Logger): { router: Router; missingPage: RequestHandler } {
  const router = express.Router();
  const sdl = printAppSchema(schema);

  router.get('/device', (_req, res, next) => sendPage(res, 'device.html', PAGE_POLICY.device, next));
  router.all('/device', onlyGet);
  // The console needs a signed-in browser; a signed-out one signs in first.
  const signedIn = (page: (res: Response, next: NextFunction) => void) => async (req: Request, res: Response, next: NextFunction) => {
    const ctx = makeContext(services, requestFacts(req, res, services.config));
    if (await ctx.viewer().catch(() => null)) return page(res, next);
    secure(res);
    res.redirect(302, `/login?next=${encodeURIComponent(req.originalUrl).replace(/%2F/g, '/')}`);
  };
  const consolePage = figureImageSources(services)
    .catch((error: unknown) => {
      logger.warn('console: figures in the S3 store will show as links (no URL could be signed)', { error: String(error) });
      return [];
    })
    .then(consolePolicy);
  const consoleApp = signedIn((res, next) => void consolePage.then((policy) => sendConsole(res, policy, next)));
  router.get(CONSOLE_ROUTES, countedAsConsole, consoleApp);
  router.all(CONSOLE_ROUTES, countedAsConsole, onlyGet);
  // A share link's page, for anyone with its token (after `#`: the server never sees it), under the
  // console's policy (its figures, when the link includes them, come from where the console's do);
  // search engines are told to keep out.
  router.get(SHARED_PAGE, countedAsConsole, (_req, res, next) => {
    res.setHeader('X-Robots-Tag', 'noindex, nofollow, noarchive');
    void consolePage.then((policy) => sendConsole(res, policy, next));
  });
  router.all(SHARED_PAGE, countedAsConsole, onlyGet);
  router.use(
    '/console/assets',
    // The mount, never the file name: a hashed name changes with every build.
    countedAs('/console/assets'),
    express.static(path.join(CONSOLE_DIR, 'assets'), {
      index: false,
      immutable: true,
      maxAge: '365d',
      setHeaders: (res) => secure(res, undefined, 'immutable'),
    }),
    (_req: Request, res: Response) => sendError(res, new AppError('NOT_FOUND', 'no such asset')),
  );
  // With single sign-on configured, the sign-in page shows its button.
  const loginFile = readFileSync(path.join(WEB_DIR, 'login.html'), 'utf8');
  const loginPage = services.sso ? showSignOnButton(loginFile) : loginFile;
  router.get('/login', (req, res) => {
    secure(res, PAGE_POLICY.device);
    res.type('text/html; charset=utf-8').send(withNextPath(loginPage, localPath(req.query.next)));
  });
  router.all('/login', onlyGet);
  router.get('/set-password', (_req, res, next) => sendPage(res, 'set-password.html', PAGE_POLICY.device, next));
  router.all('/set-password', onlyGet);

  if (services.sso) router.use('/auth/oidc', signOnRouter(services, services.sso, logger));

  router.get('/graphql', (req, res, next) => (wantsGraphiQL(req) ? sendPage(res, 'graphiql.html', PAGE_POLICY.graphiql, next) : next()));

  router.get('/graphql/schema.graphql', async (req, res) => {
    const ctx = makeContext(services, requestFacts(req, res, services.config));
    try {
      if (!(await ctx.viewer())) throw new AppError('UNAUTHENTICATED', 'the schema requires authentication, like introspection');
    } catch (error) {
      return sendError(res, toAppError(error));
    }
    secure(res);
    res.type('text/plain; charset=utf-8').send(sdl);
  });
  router.all('/graphql/schema.graphql', onlyGet);

  router.get('/assets/:name', (req, res, next) => {
    const file = Object.hasOwn(ASSETS, req.params.name) ? ASSETS[req.params.name] : undefined;
    if (!file) return sendError(res, new AppError('NOT_FOUND', 'no such asset'));
    secure(res);
    res.sendFile(file, (error) => error && !res.headersSent && next(error));
  });
  router.all('/assets/:name', onlyGet);

  // The console says "Not found" in its own layout, with the navigation, and the status says so too.
  const missingPage: RequestHandler = (req, res, next) => {
    if (!wantsMissingPage(req)) return next();
    res.status(404);
    return countedAsConsole(req, res, () => void consoleApp(req, res, next));
  };
  return { router, missingPage };
}

/**
 * The sign-in page told where to go once signed in: `next` as `localPath` left it, so that the
 * page and single sign-on follow one rule (a browser drops a tab or a newline from a URL, so a
 * rule the page applied itself to `?next=/%09/evil.example` would let it leave the site).
 */
function withNextPath(page: string, next: string): string {
  const placeholder = '<meta name="labdesk-next" content="/">';
  if (!page.includes(placeholder)) throw new Error('web/login.html lost its labdesk-next meta');
  const escaped = next.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return page.replace(placeholder, `<meta name="labdesk-next" content="${escaped}">`);
}

/** The sign-in page with its "Sign in with SSO" link shown. */
function showSignOnButton(page: string): string {
  const hidden = '<a id="sso-link" class="button" href="/auth/oidc/login" hidden>';
  if (!page.includes(hidden)) throw new Error('web/login.html lost its single sign-on link');
  return page.replace(hidden, hidden.replace(' hidden', ''));
}

/** `next` when it is a path of this site (not `//host` or `/\\host`, which browsers take for another site); else `/`. */
export const localPath = (next: unknown) =>
  typeof next === 'string' && /^\/(?![/\\])[\x21-\x7e]*$/.test(next) && next.length <= 1000 ? next : '/';

/**
 * Single sign-on (docs/api/single-sign-on.md):
 * - `GET /auth/oidc/login?next=/path`: to the provider, with the pending sign-in in a sealed cookie;
 * - `GET /auth/oidc/callback`: the provider's answer; a session cookie and on to `next`, or back
 *   to `/login?sso=<reason>` (the page says what went wrong; the log says why in detail).
 */
function signOnRouter(services: Services, sso: SingleSignOn, logger: Logger): Router {
  const router = express.Router();
  const { config } = services;
  const facts = (req: Request, res: Response) => {
    const found = requestFacts(req, res, config);
    const base = baseUrlOf(config, found.origin);
    return { ...found, base, secure: base.startsWith('https:') };
  };
  const refuse = (res: Response, error: unknown, secureCookie: boolean) => {
    const reason = error instanceof SignOnRefused ? error.reason : 'failed';
    logger.warn('single sign-on refused', {
      reason,
      requestId: res.locals.requestId,
      error: error instanceof Error ? error.message : String(error),
    });
    res.append('Set-Cookie', clearedSignOnCookie(secureCookie));
    res.redirect(302, `/login?sso=${reason}`);
  };

  router.get('/login', async (req, res) => {
    const { base, secure: https } = facts(req, res);
    secure(res);
    try {
      const { url, pending } = await sso.begin(`${base}/auth/oidc/callback`, localPath(req.query.next), services.clock.now());
      res.append('Set-Cookie', signOnCookie(pending, PENDING_SIGN_ON_SECONDS, https));
      res.redirect(302, url);
    } catch (error) {
      refuse(res, error, https);
    }
  });

  router.get('/callback', async (req, res) => {
    const { browser, secure: https } = facts(req, res);
    secure(res);
    try {
      const query = req.originalUrl.slice(req.originalUrl.indexOf('?') + 1 || req.originalUrl.length);
      const { claims, next } = await sso.finish(
        query,
        readCookie(req.headers.cookie, cookieName(SIGN_ON_COOKIE, https)),
        services.clock.now(),
      );
      const started = await signOn(services.orm.em.fork(), sso.settings, claims, browser!.origin, config.sessions, services.clock.now());
      res.append('Set-Cookie', clearedSignOnCookie(https));
      browser!.begin(started);
      res.redirect(302, next);
    } catch (error) {
      refuse(res, error, https);
    }
  });

  router.all('/login', onlyGet);
  router.all('/callback', onlyGet);
  return router;
}
