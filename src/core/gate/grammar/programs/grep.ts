/**
 * GNU grep 3.8 (and its egrep/fgrep wrappers). The first operand is the pattern unless -e/-f give
 * it; the rest are files. `-R` follows symlinks while recursing (refused: `-r` does not);
 * `-f`/`--exclude-from` name files grep reads, so they are paths.
 */
import { flags, following, HELP_VERSION, patternFirst, valued, table, once, type Table } from '../kit';
import type { Grammar, Grammars } from '../types';

const SUPPLIERS = ['-e', '--regexp', '-f', '--file'];

const GREP_OPTIONS = once((): Table =>
  table(
    flags('-E --extended-regexp -F --fixed-strings -G --basic-regexp -P --perl-regexp'),
    flags('-i -y --ignore-case --no-ignore-case -w --word-regexp -x --line-regexp -z --null-data'),
    flags('-s --no-messages -v --invert-match -b --byte-offset -n --line-number --line-buffered'),
    flags('-H --with-filename -h --no-filename -o --only-matching -q --quiet --silent -a --text -I'),
    flags('-r --recursive -L --files-without-match -l --files-with-matches -c --count -T --initial-tab'),
    flags('-Z --null -U --binary --no-group-separator'),
    {
      '-e': { value: 'pattern', suppliesPattern: true },
      '--regexp': { value: 'pattern', suppliesPattern: true },
      '-f': { value: 'path', suppliesPattern: true },
      '--file': { value: 'path', suppliesPattern: true },
    },
    valued('pattern', '--include --exclude --exclude-dir'),
    valued('path', '--exclude-from'),
    valued('number', '-m --max-count -A --after-context -B --before-context -C --context'),
    valued('text', '--label --group-separator'),
    { '--binary-files': { value: ['binary', 'text', 'without-match'] } },
    valued(['read', 'recurse', 'skip'], '-d --directories'),
    valued(['read', 'skip'], '-D --devices'),
    valued(['never', 'always', 'auto'], '--color --colour', true),
    following('use grep -r, which does not follow symlinks', '-R --dereference-recursive'),
    { '-V': { terminal: true } },
    HELP_VERSION,
  ),
);

function grepLike(name: string): Grammar {
  return { name, options: GREP_OPTIONS(), numericOption: true, positional: patternFirst(SUPPLIERS) };
}

const grep = (): Grammar => grepLike('grep');
const egrep = (): Grammar => grepLike('egrep');
const fgrep = (): Grammar => grepLike('fgrep');

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { grep, egrep, fgrep };
