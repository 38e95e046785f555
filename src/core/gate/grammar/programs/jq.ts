/**
 * jq 1.6/1.7. The first operand is the filter (a script), the rest are input files (or strings
 * after `--args`/`--jsonargs`, still checked as paths: see below). The filter may not read the environment (`env`, `$ENV`), name its
 * input files (`input_filename`) or load modules (`import`, `include`, `modulemeta`, `-L`).
 *
 * Refused because a file would go unchecked: `--slurpfile`/`--rawfile` take a variable name and
 * then a file, and the reader types that second word as text; `-f`/`--from-file` reads the filter
 * from a file whose text the gate cannot check for the builtins above.
 */
import { flags, refused, terminal, valued, table } from '../kit';
import { deniedInFilter } from '../jqFilter';
import type { ArgvState, Grammar, Grammars } from '../types';

function filterCheck(state: ArgvState): { rule: string; reason: string } | null {
  const filter = state.positionals[0];
  const name = filter === undefined ? null : deniedInFilter(filter);
  if (name === null) return null;
  const what = name === 'env' || name === '$ENV' ? 'reads the environment' : 'reads outside the named inputs';
  return { rule: 'option', reason: `'jq' filter using '${name}' ${what}` };
}

const jq = (): Grammar => ({
  name: 'jq',
  options: table(
    flags('-c --compact-output -n --null-input -e --exit-status -s --slurp -r --raw-output -j --join-output'),
    flags('-a --ascii-output -R --raw-input -C --color-output -M --monochrome-output -S --sort-keys --tab'),
    flags('--seq --stream --stream-errors --unbuffered --raw-output0 -b --binary --args --jsonargs'),
    flags('--debug-dump-disasm --debug-trace'),
    valued('number', '--indent'),
    { '--arg': { value: 'text', extraValues: 1 }, '--argjson': { value: 'text', extraValues: 1 } },
    refused(
      'takes a variable name and then a file, which Planwise cannot check; give the file as an input (jq -s . FILE)',
      '--slurpfile --rawfile',
    ),
    refused(
      'reads the filter from a file, which Planwise cannot check for env, import or include; give the filter itself',
      '-f --from-file',
    ),
    refused('adds a module search path (modules are refused)', '-L --library-path'),
    terminal('-h --help -V --version --build-configuration'),
  ),
  // jq reads `--args` in order: operands before it stay input files. The reader settles kinds
  // after every option is known, so it cannot tell which came first; every operand after the
  // filter is checked as a path (a string argument only has to stay inside the workspace).
  positional: (index) => (index === 0 ? 'script' : 'path'),
  check: filterCheck,
});

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { jq };
