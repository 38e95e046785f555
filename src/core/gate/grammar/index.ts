/**
 * The allow-list of programs (rules §1.1 step 5), each with its argv grammar (step 7). A program
 * is allowed exactly when it is listed here. To add one, write its grammar in a file of its own
 * (or its family's) in this folder and list it below; `test/gate/grammars.test.ts` and the
 * corpora then say whether it holds.
 */
import { astGrep } from './astGrep';
import { bat } from './bat';
import { cargo } from './cargo';
import { echo, falseGrammar, printf, pwd, trueGrammar } from './echo';
import { diff } from './diff';
import { fd } from './fd';
import { find } from './find';
import { git } from './git';
import { egrep, fgrep, grep } from './grep';
import { basename, date, df, dirname, du, file, realpath, stat, uname, which, whoami } from './info';
import { jq } from './jq';
import { ls, tree } from './ls';
import { npm, pnpm, yarn } from './packageManagers';
import { rg } from './rg';
import { sed } from './sed';
import { test } from './test';
import { cat, column, cut, head, nl, sort, tail, tr, uniq, wc } from './text';
import type { Grammar } from './types';

const GRAMMARS: Readonly<Record<string, Grammar>> = {
  // Search and listing.
  rg,
  grep,
  egrep,
  fgrep,
  find,
  fd,
  ls,
  tree,
  // Reading and text.
  cat,
  bat,
  head,
  tail,
  wc,
  sort,
  uniq,
  cut,
  tr,
  nl,
  column,
  diff,
  sed,
  'ast-grep': astGrep,
  jq,
  echo,
  printf,
  // Facts about files and the system.
  pwd,
  test,
  true: trueGrammar,
  false: falseGrammar,
  which,
  stat,
  file,
  du,
  df,
  realpath,
  basename,
  dirname,
  date,
  whoami,
  uname,
  // Version control and the project's own tests (trusted workspaces only for the latter).
  git,
  npm,
  pnpm,
  yarn,
  cargo,
};

/** The grammar of an allowed program, or undefined when the program is not allowed. */
export function grammarOf(program: string): Grammar | undefined {
  return Object.hasOwn(GRAMMARS, program) ? GRAMMARS[program] : undefined;
}

/** The allowed programs, sorted (for messages and the README). */
export function allowedPrograms(): string[] {
  return Object.keys(GRAMMARS).sort();
}
