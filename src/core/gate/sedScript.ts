/**
 * Is a GNU sed script read-only? The script is compiled the way GNU sed 4.9 compiles it
 * (`compile_program` in its `compile.c`, re-stated here, with the character-level rules in
 * `sedLex.ts`), so that the gate and sed agree on where every command starts. Only the commands that
 * reach outside the text stream matter: `e`, `r`, `R`, `w`, `W` and the `e`/`w` flags of `s` — the
 * same set GNU sed's `--sandbox` rejects. Whatever this reader cannot follow exactly, or GNU sed
 * would reject, is refused.
 *
 * Facts found by running GNU sed 4.9 (and matching its source): a label (`:x`, `b x`, `t x`, `T x`,
 * `v x`) ends at a blank, `;`, `}`, `#` or newline, and the next command may follow at once, so
 * `:x w f` and `:x# a\` + newline + `w f` both write `f`; `a`, `i`, `c` take their text to the end of
 * the line in the one-line form (`a text; w f` appends "text; w f"), while `a\` takes the character
 * right after the backslash as the first character of the text (`a\  ` + newline ends the text
 * there, so a command follows on the next line); `a` followed at once by a newline has empty text;
 * a file name (`r`, `w`, `s///w`) runs to the end of the line, `;` and `}` included.
 *
 * Several -e values: GNU sed compiles them one by one, but carries an unfinished `a`/`i`/`c` text
 * over to the next one, and everywhere else the end of an -e acts as a newline or is an error (a
 * trailing `\` inside a regex), so reading the values joined by newlines never misses a command.
 * `w /dev/stdout` and `w /dev/stderr` are refused like any `w`. Not re-checked (GNU sed rejects such
 * scripts, so allowing them is harmless): regex syntax, `y` string lengths, the version `v` asks for.
 */
import { EOF, SedCursor, SedSyntaxError, isDigit, isSpace } from './sedLex';

/**
 * Thrown when a command reaches outside the text stream, and caught in `sedScriptProblem`; the
 * message is shown to a person. Not an `Error`: a refusal is an answer, and an `Error` would
 * capture a stack trace nothing reads.
 */
class SedRefusal {
  constructor(readonly message: string) {}
}

const FILE_COMMANDS: Readonly<Record<string, string>> = {
  e: "the 'e' command runs shell commands",
  r: "the 'r' command reads another file",
  R: "the 'R' command reads another file",
  w: "the 'w' command writes a file",
  W: "the 'W' command writes a file",
};
const S_EVAL = "the 's' command's 'e' flag runs the pattern space as a command";
const S_WRITE = "the 's' command's 'w' flag writes a file";

/** Commands without an argument: after them only blanks and an end of command may follow. */
const PLAIN_COMMANDS = new Set(['=', 'd', 'D', 'F', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'z', 'x']);

/** What the compiler needs to know of an address (GNU sed's `addr_type`, and a line number of 0). */
type Address = 'regex' | 'line' | 'line0' | 'step' | 'other';

/** Why the GNU sed script is not read-only, or null when it is. `script` is the whole script: several -e values joined by '\n', exactly as GNU sed joins them. */
export function sedScriptProblem(script: string): string | null {
  try {
    if (script.includes('\0')) throw new SedSyntaxError('a NUL character');
    new SedCompiler(script).compile();
    return null;
  } catch (e) {
    if (e instanceof SedRefusal) return e.message;
    if (e instanceof SedSyntaxError) return `the script could not be parsed the way GNU sed parses it (${e.message})`;
    throw e;
  }
}

class SedCompiler {
  private readonly cur: SedCursor;
  /** Open `{` blocks. */
  private depth = 0;
  private readonly labels = new Set<string>();
  private readonly jumps: string[] = [];

  constructor(script: string) {
    this.cur = new SedCursor(script);
  }

  /** `compile_program` followed by `check_final_program`. */
  compile(): void {
    const cur = this.cur;
    for (;;) {
      let ch = cur.next();
      while (ch === ';' || isSpace(ch)) ch = cur.next();
      if (ch === EOF) break;
      const a1 = this.address(ch);
      let a2: Address | null = null;
      if (a1) {
        if (a1 === 'step') cur.fail('invalid usage of +N or ~N as first address');
        ch = cur.nextNonBlank();
        if (ch === ',') {
          a2 = this.address(cur.nextNonBlank());
          if (!a2) cur.fail("unexpected ','");
          ch = cur.nextNonBlank();
        }
        if (a1 === 'line0' && ((!a2 && ch !== 'r') || (a2 && a2 !== 'regex'))) {
          cur.fail('invalid usage of line address 0');
        }
      }
      if (ch === '!') {
        ch = cur.nextNonBlank();
        if (ch === '!') cur.fail("multiple '!'s");
      }
      this.command(ch, a1 !== null, a2 !== null);
    }
    if (this.depth > 0) cur.fail("unmatched '{'");
    for (const name of this.jumps) {
      if (name !== '' && !this.labels.has(name)) cur.fail(`can't find label for jump to '${name}'`);
    }
  }

  /**
   * `compile_address`, with `ch` already read: null when no address starts here (nothing more is
   * read then). `N~0` is line N; `+0` and `~0` are valid addresses that match nothing further.
   */
  private address(first: string): Address | null {
    const cur = this.cur;
    let ch = first;
    if (ch === '/' || ch === '\\') {
      const slash = ch === '\\' ? cur.delimiter(cur.next()) : ch;
      if (!cur.matchSlash(slash, true)) cur.fail('unterminated address regex');
      do ch = cur.nextNonBlank();
      while (ch === 'I' || ch === 'M');
      cur.back(ch);
      return 'regex';
    }
    if (isDigit(ch)) {
      const line = cur.integer(ch);
      ch = cur.nextNonBlank();
      if (ch === '~' && cur.integer(cur.nextNonBlank()) > 0n) return 'other';
      if (ch !== '~') cur.back(ch);
      return line === 0n ? 'line0' : 'line';
    }
    if (ch === '+' || ch === '~') return cur.integer(cur.nextNonBlank()) > 0n ? 'step' : 'other';
    return ch === '$' ? 'other' : null;
  }

  /** One command, its name `ch` already read (the `switch` of `compile_program`). */
  private command(ch: string, hasA1: boolean, hasA2: boolean): void {
    const cur = this.cur;
    if (Object.hasOwn(FILE_COMMANDS, ch)) throw new SedRefusal(FILE_COMMANDS[ch] as string);
    if (PLAIN_COMMANDS.has(ch)) return cur.endOfCommand();
    switch (ch) {
      case '#':
        if (hasA1) cur.fail("comments don't accept any addresses");
        do ch = cur.next();
        while (ch !== EOF && ch !== '\n');
        return;
      case 'v':
        cur.label(); // the version wanted; GNU sed also checks it is not newer than itself
        return;
      case '{':
        this.depth++;
        return;
      case '}':
        if (this.depth === 0) cur.fail("unexpected '}'");
        if (hasA1) cur.fail("'}' doesn't want any addresses");
        cur.endOfCommand();
        this.depth--;
        return;
      case 'a':
      case 'i':
      case 'c':
        ch = cur.nextNonBlank();
        if (ch === EOF) cur.fail("expected \\ after 'a', 'c' or 'i'");
        if (ch === '\\') ch = cur.next();
        else {
          cur.back(ch);
          ch = '\n';
        }
        return cur.readText(ch);
      case ':': {
        if (hasA1) cur.fail(": doesn't want any addresses");
        const label = cur.label();
        if (label === '') cur.fail('":" lacks a label');
        this.labels.add(label);
        return;
      }
      case 'b':
      case 't':
      case 'T':
        this.jumps.push(cur.label());
        return;
      case 'q':
      case 'Q':
      case 'l':
      case 'L': {
        if (hasA2 && (ch === 'q' || ch === 'Q')) cur.fail('command only uses one address');
        const arg = cur.nextNonBlank();
        if (isDigit(arg)) cur.integer(arg);
        else cur.back(arg);
        return cur.endOfCommand();
      }
      case 's':
        return this.substitute();
      case 'y': {
        const slash = cur.delimiter(cur.next());
        if (!cur.matchSlash(slash, false) || !cur.matchSlash(slash, false)) cur.fail("unterminated 'y' command");
        return cur.endOfCommand();
      }
      case EOF:
        return cur.fail('missing command');
      default:
        return cur.fail(`unknown command: '${ch === '\n' ? '\\n' : ch}'`);
    }
  }

  /** `s`: the regex, the replacement, then the flags (`mark_subst_opts`), blanks allowed between them. */
  private substitute(): void {
    const cur = this.cur;
    const slash = cur.delimiter(cur.next());
    if (!cur.matchSlash(slash, true) || !cur.matchSlash(slash, false)) cur.fail("unterminated 's' command");
    const seen = new Set<string>();
    for (;;) {
      const ch = cur.nextNonBlank();
      if (ch === 'w') throw new SedRefusal(S_WRITE);
      if ('iImM'.includes(ch) && ch !== EOF) continue;
      if (ch === 'e' || ch === 'p' || ch === 'g') {
        if (ch !== 'e' && seen.has(ch)) cur.fail(`multiple '${ch}' options to 's' command`);
        seen.add(ch);
      } else if (isDigit(ch)) {
        if (seen.has('number')) cur.fail("multiple number options to 's' command");
        seen.add('number');
        if (cur.integer(ch) === 0n) cur.fail("number option to 's' command may not be zero");
      } else if (ch === '}' || ch === '#') {
        cur.back(ch);
        break;
      } else if (ch === EOF || ch === '\n' || ch === ';' || (ch === '\r' && cur.next() === '\n')) break;
      else cur.fail("unknown option to 's'");
    }
    if (seen.has('e')) throw new SedRefusal(S_EVAL);
  }
}
