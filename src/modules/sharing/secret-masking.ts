import { creator as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';

/**
 * Secrets taken out of what a share link (or an export for sharing) lets leave the server. The
 * rules are secretlint's recommended preset (maintained upstream: OpenAI, Anthropic, GitHub, AWS,
 * GCP, Slack, npm, SendGrid, Shopify, private keys, passwords in URLs, database connection
 * strings, …; updated with the package), and beside it the kinds that preset leaves
 * out (`OWN_RULES`). A masked span reads `⟦masked: <kind>⟧` (`MASK_PATTERN`), which the console
 * shows marked.
 */
/**
 * Names that say their value is a secret (`OPENAI_API_KEY`, `db_password`, `clientSecret`, `auth-token`);
 * `tokens` is left out (`max_tokens=4096` counts tokens).
 */
const SECRET_NAME = String.raw`[\w.-]*(?:api[_-]?key|secret|token(?!s)|passw(?:or)?d|pwd|private[_-]?key|access[_-]?key|auth[_-]?key|credentials?)[\w.-]*`;
const SECRET_NAME_PATTERN = new RegExp(`^${SECRET_NAME}$`, 'i');
/** A value worth masking under such a name: 6 characters at least, no space. */
const SECRET_VALUE = String.raw`[^\s"'\x60&;,]{6,}`;

/** What the preset does not find, each with the part that is the secret (`secret` group, else the whole match). */
const OWN_RULES: { kind: string; pattern: RegExp }[] = [
  // The preset knows OpenAI keys by the marker inside them; keys are also known by their prefix.
  { kind: 'OpenAI key', pattern: /\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/g },
  // Whatever the secret, its name says what it is: `NAME=value` in an environment, a command line
  // or a query string, and `name: value` in a config file (there, a value with a digit, or of 16
  // characters or more, so that prose such as "the token: carefully" stays).
  { kind: 'secret value', pattern: new RegExp(String.raw`\b${SECRET_NAME}=["']?(?<secret>${SECRET_VALUE})`, 'gi') },
  {
    kind: 'secret value',
    pattern: new RegExp(
      String.raw`\b${SECRET_NAME}["']?\s*:\s*["']?(?<secret>(?=[^\s"'\x60,;]*\d)${SECRET_VALUE}|[^\s"'\x60,;]{16,})`,
      'gi',
    ),
  },
  { kind: 'labdesk token', pattern: /\bldk_[a-z0-9]{2,4}_[A-Za-z0-9_-]{16,}/g },
  { kind: 'JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'Stripe key', pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: 'Stripe webhook secret', pattern: /\bwhsec_[A-Za-z0-9]{24,}/g },
  { kind: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: 'Hugging Face token', pattern: /\bhf_[A-Za-z0-9]{30,}/g },
  // The preset reports this one's span from the name, not the value: the value is masked here.
  {
    kind: 'AWS secret access key',
    pattern: /(?:aws)?_?secret_?access_?key["']?\s*(?::|=>|=)\s*["']?(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
  },
  // A bearer credential in a header or a command line, whatever issued it.
  { kind: 'bearer token', pattern: /\bBearer\s+(?<secret>[A-Za-z0-9._~+/-]{20,}=*)/g },
];

const EMAIL = { kind: 'e-mail address', pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g };

/** How a masked span reads, and how to find one again (the console marks them). */
export const maskOf = (kind: string) => `⟦masked: ${kind}⟧`;
export const MASK_PATTERN = /⟦masked: [^⟧]{1,60}⟧/g;
const MASKED_WHOLE = /^⟦masked: [^⟧]{1,60}⟧$/;

export interface MaskOptions {
  /** Also mask e-mail addresses. */
  emails?: boolean;
}

interface Span {
  start: number;
  end: number;
  kind: string;
}

/** How the preset's rules read in a masked span; any other rule by its name (`…-rule-npm` → `npm`). */
const RULE_KINDS: Record<string, string> = {
  openai: 'OpenAI key',
  anthropic: 'Anthropic key',
  github: 'GitHub token',
  aws: 'AWS key',
  gcp: 'Google Cloud key',
  slack: 'Slack token',
  privatekey: 'private key',
  basicauth: 'password in an address',
  'database-connection-string': 'database password',
  npm: 'npm token',
  sendgrid: 'SendGrid key',
};
const kindOfRule = (ruleId: string) => {
  const rule = ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  return RULE_KINDS[rule] ?? rule.replace(/-/g, ' ');
};

/**
 * The preset's scanner rules, run here rather than through `@secretlint/core`: its profiler keeps
 * every performance mark of the process and searches them all on each new one, so a long-running
 * service slowed to a stop after some thousands of texts (found by `bench/export.ts`). A rule is
 * a function of a context (it reports ranges) and a source. `filter-comments` only silences
 * reports by comments in a file, which records do not have.
 */
type Scanner = { file?: (source: { content: string; filePath: string; ext: string; contentType: 'text' }) => unknown };
/** Access key ids too, for the AWS rule: an agent's transcript shows them beside their secret (`env`, a config file). */
const RULE_OPTIONS: Record<string, Record<string, unknown>> = { '@secretlint/secretlint-rule-aws': { enableIDScanRule: true } };
type Rule = { meta: { id: string }; create(context: unknown, options: unknown): Scanner };
const RULES = (recommendedRules as unknown as { rules: Rule[] }).rules.filter(
  (rule) => rule.meta.id !== '@secretlint/secretlint-rule-filter-comments',
);
/** The rules, each reporting into `spans` (made for each text: two texts masked at once never share one). */
const scannersInto = (spans: Span[]): Scanner[] =>
  RULES.map((rule) => {
    const kind = kindOfRule(rule.meta.id);
    const context = {
      sharedOptions: {},
      createTranslator: () => (messageId: string) => ({ message: messageId, messageId }),
      report: ({ range }: { range: [number, number] }) => spans.push({ start: range[0], end: range[1], kind }),
      ignore: () => undefined,
    };
    return rule.create(context, RULE_OPTIONS[rule.meta.id] ?? {});
  });

/** Texts shorter than this hold no secret any rule finds (the shortest, an AWS key id, is 20). */
const SHORTEST_SECRET = 16;

/** The spans of `text` to mask, sorted and merged. */
async function secretSpans(text: string, options: MaskOptions): Promise<Span[]> {
  const spans: Span[] = [];
  const source = { content: text, filePath: 'record.txt', ext: '.txt', contentType: 'text' as const };
  for (const scanner of scannersInto(spans)) await scanner.file?.(source);
  for (const { kind, pattern } of options.emails ? [...OWN_RULES, EMAIL] : OWN_RULES)
    for (const match of text.matchAll(pattern)) {
      const secret = match.groups?.secret;
      const start = match.index + (secret === undefined ? 0 : match[0].lastIndexOf(secret));
      spans.push({ start, end: start + (secret ?? match[0]).length, kind });
    }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** `text` with its secrets masked, and how many spans were. */
export async function maskText(text: string, options: MaskOptions = {}): Promise<{ text: string; masked: number }> {
  if (text.length < SHORTEST_SECRET && !options.emails) return { text, masked: 0 };
  const spans = await secretSpans(text, options);
  if (spans.length === 0) return { text, masked: 0 };
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + maskOf(span.kind);
    at = span.end;
  }
  return { text: out + text.slice(at), masked: spans.length };
}

/**
 * A record's JSON text with every string in it masked (keys included), as JSON again. Masking
 * the decoded strings, not the JSON text, finds a private key whose line breaks JSON escapes and
 * never cuts an escape in half. A text that is not JSON is masked as it is.
 */
export async function maskRecord(text: string, options: MaskOptions = {}): Promise<{ text: string; masked: number }> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return maskText(text, options);
  }
  let masked = 0;
  const walk = async (node: unknown): Promise<unknown> => {
    if (typeof node === 'string') {
      const done = await maskText(node, options);
      masked += done.masked;
      return done.text;
    }
    if (Array.isArray(node)) {
      const out: unknown[] = [];
      for (const item of node) out.push(await walk(item));
      return out;
    }
    if (node && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(node)) {
        // `{"api_key": "…"}`: the name says the value is a secret, whatever it looks like.
        const named = SECRET_NAME_PATTERN.test(key) && typeof item === 'string' && item.length >= 6 && !MASKED_WHOLE.test(item);
        if (named) masked += 1;
        out[(await walk(key)) as string] = named ? maskOf('secret value') : await walk(item);
      }
      return out;
    }
    return node;
  };
  const result = await walk(value);
  return masked ? { text: JSON.stringify(result), masked } : { text, masked: 0 };
}
