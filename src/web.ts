import path from 'node:path';
import express, { NextFunction, Request, Response, Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import { sendError } from './http/answers';
import { makeContext, requestFacts, Services } from './context';
import { AppError, toAppError } from './errors';
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
  'account.js': path.join(WEB_DIR, 'account.js'),
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

/** Headers of every page and asset. */
function secure(res: Response, policy?: string) {
  if (policy) res.setHeader('Content-Security-Policy', policy);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Cache-Control', 'no-cache');
}

const sendPage = (res: Response, file: string, policy: string, next: NextFunction) => {
  secure(res, policy);
  res.sendFile(
    path.join(WEB_DIR, file),
    { headers: { 'Content-Type': 'text/html; charset=utf-8' } },
    (error) => error && !res.headersSent && next(error),
  );
};

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
 * - `GET /`: a signed-in person's account page (signed out: to `/login`);
 * - `GET /login`: the sign-in page; `GET /set-password`: the page a one-time link opens;
 * - `GET /graphql` from a browser: GraphiQL, from this package's own copy;
 * - `GET /graphql/schema.graphql`: the SDL, for a signed-in caller (as introspection is);
 * - `GET /assets/<name>`: the files these pages load.
 */
export function webRouter(schema: GraphQLSchema, services: Services): Router {
  const router = express.Router();
  const sdl = printAppSchema(schema);

  router.get('/device', (_req, res, next) => sendPage(res, 'device.html', PAGE_POLICY.device, next));
  router.all('/device', onlyGet);
  // The start page: signed out, the sign-in page.
  router.get('/', async (req, res, next) => {
    const ctx = makeContext(services, requestFacts(req, res, services.config));
    const viewer = await ctx.viewer().catch(() => null);
    if (!viewer) {
      secure(res);
      return void res.redirect(302, '/login?next=/');
    }
    sendPage(res, 'account.html', PAGE_POLICY.device, next);
  });
  router.all('/', onlyGet);
  router.get('/login', (_req, res, next) => sendPage(res, 'login.html', PAGE_POLICY.device, next));
  router.all('/login', onlyGet);
  router.get('/set-password', (_req, res, next) => sendPage(res, 'set-password.html', PAGE_POLICY.device, next));
  router.all('/set-password', onlyGet);

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

  return router;
}
