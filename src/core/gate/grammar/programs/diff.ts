/**
 * GNU diff (diffutils 3.8). Operands are the files or directories compared. GNU diff follows
 * symlinks while it recurses, so `-r` needs `--no-dereference`; `-l` runs `pr`.
 */
import { flags, HELP_VERSION, refused, valued, table } from '../kit';
import type { Grammar, Grammars } from '../types';

const diff = (): Grammar => ({
  name: 'diff',
  options: table(
    flags('--normal -q --brief -s --report-identical-files -c -u -e --ed -n --rcs -y --side-by-side'),
    flags('--left-column --suppress-common-lines -p --show-c-function -t --expand-tabs -T --initial-tab'),
    flags('--suppress-blank-empty -r --recursive --no-dereference -N --new-file --unidirectional-new-file'),
    flags('--ignore-file-name-case --no-ignore-file-name-case -i --ignore-case -E --ignore-tab-expansion'),
    flags('-Z --ignore-trailing-space -b --ignore-space-change -w --ignore-all-space -B --ignore-blank-lines'),
    flags('-a --text --strip-trailing-cr -d --minimal --speed-large-files'),
    valued('number', '-C -U -W --width --tabsize --horizon-lines'),
    valued('number', '--context --unified', true),
    valued('pattern', '-F --show-function-line -x --exclude -I --ignore-matching-lines'),
    valued('path', '-X --exclude-from --from-file --to-file'),
    // The name of a file inside the compared directories, where diff starts; never opened alone.
    valued('text', '-S --starting-file --label -D --ifdef --palette --line-format'),
    valued('text', '--old-group-format --new-group-format --unchanged-group-format --changed-group-format'),
    valued('text', '--old-line-format --new-line-format --unchanged-line-format'),
    valued(['never', 'always', 'auto'], '--color', true),
    refused('runs the pr program on the output', '-l --paginate'),
    { '-v': { terminal: true } },
    HELP_VERSION,
  ),
  check: (state) => {
    const recursive = ['-r', '--recursive'].find((n) => state.seen.has(n));
    if (recursive === undefined || state.seen.has('--no-dereference')) return null;
    return {
      rule: 'follow',
      reason: `'diff ${recursive}' follows symlinks out of the workspace while recursing; add --no-dereference`,
    };
  },
});

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { diff };
