/**
 * What one file tool did to one file, measured once from the text before and after: the lines
 * added and removed, and a unified diff a host shows as it is. Counts are over the whole change;
 * the diff is cut to a size a panel can hold, saying how many lines it left out.
 */
import { structuredPatch } from 'diff';
import { cutLine } from '../tools/result';

/** `created`: the file did not exist; `edited`: exact text replaced; `replaced`: its whole content written again. */
export type FileChangeAction = 'created' | 'edited' | 'replaced';

export interface FileChange {
  /** The workspace path as a person reads it. */
  readonly path: string;
  readonly action: FileChangeAction;
  readonly added: number;
  readonly removed: number;
  /** `--- a/path`, `+++ b/path` (`/dev/null` for a created file), then the hunks; '' when nothing changed. */
  readonly diff: string;
  /** Diff lines left out past the cut. */
  readonly omitted: number;
  /** For the person, under the row: the file had their unsaved changes, so this change waits unsaved too. */
  readonly note?: string;
}

/** The diff's cut: lines, then characters in all, and characters per line. */
export const DIFF_MAX_LINES = 400;
export const DIFF_MAX_CHARS = 32 * 1024;
export const DIFF_MAX_LINE_CHARS = 400;

const CONTEXT_LINES = 3;

/** A hunk's range as a unified diff writes it: an empty side starts at the line before. */
function range(start: number, lines: number): string {
  const from = lines === 0 ? start - 1 : start;
  return lines === 1 ? `${from}` : `${from},${lines}`;
}

/**
 * The change from `before` (undefined: the file did not exist) to `after`; `leftUnsaved` when the
 * writer left it in an editor that held the person's unsaved changes.
 */
export function fileChange(
  path: string,
  action: FileChangeAction,
  before: string | undefined,
  after: string,
  leftUnsaved = false,
): FileChange {
  const note = leftUnsaved
    ? { note: `${path} had unsaved changes of yours, so this change is unsaved too: save the file when you are ready.` }
    : {};
  const patch = structuredPatch(`a/${path}`, `b/${path}`, before ?? '', after, undefined, undefined, {
    context: CONTEXT_LINES,
  });
  let added = 0;
  let removed = 0;
  const body: string[] = [];
  for (const hunk of patch.hunks) {
    body.push(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`);
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
      body.push(line);
    }
  }
  if (body.length === 0) return { path, action, added, removed, diff: '', omitted: 0, ...note };
  const lines = [before === undefined ? '--- /dev/null' : `--- a/${path}`, `+++ b/${path}`, ...body];
  const kept: string[] = [];
  let chars = 0;
  for (const line of lines) {
    const shown = cutLine(line, DIFF_MAX_LINE_CHARS);
    if (kept.length >= DIFF_MAX_LINES || chars + shown.length + 1 > DIFF_MAX_CHARS) break;
    kept.push(shown);
    chars += shown.length + 1;
  }
  return { path, action, added, removed, diff: kept.join('\n'), omitted: lines.length - kept.length, ...note };
}

/** How a file change reads as the first words of its row: "Edited src/a.ts". */
export function changeTitle(change: FileChange): string {
  const verb = change.action === 'created' ? 'Created' : change.action === 'edited' ? 'Edited' : 'Wrote';
  return `${verb} ${change.path}`;
}
