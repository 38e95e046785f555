/* eslint-disable @typescript-eslint/no-require-imports -- each file is loaded when first needed */
/**
 * Every allowed program, one line each, with the file of programs/ that holds its grammar. A
 * program is allowed exactly when this table names it. A file is loaded the first time one of its
 * programs is judged; the built CLI ships each file as a bundle of its own (esbuild.mjs), so a
 * command that judges `ls` never parses the grammar of git.
 */
import type { Grammars } from './types';

/** A file of programs/: its programs by name, each with the function that builds its grammar. */
interface GrammarFile {
  readonly grammars: Grammars;
}

const astGrep = () => (require('./programs/astGrep') as GrammarFile).grammars;
const bat = () => (require('./programs/bat') as GrammarFile).grammars;
const cargo = () => (require('./programs/cargo') as GrammarFile).grammars;
const diff = () => (require('./programs/diff') as GrammarFile).grammars;
const echo = () => (require('./programs/echo') as GrammarFile).grammars;
const fd = () => (require('./programs/fd') as GrammarFile).grammars;
const find = () => (require('./programs/find') as GrammarFile).grammars;
const git = () => (require('./programs/git') as GrammarFile).grammars;
const grep = () => (require('./programs/grep') as GrammarFile).grammars;
const info = () => (require('./programs/info') as GrammarFile).grammars;
const jq = () => (require('./programs/jq') as GrammarFile).grammars;
const ls = () => (require('./programs/ls') as GrammarFile).grammars;
const packageManagers = () => (require('./programs/packageManagers') as GrammarFile).grammars;
const rg = () => (require('./programs/rg') as GrammarFile).grammars;
const sed = () => (require('./programs/sed') as GrammarFile).grammars;
const test = () => (require('./programs/test') as GrammarFile).grammars;
const text = () => (require('./programs/text') as GrammarFile).grammars;
const tree = () => (require('./programs/tree') as GrammarFile).grammars;

/** Each allowed program and the file its grammar is in. */
export const PROGRAMS: Readonly<Record<string, () => Grammars>> = {
  'ast-grep': astGrep,
  basename: info,
  bat,
  cargo,
  cat: text,
  column: text,
  cut: text,
  date: info,
  df: info,
  diff,
  dirname: info,
  du: info,
  echo,
  egrep: grep,
  false: echo,
  fd,
  fgrep: grep,
  file: info,
  find,
  git,
  grep,
  head: text,
  jq,
  ls,
  nl: text,
  npm: packageManagers,
  pnpm: packageManagers,
  printf: echo,
  pwd: echo,
  realpath: info,
  rg,
  sed,
  sort: text,
  stat: info,
  tail: text,
  test,
  tr: text,
  tree,
  true: echo,
  uname: info,
  uniq: text,
  wc: text,
  which: info,
  whoami: info,
  yarn: packageManagers,
};
