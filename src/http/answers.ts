import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { AppError, ERROR_CODES, FieldIssue, toAppError } from '../errors';

/**
 * How every HTTP answer of an error is written (docs/api/wire.md), and the checks on JSON bodies: a
 * leaf that the composition root, the pages and the facade share, below all of them.
 */

/** One invalid input as the REST API shows it: where it was in the request, and what is wrong. */
export interface WireIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** Where a domain issue was in the request (the facade knows each route's variables). */
export type LocateIssue = (issue: FieldIssue) => WireIssue;

const WIRE_PARTS = new Set(['body', 'query', 'path', 'header']);
/** A GraphQL (camelCase) name as the wire spells it. */
export const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Without a route's variables: an issue already at its wire location stays there; any other is in the body. */
export const locateInBody: LocateIssue = (issue) => {
  const [head] = issue.path;
  const wire = typeof head === 'string' && WIRE_PARTS.has(head);
  return { loc: wire ? issue.path : ['body', ...issue.path.map(String).map(snake)], msg: issue.msg, type: issue.type };
};

/**
 * An error as the REST API answers it: the status from the error table, the headers it carries,
 * and the body (`{detail}`, or the 422's list of issues at their wire locations).
 */
function restAnswer(error: AppError, locate: LocateIssue): { status: number; headers: Record<string, string>; body: object } {
  const status = ERROR_CODES[error.code].http;
  const headers: Record<string, string> = { ...error.headers };
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer';
  if (error.code === 'VALIDATION_FAILED' && error.issues) return { status, headers, body: { detail: error.issues.map(locate) } };
  return { status, headers, body: { ...error.details, detail: error.message } };
}

/** Writes an error the one way the REST API writes errors (docs/api/wire.md). */
export function sendError(res: Response, error: AppError, locate: LocateIssue = locateInBody): void {
  const { status, headers, body } = restAnswer(error, locate);
  res.set(headers).status(status).json(body);
}

/**
 * `sendError` on a bare Node response, for code that serves bytes below Express
 * (`serveObject`): the same status, headers and body, after `headers` of the caller's own, as
 * `application/json`; HEAD gets no body.
 */
export function writeError(req: IncomingMessage, res: ServerResponse, error: AppError, headers: OutgoingHttpHeaders = {}): void {
  const answer = restAnswer(error, locateInBody);
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    ...headers,
    ...answer.headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

export function describe(error: unknown) {
  return error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { value: String(error) };
}

const DECLARED_CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/**
 * JSON bodies are UTF-8 (RFC 8259). The body parser would decode other `utf-*` charsets, but
 * records are cut from the raw bytes and stored as sent, so any other declared charset is refused.
 * @throws UNSUPPORTED_MEDIA_TYPE
 */
export function refuseCharsetOtherThanUtf8(req: Request): void {
  const charset = DECLARED_CHARSET.exec(req.headers['content-type'] ?? '')?.[1].toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'unsupported body charset: send JSON as UTF-8');
}

/**
 * A JSON body must be UTF-8 (RFC 8259), byte for byte: the body parser would quietly turn
 * invalid sequences into U+FFFD, storing text the client never sent (records are kept as sent).
 * For `express.json`'s `verify`, which runs on the decoded (inflated) bytes before parsing.
 * @throws an error of type `entity.not.utf8` (400 through `toAppError`)
 */
export function refuseInvalidUtf8(buffer: Buffer): void {
  if (!isUtf8(buffer)) throw Object.assign(new Error('the body is not valid UTF-8'), { type: 'entity.not.utf8' });
}

/** Express error middleware for routes that parse their body up front (`/graphql`): the body parser's failures in the API's terms. */
export function bodyErrors(error: unknown, _req: Request, res: Response, next: NextFunction) {
  const appError = toAppError(error);
  if (appError.code !== 'INTERNAL') return sendError(res, appError);
  next(error);
}
