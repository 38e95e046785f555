/**
 * Small builders for the option tables of the grammars: names are given as space-separated
 * strings (one or several) so a long table stays readable; and the option specs they share.
 */
import type { ArgvState, Grammar, OptionSpec, ValueKind } from './types';

export type Table = Record<string, OptionSpec>;

/** Names (space-separated) that share one spec: a part of an options table, see `table`. */
export class Names {
  constructor(
    readonly names: string,
    readonly spec: OptionSpec,
  ) {}
}

/**
 * One options table from its parts (what `flags`, `valued`... return, tables, or object literals),
 * later parts overriding earlier ones. The table is a dictionary from its first entry (a
 * null-prototype object) and each name goes straight into it, rather than an object literal per
 * part spread into another, which makes V8 build a hidden class per name until the object falls
 * back to a dictionary anyway.
 */
export function table(...parts: readonly (Names | Table)[]): Table {
  const out = Object.create(null) as Table;
  for (const part of parts) {
    if (part instanceof Names) each(part.names, part.spec, out);
    else for (const name in part) out[name] = part[name] as OptionSpec;
  }
  return out;
}

// One split (a builtin) and a loop over the names. Names are separated by single spaces;
// test/gate/grammars.test.ts checks that no table has a name with white space in it.
function each(names: string, spec: OptionSpec, table: Table): void {
  for (const name of names.split(' ')) if (name !== '') table[name] = spec;
}

/**
 * `build` run on the first call, its result returned by every call: for a table or grammar that
 * several grammars of a file share, built when the first of them is.
 */
export function once<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/** The entry `key` of an options table, never one of Object's own properties (`constructor`). */
export function own<T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

export const FLAG: OptionSpec = {};
export const TEXT: OptionSpec = { value: 'text' };
export const NUM: OptionSpec = { value: 'number' };
export const PATTERN: OptionSpec = { value: 'pattern' };
export const PATH: OptionSpec = { value: 'path' };
/** Values that may only be attached (`--stat[=…]`, `--abbrev[=N]`). */
export const OPT_TEXT: OptionSpec = { value: 'text', optionalValue: true };
export const OPT_NUM: OptionSpec = { value: 'number', optionalValue: true };

/** Each name as a flag. */
export function flags(...names: string[]): Names {
  return new Names(names.length === 1 ? (names[0] as string) : names.join(' '), FLAG);
}

/** Each name taking a value of `kind` (`optional`: only attached, `--color[=WHEN]`). */
export function valued(kind: ValueKind, names: string, optional = false): Names {
  return new Names(names, optional ? { value: kind, optionalValue: true } : { value: kind });
}

/** Each name refused for `reason` (shown after the option). */
export function refused(reason: string, names: string): Names {
  return new Names(names, { refuse: reason });
}

/** Each name follows symlinks while traversing; `instead` says what to use. */
export function following(instead: string, names: string): Names {
  return new Names(names, { follows: instead });
}

/** Each name ends the arguments (`--help`, `--version`). */
export function terminal(names: string): Names {
  return new Names(names, { terminal: true });
}

/** `--help` and `--version`, as every GNU program has them. */
export const HELP_VERSION: Names = terminal('--help --version');

/** `--color[=WHEN]` as GNU coreutils spell WHEN. */
export const GNU_WHEN: readonly string[] = ['always', 'yes', 'force', 'never', 'no', 'none', 'auto', 'tty', 'if-tty'];

/** Every positional is free text. */
export const allText: NonNullable<Grammar['positional']> = () => 'text';

/** Whether any of `names` was seen. */
export function seenAny(state: ArgvState, names: readonly string[]): string | undefined {
  return names.find((n) => state.seen.has(n));
}

/**
 * The first operand is the pattern unless an option in `suppliers` gives it (grep -e, rg --files).
 * The reader settles positional kinds once every option is known, as getopt and clap do, so an
 * `-e` typed after the pattern (`grep FILE -e PAT`) makes that first word a file, checked as one.
 */
export function patternFirst(suppliers: readonly string[]): NonNullable<Grammar['positional']> {
  return (index, state) => (index === 0 && seenAny(state, suppliers) === undefined ? 'pattern' : 'path');
}
