/**
 * Finds the exact source text of each element of a top-level array member of a JSON object,
 * so records can be stored as the bytes the client sent. The text must already be valid JSON
 * (it is scanned after JSON.parse accepted it). Like JSON.parse, a repeated key counts once,
 * the last time. Returns null when the member is absent or not an array.
 */
export function rawArrayElements(text: string, member: string): string[] | null {
  // A UTF-8 byte-order mark before the body is not part of the JSON (JSON.parse was given it stripped).
  let i = skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  if (text[i] !== '{') return null;
  i = skipSpace(text, i + 1);
  let found: string[] | null = null;
  while (text[i] !== '}') {
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, skipSpace(text, keyEnd) + 1); // past ':'
    if (key === member) found = text[i] === '[' ? elementsOf(text, i) : null;
    i = skipSpace(text, skipValue(text, i));
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return found;
}

function elementsOf(text: string, start: number): string[] {
  const elements: string[] = [];
  let i = skipSpace(text, start + 1);
  while (text[i] !== ']') {
    const end = skipValue(text, i);
    elements.push(text.slice(i, end));
    i = skipSpace(text, end);
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return elements;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  return i;
}

/** `i` is at an opening quote; returns the index just past the closing one. */
function skipString(text: string, i: number): number {
  // Jump from quote to quote; a quote preceded by an odd run of backslashes is escaped.
  for (let from = i + 1; ;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Returns the index just past the value starting at `i`. */
function skipValue(text: string, i: number): number {
  const first = text[i];
  if (first === '"') return skipString(text, i);
  if (first !== '{' && first !== '[') {
    while (i < text.length && !',}] \n\r\t'.includes(text[i])) i++;
    return i;
  }
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = skipString(text, i) - 1;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return i;
}

/**
 * The JSON text with every string value (never a key) for which `replace` answers a string
 * replaced by that string, token by token: everything else (numbers beyond double precision,
 * key order, spacing, escapes) stays exactly as written. The text must be valid JSON. Walks
 * with an explicit stack, so no nesting depth overflows it.
 */
export function replaceStringValues(text: string, replace: (value: string) => string | undefined): string {
  let out = '';
  let copied = 0;
  const containers: string[] = [];
  let atKey = false;
  for (let i = skipSpace(text, 0); i < text.length; i = skipSpace(text, i)) {
    const c = text[i];
    if (c === '"') {
      const end = skipString(text, i);
      if (atKey) {
        atKey = false;
        i = skipSpace(text, end) + 1; // past ':'
        continue;
      }
      const literal = text.slice(i, end);
      const replacement = replace(literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1));
      if (replacement !== undefined) {
        out += text.slice(copied, i) + JSON.stringify(replacement);
        copied = end;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      containers.push(c);
      atKey = c === '{';
      i++;
    } else if (c === '}' || c === ']') {
      containers.pop();
      i++;
    } else if (c === ',') {
      atKey = containers[containers.length - 1] === '{';
      i++;
    } else {
      i = skipValue(text, i);
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}
