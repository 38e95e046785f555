/**
 * The task tracker as a compact tree (rules §5 glyphs), printed whenever it changes. The counts and
 * the percentage are the engine's, from `tracker.updated`; nothing is counted here.
 */
import { STATUS_GLYPH, type ThreadEvent, type TrackerItemInfo } from '../../core/index';
import type { Style } from './style';

type TrackerEvent = Pick<Extract<ThreadEvent, { type: 'tracker.updated' }>, 'title' | 'items' | 'counts' | 'percent'>;

function failedCommand(item: TrackerItemInfo): { command: string; code: string } | undefined {
  for (const e of item.entries) {
    const r = e.result;
    if (e.kind !== 'command' || !r || r.status === 'passed' || r.status === 'running') continue;
    return {
      command: e.command ?? e.text,
      code: r.exitCode === null ? r.status.replace('_', ' ') : `exit ${r.exitCode}`,
    };
  }
  return undefined;
}

export function trackerLines(t: TrackerEvent, style: Style): string[] {
  const lines = [style.bold(`${t.title} (${t.counts.done}/${t.counts.total} completed, ${t.percent}%)`)];
  const walk = (list: readonly TrackerItemInfo[], prefix: string) => {
    list.forEach((item, i) => {
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
      lines.push(`${prefix}${last ? '└─ ' : '├─ '}${coloured}${item.description}${waiting}`);
      const failed = item.status !== 'completed' ? failedCommand(item) : undefined;
      if (failed) {
        lines.push(
          `${prefix}${last ? '   ' : '│  '}   ${style.red(`verify failed (${failed.code}): ${failed.command}`)}`,
        );
      }
      walk(item.children, `${prefix}${last ? '   ' : '│  '}`);
    });
  };
  walk(t.items, '  ');
  return lines;
}
