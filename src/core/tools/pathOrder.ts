/**
 * ripgrep's `--sort path` order, which both code searchers give: folder by folder, each name
 * compared as UTF-8 bytes. UTF-8 byte order is code point order; plain `<` compares UTF-16 units,
 * which differs for characters past U+FFFF against those from U+E000.
 */

/** Two names (one path component each) in UTF-8 byte order. */
export function compareNames(x: string, y: string): number {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const cx = x.codePointAt(i)!;
    const cy = y.codePointAt(i)!;
    if (cx !== cy) return cx - cy;
    if (cx > 0xffff) i++;
  }
  return x.length - y.length;
}

/** Two `/`-separated relative paths, name by name (a folder's entries sort after the folder's own name). */
export function comparePaths(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return compareNames(x, y);
  }
  return a.length - b.length;
}
