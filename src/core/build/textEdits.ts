/** Minimal range edits: the build never replaces a whole document when a part changed. */
import type { TextEdit } from './ports';

/** The one edit that turns `base` into `next`: the span between their common prefix and suffix. */
export function minimalEdit(base: string, next: string): TextEdit | undefined {
  if (base === next) return undefined;
  let start = 0;
  const max = Math.min(base.length, next.length);
  while (start < max && base.charCodeAt(start) === next.charCodeAt(start)) start++;
  // Never split a surrogate pair.
  if (start > 0 && isHigh(base.charCodeAt(start - 1))) start--;
  let end = 0;
  while (end < max - start && base.charCodeAt(base.length - 1 - end) === next.charCodeAt(next.length - 1 - end)) {
    end++;
  }
  if (end > 0 && isLow(base.charCodeAt(base.length - end))) end--;
  return { start, end: base.length - end, text: next.slice(start, next.length - end) };
}

/** Applies edits (non-overlapping, any order) to `base`. */
export function applyEdits(base: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let from = 0;
  for (const e of sorted) {
    out += base.slice(from, e.start) + e.text;
    from = e.end;
  }
  return out + base.slice(from);
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Thrown by a writer whose document no longer holds the text an edit was computed on. */
export class StaleTextError extends Error {
  readonly stale = true;
}

export function isStaleTextError(err: unknown): boolean {
  return (err as { stale?: unknown } | null)?.stale === true;
}
