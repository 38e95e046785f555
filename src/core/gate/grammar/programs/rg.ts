/**
 * ripgrep 13/14. The first operand is the pattern unless -e/-f give it or `--files`/`--type-list`
 * list instead of searching; the rest are paths. Refused: what runs programs (`--pre`,
 * `--pre-glob`, `--hostname-bin`, `-z`) and following symlinks (`-L`).
 */
import { flags, following, patternFirst, refused, terminal, valued, table } from '../kit';
import type { Grammar, Grammars } from '../types';

const SUPPLIERS = ['-e', '--regexp', '-f', '--file', '--files', '--type-list'];

/** Each switch of ripgrep with its `--no-` twin. */
function toggles(names: string): string {
  return names
    .split(' ')
    .map((n) => `--${n} --no-${n}`)
    .join(' ');
}

const rg = (): Grammar => ({
  name: 'rg',
  options: table(
    flags('-b --byte-offset -c --count --count-matches --files -l --files-with-matches --files-without-match'),
    flags('-F -H --with-filename -I --no-filename -i --ignore-case -n --line-number -N --no-line-number'),
    flags('-o --only-matching -p --pretty -q --quiet -s --case-sensitive -S --smart-case -u --unrestricted'),
    flags('-v --invert-match -w --word-regexp -x --line-regexp -U -P -a -0 --null --null-data -. --hidden'),
    flags('--passthru --passthrough --vimgrep --type-list --pcre2-version --debug --trace --stop-on-nonmatch'),
    flags('--no-config --no-ignore --ignore --no-messages --messages --no-ignore-messages --ignore-messages'),
    flags('--no-context-separator --no-encoding --no-pre --no-search-zip --no-follow --no-stats --no-require-git'),
    flags('--require-git --no-max-columns-preview --unicode --no-unicode --pcre2-unicode --no-pcre2-unicode'),
    flags(
      toggles(
        'auto-hybrid-regex binary block-buffered byte-offset column crlf fixed-strings glob-case-insensitive ' +
          'heading hidden ignore-dot ignore-exclude ignore-files ignore-global ignore-parent ignore-vcs ' +
          'ignore-file-case-insensitive include-zero invert-match json line-buffered max-columns-preview mmap ' +
          'multiline multiline-dotall one-file-system pcre2 sort-files stats text trim',
      ),
    ),
    {
      '-e': { value: 'pattern', suppliesPattern: true },
      '--regexp': { value: 'pattern', suppliesPattern: true },
      '-f': { value: 'path', suppliesPattern: true },
      '--file': { value: 'path', suppliesPattern: true },
    },
    valued('pattern', '-g --glob --iglob'),
    valued('path', '--ignore-file'),
    valued('number', '-A --after-context -B --before-context -C --context -m --max-count -M --max-columns'),
    valued('number', '-j --threads -d --max-depth --maxdepth'),
    valued('text', '-t --type -T --type-not --type-add --type-clear -r --replace -E --encoding --colors'),
    valued('text', '--context-separator --path-separator --field-context-separator --field-match-separator'),
    valued('text', '--max-filesize --dfa-size-limit --regex-size-limit --hyperlink-format'),
    valued(['never', 'auto', 'always', 'ansi'], '--color'),
    valued(['default', 'pcre2', 'auto'], '--engine'),
    valued(['none', 'path', 'modified', 'accessed', 'created'], '--sort --sortr'),
    { '--generate': { value: ['man', 'complete-bash', 'complete-zsh', 'complete-fish', 'complete-powershell'] } },
    refused('runs a preprocessor program on every file', '--pre'),
    refused('chooses files for --pre, which runs a preprocessor program', '--pre-glob'),
    refused('runs a program to find the host name', '--hostname-bin'),
    refused('runs decompression programs on compressed files', '-z --search-zip'),
    following('use rg without -L (it does not follow symlinks by default)', '-L --follow'),
    terminal('-h --help -V --version'),
  ),
  positional: patternFirst(SUPPLIERS),
});

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { rg };
