/** Exact text matching for `edit_file`, and the hints it gives when old_text is not found. */

/** Start offsets of the non-overlapping occurrences of `needle`, left to right. */
export function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  if (needle === '') return out;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

/** 1-based line number of an offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

const normal = (line: string) => line.trim().replace(/\s+/g, ' ');

/** How many old_text lines are compared one by one when looking for a partial match. */
const HINT_LINES = 20;
const HINT_HITS = 5;

/**
 * A short hint for an old_text that is not in the file: where it matches when whitespace is
 * ignored, else where its first recognisable line is, else that none of it is there.
 */
export function closestLines(text: string, oldText: string): string {
  const fileLines = text.split(/\r?\n/).map(normal);
  const oldLines = oldText.split(/\r?\n/).map(normal);
  while (oldLines.length > 0 && oldLines[0] === '') oldLines.shift();
  while (oldLines.length > 0 && oldLines[oldLines.length - 1] === '') oldLines.pop();
  if (oldLines.length === 0) return 'old_text holds only whitespace; give the exact text to replace.';

  const blocks: number[] = [];
  for (let i = 0; i + oldLines.length <= fileLines.length && blocks.length < HINT_HITS; i++) {
    if (oldLines.every((l, k) => fileLines[i + k] === l)) blocks.push(i + 1);
  }
  if (blocks.length > 0) {
    const span = (s: number) => (oldLines.length === 1 ? `${s}` : `${s}-${s + oldLines.length - 1}`);
    return (
      `It matches line${oldLines.length === 1 && blocks.length === 1 ? '' : 's'} ${blocks.map(span).join(', ')} ` +
      'if whitespace is ignored: copy the text exactly as it is in the file, indentation included.'
    );
  }

  for (let k = 0; k < Math.min(oldLines.length, HINT_LINES); k++) {
    const wanted = oldLines[k] as string;
    if (wanted.length < 3) continue;
    const hits: number[] = [];
    for (let i = 0; i < fileLines.length && hits.length < HINT_HITS; i++) {
      if ((fileLines[i] as string).includes(wanted)) hits.push(i + 1);
    }
    if (hits.length > 0) {
      const quoted = wanted.length > 60 ? `${wanted.slice(0, 60)}…` : wanted;
      return (
        `Its line ${k + 1} ("${quoted}") is near line${hits.length === 1 ? '' : 's'} ${hits.join(', ')} of the file, ` +
        'but the text around it differs: read those lines again and copy them exactly.'
      );
    }
  }
  return 'None of its lines are in the file: read the file again, it may have changed since you last read it.';
}
