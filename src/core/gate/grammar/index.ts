/**
 * The allow-list of programs (rules §1.1 step 5), each with its argv grammar (step 7). A program
 * is allowed exactly when it is listed here. To add one, write its grammar in a file of its own
 * (or its family's) in this folder and list it below; `test/gate/grammars.test.ts` and the
 * corpora then say whether it holds.
 *
 * Each family's file is loaded when the gate first judges one of its programs, not when the gate
 * loads: the option tables are a good share of a short `planwise check-command`'s start (building
 * every table took about 4 ms of a 60 ms process), and `check-command -- ls` needs only `ls.ts`.
 * In a bundle, esbuild turns each `require` below into a module initialised on first call.
 */
import type { Grammar } from './types';
import type * as M_astGrep from './astGrep';
import type * as M_bat from './bat';
import type * as M_cargo from './cargo';
import type * as M_diff from './diff';
import type * as M_echo from './echo';
import type * as M_fd from './fd';
import type * as M_find from './find';
import type * as M_git from './git';
import type * as M_grep from './grep';
import type * as M_info from './info';
import type * as M_jq from './jq';
import type * as M_ls from './ls';
import type * as M_packageManagers from './packageManagers';
import type * as M_rg from './rg';
import type * as M_sed from './sed';
import type * as M_test from './test';
import type * as M_text from './text';
import type * as M_tree from './tree';

/* eslint-disable @typescript-eslint/no-require-imports -- lazy loading; see above */
const astGrep = () => require('./astGrep') as typeof M_astGrep;
const bat = () => require('./bat') as typeof M_bat;
const cargo = () => require('./cargo') as typeof M_cargo;
const diff = () => require('./diff') as typeof M_diff;
const echo = () => require('./echo') as typeof M_echo;
const fd = () => require('./fd') as typeof M_fd;
const find = () => require('./find') as typeof M_find;
const git = () => require('./git') as typeof M_git;
const grep = () => require('./grep') as typeof M_grep;
const info = () => require('./info') as typeof M_info;
const jq = () => require('./jq') as typeof M_jq;
const ls = () => require('./ls') as typeof M_ls;
const packageManagers = () => require('./packageManagers') as typeof M_packageManagers;
const rg = () => require('./rg') as typeof M_rg;
const sed = () => require('./sed') as typeof M_sed;
const test = () => require('./test') as typeof M_test;
const text = () => require('./text') as typeof M_text;
const treeFile = () => require('./tree') as typeof M_tree;
/* eslint-enable @typescript-eslint/no-require-imports */

/** Each allowed program and where its grammar is. */
const GRAMMARS: Readonly<Record<string, () => Grammar>> = {
  // Search and listing.
  rg: () => rg().rg,
  grep: () => grep().grep,
  egrep: () => grep().egrep,
  fgrep: () => grep().fgrep,
  find: () => find().find,
  fd: () => fd().fd,
  ls: () => ls().ls,
  tree: () => treeFile().tree,
  // Reading and text.
  cat: () => text().cat,
  bat: () => bat().bat,
  head: () => text().head,
  tail: () => text().tail,
  wc: () => text().wc,
  sort: () => text().sort,
  uniq: () => text().uniq,
  cut: () => text().cut,
  tr: () => text().tr,
  nl: () => text().nl,
  column: () => text().column,
  diff: () => diff().diff,
  sed: () => sed().sed,
  'ast-grep': () => astGrep().astGrep,
  jq: () => jq().jq,
  echo: () => echo().echo,
  printf: () => echo().printf,
  // Facts about files and the system.
  pwd: () => echo().pwd,
  test: () => test().test,
  true: () => echo().trueGrammar,
  false: () => echo().falseGrammar,
  which: () => info().which,
  stat: () => info().stat,
  file: () => info().file,
  du: () => info().du,
  df: () => info().df,
  realpath: () => info().realpath,
  basename: () => info().basename,
  dirname: () => info().dirname,
  date: () => info().date,
  whoami: () => info().whoami,
  uname: () => info().uname,
  // Version control and the project's own tests (trusted workspaces only for the latter).
  git: () => git().git,
  npm: () => packageManagers().npm,
  pnpm: () => packageManagers().pnpm,
  yarn: () => packageManagers().yarn,
  cargo: () => cargo().cargo,
};

const loaded = new Map<string, Grammar>();

/** The grammar of an allowed program, or undefined when the program is not allowed. */
export function grammarOf(program: string): Grammar | undefined {
  if (!Object.hasOwn(GRAMMARS, program)) return undefined;
  let grammar = loaded.get(program);
  if (!grammar) {
    grammar = GRAMMARS[program]!();
    loaded.set(program, grammar);
  }
  return grammar;
}

/** The allowed programs, sorted (for messages and the README). */
export function allowedPrograms(): string[] {
  return Object.keys(GRAMMARS).sort();
}
