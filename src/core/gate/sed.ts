/**
 * `sed` under the gate (rules §1.1 step 7): no in-place editing, no script files, a script must be
 * given, and the script may not use the `e`, `r`, `R`, `w`, `W` commands or the `e`/`w` flags of
 * `s///`. The script is parsed command by command (GNU syntax); anything the parser does not
 * understand is refused rather than guessed at.
 */
import { longOption } from './options';
import { blocked, type Verdict, type Word } from './types';

const FILE_COMMANDS: Record<string, string> = {
  e: "the 'e' command runs shell commands",
  r: "the 'r' command reads another file into the output",
  R: "the 'R' command reads another file into the output",
  w: "the 'w' command writes a file",
  W: "the 'W' command writes a file",
};
/** Commands that take no argument (some take an optional number). */
const SIMPLE_COMMANDS = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'l', 'n', 'N', 'p', 'P', 'x', 'z', 'F', 'q', 'Q']);
const END_OF_COMMAND = new Set([';', '\n', '}', '#']);
const LABEL_END = new Set([' ', '\t', '\n', ';']);
const UNUSUAL_DELIMITER = /[A-Za-z0-9 ]/;
const S_FLAG = /[gpiImM0-9]/;

class SedScript {
  i = 0;
  constructor(readonly s: string) {}
  c(): string {
    return this.s.charAt(this.i);
  }
  get done(): boolean {
    return this.i >= this.s.length;
  }
  skipBlanks(): void {
    while (this.c() === ' ' || this.c() === '\t') this.i++;
  }
  skipDigits(): number {
    const start = this.i;
    while (this.c() >= '0' && this.c() <= '9') this.i++;
    return this.i - start;
  }
  /** Skips to the end of the line (used for text arguments and comments). */
  skipLine(): void {
    while (!this.done && this.c() !== '\n') this.i++;
  }
  /**
   * Reads a delimited part, starting just after the opening delimiter; leaves `i` after the closing
   * one. In a regex, a `[...]` bracket expression may contain the delimiter (as GNU sed reads it).
   */
  delimited(delim: string, regex: boolean): boolean {
    while (!this.done) {
      const c = this.c();
      if (c === '\\') this.i += 2;
      else if (c === delim) {
        this.i++;
        return true;
      } else if (c === '\n') return false;
      else if (regex && c === '[') {
        if (!this.bracket()) return false;
      } else this.i++;
    }
    return false;
  }
  private bracket(): boolean {
    this.i++; // '['
    if (this.c() === '^') this.i++;
    if (this.c() === ']') this.i++;
    while (!this.done && this.c() !== '\n') {
      if (
        this.c() === '[' &&
        (this.s[this.i + 1] === ':' || this.s[this.i + 1] === '=' || this.s[this.i + 1] === '.')
      ) {
        const close = this.s.indexOf(`${this.s[this.i + 1]}]`, this.i + 2);
        if (close < 0) return false;
        this.i = close + 2;
      } else if (this.c() === ']') {
        this.i++;
        return true;
      } else this.i++;
    }
    return false;
  }
  address(): boolean {
    const c = this.c();
    if (c >= '0' && c <= '9') {
      this.skipDigits();
      if (this.c() === '~') {
        this.i++;
        this.skipDigits();
      }
      return true;
    }
    if (c === '$') {
      this.i++;
      return true;
    }
    let delim = '';
    if (c === '/') delim = '/';
    else if (c === '\\') {
      delim = this.s.charAt(this.i + 1);
      this.i++;
      if (delim === '' || delim === '\n' || delim === '\\') return false;
    } else return true; // no address
    this.i++;
    if (!this.delimited(delim, true)) return false;
    while (this.c() === 'I' || this.c() === 'M') this.i++;
    return true;
  }
}

/** Why a sed script is refused, or null when it only prints and transforms text. */
export function sedScriptProblem(script: string): string | null {
  const p = new SedScript(script);
  const unparsed = () => `could not be parsed near '${script.slice(p.i, p.i + 12)}'`;
  for (;;) {
    while (p.c() === ' ' || p.c() === '\t' || p.c() === '\n' || p.c() === ';') p.i++;
    if (p.done) return null;
    if (!p.address()) return unparsed();
    p.skipBlanks();
    if (p.c() === ',') {
      p.i++;
      p.skipBlanks();
      if (p.c() === '+' || p.c() === '~') {
        p.i++;
        if (p.skipDigits() === 0) return unparsed();
      } else if (!p.address()) return unparsed();
      p.skipBlanks();
    }
    while (p.c() === '!' || p.c() === ' ' || p.c() === '\t') p.i++;
    const cmd = p.c();
    p.i++;
    if (cmd in FILE_COMMANDS) return FILE_COMMANDS[cmd] as string;
    if (cmd === '{' || cmd === '}') continue;
    if (cmd === '#') {
      p.skipLine();
      continue;
    }
    if (cmd === ':' || cmd === 'b' || cmd === 't' || cmd === 'T' || cmd === 'v') {
      // A label (or version) ends at a blank, ';' or newline, and the next command may follow at once.
      p.skipBlanks();
      while (!p.done && !LABEL_END.has(p.c())) p.i++;
      continue;
    }
    if (cmd === 'a' || cmd === 'i' || cmd === 'c') {
      // Text to the end of the line; a trailing backslash continues it onto the next line.
      for (;;) {
        p.skipLine();
        let k = p.i - 1;
        let backslashes = 0;
        while (k >= 0 && script[k] === '\\') {
          backslashes++;
          k--;
        }
        if (p.done || backslashes % 2 === 0) break;
        p.i++;
      }
      continue;
    }
    if (SIMPLE_COMMANDS.has(cmd)) {
      p.skipBlanks();
      if (cmd === 'l' || cmd === 'q' || cmd === 'Q') p.skipDigits();
    } else if (cmd === 's' || cmd === 'y') {
      const delim = p.c();
      if (delim === '' || delim === '\n' || delim === '\\' || UNUSUAL_DELIMITER.test(delim)) {
        return `uses an unusual delimiter in '${cmd}' that the gate does not read`;
      }
      p.i++;
      if (!p.delimited(delim, cmd === 's') || !p.delimited(delim, false)) return unparsed();
      if (cmd === 's') {
        while (!p.done && !END_OF_COMMAND.has(p.c()) && p.c() !== ' ' && p.c() !== '\t') {
          const flag = p.c();
          if (flag === 'e') return "the 'e' flag of 's' runs the result as a shell command";
          if (flag === 'w') return "the 'w' flag of 's' writes a file";
          if (!S_FLAG.test(flag)) return `unknown flag '${flag}' of 's'`;
          p.i++;
        }
      }
    } else {
      return p.done && cmd === '' ? unparsed() : `unknown command '${cmd}'`;
    }
    p.skipBlanks();
    if (!p.done && !END_OF_COMMAND.has(p.c())) return unparsed();
  }
}

interface SedArgs {
  readonly verdict?: Verdict;
  readonly scripts: string[];
  /** Indices of the words that hold a script (not file names, so not path-checked). */
  readonly scriptWords: Set<number>;
}

function readSedArgs(args: readonly Word[]): SedArgs {
  const scripts: string[] = [];
  const scriptWords = new Set<number>();
  let firstOperand = -1;
  let endOfOptions = false;
  const refuse = (verdict: Verdict): SedArgs => ({ verdict, scripts, scriptWords });
  for (let k = 0; k < args.length; k++) {
    const w = (args[k] as Word).value;
    if (endOfOptions || w === '-' || !w.startsWith('-')) {
      if (firstOperand < 0) firstOperand = k;
      continue;
    }
    if (w === '--') {
      endOfOptions = true;
      continue;
    }
    if (w.startsWith('--')) {
      const bad = longOption(w, ['--in-place', '--file']);
      if (bad === '--in-place') return refuse(blocked('option', `'sed ${w}' edits files in place`));
      if (bad) return refuse(blocked('option', `'sed ${w}' reads the script from a file the gate cannot check`));
      const eq = w.indexOf('=');
      if (longOption(w, ['--expression'])) {
        if (eq < 0) k++;
        const value = eq >= 0 ? w.slice(eq + 1) : args[k]?.value;
        if (value === undefined) return refuse(blocked('option', `'sed ${w}' is missing its script`));
        scripts.push(value);
        scriptWords.add(k);
      } else if (eq < 0 && longOption(w, ['--line-length'])) k++;
      continue;
    }
    for (let j = 1; j < w.length; j++) {
      const c = w[j] as string;
      if (c === 'i' || c === 'I') return refuse(blocked('option', `'sed -${c}' edits files in place`));
      if (c === 'f') return refuse(blocked('option', "'sed -f' reads the script from a file the gate cannot check"));
      if (c === 'e' || c === 'l') {
        if (j + 1 === w.length) k++;
        const value = j + 1 < w.length ? w.slice(j + 1) : args[k]?.value;
        if (value === undefined) return refuse(blocked('option', `'sed -${c}' is missing its value`));
        if (c === 'e') {
          scripts.push(value);
          scriptWords.add(k);
        }
        break;
      }
    }
  }
  if (scripts.length === 0) {
    if (firstOperand < 0) return refuse(blocked('option', "'sed' without a script is not allowed"));
    scripts.push((args[firstOperand] as Word).value);
    scriptWords.add(firstOperand);
  }
  return { scripts, scriptWords };
}

/** Rules §1.1 step 7 for `sed`: options first, then the script(s), joined by newlines as sed does. */
export function checkSed(args: readonly Word[]): Verdict | null {
  const read = readSedArgs(args);
  if (read.verdict) return read.verdict;
  const problem = sedScriptProblem(read.scripts.join('\n'));
  return problem ? blocked('option', `sed script: ${problem}`) : null;
}

/** The words of a sed command line that are scripts rather than file names. */
export function sedScriptWords(args: readonly Word[]): ReadonlySet<number> {
  return readSedArgs(args).scriptWords;
}
