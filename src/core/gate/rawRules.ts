/**
 * The verdicts of rules §1.1 steps 1–2 that the scanner gives while it reads a command: control
 * characters, `$` expansions, backticks, a backslash before a line break in double quotes, and
 * redirections (the few that change no file are recognised here so the scanner can cut them out).
 */
import { blocked, type Verdict } from './types';

/** Redirections that change no file (rules §1.1 step 2): removed before anything else is judged. */
const ALLOWED_REDIRECTS = ['2>&1', '1>&2', '2>/dev/null', '1>/dev/null', '>/dev/null', '&>/dev/null'] as const;
/** Characters that end an allowed redirection like `2>&1` ("at a word boundary"). */
const BOUNDARY = new Set([' ', '\t', '\n', ';', '|', '&']);
const NAME_START = /[A-Za-z_]/;
const NAME_RUN = /^[A-Za-z_][A-Za-z0-9_]*/;
const SPECIAL_PARAMS = new Set(['@', '*', '#', '?', '$', '!', '-']);

/** NUL and other C0 controls except tab/newline, DEL, C1 controls, and invisible direction or line controls. */
export function isForbiddenControl(code: number): boolean {
  if (code < 0x20) return code !== 0x09 && code !== 0x0a;
  if (code < 0x7f) return false;
  return (
    code <= 0x9f ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff
  );
}

export function controlVerdict(code: number): Verdict {
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  return blocked('raw.control', `control character U+${hex} is not allowed in a command`);
}

/** What a `$` at `s[i]` would expand to; null when the shell keeps it as a literal `$`. */
export function dollarVerdict(s: string, i: number, inDouble: boolean): Verdict | null {
  const next = s.charAt(i + 1);
  if (next === '(') return blocked('raw.substitution', "command substitution '$(' is not allowed");
  if (next === '{') return blocked('raw.expansion', "parameter expansion '${' is not allowed");
  if (next === '[') return blocked('raw.expansion', "arithmetic expansion '$[' is not allowed");
  if (next === "'" && !inDouble)
    return blocked('raw.expansion', 'ANSI-C quoting "$\'...\'" is not allowed; use plain single quotes');
  if (next === '"' && !inDouble)
    return blocked('raw.expansion', 'locale quoting \'$"..."\' is not allowed; use single quotes');
  if (next >= '0' && next <= '9') return blocked('raw.expansion', `variable expansion '$${next}' is not allowed`);
  if (NAME_START.test(next)) {
    const name = NAME_RUN.exec(s.slice(i + 1, i + 65))?.[0] ?? next;
    return blocked('raw.expansion', `variable expansion '$${name}' is not allowed`);
  }
  if (SPECIAL_PARAMS.has(next)) return blocked('raw.expansion', `special parameter '$${next}' is not allowed`);
  if (inDouble)
    return blocked('raw.double-quote', "'$' inside double quotes is expanded by the shell; use single quotes");
  return null;
}

export function redirectVerdict(op: string): Verdict {
  if (op === '|&') return blocked('redirect', "'|&' is not allowed; write '2>&1 |' instead");
  if (op.startsWith('<')) {
    return blocked('redirect', `input redirection '${op}' is not allowed; pass the file name as an argument`);
  }
  return blocked('redirect', `output redirection '${op}' is not read-only`);
}

export const BACKTICK = blocked('raw.backtick', 'backtick command substitution is not allowed');
export const BACKSLASH_NEWLINE_IN_DOUBLE = blocked(
  'raw.double-quote',
  "a '\\' before a line break inside double quotes joins the lines; write the text on one line",
);

/** Where an allowed redirection starting at `s[i]` ends (it must end at a word boundary), or -1. */
export function allowedRedirectEnd(s: string, i: number): number {
  for (const r of ALLOWED_REDIRECTS) {
    if (!s.startsWith(r, i)) continue;
    const end = i + r.length;
    if (end >= s.length || BOUNDARY.has(s[end] as string)) return end;
  }
  return -1;
}

/** The first forbidden control character in `s[from, to)`, as a verdict. */
export function controlIn(s: string, from: number, to: number): Verdict | null {
  for (let k = from; k < to; k++) {
    const code = s.charCodeAt(k);
    if (isForbiddenControl(code)) return controlVerdict(code);
  }
  return null;
}
