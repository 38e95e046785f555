/** Small text helpers shared by the plan validator, store and tracker. */

/** Removes markdown emphasis markers (`**`, `__`) and backticks. */
export function stripEmphasis(text: string): string {
  return text.replace(/\*\*|__|`/g, '');
}

/** A `'` opens a quote only at the start of a word, so apostrophes in prose ("parser's") do not. */
function opensSingleQuote(text: string, i: number): boolean {
  const prev = i > 0 ? text[i - 1] : undefined;
  return prev === undefined || !/[\p{L}\p{N}]/u.test(prev);
}

function splitOn(
  text: string,
  separator: string,
  quoteAware: boolean,
  escapes = false,
): { parts: string[]; balanced: boolean } {
  const parts: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    // A backslash outside single quotes escapes the next character: `a\,b` and `"x\"y"` stay whole.
    if (escapes && ch === '\\' && quote !== "'" && i + 1 < text.length) {
      current += ch + (text[i + 1] as string);
      i++;
      continue;
    }
    if (quoteAware) {
      if (quote !== undefined) {
        if (ch === quote) quote = undefined;
        current += ch;
        continue;
      }
      if (ch === '"' || ch === '`' || (ch === "'" && opensSingleQuote(text, i))) {
        quote = ch;
        current += ch;
        continue;
      }
    }
    if (text.startsWith(separator, i)) {
      parts.push(current);
      current = '';
      i += separator.length - 1;
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return { parts, balanced: quote === undefined };
}

/**
 * Splits on `separator` outside single quotes, double quotes and backtick spans (and, with
 * `escapes`, not after a backslash, as a shell reads `a\,b`). When a quote is left open the text is
 * split without regard to quotes, so one stray quote cannot hide every separator after it.
 */
export function splitOutsideQuotes(text: string, separator = ',', escapes = false): string[] {
  const quoted = splitOn(text, separator, true, escapes);
  return quoted.balanced ? quoted.parts : splitOn(text, separator, false).parts;
}

/** Labels that start a step's metadata segment: targets, checks and outcomes. */
export const TARGET_LABEL =
  /^(?:\*\*|__)?\s*(?:files\/symbols|files|file|symbols|symbol|targets|target|behaviou?r)\s*(?:\*\*|__)?\s*:/i;
const ANY_LABEL =
  /^(?:\*\*|__)?\s*(?:files\/symbols|files|file|symbols|symbol|targets|target|behaviou?r|verification|verify|outcomes?)\s*(?:\*\*|__)?\s*:/i;

/**
 * Where a quote opened at `i` closes, or -1 when it does not. A `'` opens a quote only at the start
 * of a word and closes at the end of one, so apostrophes ("don't") and Rust lifetimes (`&'a`,
 * `Foo<'a, 'b>`, `T: 'static`) never do.
 */
function quoteEnd(text: string, i: number): number {
  const ch = text[i] as string;
  if (ch !== "'") return text.indexOf(ch, i + 1);
  if (!opensSingleQuote(text, i) || /[&<]/.test(text.slice(0, i).trimEnd().slice(-1))) return -1;
  for (let j = text.indexOf("'", i + 1); j !== -1; j = text.indexOf("'", j + 1)) {
    if (!/[\p{L}\p{N}_]/u.test(text[j + 1] ?? '')) return j;
  }
  return -1;
}

/** Positions of the arrows (`->`, `→`) outside quotes, backtick spans and brackets, with their widths. */
function arrowsOutside(text: string, brackets: boolean): { at: number; width: number }[] | undefined {
  const arrows: { at: number; width: number }[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '"' || ch === '`' || ch === "'") {
      const end = quoteEnd(text, i);
      if (end !== -1) {
        i = end;
        continue;
      }
    }
    if (brackets && ch === '[') depth++;
    else if (brackets && ch === ']' && --depth < 0) return undefined;
    else if (depth === 0 && ch === '→') arrows.push({ at: i, width: 1 });
    else if (depth === 0 && text.startsWith('->', i)) {
      arrows.push({ at: i, width: 2 });
      i++;
    }
  }
  return depth === 0 ? arrows : undefined;
}

/**
 * Splits a step line into its `->` segments (`→` counts as `->`). Arrows inside quotes, backtick
 * spans and brackets never split. When some arrow leads to a target label (`files:`, `symbols:`,
 * `target:`, `behavior:`), only arrows that lead to a label split: the other arrows are prose of
 * the action (`Arrange Overview → Quick start -> files: [README.md]`). Without a target label
 * every arrow splits (`Update -> src/a.ts -> verify: npm test`).
 */
export function splitArrows(text: string): string[] {
  // Unbalanced brackets (a stray `[` in prose) would hide every arrow after them: ignore brackets then.
  const arrows = arrowsOutside(text, true) ?? arrowsOutside(text, false) ?? [];
  const after = (a: { at: number; width: number }) => text.slice(a.at + a.width).trimStart();
  const marked = arrows.some((a) => TARGET_LABEL.test(after(a)));
  const parts: string[] = [];
  let start = 0;
  for (const a of arrows) {
    if (marked && !ANY_LABEL.test(after(a))) continue;
    parts.push(text.slice(start, a.at));
    start = a.at + a.width;
  }
  parts.push(text.slice(start));
  return parts;
}

/** If `text` is a `[a, b]` bracket list, its items (split on commas outside quotes, not escaped ones); else undefined. */
export function bracketItems(text: string): string[] | undefined {
  const t = text.trim();
  if (!t.startsWith('[') || !t.endsWith(']')) return undefined;
  return splitOutsideQuotes(t.slice(1, -1), ',', true)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * Items of a `verify:` value: a bracket list's items (split on commas outside quotes); any other
 * text is one item, commas and all (`launch with logging, then use cargo test to confirm`).
 */
export function verifyItems(text: string): string[] {
  const items = bracketItems(text) ?? [text.trim()];
  return items.filter((s) => s.length > 0);
}

/** Items of a target or check value: a bracket list's items, else the text split on commas outside quotes. */
export function valueItems(text: string): string[] {
  const items = bracketItems(text) ?? splitOutsideQuotes(text).map((s) => s.trim());
  return items.filter((s) => s.length > 0);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The longest prefix of `text` whose UTF-8 encoding fits `maxBytes`, never splitting a character. */
export function boundUtf8(text: string, maxBytes: number): { text: string; truncated: boolean; bytes: number } {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return { text, truncated: false, bytes: bytes.length };
  let end = maxBytes;
  // Back up to the start of a UTF-8 sequence (continuation bytes are 10xxxxxx).
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return { text: decoder.decode(bytes.subarray(0, end)), truncated: true, bytes: bytes.length };
}

/** Maximum size of a rejected draft kept for the repair request (rules §3, §4). */
export const REJECTED_DRAFT_MAX_BYTES = 8 * 1024;
