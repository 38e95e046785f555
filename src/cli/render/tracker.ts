/**
 * The task tracker as a compact tree (rules §5 glyphs): the whole tree once, then only the steps
 * that changed, each with the progress. The counts and the percentage are the engine's, from
 * `tracker.updated`; nothing is counted here.
 */
import type { ThreadEvent, TrackerItemInfo } from '../../core/api/sessions';
import { STATUS_GLYPH } from '../../core/api/plans';
import type { Style } from './style';

type TrackerEvent = Pick<Extract<ThreadEvent, { type: 'tracker.updated' }>, 'title' | 'items' | 'counts' | 'percent'>;

function failedCommand(item: TrackerItemInfo): { command: string; code: string } | undefined {
  for (const e of item.entries) {
    const r = e.result;
    if (e.kind !== 'command' || !r || r.status === 'passed' || r.status === 'running') continue;
    return {
      command: e.command ?? e.text,
      code: r.refused ? 'not run' : r.exitCode === null ? r.status.replace('_', ' ') : `exit ${r.exitCode}`,
    };
  }
  return undefined;
}

/** One step of the tree: its path (`2.1`), its line as drawn in the tree, and the same without the tree. */
export interface TrackerRow {
  readonly path: string;
  readonly line: string;
  readonly bare: string;
}

/** `2/5 completed, 40%`. */
export function progressText(t: Pick<TrackerEvent, 'counts' | 'percent'>): string {
  return `${t.counts.done}/${t.counts.total} completed, ${t.percent}%`;
}

export function trackerLines(t: TrackerEvent, style: Style): string[] {
  return [style.bold(`${t.title} (${progressText(t)})`), ...trackerRows(t, style).map((r) => r.line)];
}

/** The tree's rows, a step's failed check on the row after it (same path). */
export function trackerRows(t: TrackerEvent, style: Style): TrackerRow[] {
  const lines: TrackerRow[] = [];
  const walk = (list: readonly TrackerItemInfo[], prefix: string, parent: string) => {
    list.forEach((item, i) => {
      const path = parent === '' ? `${i + 1}` : `${parent}.${i + 1}`;
      const last = i === list.length - 1;
      const glyph = item.children.length === 0 ? `${STATUS_GLYPH[item.status]} ` : '';
      const coloured =
        item.status === 'completed'
          ? style.green(glyph)
          : item.status === 'blocked'
            ? style.red(glyph)
            : item.status === 'in_progress'
              ? style.yellow(glyph)
              : glyph;
      const waiting = item.awaitingCheck ? style.yellow(' (awaiting your check)') : '';
      const bare = `${coloured}${item.description}${waiting}`;
      lines.push({ path, line: `${prefix}${last ? '└─ ' : '├─ '}${bare}`, bare });
      const failed = item.status !== 'completed' ? failedCommand(item) : undefined;
      if (failed) {
        const text = style.red(
          failed.code === 'not run'
            ? `verify not run (needs your yes): ${failed.command}`
            : `verify failed (${failed.code}): ${failed.command}`,
        );
        lines.push({ path: `${path}!`, line: `${prefix}${last ? '   ' : '│  '}   ${text}`, bare: `  ${text}` });
      }
      walk(item.children, `${prefix}${last ? '   ' : '│  '}`, path);
    });
  };
  walk(t.items, '  ', '');
  return lines;
}
