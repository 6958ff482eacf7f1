import { maskRecord, maskText } from '../sharing/secret-masking';

/**
 * A trajectory as something a scientist keeps (docs/api/trajectories.md, "Export"): a Jupyter
 * notebook (nbformat 4.5) or one self-contained HTML report, made from the records as they are
 * read, batch by batch, so a long trajectory exports in flat memory. Turns' text becomes Markdown
 * cells, code the agent ran becomes code cells with its output, figures become images inside the
 * file, and resolved review notes follow the record they are on. `forSharing` masks secrets as a
 * share link does (the title, the records and the notes).
 */
export type ExportFormat = 'ipynb' | 'html';

export interface ExportNote {
  annotationId: string;
  recordUuid: string;
  body: string;
  replyTo: string | null;
  status: string;
  author: string;
}

/** A reviewer's verdict on the trajectory (docs/api/reviews.md), exported at its head. */
export interface ExportReview {
  reviewer: string;
  verdict: 'approved' | 'changes_requested';
  note: string | null;
  decidedAt: Date;
}

export interface ExportSource {
  title: string;
  owner: string;
  source: string;
  recordCount: number;
  /** The records' JSON texts, in order, a batch at a time. */
  batches: AsyncIterable<string[]>;
  /** Every note of the trajectory: the resolved threads are exported. */
  notes: ExportNote[];
  /** Its reviews' verdicts, newest first. */
  reviews: ExportReview[];
  /** A figure's bytes by its path, or null when it cannot be embedded. */
  figure: (path: string) => Promise<{ mime: string; base64: string } | null>;
  forSharing: boolean;
  exportedAt: Date;
}

/** A piece of the export before it is written as a notebook cell or a report section. */
type Cell =
  | { kind: 'markdown'; text: string; attachments?: Record<string, Record<string, string>> }
  | { kind: 'code'; code: string; tool: string; outputs: Output[]; waiting: boolean };
type Output = { kind: 'stream'; name: 'stdout' | 'stderr'; text: string };

/** Cells waiting for their code's result this long (in cells) are written without it. */
const MAX_HELD_CELLS = 200;

const asText = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value, null, 2));

/** What a tool call ran, as a cell's code: a shell command as `%%bash`, code as it is; null for other tools. */
function codeOf(name: string, input: unknown): string | null {
  const fields = (input ?? {}) as Record<string, unknown>;
  if (typeof fields.code === 'string') return fields.code;
  if (typeof fields.command === 'string') return /bash|shell|sh$/i.test(name) ? `%%bash\n${fields.command}` : fields.command;
  return null;
}

const ROLE_NAMES: Record<string, string> = { user: 'User', assistant: 'Assistant', system: 'System' };

/** The cells of the whole trajectory, in order (a code cell waits for its result, within bounds). */
async function* cellsOf(source: ExportSource): AsyncGenerator<Cell> {
  const resolved = new Map<string, ExportNote[]>();
  const roots = new Set(source.notes.filter((note) => !note.replyTo && note.status === 'resolved').map((note) => note.annotationId));
  for (const note of source.notes)
    if (roots.has(note.annotationId) || (note.replyTo && roots.has(note.replyTo)))
      resolved.set(note.recordUuid, [...(resolved.get(note.recordUuid) ?? []), note]);
  const mask = async (text: string) => (source.forSharing ? (await maskText(text)).text : text);

  const held: Cell[] = [];
  const waiting = new Map<string, Cell & { kind: 'code' }>();
  let seq = 0;
  let figures = 0;
  for await (const batch of source.batches) {
    for (const stored of batch) {
      seq++;
      const text = source.forSharing ? (await maskRecord(stored)).text : stored;
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(text) as Record<string, unknown>;
      } catch {
        held.push({ kind: 'markdown', text: `**Record ${seq}** (not JSON)\n\n${fence(text)}` });
        continue;
      }
      const message = (record.message ?? {}) as Record<string, unknown>;
      const type = asText(message.role ?? record.type);
      const who = ROLE_NAMES[type] ?? (type || 'record');
      const content = message.content ?? record.content;
      const blocks: unknown[] = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
      let prose: string[] = [];
      const flushProse = () => {
        if (prose.length) held.push({ kind: 'markdown', text: `**${who}** · record ${seq}\n\n${prose.join('\n\n')}` });
        prose = [];
      };
      for (const raw of blocks) {
        const block = (raw ?? {}) as Record<string, unknown>;
        if (block.type === 'text') prose.push(asText(block.text));
        else if (block.type === 'tool_use') {
          flushProse();
          const name = asText(block.name) || 'tool';
          const code = codeOf(name, block.input);
          if (code === null)
            held.push({ kind: 'markdown', text: `**Tool call** \`${name}\` · record ${seq}\n\n${fence(asText(block.input))}` });
          else {
            const cell = { kind: 'code' as const, code, tool: name, outputs: [], waiting: typeof block.id === 'string' };
            held.push(cell);
            if (typeof block.id === 'string') waiting.set(block.id, cell);
          }
        } else if (block.type === 'tool_result') {
          flushProse();
          const output = Array.isArray(block.content)
            ? block.content.map((part) => asText((part as Record<string, unknown>)?.text ?? part)).join('\n')
            : asText(block.content);
          const cell = waiting.get(String(block.tool_use_id));
          const stream = {
            kind: 'stream' as const,
            name: block.is_error === true ? ('stderr' as const) : ('stdout' as const),
            text: output,
          };
          if (cell) {
            cell.outputs.push(stream);
            cell.waiting = false;
            waiting.delete(String(block.tool_use_id));
          } else held.push({ kind: 'markdown', text: `**Tool result** · record ${seq}\n\n${fence(output)}` });
        } else if (block.type === 'image' && typeof block.path === 'string') {
          flushProse();
          const image = await source.figure(block.path);
          const label = `Figure ${block.path}`;
          if (!image)
            held.push({
              kind: 'markdown',
              text: `*${escapeMarkdown(label)}: not embedded (not an uploaded image, or larger than 4 MiB).*`,
            });
          else {
            const name = `figure-${++figures}.${image.mime.split('/')[1]}`;
            held.push({
              kind: 'markdown',
              text: `![${escapeMarkdown(label)}](attachment:${name})`,
              attachments: { [name]: { [image.mime]: image.base64 } },
            });
          }
        } else if (block.type !== undefined || raw !== undefined) prose.push(fence(asText(raw)));
      }
      flushProse();
      const notes = typeof record.uuid === 'string' ? resolved.get(record.uuid) : undefined;
      if (notes)
        for (const note of notes)
          held.push({
            kind: 'markdown',
            text: `> **Review note** by ${escapeMarkdown(note.author)}${note.replyTo ? ' (reply)' : ', resolved'}\n>\n${(
              await mask(note.body)
            )
              .split('\n')
              .map((line) => `> ${line}`)
              .join('\n')}`,
          });
      // Written once nothing before them waits for a result (or they waited long enough).
      while (held.length && (held[0].kind !== 'code' || !held[0].waiting || held.length > MAX_HELD_CELLS)) yield held.shift()!;
    }
  }
  yield* held;
}

const fence = (text: string) => {
  const ticks = '`'.repeat(Math.max(3, ...(text.match(/`+/g) ?? []).map((run) => run.length + 1)));
  return `${ticks}\n${text}\n${ticks}`;
};
const escapeMarkdown = (text: string) => text.replace(/([\\`*_[\]<>])/g, '\\$1');

const VERDICTS = { approved: 'Approved', changes_requested: 'Changes requested' } as const;

/** The verdicts as Markdown, one item each (masked for sharing as the notes are); empty when none. */
async function reviewsText(source: ExportSource): Promise<string> {
  const items: string[] = [];
  for (const review of source.reviews) {
    const note = review.note ? (source.forSharing ? (await maskText(review.note)).text : review.note) : '';
    items.push(
      `- **${VERDICTS[review.verdict]}** by ${escapeMarkdown(review.reviewer)}, ${review.decidedAt.toISOString().slice(0, 10)}${note ? `: ${note.replace(/\n/g, ' ')}` : ''}`,
    );
  }
  return items.length ? `**Reviews**\n\n${items.join('\n')}` : '';
}

/** A notebook's text as a list of lines, as nbformat writes `source` (every line but the last keeps its `\n`). */
const lines = (text: string) => text.split(/(?<=\n)/);

/** The notebook, piece by piece (nbformat 4.5: every cell has an id). */
export async function* notebookChunks(source: ExportSource): AsyncGenerator<string> {
  const title = source.forSharing ? (await maskText(source.title)).text : source.title;
  const header: Cell = {
    kind: 'markdown',
    text: `# ${escapeMarkdown(title)}\n\n${escapeMarkdown(source.owner)}’s run · ${source.source} · ${source.recordCount.toLocaleString('en')} records · exported ${source.exportedAt.toISOString()}${source.forSharing ? ' · secrets masked' : ''}`,
  };
  const reviews = await reviewsText(source);
  if (reviews) header.text += `\n\n${reviews}`;
  yield '{"cells":[';
  let index = 0;
  for await (const cell of prepend(header, cellsOf(source))) {
    const id = `cell-${++index}`;
    const json =
      cell.kind === 'markdown'
        ? {
            cell_type: 'markdown',
            id,
            metadata: {},
            source: lines(cell.text),
            ...(cell.attachments ? { attachments: cell.attachments } : {}),
          }
        : {
            cell_type: 'code',
            id,
            metadata: { labdesk: { tool: cell.tool } },
            execution_count: null,
            source: lines(cell.code),
            outputs: cell.outputs.map((output) => ({ output_type: 'stream', name: output.name, text: lines(output.text) })),
          };
    yield `${index > 1 ? ',' : ''}${JSON.stringify(json)}`;
  }
  const metadata = {
    kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
    language_info: { name: 'python' },
    labdesk: {
      title,
      owner: source.owner,
      source: source.source,
      exportedAt: source.exportedAt.toISOString(),
      secretsMasked: source.forSharing,
    },
  };
  yield `],"metadata":${JSON.stringify(metadata)},"nbformat":4,"nbformat_minor":5}\n`;
}

async function* prepend<T>(first: T, rest: AsyncIterable<T>): AsyncGenerator<T> {
  yield first;
  yield* rest;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The report's only style: inline, as nothing may be fetched. */
const REPORT_STYLE = `body{font:15px/1.5 system-ui,sans-serif;color:#1d2430;max-width:60rem;margin:2rem auto;padding:0 1rem}
h1{font-size:1.6rem}.meta{color:#535d6c}section{border-bottom:1px solid #d5dae2;padding:.75rem 0}
pre{background:#f3f5f8;padding:.75rem;overflow:auto;white-space:pre-wrap;word-break:break-word}
pre.err{background:#fdecea}.code{border-left:3px solid #2454c5;padding-left:.75rem}.label{font-size:.8rem;color:#535d6c}
blockquote{border-left:3px solid #1c6b3a;margin:.5rem 0;padding:.25rem .75rem;background:#f1f8f3}img{max-width:100%}
.masked{background:#2b3340;color:#fff;border-radius:4px;padding:0 .3rem;font-size:.85em}`;

/** Markdown as the report shows it: text with line breaks, `**bold**` kept, fences as code. */
function markdownHtml(text: string, attachments?: Record<string, Record<string, string>>): string {
  const image = /^!\[(.*)\]\(attachment:([^)]+)\)$/.exec(text);
  if (image && attachments?.[image[2]]) {
    const [[mime, base64]] = Object.entries(attachments[image[2]]);
    const label = image[1].replace(/\\(.)/g, '$1');
    return `<figure><img alt="${escapeHtml(label)}" src="data:${escapeHtml(mime)};base64,${base64}"><figcaption>${escapeHtml(label)}</figcaption></figure>`;
  }
  return text
    .split(/(^`{3,}\n[\s\S]*?\n`{3,}$)/m)
    .map((part, index) =>
      index % 2
        ? `<pre>${withMasks(escapeHtml(part.replace(/^`+\n|\n`+$/g, '')))}</pre>`
        : `<p>${withMasks(escapeHtml(part.trim()))
            .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
            .replace(/\n/g, '<br>')}</p>`,
    )
    .join('');
}
const withMasks = (html: string) => html.replace(/⟦masked: ([^⟧]{1,60})⟧/g, '<span class="masked">masked: $1</span>');

/** The report, piece by piece: one HTML file that fetches nothing (its CSP says so too). */
export async function* htmlChunks(source: ExportSource): AsyncGenerator<string> {
  const title = escapeHtml(source.forSharing ? (await maskText(source.title)).text : source.title);
  yield `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="robots" content="noindex"><title>${title}</title><style>${REPORT_STYLE}</style></head><body>
<h1>${title}</h1><p class="meta">${escapeHtml(source.owner)}’s run · ${escapeHtml(source.source)} · ${source.recordCount.toLocaleString('en')} records · exported ${source.exportedAt.toISOString()}${source.forSharing ? ' · secrets masked' : ''}</p>\n`;
  const reviews = await reviewsText(source);
  if (reviews) yield `<section class="reviews">${markdownHtml(reviews)}</section>\n`;
  for await (const cell of cellsOf(source)) {
    if (cell.kind === 'markdown') {
      const quote = cell.text.startsWith('> ');
      const body = markdownHtml(quote ? cell.text.replace(/^> ?/gm, '') : cell.text, cell.attachments);
      yield quote ? `<blockquote>${body}</blockquote>\n` : `<section>${body}</section>\n`;
    } else {
      const outputs = cell.outputs
        .map((output) => `<pre class="${output.name === 'stderr' ? 'err' : 'out'}">${withMasks(escapeHtml(output.text))}</pre>`)
        .join('');
      yield `<section class="code"><div class="label">${escapeHtml(cell.tool)}</div><pre>${withMasks(escapeHtml(cell.code))}</pre>${outputs}</section>\n`;
    }
  }
  yield '</body></html>\n';
}
