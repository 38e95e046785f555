/**
 * Arguments that are search patterns or scripts rather than file names, so the path rule (step 8)
 * does not read `rg '/api/v1' src` as a path outside the workspace. Only words the program is
 * certain to read as a pattern are excused: when in doubt a word stays path-checked.
 */
import { sedScriptWords } from './sed';
import type { Word } from './types';

/** Short options of rg/grep that take the next word as their value (when not glued). */
const SEARCH_VALUE_SHORT: Record<string, ReadonlySet<string>> = {
  rg: new Set(['-A', '-B', '-C', '-m', '-M', '-g', '-t', '-T', '-j', '-E', '-d', '-r']),
  grep: new Set(['-A', '-B', '-C', '-m', '-d', '-D']),
};
/** Long options that certainly take the next word as their value (others count as flags, the safe side). */
const SEARCH_VALUE_LONG: Record<string, ReadonlySet<string>> = {
  rg: new Set(['--glob', '--iglob', '--type', '--type-not', '--max-count', '--max-depth', '--replace']),
  grep: new Set<string>(),
};
/** Options that give the pattern themselves; then the first operand is a path. */
const PATTERN_OPTIONS = /^(-[^-]*[ef]|--regexp|--file)/;

/**
 * The index of the pattern operand of rg/grep, or -1 when there is none (or it is unclear). A word
 * skipped as an option's value is still path-checked; only the pattern itself is excused.
 */
function searchPatternIndex(family: 'rg' | 'grep', args: readonly Word[]): number {
  const short = SEARCH_VALUE_SHORT[family] as ReadonlySet<string>;
  const long = SEARCH_VALUE_LONG[family] as ReadonlySet<string>;
  let endOfOptions = false;
  for (let k = 0; k < args.length; k++) {
    const w = (args[k] as Word).value;
    if (endOfOptions || w === '-' || !w.startsWith('-')) return k;
    if (w === '--') endOfOptions = true;
    else if (PATTERN_OPTIONS.test(w) || w === '--files')
      return -1; // `rg --files DIR` takes no pattern
    else if (short.has(w) || long.has(w)) k++;
  }
  return -1;
}

export function patternWords(program: string, args: readonly Word[]): ReadonlySet<number> | null {
  if (program === 'sed') return sedScriptWords(args);
  const family =
    program === 'rg' ? 'rg' : program === 'grep' || program === 'egrep' || program === 'fgrep' ? 'grep' : null;
  if (family === null) return null;
  const k = searchPatternIndex(family, args);
  return k < 0 ? null : new Set([k]);
}
