/**
 * GNU sed: no in-place editing, no script files, and a script that sedScript.ts parses exactly as
 * GNU sed does and finds free of the `e`, `r`, `R`, `w`, `W` commands and the `e`/`w` flags of
 * `s///`. Where the host knows sed is GNU sed, the gate also switches on `--sandbox`, which makes
 * sed itself refuse those commands: a second line of defence.
 */
import { sedScriptProblem } from '../../sedScript';
import type { ArgvState, Grammar, Grammars, OptionSpec } from '../types';

const FLAG: OptionSpec = {};
const SCRIPT: OptionSpec = { value: 'script', suppliesPattern: true };
const IN_PLACE: OptionSpec = { refuse: 'edits files in place' };
const SCRIPT_FILE: OptionSpec = {
  refuse: 'reads its script from a file; give the script with -e or as the first argument',
};

function scriptOf(state: ArgvState): string | null {
  const e = state.values.get('-e') ?? [];
  const long = state.values.get('--expression') ?? [];
  if (e.length > 0 && long.length > 0) return null;
  const given = e.length > 0 ? e : long;
  if (given.length > 0) return given.join('\n');
  return state.positionals[0] ?? null;
}

function check(state: ArgvState): { rule: string; reason: string } | null {
  const both = state.values.has('-e') && state.values.has('--expression');
  if (both) return { rule: 'option', reason: "'sed': give the script with either -e or --expression, not both" };
  const script = scriptOf(state);
  if (script === null) return { rule: 'option', reason: "'sed' needs a script" };
  const problem = sedScriptProblem(script);
  return problem ? { rule: 'sed', reason: `'sed': ${problem}` } : null;
}

const sed = (): Grammar => ({
  name: 'sed',
  options: {
    '-n': FLAG,
    '--quiet': FLAG,
    '--silent': FLAG,
    '-e': SCRIPT,
    '--expression': SCRIPT,
    '-E': FLAG,
    '-r': FLAG,
    '--regexp-extended': FLAG,
    '-s': FLAG,
    '--separate': FLAG,
    '-z': FLAG,
    '--null-data': FLAG,
    '-u': FLAG,
    '--unbuffered': FLAG,
    '-l': { value: 'number' },
    '--line-length': { value: 'number' },
    '--posix': FLAG,
    '--debug': FLAG,
    '--sandbox': FLAG,
    '-b': FLAG,
    '--binary': FLAG,
    '--version': { terminal: true },
    '--help': { terminal: true },
    '-i': IN_PLACE,
    '--in-place': IN_PLACE,
    '-I': IN_PLACE,
    '-c': IN_PLACE,
    '--follow-symlinks': IN_PLACE,
    '-f': SCRIPT_FILE,
    '--file': SCRIPT_FILE,
  },
  positional: (index, state) =>
    index === 0 && !state.seen.has('-e') && !state.seen.has('--expression') ? 'script' : 'path',
  check,
  safeMode: { key: 'sedSandbox', insert: '--sandbox' },
});

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { sed };
