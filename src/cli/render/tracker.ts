/** The task tracker as a compact tree (rules §5 glyphs), printed whenever it changes. */
import { STATUS_GLYPH } from '../../core/plan/tracker';
import type { TrackerItemInfo } from '../../core/events/types';
import type { Style } from './style';

function leaves(items: readonly TrackerItemInfo[]): TrackerItemInfo[] {
  return items.flatMap((i) => (i.children.length === 0 ? [i] : leaves(i.children)));
}

export function trackerLines(title: string, items: readonly TrackerItemInfo[], style: Style): string[] {
  const all = leaves(items);
  const done = all.filter((i) => i.status === 'completed').length;
  const percent = all.length === 0 ? 0 : Math.floor((done / all.length) * 100);
  const lines = [style.bold(`${title} (${done}/${all.length} completed, ${percent}%)`)];
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
      lines.push(`${prefix}${last ? '└─ ' : '├─ '}${coloured}${item.description}`);
      if (item.lastVerify && item.lastVerify.exitCode !== 0 && item.status !== 'completed') {
        const code = item.lastVerify.exitCode === null ? 'killed' : `exit ${item.lastVerify.exitCode}`;
        lines.push(
          `${prefix}${last ? '   ' : '│  '}   ${style.red(`verify failed (${code}): ${item.lastVerify.command}`)}`,
        );
      }
      walk(item.children, `${prefix}${last ? '   ' : '│  '}`);
    });
  };
  walk(items, '  ');
  return lines;
}
