/** Helpers for spotting one option among a program's arguments, the way getopt-style parsers read them. */

/**
 * The dangerous long option `word` selects, or null. Counts exact names, `--name=value`, and
 * unambiguous-looking abbreviations (`--out=x` is `--output=x` to GNU getopt and to git), unless
 * the typed name is itself a known safe option (`--text` is not an abbreviation of `--textconv`).
 */
export function longOption(word: string, names: readonly string[], safe?: ReadonlySet<string>): string | null {
  if (word.length < 3 || !word.startsWith('--')) return null;
  const eq = word.indexOf('=');
  const name = eq < 0 ? word : word.slice(0, eq);
  if (safe?.has(name)) return null;
  for (const d of names) if (d.startsWith(name)) return d;
  return null;
}

/**
 * The dangerous short option hidden in a cluster like `-ni` (`-n -i`), or null. Scanning stops at
 * the first option letter that takes a value, because the rest of the word is that value
 * (`sort -t o` vs `sort -to`: both set the separator to `o`).
 */
export function shortOption(word: string, dangerous: string, valueTaking: string): string | null {
  if (word.length < 2 || word.charCodeAt(0) !== 0x2d /* - */ || word.charCodeAt(1) === 0x2d) return null;
  for (let k = 1; k < word.length; k++) {
    const c = word[k] as string;
    if (dangerous.includes(c)) return c;
    if (valueTaking.includes(c)) return null;
  }
  return null;
}

/** Whether a word is an option (starts with `-` and is not just `-`). */
export function isOption(word: string): boolean {
  return word.length > 1 && word.charCodeAt(0) === 0x2d;
}
