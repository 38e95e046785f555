/**
 * The character-level reader behind `sedScript.ts`: GNU sed 4.9's own lexical rules (its
 * `compile.c`), re-stated so that every place where the script's structure is decided (where a
 * regex, a label, a text argument or a file name ends) is decided exactly as GNU sed decides it.
 * The names in the doc comments are GNU sed's routine names, for checking against its source.
 */

/** The end of the script (GNU sed's `EOF`). */
export const EOF = '';

/**
 * Thrown when the script is not read the way GNU sed reads it, or GNU sed would reject it; caught
 * in `sedScriptProblem`. Not an `Error`: it is an answer, and an `Error` would capture a stack trace
 * nothing reads.
 */
export class SedSyntaxError {
  constructor(readonly message: string) {}
}

/** `countT` in GNU sed: an unsigned 64-bit number, wrapping on overflow. */
const COUNT_MASK = (1n << 64n) - 1n;

/** `ISBLANK`: space and tab only (in the C and UTF-8 locales). */
export const isBlank = (c: string): boolean => c === ' ' || c === '\t';
/** `ISSPACE`: blanks plus newline, vertical tab, form feed and carriage return. */
export const isSpace = (c: string): boolean => c !== EOF && ' \t\n\v\f\r'.includes(c);
export const isDigit = (c: string): boolean => c >= '0' && c <= '9' && c.length === 1;
export const isAscii = (c: string): boolean => c.length === 1 && c.charCodeAt(0) < 0x80;

export class SedCursor {
  pos = 0;
  constructor(readonly script: string) {}

  /** `inchar`: the next character, or EOF at the end (the position stays there). */
  next(): string {
    return this.pos < this.script.length ? this.script.charAt(this.pos++) : EOF;
  }

  /** `savchar`: puts back the character just read (nothing for EOF). */
  back(ch: string): void {
    if (ch !== EOF) this.pos--;
  }

  /** `in_nonblank`: the next character that is not a space or tab. */
  nextNonBlank(): string {
    let ch: string;
    do ch = this.next();
    while (isBlank(ch));
    return ch;
  }

  fail(detail: string): never {
    throw new SedSyntaxError(`${detail}, at char ${this.pos}`);
  }

  /** `in_integer`: the digits starting with `first` (already read); the first non-digit is put back. */
  integer(first: string): bigint {
    let n = 0n;
    let ch = first;
    while (isDigit(ch)) {
      n = (n * 10n + BigInt(ch)) & COUNT_MASK;
      ch = this.next();
    }
    this.back(ch);
    return n;
  }

  /** `read_end_of_cmd`: blanks, then `;`, a newline or the end; `}` and `#` are left for the next command. */
  endOfCommand(): void {
    const ch = this.nextNonBlank();
    if (ch === '}' || ch === '#') this.back(ch);
    else if (ch !== EOF && ch !== '\n' && ch !== ';') this.fail('extra characters after command');
  }

  /** A delimiter of `s`, `y` or `\cREGEXc`: GNU sed takes only single-byte characters. */
  delimiter(slash: string): string {
    if (slash !== EOF && !isAscii(slash)) this.fail('delimiter character is not a single-byte character');
    return slash;
  }

  /**
   * `match_slash`: reads up to and including the closing `slash`. A backslash takes the next
   * character whatever it is (an escaped newline is part of the text); an unescaped newline or the
   * end fails. In a regex a bracket expression is read whole, so the delimiter may appear in it.
   * The delimiter test comes first, so a `\` or `[` delimiter cannot be escaped or bracketed.
   */
  matchSlash(slash: string, regex: boolean): boolean {
    for (;;) {
      const ch = this.next();
      if (ch === EOF || ch === '\n') return false;
      if (ch === slash) return true;
      if (ch === '\\') {
        if (this.next() === EOF) return false;
      } else if (ch === '[' && regex && this.charClass() !== ']') return false;
    }
  }

  /**
   * `snarf_char_class`: the rest of a bracket expression after its `[`. Returns `]` when it closed,
   * or the newline/EOF that ended it. States: 0 plain, 1 after an inner `[`, 2 inside `[:`/`[.`/`[=`,
   * 3 after the matching `:`/`.`/`=` (a `]` then closes the class, not the expression). Backslashes
   * are ordinary here.
   */
  private charClass(): string {
    let ch = this.next();
    if (ch === '^') ch = this.next();
    if (ch === ']') ch = this.next();
    let state = 0;
    let delim = '';
    for (; ; ch = this.next()) {
      if (ch === EOF || ch === '\n') return ch;
      if (ch === '.' || ch === ':' || ch === '=') {
        if (state === 1) {
          delim = ch;
          state = 2;
          continue;
        }
        if (state === 2 && ch === delim) {
          state = 3;
          continue;
        }
      } else if (ch === '[') {
        if (state === 0) state = 1;
        continue;
      } else if (ch === ']') {
        if (state === 0 || state === 1) return ch;
        if (state === 3) state = 0;
      }
      state &= ~1;
    }
  }

  /**
   * `read_label` (for `:`, `b`, `t`, `T`, `v`): leading blanks are skipped, and the label ends at a
   * blank, `;`, `}`, `#`, a newline or the end, which is left for the next command. A label with
   * non-ASCII characters is refused: whether such a character counts as blank depends on the locale.
   */
  label(): string {
    let label = '';
    let ch = this.nextNonBlank();
    while (ch !== EOF && ch !== '\n' && !isBlank(ch) && ch !== ';' && ch !== '}' && ch !== '#') {
      label += ch;
      ch = this.next();
    }
    this.back(ch);
    if ([...label].some((c) => !isAscii(c))) this.fail(`a label with non-ASCII characters ('${label}')`);
    return label;
  }

  /**
   * `read_text` (for `a`, `i`, `c`): `leadin` is the first character of the text, already read
   * (`\n` when the text starts at the cursor); it is never an escape. The text runs to an unescaped
   * newline or the end; a backslash takes the next character, so `\` + newline continues the text.
   */
  readText(leadin: string): void {
    if (leadin === EOF) return;
    let ch = this.next();
    while (ch !== EOF && ch !== '\n') {
      if (ch === '\\' && this.next() === EOF) return;
      ch = this.next();
    }
  }
}
