/**
 * A small, quote-aware reading of one `verify:` entry as shell text, enough to judge its shape
 * (rules §3): the words of each command, the operators between commands (`;`, `&&`, `||`, `|`,
 * `&`) and the files output is redirected to. It never runs or expands anything.
 */

/** One word as written (quotes kept) and without its quotes. */
export interface ShellWord {
  readonly raw: string;
  readonly bare: string;
  /** True when some part of the word was quoted or escaped. */
  readonly quoted: boolean;
}

/** One command of the entry and the operator that ends it (undefined for the last). */
export interface ShellSegment {
  readonly words: ShellWord[];
  readonly op?: ';' | '&&' | '||' | '|' | '&';
}

export interface ShellReading {
  readonly segments: ShellSegment[];
  /** Files that output is written to (`> out.txt`, `>> log`); `/dev/null` and `>&2` are left out. */
  readonly writes: string[];
  /** False when a quote is left open. */
  readonly closed: boolean;
}

/** A `'` opens a quote only at the start of a word, so apostrophes in prose ("panel's") do not. */
function startsWord(text: string, i: number): boolean {
  const prev = i > 0 ? text[i - 1] : undefined;
  return prev === undefined || !/[\p{L}\p{N}]/u.test(prev);
}

/** Reads `text` as shell words and operators. Linear in the text. */
export function readShell(text: string): ShellReading {
  const segments: ShellSegment[] = [];
  const writes: string[] = [];
  let words: ShellWord[] = [];
  let raw = '';
  let bare = '';
  let quoted = false;
  let quote: string | undefined;
  let redirect: 'write' | 'read' | 'fd' | undefined;

  const endWord = () => {
    if (raw.length === 0) return;
    if (redirect !== undefined) {
      if (redirect === 'write' && bare !== '/dev/null') writes.push(bare);
      redirect = undefined;
    } else {
      words.push({ raw, bare, quoted });
    }
    raw = '';
    bare = '';
    quoted = false;
  };
  const endSegment = (op: ShellSegment['op']) => {
    endWord();
    segments.push(op === undefined ? { words } : { words, op });
    words = [];
  };

  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote !== undefined) {
      if (ch === '\\' && quote !== "'" && i + 1 < text.length) {
        raw += ch + (text[i + 1] as string);
        bare += text[i + 1] as string;
        i++;
        continue;
      }
      raw += ch;
      if (ch === quote) quote = undefined;
      else bare += ch;
      continue;
    }
    if (ch === '\\' && i + 1 < text.length) {
      raw += ch + (text[i + 1] as string);
      bare += text[i + 1] as string;
      quoted = true;
      i++;
      continue;
    }
    if (ch === '"' || ch === '`' || (ch === "'" && startsWord(text, i))) {
      quote = ch;
      quoted = true;
      raw += ch;
      continue;
    }
    if (ch === '\n' || ch === '\r') {
      if (words.length > 0 || raw.length > 0) endSegment(';'); // a new line starts a new command
      continue;
    }
    if (/\s/.test(ch)) {
      endWord();
      continue;
    }
    if (ch === ';') {
      endSegment(';');
      continue;
    }
    if (ch === '|') {
      const op = text[i + 1] === '|' ? '||' : '|';
      if (op === '||') i++;
      endSegment(op);
      continue;
    }
    if (ch === '&') {
      if (text[i + 1] === '&') {
        i++;
        endSegment('&&');
        continue;
      }
      if (text[i + 1] === '>') continue; // `&>` redirects both streams; the `>` follows
      endSegment('&');
      continue;
    }
    if (ch === '>' || ch === '<') {
      // A file descriptor number written just before (`2>`) belongs to the redirection.
      if (/^\d+$/.test(raw)) {
        raw = '';
        bare = '';
      }
      endWord();
      if (ch === '>' && text[i + 1] === '>') i++;
      if (text[i + 1] === '&') {
        i++;
        redirect = 'fd';
      } else {
        redirect = ch === '>' ? 'write' : 'read';
      }
      continue;
    }
    raw += ch;
    bare += ch;
  }
  const closed = quote === undefined;
  endSegment(undefined);
  return { segments: segments.filter((s, i) => s.words.length > 0 || i < segments.length - 1), writes, closed };
}
