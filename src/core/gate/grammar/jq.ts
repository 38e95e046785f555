/**
 * jq 1.6/1.7. The first operand is the filter (a script), the rest are input files (or strings
 * after `--args`/`--jsonargs`, still checked as paths: see below). The filter may not read the environment (`env`, `$ENV`), name its
 * input files (`input_filename`) or load modules (`import`, `include`, `modulemeta`, `-L`).
 *
 * Refused because a file would go unchecked: `--slurpfile`/`--rawfile` take a variable name and
 * then a file, and the reader types that second word as text; `-f`/`--from-file` reads the filter
 * from a file whose text the gate cannot check for the builtins above.
 */
import { flags, refused, terminal, valued, table } from './kit';
import type { ArgvState, Grammar } from './types';

/** Builtins that read what the command's words do not name: the environment, file names, modules. */
const DENIED = new Set([
  'env',
  'import',
  'include',
  'input_filename',
  'modulemeta',
  'get_search_list',
  'get_prog_origin',
  'get_jq_origin',
]);

/**
 * The filter with its string literals and comments blanked, keeping the code inside string
 * interpolations (`"\(env.HOME)"`), so a denied name is found only where jq reads it as code.
 */
export function jqCode(filter: string): string {
  let out = '';
  let inString = false;
  const depth: number[] = []; // open parentheses in each open interpolation
  for (let k = 0; k < filter.length; k++) {
    const c = filter[k] as string;
    if (inString) {
      if (c === '\\' && filter[k + 1] === '(') {
        depth.push(0);
        inString = false;
        out += ' (';
        k++;
      } else if (c === '\\') {
        out += '  ';
        k++;
      } else if (c === '"') {
        inString = false;
        out += '"';
      } else out += ' ';
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '#') {
      while (k + 1 < filter.length && filter[k + 1] !== '\n') k++;
      out += ' ';
      continue;
    } else if (depth.length > 0 && (c === '(' || c === ')')) {
      const open = depth.pop() as number;
      if (c === '(') depth.push(open + 1);
      else if (open > 0) depth.push(open - 1);
      else inString = true; // the `)` that closes the interpolation: back inside the string
    }
    out += c;
  }
  return out;
}

/** The denied name a filter uses, or null. */
export function deniedInFilter(filter: string): string | null {
  const code = jqCode(filter);
  const token = /(\$\s*|\.)?([A-Za-z_][A-Za-z0-9_]*)/g;
  for (let m = token.exec(code); m !== null; m = token.exec(code)) {
    const prefix = m[1] ?? '';
    const name = m[2] as string;
    if (prefix.startsWith('$')) {
      if (name === 'ENV') return '$ENV';
      continue;
    }
    // A field (`.env`) is data. Anything else is refused, even an object key (`{env: 1}`): telling
    // a key from a slice bound (`.[env:]`) takes a parser, and refusing a key only costs a retry.
    if (prefix === '.' || !DENIED.has(name)) continue;
    return name;
  }
  return null;
}

function filterCheck(state: ArgvState): { rule: string; reason: string } | null {
  const filter = state.positionals[0];
  const name = filter === undefined ? null : deniedInFilter(filter);
  if (name === null) return null;
  const what = name === 'env' || name === '$ENV' ? 'reads the environment' : 'reads outside the named inputs';
  return { rule: 'option', reason: `'jq' filter using '${name}' ${what}` };
}

export const jq: Grammar = {
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
};
