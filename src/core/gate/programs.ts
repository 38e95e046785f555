/**
 * Rules §1.1 step 5 (the program allow-list) and the unsafe-option table of step 7 for the
 * allow-listed programs. Rows marked "+" in the rules are ours; so are the rows marked
 * "beyond the table" below, each closing a way the program could write or run something.
 */
import * as path from 'node:path';
import { isOption, longOption, shortOption } from './options';
import { checkSed } from './sed';
import { blocked, type Verdict, type Word } from './types';

export const ALLOWED_PROGRAMS = new Set(
  (
    'rg ls cat diff find wc grep egrep fgrep head tail sort uniq bat sed cut tr ast-grep sg echo pwd ' +
    'printf true false test cd fd tree which stat file du df realpath basename dirname nl column jq date whoami uname'
  ).split(' '),
);

/** Words that run the rest of the line as another command (step 4). */
export const COMMAND_RUNNERS = new Set(
  (
    'sudo doas xargs nohup time exec eval command builtin source . nice timeout watch ' +
    'stdbuf setsid ionice chrt taskset strace ltrace su runuser pkexec unbuffer flock parallel chroot nsenter unshare'
  ).split(' '),
);

const FILE_WRITERS = new Set('tee dd'.split(' '));
const FILE_CHANGERS = new Set(
  'cp mv rm rmdir mkdir touch chmod chown chgrp ln truncate install shred unlink rsync patch split csplit'.split(' '),
);
const INTERPRETERS = new Set(
  (
    'sh bash zsh dash ksh mksh fish csh tcsh ash busybox nodejs deno bun php lua luajit awk gawk mawk nawk ' +
    'tclsh wish expect osascript pwsh powershell rscript julia java groovy swift go make cmake ninja npx bunx pipx'
  ).split(' '),
);
const VERSIONED_INTERPRETER = /^(python|pypy|perl|ruby|node|php|lua)[0-9.]*$/;
const EDITORS = new Set('vi vim nvim view nano pico emacs ed ex code micro hx kak joe'.split(' '));
const PAGERS = new Set('less more most pg'.split(' '));
/** Directories a program may be named by full path from (`/usr/bin/rg` counts as `rg`). */
const SYSTEM_BIN_DIRS = new Set(['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin', '/opt/homebrew/bin']);

/** The program a command word names: its lower-cased file name, or a verdict when the word is a path we refuse. */
export function programName(word: string): string | Verdict {
  if (!word.includes('/')) return word.toLowerCase();
  const normal = path.posix.normalize(word);
  if (normal.startsWith('/') && SYSTEM_BIN_DIRS.has(path.posix.dirname(normal))) {
    return path.posix.basename(normal).toLowerCase();
  }
  return blocked('program', `'${word}' runs a file by path; only system programs are allowed, called by name`);
}

/** Step 5: why a program that is not allow-listed is refused. */
export function refuseProgram(name: string, word: string): Verdict {
  const shown = word === name ? name : word;
  if (FILE_WRITERS.has(name)) return blocked('program', `'${shown}' writes files`);
  if (FILE_CHANGERS.has(name)) return blocked('program', `'${shown}' changes files`);
  if (INTERPRETERS.has(name) || VERSIONED_INTERPRETER.test(name)) {
    return blocked('program', `'${shown}' is an interpreter or build tool that can run any code`);
  }
  if (EDITORS.has(name)) return blocked('program', `'${shown}' is an editor`);
  if (PAGERS.has(name)) return blocked('program', `'${shown}' is a pager and can run commands`);
  return blocked('program', `'${shown}' is not on the read-only allow-list`);
}

type OptionCheck = (args: readonly Word[], program: string) => Verdict | null;

/** A table row: dangerous short letters, letters taking a glued value, dangerous long options. */
function row(short: string, values: string, long: readonly string[], why: Record<string, string>): OptionCheck {
  return (args, program) => {
    for (const { value: w } of args) {
      const s = shortOption(w, short, values);
      const l = s ? null : longOption(w, long);
      const hit = s ? `-${s}` : l;
      if (hit) return blocked('option', `'${program} ${w}' ${why[hit] ?? 'is not read-only'}`);
    }
    return null;
  };
}

const FIND_REJECT: Record<string, string> = {
  '-delete': 'deletes files',
  '-exec': 'runs a command',
  '-execdir': 'runs a command',
  '-ok': 'runs a command',
  '-okdir': 'runs a command',
  '-fls': 'writes a file',
  '-fprint': 'writes a file',
  '-fprint0': 'writes a file',
  '-fprintf': 'writes a file',
};

function checkFind(args: readonly Word[]): Verdict | null {
  for (const { value: w } of args) {
    const why = Object.hasOwn(FIND_REJECT, w) ? FIND_REJECT[w] : undefined;
    if (why) return blocked('option', `'find ${w}' ${why}`);
  }
  return null;
}

const AST_GREP_SUBCOMMANDS = new Set(['run', 'scan', 'test', 'lsp', 'completions', 'help']);
const astGrepRow = row('rU', 'plcjABC', ['--rewrite', '--update-all'], {
  '-r': 'rewrites code',
  '--rewrite': 'rewrites code',
  '-U': 'applies rewrites to files',
  '--update-all': 'applies rewrites to files',
});

/** ast-grep; `sg` is also the set-group command on Linux, which runs its argument as a command. */
function checkAstGrep(args: readonly Word[], program: string): Verdict | null {
  const first = args[0]?.value;
  if (first === 'new') return blocked('option', `'${program} new' creates files`);
  if (program === 'sg' && first !== undefined && !(isOption(first) || AST_GREP_SUBCOMMANDS.has(first))) {
    return blocked(
      'option',
      "'sg' must start with an ast-grep option or subcommand (e.g. 'sg run -p ...'); 'sg GROUP CMD' runs a command",
    );
  }
  return astGrepRow(args, program);
}

/** Beyond the table: `uniq IN OUT` writes OUT. Counts operands conservatively (values of -f/-s/-w skipped). */
function checkUniq(args: readonly Word[]): Verdict | null {
  let operands = 0;
  let endOfOptions = false;
  for (let k = 0; k < args.length; k++) {
    const w = (args[k] as Word).value;
    if (!endOfOptions && w === '--') endOfOptions = true;
    else if (!endOfOptions && isOption(w)) {
      if (w === '-f' || w === '-s' || w === '-w') k++;
    } else operands++;
  }
  return operands > 1 ? blocked('option', "'uniq' with a second file name writes its output to that file") : null;
}

/** Beyond the table: bat's pager runs a program; `bat cache` and `--generate-config-file` write files. */
function checkBat(args: readonly Word[]): Verdict | null {
  if (args[0]?.value === 'cache') return blocked('option', "'bat cache' writes files");
  if (args.some((w) => longOption(w.value, ['--generate-config-file']))) {
    return blocked('option', "'bat --generate-config-file' writes a configuration file");
  }
  for (let k = 0; k < args.length; k++) {
    const w = (args[k] as Word).value;
    if (longOption(w, ['--pager'])) return blocked('option', `'bat ${w}' runs a pager program`);
    if (w.startsWith('--paging')) {
      const value = w.includes('=') ? w.slice(w.indexOf('=') + 1) : args[k + 1]?.value;
      if (value !== 'never') return blocked('option', `'bat ${w}' may start a pager; use --paging=never or -P`);
    }
  }
  return null;
}

const OPTION_CHECKS: Record<string, OptionCheck> = {
  sed: (args) => checkSed(args),
  find: (args) => checkFind(args),
  sort: row('o', 'kStT', ['--output', '--compress-program'], {
    '-o': 'writes its output to a file',
    '--output': 'writes its output to a file',
    '--compress-program': 'runs a compression program',
  }),
  date: row('s', 'dfrI', ['--set'], { '-s': 'sets the system clock', '--set': 'sets the system clock' }),
  rg: row('z', 'ABCdeEfgjmMrtT', ['--pre', '--hostname-bin', '--search-zip'], {
    '-z': 'runs decompression programs',
    '--search-zip': 'runs decompression programs',
    '--pre': 'runs a preprocessor program on every file',
    '--hostname-bin': 'runs a program to find the host name',
  }),
  'ast-grep': checkAstGrep,
  sg: checkAstGrep,
  fd: row('xX', 'cdeEjoSt', ['--exec', '--exec-batch'], {
    '-x': 'runs a command for each result',
    '-X': 'runs a command with the results',
    '--exec': 'runs a command for each result',
    '--exec-batch': 'runs a command with the results',
  }),
  // Beyond the table: `tree -R` writes an `00Tree.html` into every directory.
  tree: row('oR', '', ['--output'], {
    '-o': 'writes its output to a file',
    '--output': 'writes its output to a file',
    '-R': 'writes an output file into every directory',
  }),
  // Beyond the table: `file -C` compiles a magic file and writes it.
  file: row('C', 'efFmP', ['--compile'], {
    '-C': 'writes a compiled magic file',
    '--compile': 'writes a compiled magic file',
  }),
  uniq: (args) => checkUniq(args),
  bat: (args) => checkBat(args),
};

/** Step 7 for allow-listed programs (git, cargo and the package managers are handled with their subcommands). */
export function checkProgramOptions(program: string, args: readonly Word[]): Verdict | null {
  const check = OPTION_CHECKS[program];
  return check ? check(args, program) : null;
}
