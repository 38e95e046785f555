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

function splitOn(text: string, separator: string, quoteAware: boolean): { parts: string[]; balanced: boolean } {
  const parts: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
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
 * Splits on `separator` outside single quotes, double quotes and backtick spans. When a quote is
 * left open the text is split without regard to quotes, so one stray quote cannot hide every
 * separator after it.
 */
export function splitOutsideQuotes(text: string, separator = ','): string[] {
  const quoted = splitOn(text, separator, true);
  return quoted.balanced ? quoted.parts : splitOn(text, separator, false).parts;
}

/** Splits a step line on `->` (and `→`), outside backtick spans. */
export function splitArrows(text: string): string[] {
  const normalised = text.replace(/→/g, '->');
  const parts: string[] = [];
  let current = '';
  let inCode = false;
  for (let i = 0; i < normalised.length; i++) {
    const ch = normalised[i] as string;
    if (ch === '`') inCode = !inCode;
    if (!inCode && normalised.startsWith('->', i)) {
      parts.push(current);
      current = '';
      i += 1;
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts;
}

/** If `text` is a `[a, b]` bracket list, its items (split on commas outside quotes); else undefined. */
export function bracketItems(text: string): string[] | undefined {
  const t = text.trim();
  if (!t.startsWith('[') || !t.endsWith(']')) return undefined;
  return splitOutsideQuotes(t.slice(1, -1))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
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
