/**
 * Steps 1–3 of rules §1.1 in one pass over the raw command string: raw-string rejections,
 * redirections, then the split into segments. The scanner follows POSIX shell quoting itself and
 * then asks `shell-quote` to tokenise the same text; the command counts as parsed only when both
 * agree word for word, so a construct either of them misreads is rejected instead of guessed at.
 *
 * The second opinion is skipped only when it cannot differ: when, outside quotes, the command
 * holds nothing but ASCII words, blanks and the operators `&&`, `||`, `|`, `;` (no backslash,
 * `#`, `$` or `;;`), and no backslash inside double quotes. Other quoted text is literal to both
 * tokenisers (the raw rules have already refused an unescaped `$` or backtick inside double
 * quotes). The scanner itself has been compared with dash and bash on random commands built from
 * shell syntax.
 */
import type * as ShellQuote from 'shell-quote';
import {
  isForbiddenControl,
  controlVerdict,
  dollarVerdict,
  redirectVerdict,
  BACKTICK,
  BACKSLASH_NEWLINE_IN_DOUBLE,
  allowedRedirectEnd,
  controlIn,
} from './rawRules';
import { blocked, type Segment, type Verdict, type Word } from './types';

export type ScanResult =
  { readonly ok: true; readonly segments: Segment[] } | { readonly ok: false; readonly verdict: Verdict };

type Op = '&&' | '||' | ';' | '|' | '\n';
type Token = Word | Op;

/** How many commands have been scanned in this process: the test that a tool call scans its command once reads it. */
export const scanCount = { scans: 0 };

/** Scans, checks and splits a command (steps 1–3). */
export function scanCommand(source: string): ScanResult {
  scanCount.scans++;
  // A leading UTF-8 byte order mark is an artefact of the file the command came from.
  const s = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const tokens: Token[] = [];
  const cleaned: string[] = []; // the text handed to shell-quote: allowed redirections and comments cut out
  let mark = 0;
  let firstRedirect: Verdict | null = null;
  // The word being built: `cur` plus the literal source run s[run, i) not yet appended.
  let cur = null as string | null;
  let run = -1;
  let tilde = false;
  let firstQuoted = -1;
  // The word in glob form (quoted glob characters escaped), whether an unquoted `*`, `?` or `[`
  // occurs in it, and where it starts in the source.
  let pat = '';
  let globbed = false;
  let start = 0;
  // Set by the characters on which two tokenisers can differ (backslash, `#`, `$`, `;;`, non-ASCII).
  let subtle = false;
  const fail = (verdict: Verdict): ScanResult => ({ ok: false, verdict });
  const flush = (i: number) => {
    if (run >= 0) {
      const text = s.slice(run, i);
      cur += text;
      pat += text;
      run = -1;
    }
  };
  /** Appends quoted (literal) text: to the glob form with its glob characters escaped. */
  const quoted = (text: string) => {
    cur += text;
    // Every quoted character is literal to the glob: `['!'x]` is a set of `!` and `x`, not a negation.
    for (const ch of text) pat += `\\${ch}`;
  };
  const endWord = (i: number) => {
    if (cur === null) return;
    flush(i);
    const value = cur as string;
    tokens.push({
      value,
      tilde,
      firstQuoted: firstQuoted < 0 ? value.length : firstQuoted,
      glob: globbed ? pat : null,
      start,
      end: i,
    });
    cur = null;
  };
  const begin = (i: number) => {
    cur = '';
    pat = '';
    tilde = false;
    globbed = false;
    firstQuoted = -1;
    start = i;
  };
  /** Starts a word if none is open; with `quoted`, notes where its first quoted character sits. */
  const open = (i: number, quoted: boolean) => {
    if (cur === null) begin(i);
    else flush(i);
    if (quoted && firstQuoted < 0) firstQuoted = (cur as string).length;
  };
  const literal = (i: number) => {
    if (cur === null) begin(i);
    if (run < 0) run = i;
  };
  /** Cuts an allowed redirection at `s[i]` out of the words and of shell-quote's copy; returns its end or -1. */
  const skipAllowedRedirect = (i: number): number => {
    const end = allowedRedirectEnd(s, i);
    if (end < 0) return end;
    endWord(i);
    cleaned.push(s.slice(mark, i), ' ');
    mark = end;
    return end;
  };
  const redirect = (i: number, op: string) => {
    endWord(i);
    if (!firstRedirect) firstRedirect = redirectVerdict(op);
  };

  const n = s.length;
  for (let i = 0; i < n; i++) {
    const code = s.charCodeAt(i);
    if (isForbiddenControl(code)) return fail(controlVerdict(code));
    const c = s[i] as string;
    switch (c) {
      case ' ':
      case '\t':
        endWord(i);
        break;
      case '\n':
        endWord(i);
        tokens.push('\n');
        cleaned.push(s.slice(mark, i), ' ; ');
        mark = i + 1;
        break;
      case "'": {
        // Single quotes: everything up to the next quote is literal.
        open(i, true);
        const close = s.indexOf("'", i + 1);
        const bad = controlIn(s, i + 1, close < 0 ? n : close);
        if (bad) return fail(bad);
        if (close < 0) return fail(blocked('raw.quote', "unbalanced single quote (')"));
        quoted(s.slice(i + 1, close));
        i = close;
        break;
      }
      case '"': {
        // Double quotes: literal, except that an unescaped `$` or backtick would be expanded and a
        // backslash escapes `$`, backtick, `"`, `\` and a newline (POSIX); before anything else it
        // is itself a literal character.
        open(i, true);
        let text = '';
        let from = i + 1; // start of the literal run not yet added to `text`
        let k = i + 1;
        for (; k < n; k++) {
          const kc = s.charCodeAt(k);
          if (kc === 0x22 /* " */) break;
          if (isForbiddenControl(kc)) return fail(controlVerdict(kc));
          if (kc === 0x60 /* ` */) return fail(BACKTICK);
          if (kc === 0x24 /* $ */) return fail(dollarVerdict(s, k, true) as Verdict);
          if (kc !== 0x5c /* \ */) continue;
          subtle = true;
          const next = s.charCodeAt(k + 1);
          if (next === 0x0a) return fail(BACKSLASH_NEWLINE_IN_DOUBLE);
          if (next !== 0x24 && next !== 0x60 && next !== 0x22 && next !== 0x5c) continue;
          // The backslash goes and the character after it is kept as it is.
          text += s.slice(from, k);
          from = k + 1;
          if (next === 0x60) {
            // shell-quote keeps the backslash before a backtick; its copy gets the backtick alone.
            cleaned.push(s.slice(mark, k));
            mark = k + 1;
          }
          k++;
        }
        if (k >= n) return fail(blocked('raw.quote', 'unbalanced double quote (")'));
        quoted(text + s.slice(from, k));
        i = k;
        break;
      }
      case '\\': {
        subtle = true;
        if (i + 1 >= n) return fail(blocked('raw.quote', 'a trailing backslash escapes nothing'));
        const nextCode = s.charCodeAt(i + 1);
        if (nextCode === 0x0a) {
          flush(i);
          cleaned.push(s.slice(mark, i)); // line continuation: the shell joins the lines
          mark = i + 2;
        } else {
          if (isForbiddenControl(nextCode)) return fail(controlVerdict(nextCode));
          open(i, true);
          quoted(s.charAt(i + 1));
          if (nextCode === 0x2a /* * */ || nextCode === 0x3f /* ? */) {
            // shell-quote takes an escaped `*` or `?` for a glob; its copy gets the character quoted.
            cleaned.push(s.slice(mark, i), `'${s.charAt(i + 1)}'`);
            mark = i + 2;
          }
        }
        i++;
        break;
      }
      case '`':
        return fail(BACKTICK);
      case '$': {
        const v = dollarVerdict(s, i, false);
        if (v) return fail(v);
        subtle = true;
        literal(i);
        break;
      }
      case '<': {
        const next = s[i + 1];
        if (next === '(') return fail(blocked('raw.process-substitution', "process substitution '<(' is not allowed"));
        if (next === '<') return fail(blocked('raw.heredoc', "here-document '<<' is not allowed"));
        const two = next === '&' || next === '>';
        redirect(i, two ? `<${next}` : '<');
        if (two) i++;
        break;
      }
      case '>': {
        // `>/dev/null` ends the word before it, as the shell's operator does, and writes nothing.
        const end = skipAllowedRedirect(i);
        if (end > 0) {
          i = end - 1;
          break;
        }
        const next = s[i + 1];
        if (next === '(') return fail(blocked('raw.process-substitution', "process substitution '>(' is not allowed"));
        const two = next === '>' || next === '|' || next === '&';
        redirect(i, two ? `>${next}` : '>');
        if (two) i++;
        break;
      }
      case '&': {
        const end = skipAllowedRedirect(i);
        if (end > 0) {
          i = end - 1;
          break;
        }
        const next = s[i + 1];
        if (next === '&') {
          endWord(i);
          tokens.push('&&');
          i++;
        } else if (next === '>') {
          const append = s[i + 2] === '>';
          redirect(i, append ? '&>>' : '&>');
          i += append ? 2 : 1;
        } else {
          return fail(blocked('raw.background', "a single '&' (background job) is not allowed"));
        }
        break;
      }
      case '|': {
        const next = s[i + 1];
        endWord(i);
        if (next === '|') {
          tokens.push('||');
          i++;
        } else if (next === '&') {
          redirect(i, '|&');
          i++;
        } else tokens.push('|');
        break;
      }
      case ';':
        endWord(i);
        tokens.push(';');
        if (s.charCodeAt(i - 1) === 0x3b /* ; */) subtle = true;
        break;
      case '(':
      case ')':
        return fail(blocked('raw.subshell', `unquoted '${c}' (subshell or grouping) is not allowed`));
      case '#': {
        subtle = true;
        if (cur !== null) {
          // Inside a word `#` is an ordinary character (POSIX); shell-quote would read a comment,
          // so its copy of the text gets the `#` quoted.
          flush(i);
          cleaned.push(s.slice(mark, i), "'#'");
          mark = i + 1;
          cur += '#';
          pat += '#';
          break;
        }
        // A comment runs to the end of the line; nothing in it is executed.
        let j = s.indexOf('\n', i);
        if (j < 0) j = n;
        const bad = controlIn(s, i + 1, j);
        if (bad) return fail(bad);
        cleaned.push(s.slice(mark, i));
        mark = j;
        i = j - 1;
        break;
      }
      default:
        if (code >= 0x7f) subtle = true;
        if (c === '{' || c === '}') {
          return fail(blocked('raw.brace', `unquoted '${c}' is brace expansion or grouping; quote it`));
        }
        if (c === '*' || c === '?' || c === '[') {
          literal(i);
          globbed = true;
          break;
        }
        if (cur === null && (c === '2' || c === '1')) {
          const end = allowedRedirectEnd(s, i);
          if (end > 0) {
            cleaned.push(s.slice(mark, i));
            mark = end;
            i = end - 1;
            break;
          }
        }
        if (cur === null && c === '~') {
          literal(i);
          tilde = true;
        } else literal(i);
    }
  }
  endWord(n);
  if (firstRedirect) return fail(firstRedirect);
  if (subtle) {
    cleaned.push(s.slice(mark));
    const mismatch = crossCheck(cleaned.join(''), tokens);
    if (mismatch) return fail(mismatch);
  }
  return splitSegments(tokens);
}

let shellQuoteParse: typeof ShellQuote.parse | undefined;

/**
 * The second opinion: shell-quote must read the same words and operators. It is loaded here, on the
 * first command that needs it: most commands do not, and loading it builds its regular expressions
 * (`planwise check-command -- ls` never asks it).
 */
function crossCheck(text: string, tokens: readonly Token[]): Verdict | null {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy loading; see above
  const parse = (shellQuoteParse ??= (require('shell-quote') as typeof ShellQuote).parse);
  let entries: ReturnType<typeof parse>;
  try {
    entries = parse(text);
  } catch {
    entries = [];
  }
  const ok =
    entries.length === tokens.length &&
    tokens.every((t, k) => {
      const e = entries[k];
      if (typeof t === 'string') return typeof e === 'object' && 'op' in e && e.op === (t === '\n' ? ';' : t);
      if (e === t.value) return true;
      // shell-quote hands an unquoted glob back as a pattern object, quotes removed.
      return t.glob !== null && typeof e === 'object' && 'op' in e && e.op === 'glob' && e.pattern === t.value;
    });
  return ok
    ? null
    : blocked(
        'parse',
        'the command could not be parsed unambiguously (the two tokenisers disagree); simplify its quoting',
      );
}

const CHAIN_OPS = new Set<Op>(['&&', '||', '|']);

function splitSegments(tokens: readonly Token[]): ScanResult {
  const segments: Segment[] = [];
  let words: Word[] = [];
  let before: Op | null = null;
  let sawWord = false;
  const close = (after: Op | null): Verdict | null => {
    if (words.length === 0) {
      if ((before && CHAIN_OPS.has(before)) || (after && CHAIN_OPS.has(after))) {
        return blocked('segment', `'${before && CHAIN_OPS.has(before) ? before : after}' has no command on one side`);
      }
    } else segments.push({ words, joinedBy: before === '\n' ? ';' : before });
    words = [];
    before = after;
    return null;
  };
  for (const t of tokens) {
    if (typeof t === 'string') {
      const v = close(t);
      if (v) return { ok: false, verdict: v };
    } else {
      words.push(t);
      sawWord = true;
    }
  }
  const v = close(null);
  if (v) return { ok: false, verdict: v };
  if (!sawWord) return { ok: false, verdict: blocked('empty', 'the command is empty') };
  return { ok: true, segments };
}
