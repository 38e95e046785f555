/**
 * Grammars of the programs that describe files and the system: which, stat, file, du, df,
 * realpath, basename, dirname, date, whoami, uname (GNU coreutils 9.1, file 5.x, Debian's which).
 * Operands naming files are paths; basename and dirname only cut strings, so theirs are text.
 */
import { allText, flags, following, HELP_VERSION, refused, terminal, valued, table } from '../kit';
import type { Grammar, Grammars } from '../types';

/** Debian's `which` is a POSIX shell script: `-a`, then program names. */
const which = (): Grammar => ({
  name: 'which',
  options: table(flags('-a')),
  optionsFirst: true,
  positional: allText,
});

const stat = (): Grammar => ({
  name: 'stat',
  options: table(
    flags('-L --dereference -f --file-system -t --terse'),
    { '--cached': { value: ['always', 'never', 'default'] } },
    valued('text', '-c --format --printf'),
    HELP_VERSION,
  ),
});

const FILE_TEST = {
  value: ['apptype', 'ascii', 'cdf', 'compress', 'csv', 'elf', 'encoding', 'soft', 'tar', 'json', 'text', 'tokens'],
} as const;
const RUNS_DECOMPRESSORS = 'looks inside compressed files by running decompression programs';

const file = (): Grammar => ({
  name: 'file',
  options: table(
    flags('-b --brief -c --checking-printout -i --mime --apple --extension --mime-type --mime-encoding'),
    flags('-k --keep-going -l --list -L --dereference -h --no-dereference -n --no-buffer -N --no-pad'),
    flags('-0 --print0 -r --raw -s --special-files -d --debug'),
    valued('path', '-m --magic-file'),
    valued('text', '-F --separator -P --parameter --exclude-quiet'),
    { '-e': FILE_TEST, '--exclude': FILE_TEST },
    refused(RUNS_DECOMPRESSORS, '-z --uncompress -Z --uncompress-noreport'),
    refused('reads the names of the files to examine from a file, which Planwise cannot check', '-f --files-from'),
    refused('writes a compiled magic file', '-C --compile'),
    refused("changes the files' access times back (it writes their metadata)", '-p --preserve-date'),
    refused('turns off its system-call sandbox', '-S --no-sandbox'),
    terminal('--help -v --version'),
  ),
  // `-m` takes a colon-separated list; only a single file is checked as one path.
  check: (state) => {
    const list = [...(state.values.get('-m') ?? []), ...(state.values.get('--magic-file') ?? [])].find((v) =>
      v.includes(':'),
    );
    return list === undefined
      ? null
      : { rule: 'option', reason: `'file -m ${list}' names several magic files; give one file per -m` };
  },
});

const du = (): Grammar => ({
  name: 'du',
  options: table(
    flags('-0 --null -a --all --apparent-size -b --bytes -c --total -D --dereference-args -H -h --human-readable'),
    flags('--inodes -k -l --count-links -m -P --no-dereference -S --separate-dirs --si -s --summarize'),
    flags('-x --one-file-system'),
    valued('number', '-d --max-depth'),
    valued('text', '-B --block-size -t --threshold --time-style'),
    { '--time': { value: ['atime', 'access', 'use', 'ctime', 'status'], optionalValue: true } },
    valued('pattern', '--exclude'),
    valued('path', '-X --exclude-from'),
    following('use du without -L (it counts symlinks, not what they point to)', '-L --dereference'),
    refused('reads the names of the files to measure from a file, which Planwise cannot check', '--files0-from'),
    HELP_VERSION,
  ),
});

const df = (): Grammar => ({
  name: 'df',
  options: table(
    flags('-a --all -h --human-readable -H --si -i --inodes -k -l --local --no-sync -P --portability --total'),
    flags('-T --print-type -v'),
    valued('text', '-B --block-size -t --type -x --exclude-type'),
    valued('text', '--output', true),
    refused('flushes the file systems (sync) before reading them', '--sync'),
    HELP_VERSION,
  ),
});

const realpath = (): Grammar => ({
  name: 'realpath',
  options: table(
    flags('-e --canonicalize-existing -m --canonicalize-missing -L --logical -P --physical -q --quiet'),
    flags('-s --strip --no-symlinks -z --zero'),
    valued('path', '--relative-to --relative-base'),
    HELP_VERSION,
  ),
});

const basename = (): Grammar => ({
  name: 'basename',
  options: table(flags('-a --multiple -z --zero'), valued('text', '-s --suffix'), HELP_VERSION),
  positional: allText,
});

const dirname = (): Grammar => ({
  name: 'dirname',
  options: table(flags('-z --zero'), HELP_VERSION),
  positional: allText,
});

const ISO_8601 = { value: ['date', 'hours', 'minutes', 'seconds', 'ns'], optionalValue: true } as const;

/** date prints; `-s` and an operand that is not a `+FORMAT` set the system clock. */
const date = (): Grammar => ({
  name: 'date',
  options: table(
    valued('text', '-d --date'),
    valued('path', '-f --file -r --reference'),
    flags('--debug --resolution -R --rfc-email --rfc-2822 -u --utc --universal'),
    { '-I': ISO_8601, '--iso-8601': ISO_8601, '--rfc-3339': { value: ['date', 'seconds', 'ns'] } },
    refused('sets the system clock', '-s --set'),
    HELP_VERSION,
  ),
  positional: (index) => (index === 0 ? 'text' : null),
  check: (state) => {
    const operand = state.positionals[0];
    if (operand === undefined || operand.startsWith('+')) return null;
    return {
      rule: 'option',
      reason: `'date ${operand}' sets the system clock; a format starts with '+' (date +%Y-%m-%d)`,
    };
  },
});

const whoami = (): Grammar => ({ name: 'whoami', options: table(HELP_VERSION), positional: () => null });

const uname = (): Grammar => ({
  name: 'uname',
  options: table(
    flags('-a --all -s --kernel-name -n --nodename -r --kernel-release -v --kernel-version -m --machine'),
    flags('-p --processor -i --hardware-platform -o --operating-system'),
    HELP_VERSION,
  ),
  positional: () => null,
});

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = {
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
};
