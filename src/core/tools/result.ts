/** Building tool results: every result is measured, and one over the preview limit is spooled. */
import { previewOf, utf8Length } from '../spool';
import type { FileChange } from '../build/fileChange';
import type { ToolContext, ToolResult } from './types';

export interface ResultFlags {
  readonly ok?: boolean;
  readonly lowSignal?: boolean;
  readonly blocked?: boolean;
  /** The person ended the turn from inside the call (`ToolResult.endsTurn`). */
  readonly endsTurn?: string;
  /** What a file tool changed (`ToolResult.change`). */
  readonly change?: FileChange;
}

/** A result whose text may be long: spooled with a head/tail preview when over the limit. */
export function resultOf(ctx: ToolContext, text: string, flags: ResultFlags = {}): ToolResult {
  const preview = previewOf(text, ctx.previewLimitBytes, ctx.spool);
  return {
    ok: flags.ok ?? true,
    content: preview.content,
    bytes: preview.bytes,
    ...(preview.spoolId !== undefined ? { spoolId: preview.spoolId } : {}),
    ...(flags.lowSignal ? { lowSignal: true } : {}),
    ...(flags.blocked ? { blocked: true } : {}),
    ...(flags.endsTurn !== undefined ? { endsTurn: flags.endsTurn } : {}),
    ...(flags.change ? { change: flags.change } : {}),
  };
}

/** A short refusal or error message (never spooled). */
export function failure(message: string, flags: Omit<ResultFlags, 'ok' | 'change'> = {}): ToolResult {
  return {
    ok: false,
    content: message,
    bytes: utf8Length(message),
    ...(flags.lowSignal ? { lowSignal: true } : {}),
    ...(flags.blocked ? { blocked: true } : {}),
    ...(flags.endsTurn !== undefined ? { endsTurn: flags.endsTurn } : {}),
  };
}

/** Bytes sniffed for binary detection. */
const SNIFF_BYTES = 8192;

/** A NUL byte, or mostly control bytes, in the first 8 KiB: the file is not text. */
export function looksBinary(data: Uint8Array): boolean {
  const n = Math.min(data.length, SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = data[i]!;
    if (b === 0) return true;
    // Tab, LF, VT, FF, CR and ESC occur in text; other C0 bytes do not.
    if (b < 0x20 && !(b >= 0x09 && b <= 0x0d) && b !== 0x1b) control++;
  }
  return n > 0 && control / n > 0.1;
}

/** Cuts a line to `max` characters (never inside a surrogate pair), saying how long it was. */
export function cutLine(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}… [line cut: ${text.length} chars]`;
}
