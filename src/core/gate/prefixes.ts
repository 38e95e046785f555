/**
 * Rules §1.1 step 4: what may stand before the program word. Only a short list of variables that
 * change nothing but output and logging (`CI=1`, `NO_COLOR=1`, `LC_ALL=C` …) and a bare `env`.
 */
import { blocked, type Verdict, type Word } from './types';

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const SAFE_VARIABLES = new Set(['CI', 'NO_COLOR', 'FORCE_COLOR', 'TERM', 'LANG', 'RUST_BACKTRACE', 'RUST_LOG']);
const SAFE_LIST = 'CI, NO_COLOR, FORCE_COLOR, TERM, LANG, LC_*, RUST_BACKTRACE, RUST_LOG';
/** Variables that switch test runners into rewriting snapshots or expected output. */
const REWRITE_VARIABLES =
  /^(UPDATE_EXPECT|INSTA_UPDATE|INSTA_FORCE_PASS|TRYBUILD|SNAPSHOT_UPDATE|UPDATE_SNAPSHOTS?|UPDATE_GOLDEN|GOLDEN_UPDATE|JEST_UPDATE_SNAPSHOT|BLESS|.*_BLESS|SNAPSHOTS?)$/;

/** Variables whose value, holding a `/`, is a path to a locale or terminal description to load. */
const NAMES_A_FILE = /^(LANG|LC_.*|TERM)$/;

/** An unquoted `NAME=` at the start of a word: the shell treats it as an assignment. */
export function assignmentName(w: Word): string | null {
  const m = ASSIGNMENT.exec(w.value);
  return m && m[0].length <= w.firstQuoted ? m[0].slice(0, -1) : null;
}

function safeVariable(name: string): boolean {
  return SAFE_VARIABLES.has(name) || name.startsWith('LC_');
}

/** Skips allowed assignments and a bare `env`; returns the index of the program word or a verdict. */
export function checkPrefixes(words: readonly Word[]): number | Verdict {
  let k = 0;
  let sawEnv = false;
  for (;;) {
    const w = words[k];
    if (w === undefined) {
      return sawEnv
        ? blocked('prefix', "'env' without a command prints the environment, which may hold secrets")
        : blocked('prefix', 'a variable assignment without a command is not allowed');
    }
    const name = assignmentName(w);
    if (name !== null) {
      if (REWRITE_VARIABLES.test(name)) {
        return blocked('prefix', `'${name}=…' switches tests into rewriting snapshots or expected output`);
      }
      if (!safeVariable(name)) {
        return blocked('prefix', `setting '${name}' before a command is not allowed (allowed: ${SAFE_LIST})`);
      }
      if (NAMES_A_FILE.test(name) && w.value.includes('/', name.length + 1)) {
        return blocked('prefix', `'${name}' with a '/' names a file the C library or the terminal library loads`);
      }
      k++;
      continue;
    }
    if (w.value !== 'env') return k;
    sawEnv = true;
    k++;
    const next = words[k]?.value;
    if (next !== undefined && next.length > 1 && next.startsWith('-')) {
      return blocked('prefix', `'env ${next}': env options are not allowed; put NAME=value before the command`);
    }
  }
}
