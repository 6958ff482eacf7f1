import type { Request, Response } from 'express';
import { AppError } from '../src/errors';

/**
 * Bodies above this size are large: while one is read, parsed and stored the process holds about
 * five times its size (the text, the parsed object, the GraphQL variables, the insert's JSON).
 * Smaller bodies are never held back.
 */
export const LARGE_BODY_BYTES = 1024 * 1024;

/** Bytes of large bodies an instance is reading or answering now. */
export interface LargeBodies {
  /**
   * Counts a body of `declared` bytes (a body of unknown length counts as the largest it may
   * have) until its response closes; a small one is not counted.
   * @throws UNAVAILABLE (with Retry-After) when the instance is reading as many as it may: the
   * body is refused before it is parsed, to be sent again shortly
   */
  admit(res: Response, declared: number): void;
}

/**
 * One instance's budget of `bytesInFlight` bytes of large bodies read at once (by their declared
 * length), shared by every router that parses bodies whole: memory is per process, so two
 * routers with a budget each would hold twice as much.
 */
export function largeBodyBudget(bytesInFlight: number): LargeBodies {
  let inFlight = 0;
  return {
    admit(res, declared) {
      if (declared <= LARGE_BODY_BYTES) return;
      if (inFlight + declared > bytesInFlight)
        throw new AppError(
          'UNAVAILABLE',
          'this server is receiving other large messages; send this one again in a few seconds',
          undefined,
          undefined,
          { 'Retry-After': '5' },
        );
      inFlight += declared;
      res.once('close', () => (inFlight -= declared));
    },
  };
}

/** Whether a request has a body (HTTP/1.1: a declared length, or a chunked one). */
export const hasBody = (req: Request) => req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;

/** A request's declared `Content-Length`, or undefined when it has none (a chunked body). */
export function declaredLength(req: Request): number | undefined {
  const header = req.headers['content-length'];
  return header === undefined ? undefined : Number(header);
}

/** How long the rest of a refused body is read and dropped before the connection is cut. */
const LINGER_MS = 5_000;

/**
 * For a request answered before its body is read: closing the connection at once, with the body
 * still arriving, cuts its sender off mid-send (EPIPE, a reset), and it never reads the answer.
 * Node reads and drops the rest of the body once the answer is sent (nothing is kept), as nginx's
 * lingering close does; past LINGER_MS the connection is cut all the same.
 */
export function dropBodyForAWhile(req: Request): void {
  const cut = setTimeout(() => req.socket.destroy(), LINGER_MS);
  cut.unref();
  req.once('end', () => clearTimeout(cut));
  req.once('close', () => clearTimeout(cut));
}
