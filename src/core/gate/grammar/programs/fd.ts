/**
 * fd 8/9/10 (`fdfind` on Debian). The first operand is the pattern, the rest are paths to search.
 * Refused: running commands (`-x`, `-X`, and `-l`, which runs `ls`) and following symlinks (`-L`).
 */
import { flags, following, refused, terminal, valued, table } from '../kit';
import type { Grammar, Grammars } from '../types';

const TYPES = [
  'f', 'file', 'd', 'dir', 'directory', 'l', 'symlink', 'b', 'block-device', 'c', 'char-device',
  'x', 'executable', 'e', 'empty', 's', 'socket', 'p', 'pipe',
]; // prettier-ignore

const PATH_WORDS = ['--search-path', '--ignore-file'];

const fd = (): Grammar => ({
  name: 'fd',
  options: table(
    flags('-H --hidden -I --no-ignore --no-ignore-vcs --no-ignore-parent --no-global-ignore-file --no-require-git'),
    flags('-u --unrestricted -s --case-sensitive -i --ignore-case -g --glob --regex -F --fixed-strings'),
    flags('-a --absolute-path -p --full-path -0 --print0 --prune -1 -q --quiet --show-errors'),
    flags('--one-file-system --mount --xdev --no-hidden --ignore --ignore-vcs --no-follow'),
    valued('pattern', '--and -E --exclude'),
    valued('number', '-d --max-depth --maxdepth --min-depth --exact-depth -j --threads --max-results'),
    valued('number', '--batch-size --max-buffer-time'),
    valued('text', '-e --extension -S --size -o --owner --format --path-separator'),
    valued('text', '--changed-within --changed-before --change-newer-than --change-older-than'),
    valued('text', '--newer --older --changed-after'),
    valued(TYPES, '-t --type'),
    valued(['auto', 'always', 'never'], '-c --color'),
    valued(['auto', 'always', 'never'], '--strip-cwd-prefix --hyperlink', true),
    valued('path', '--search-path --ignore-file'),
    valued('dir', '--base-directory'),
    refused('runs a command for each result', '-x --exec'),
    refused('runs a command with all the results', '-X --exec-batch'),
    refused('runs ls on the results', '-l --list-details'),
    following('use fd without -L (it does not follow symlinks by default)', '-L --follow'),
    terminal('-h --help -V --version'),
  ),
  positional: (index) => (index === 0 ? 'pattern' : 'path'),
  check: (state) => {
    if (!state.seen.has('--base-directory')) return null;
    const other = PATH_WORDS.find((n) => state.seen.has(n));
    if (other === undefined && state.positionals.length < 2) return null;
    return {
      rule: 'option',
      reason:
        `'fd --base-directory' with ${other ?? 'a search path'}: fd reads those paths from the new directory, ` +
        "Planwise from the old one; use 'cd DIR && fd …' instead",
    };
  },
});

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { fd };
