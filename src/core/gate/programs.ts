/**
 * Rules §1.1 step 5: which program a command word names. The allow-list is the programs
 * `grammar/registry.ts` names; everything else is refused with the reason that fits it.
 */
import { posix } from 'node:path';
import { isAllowed } from './grammar';
import type { PathResolver } from './resolve';
import { blocked, type Verdict, type Word } from './types';

/** A set of names, given space-separated. */
const names = (list: string): ReadonlySet<string> => new Set(list.split(' '));

/** Words that run the rest of the line as another command (step 4). */
const COMMAND_RUNNERS = names(
  'sudo doas xargs nohup time exec eval command builtin source . nice timeout watch ' +
    'stdbuf setsid ionice chrt taskset strace ltrace su runuser pkexec unbuffer flock parallel chroot nsenter unshare',
);
const FILE_WRITERS = names('tee dd');
const FILE_CHANGERS = names(
  'cp mv rm rmdir mkdir touch chmod chown chgrp ln truncate install shred unlink rsync patch split csplit',
);
const INTERPRETERS = names(
  'sh bash zsh dash ksh mksh fish csh tcsh ash busybox nodejs deno bun php lua luajit awk gawk mawk nawk ' +
    'tclsh wish expect osascript pwsh powershell rscript julia java groovy swift go make cmake ninja npx bunx pipx',
);
const VERSIONED_INTERPRETER = /^(python|pypy|perl|ruby|node|php|lua)[0-9.]*$/;
const EDITORS = names('vi vim nvim view nano pico emacs ed ex code micro hx kak joe');
const PAGERS = names('less more most pg');
/** Directories a program may be named by full path from (`/usr/bin/rg` counts as `rg`). */
const SYSTEM_BIN_DIRS = names('/bin /usr/bin /usr/local/bin /sbin /usr/sbin /opt/homebrew/bin');

/** Step 5: why a program that is not allow-listed is refused. */
function refuseProgram(name: string, word: string): Verdict {
  const shown = word === name ? name : word;
  if (name === 'sg') {
    return blocked(
      'program',
      "'sg' is also the set-group command, which runs a command; call ast-grep by its full name",
    );
  }
  if (FILE_WRITERS.has(name)) return blocked('program', `'${shown}' writes files`);
  if (FILE_CHANGERS.has(name)) return blocked('program', `'${shown}' changes files`);
  if (INTERPRETERS.has(name) || VERSIONED_INTERPRETER.test(name)) {
    return blocked('program', `'${shown}' is an interpreter or build tool that can run any code`);
  }
  if (EDITORS.has(name)) return blocked('program', `'${shown}' is an editor`);
  if (PAGERS.has(name)) return blocked('program', `'${shown}' is a pager and can run commands`);
  return blocked('program', `'${shown}' is not on the read-only allow-list`);
}

/**
 * The allowed program a command word names, or why it is refused. A full path counts as the
 * program when it lies in a system directory and really is that program (`/usr/bin/rg`).
 */
export function programOf(word: Word, resolver: PathResolver): string | Verdict | Promise<string | Verdict> {
  const v = word.value;
  if (word.glob !== null) return blocked('program', `the program name '${v}' may not be a glob`);
  if (!v.includes('/')) return programByName(v, v);
  const normal = posix.normalize(v);
  const name = posix.basename(normal);
  if (!normal.startsWith('/') || !SYSTEM_BIN_DIRS.has(posix.dirname(normal))) {
    return blocked('program', `'${v}' runs a file by path; only system programs are allowed, called by name`);
  }
  if (!isAllowed(name)) return programByName(name, v);
  return resolver.realpathOf(normal).then((real) => {
    if (real === null) return blocked('program', `'${v}' does not exist`);
    const base = posix.basename(real);
    if (base !== name && !base.startsWith(`${name}.`)) {
      return blocked('program', `'${v}' is really '${real}', not the program '${name}'`);
    }
    return programByName(name, v);
  });
}

function programByName(name: string, v: string): string | Verdict {
  const lower = name.toLowerCase();
  if (COMMAND_RUNNERS.has(lower)) {
    return blocked('prefix', `'${v}' runs another command; command prefixes are not allowed`);
  }
  if (name === 'cd') return blocked('cd', "'cd' must be a command of its own, without assignments before it");
  if (isAllowed(name)) return name;
  // A case-insensitive file system runs `RG` as `rg`: judge it as that program.
  if (isAllowed(lower)) return lower;
  return refuseProgram(lower, v);
}
