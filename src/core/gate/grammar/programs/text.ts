/**
 * Grammars of the text filters from GNU coreutils 9.1 (and util-linux `column`): cat, head, tail,
 * wc, sort, uniq, cut, tr, nl, column. Operands are files they read (`path`) except tr's sets.
 * Refused: what writes (`sort -o`, uniq's OUTPUT operand), runs a program (`sort
 * --compress-program`), reads file names from a file (`--files0-from`), writes temporary files
 * where it likes (`sort -T`) or never ends (`tail -f`).
 */
import { flags, HELP_VERSION, refused, valued, table, once, type Table } from '../kit';
import type { Grammar, Grammars } from '../types';

const NAMES_FROM_FILE = 'reads the names of its input files from a file, which Planwise cannot check';

const cat = (): Grammar => ({
  name: 'cat',
  options: table(
    flags('-A --show-all -b --number-nonblank -e -E --show-ends -n --number -s --squeeze-blank -t -T --show-tabs'),
    flags('-u -v --show-nonprinting'),
    HELP_VERSION,
  ),
});

const HEAD_TAIL_COMMON = once((): Table =>
  table(
    valued('number', '-c --bytes -n --lines'),
    flags('-q --quiet --silent -v --verbose -z --zero-terminated'),
    HELP_VERSION,
  ),
);

const head = (): Grammar => ({ name: 'head', options: HEAD_TAIL_COMMON(), numericOption: true });

const tail = (): Grammar => ({
  name: 'tail',
  options: table(
    HEAD_TAIL_COMMON(),
    refused('follows the file as it grows and never ends', '-f -F --follow'),
    flags('--retry'),
    valued('number', '--pid -s --sleep-interval --max-unchanged-stats'),
  ),
  numericOption: true,
  // The old spelling `tail +5f FILE` still means `tail -n +5 -f FILE`.
  check: (state) => {
    const old = state.positionals.find((p) => /^\+\d*[bcl]?f$/.test(p));
    return old === undefined
      ? null
      : { rule: 'option', reason: `'tail ${old}' is the old spelling of tail -f, which never ends` };
  },
});

const wc = (): Grammar => ({
  name: 'wc',
  options: table(
    flags('-c --bytes -m --chars -l --lines -L --max-line-length -w --words'),
    { '--total': { value: ['auto', 'always', 'only', 'never'] } },
    refused(NAMES_FROM_FILE, '--files0-from'),
    HELP_VERSION,
  ),
});

const sort = (): Grammar => ({
  name: 'sort',
  options: table(
    flags('-b --ignore-leading-blanks -d --dictionary-order -f --ignore-case -g --general-numeric-sort'),
    flags('-i --ignore-nonprinting -M --month-sort -h --human-numeric-sort -n --numeric-sort -R --random-sort'),
    flags('-r --reverse -V --version-sort -c -C --debug -m --merge -s --stable -u --unique -z --zero-terminated'),
    {
      '--check': { value: ['diagnose-first', 'quiet', 'silent'], optionalValue: true },
      '--sort': { value: ['general-numeric', 'human-numeric', 'month', 'numeric', 'random', 'version'] },
    },
    valued('path', '--random-source'),
    valued('text', '-k --key -t --field-separator -S --buffer-size'),
    valued('number', '--batch-size --parallel'),
    refused('writes its output to a file', '-o --output'),
    refused('runs a compression program', '--compress-program'),
    refused('writes temporary files into a directory of its choice', '-T --temporary-directory'),
    refused(NAMES_FROM_FILE, '--files0-from'),
    HELP_VERSION,
  ),
});

const uniq = (): Grammar => ({
  name: 'uniq',
  options: table(
    flags('-c --count -d --repeated -D -i --ignore-case -u --unique -z --zero-terminated'),
    {
      '--all-repeated': { value: ['none', 'prepend', 'separate'], optionalValue: true },
      '--group': { value: ['separate', 'prepend', 'append', 'both'], optionalValue: true },
    },
    valued('number', '-f --skip-fields -s --skip-chars -w --check-chars'),
    HELP_VERSION,
  ),
  check: (state) =>
    state.positionals.length > 1
      ? {
          rule: 'option',
          reason: `'uniq ${state.positionals[0]} ${state.positionals[1]}': a second operand is uniq's OUTPUT file, which it writes`,
        }
      : null,
});

const cut = (): Grammar => ({
  name: 'cut',
  options: table(
    valued('text', '-b --bytes -c --characters -f --fields -d --delimiter --output-delimiter'),
    flags('--complement -s --only-delimited -z --zero-terminated -n'),
    HELP_VERSION,
  ),
});

/** tr reads only standard input: its one or two operands are character sets. */
const tr = (): Grammar => ({
  name: 'tr',
  options: table(flags('-c -C --complement -d --delete -s --squeeze-repeats -t --truncate-set1'), HELP_VERSION),
  positional: (index) => (index < 2 ? 'text' : null),
});

const nl = (): Grammar => ({
  name: 'nl',
  options: table(
    valued('text', '-b --body-numbering -d --section-delimiter -f --footer-numbering -h --header-numbering'),
    valued('text', '-s --number-separator'),
    valued('number', '-i --line-increment -l --join-blank-lines -v --starting-line-number -w --number-width'),
    { '-n': { value: ['ln', 'rn', 'rz'] }, '--number-format': { value: ['ln', 'rn', 'rz'] } },
    flags('-p --no-renumber'),
    HELP_VERSION,
  ),
});

/** util-linux column (2.38 and later). */
const column = (): Grammar => ({
  name: 'column',
  options: table(
    flags('-t --table -d --table-noheadings -e --table-header-repeat -L --keep-empty-lines -J --json'),
    flags('-x --fillrows -m --table-maxout'),
    valued('text', '-n --table-name -O --table-order -N --table-columns -E --table-noextreme -H --table-hide'),
    valued('text', '-R --table-right -T --table-truncate -W --table-wrap -r --tree -i --tree-id -p --tree-parent'),
    valued('text', '-C --table-column -o --output-separator -s --separator -c --output-width'),
    valued('number', '-l --table-columns-limit -S --use-spaces'),
    { '-h': { terminal: true }, '-V': { terminal: true } },
    HELP_VERSION,
  ),
});

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { cat, head, tail, wc, sort, uniq, cut, tr, nl, column };
