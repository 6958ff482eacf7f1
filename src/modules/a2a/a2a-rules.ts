import { A2aError, FieldIssue, invalid } from '../../errors';
import { INPUT_MEDIA_TYPES, unsupportedMediaType } from './a2a-parts';
import { MAX_HISTORY_LENGTH } from './a2a-task.repository';
import type { A2aMessage } from './a2a.types';
import type { A2aPushConfigInput } from './a2a.inputs';

/**
 * The rules of A2A requests that their GraphQL types cannot say: lengths, ranges, formats, one
 * content member per part, the caller's role. GraphQL has checked each shape (types, required
 * members, enums) before a service asks these; every broken rule of a request is reported at
 * once, at its path in the request (JSON-RPC -32602 with field violations).
 */

/** Most push notification configs one task may have. */
export const MAX_CONFIGS_PER_TASK = 10;
const MAX_ID_CHARS = 200;
const MAX_TOKEN_CHARS = 1024;
const MAX_CREDENTIALS_CHARS = 4096;
/** Printable ASCII only: a token or credential goes into a header, where CR/LF would smuggle another header. */
const HEADER_TEXT = /^[\x20-\x7e]*$/;
/** An HTTP auth scheme is a token (RFC 9110 §11.1). */
const AUTH_SCHEME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
/** A client-chosen config id: visible ASCII, no spaces (the server's own are `pnc_…`). */
const CONFIG_ID = /^[\x21-\x7e]{1,200}$/;
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

type Path = (string | number)[];

/** Collects the broken rules of one request. */
export class Rules {
  private readonly issues: FieldIssue[] = [];

  add(path: Path, msg: string): void {
    this.issues.push({ path, msg, type: 'value_error' });
  }

  /** An id: a non-empty string of at most 200 characters (absent is fine unless `required`). */
  id(value: string | null | undefined, path: Path, what: string, required = false): void {
    if (value === null || value === undefined) {
      if (required) this.add(path, `required: ${what} (1 to ${MAX_ID_CHARS} characters)`);
    } else if (value.length === 0 || value.length > MAX_ID_CHARS) this.add(path, `must be ${what} (1 to ${MAX_ID_CHARS} characters)`);
  }

  range(value: number | null | undefined, path: Path, [min, max]: [number, number]): void {
    if (value !== null && value !== undefined && (value < min || value > max)) this.add(path, `must be an integer from ${min} to ${max}`);
  }

  historyLength(value: number | null | undefined, path: Path): void {
    this.range(value, path, [0, MAX_HISTORY_LENGTH]);
  }

  timestamp(value: string | null | undefined, path: Path): void {
    if (value !== null && value !== undefined && (!RFC3339.test(value) || Number.isNaN(Date.parse(value))))
      this.add(path, 'must be an RFC 3339 timestamp');
  }

  /** A caller's message: its ids, its role, and parts of one content member each (URL parts are disabled here). */
  message(message: A2aMessage, path: Path): void {
    this.id(message.messageId, [...path, 'messageId'], 'a message id', true);
    if (message.role !== 'ROLE_USER') this.add([...path, 'role'], 'a caller sends ROLE_USER');
    this.id(message.taskId, [...path, 'taskId'], 'a task id');
    this.id(message.contextId, [...path, 'contextId'], 'a context id');
    if (message.parts.length === 0) this.add([...path, 'parts'], 'required: at least one part');
    message.parts.forEach((part, index) => {
      const at = [...path, 'parts', index];
      const members = (['text', 'raw', 'url', 'data'] as const).filter((name) => part[name] !== null && part[name] !== undefined);
      if (members.length !== 1) return this.add(at, 'must have exactly one of text, raw, url, data');
      if (typeof part.raw === 'string' && (!BASE64.test(part.raw) || part.raw.length % 4 !== 0)) this.add([...at, 'raw'], 'must be base64');
      if (typeof part.url === 'string') this.add([...at, 'url'], 'URL parts are disabled on this server');
    });
  }

  /** A push notification config the caller sends (its `url` is then checked by the outbound guard, which resolves the host). */
  pushConfig(config: A2aPushConfigInput, path: Path): void {
    if (config.id && !CONFIG_ID.test(config.id)) this.add([...path, 'id'], 'must be 1 to 200 visible ASCII characters');
    if (config.url === '') this.add([...path, 'url'], 'required: an absolute http or https URL');
    this.headerText(config.token, [...path, 'token'], MAX_TOKEN_CHARS);
    const auth = config.authentication;
    if (!auth) return;
    if (!AUTH_SCHEME.test(auth.scheme))
      this.add([...path, 'authentication', 'scheme'], 'required: an HTTP authentication scheme (e.g. Bearer), 1 to 64 token characters');
    this.headerText(auth.credentials, [...path, 'authentication', 'credentials'], MAX_CREDENTIALS_CHARS);
  }

  private headerText(value: string | null | undefined, path: Path, maxChars: number): void {
    if (value === null || value === undefined) return;
    if (value.length > maxChars) this.add(path, `must be at most ${maxChars} characters`);
    else if (!HEADER_TEXT.test(value)) this.add(path, 'must be printable ASCII (no line breaks or control characters)');
  }

  /** @throws VALIDATION_FAILED with every broken rule, if any */
  check(): void {
    if (this.issues.length) throw invalid(this.issues);
  }
}

/**
 * A message's parts of a media type the agent does not accept (A2A §3.1.1).
 * @throws BAD_REQUEST (CONTENT_TYPE_NOT_SUPPORTED, -32005)
 */
export function checkMediaTypes(message: A2aMessage): void {
  const refused = unsupportedMediaType(message.parts);
  if (refused)
    throw new A2aError(
      'CONTENT_TYPE_NOT_SUPPORTED',
      `media type ${refused} is not accepted; this agent accepts ${INPUT_MEDIA_TYPES.join(', ')}`,
    );
}
