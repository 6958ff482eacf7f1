/**
 * A trajectory record as the console shows it. Records come from clients as JSON in the
 * transcript shape (`{uuid, parentUuid, type, message: {content, usage}}`, content a string or
 * blocks of text, tool_use, tool_result, image); anything else is shown as its raw text. Every
 * value ends up as text in the page, never as HTML.
 */
export type Block =
  | { kind: 'text'; text: string }
  | { kind: 'tool_use'; name: string; input: string }
  | { kind: 'tool_result'; text: string; isError: boolean }
  | { kind: 'image'; path: string }
  | { kind: 'raw'; text: string };

export interface Turn {
  seq: number;
  uuid: string | null;
  type: string;
  blocks: Block[];
  inputTokens: number;
  outputTokens: number;
  error: boolean;
  /** When the client says the record was made (its `timestamp`), as an ISO instant; null when it does not say. */
  at: string | null;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value, null, 2));

function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  if (!Array.isArray(content)) return content === undefined ? [] : [{ kind: 'raw', text: str(content) }];
  return content.map((block): Block => {
    const b = (block ?? {}) as Record<string, unknown>;
    switch (b.type) {
      case 'text':
        return { kind: 'text', text: str(b.text) };
      case 'tool_use':
        return { kind: 'tool_use', name: str(b.name) || 'tool', input: str(b.input) };
      case 'tool_result': {
        const inner = Array.isArray(b.content)
          ? b.content.map((part) => str((part as Record<string, unknown>)?.text ?? part)).join('\n')
          : str(b.content);
        return { kind: 'tool_result', text: inner, isError: b.is_error === true };
      }
      case 'image':
        // A figure of the session's figure map, by its path; an image inline in the record is not shown.
        return typeof b.path === 'string' ? { kind: 'image', path: b.path } : { kind: 'raw', text: '[an image inline in the record]' };
      default:
        return { kind: 'raw', text: str(block) };
    }
  });
}

export function parseRecord(seq: number, text: string): Turn {
  let record: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    record = parsed as Record<string, unknown>;
  } catch {
    return { seq, uuid: null, type: 'unreadable', blocks: [{ kind: 'raw', text }], inputTokens: 0, outputTokens: 0, error: true, at: null };
  }
  const message = (record.message ?? {}) as Record<string, unknown>;
  // Counted as the service counts a trajectory's total (records.ts there): `message.usage` only,
  // whole positive counts up to 10 million; so the turns shown add up to the header's tokens.
  const usage = (message.usage ?? {}) as Record<string, unknown>;
  const blocks = blocksOf(message.content ?? record.content);
  const count = (value: unknown) => (typeof value === 'number' && value > 0 && value <= 10_000_000 ? Math.floor(value) : 0);
  return {
    seq,
    uuid: typeof record.uuid === 'string' ? record.uuid : null,
    type: typeof record.type === 'string' ? record.type : 'record',
    blocks: blocks.length ? blocks : [{ kind: 'raw', text }],
    inputTokens: count(usage.input_tokens),
    outputTokens: count(usage.output_tokens),
    error: record.error !== undefined || record.isError === true || blocks.some((block) => block.kind === 'tool_result' && block.isError),
    at: instantOf(record.timestamp),
  };
}

/**
 * A record's `timestamp` as an ISO instant: an ISO string (what transcripts carry), or a number of
 * milliseconds since 1970 (of seconds when it is too small to be milliseconds of this century).
 */
function instantOf(value: unknown): string | null {
  const date =
    typeof value === 'string' && value ? new Date(value) : typeof value === 'number' ? new Date(value < 1e11 ? value * 1000 : value) : null;
  return date && Number.isFinite(date.getTime()) ? date.toISOString() : null;
}
