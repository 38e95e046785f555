/**
 * The tracker file format (rules §4): a `# Title`, then `- [ ] item` lines with two spaces of
 * indent per level; `[ ]` pending, `[~]` in progress, `[x]` completed, `[!]` blocked. An item's
 * `files:` and `verify:` are indented metadata lines under it. The parser is lenient with
 * hand-edited files: `*`/`+` bullets, `[X]` and `[-]` marks and odd indents are accepted, other
 * lines are ignored.
 */
import type { TaskItem, TaskStatus, Tracker } from './tracker';
import { splitOutsideQuotes } from './text';

const MARK: Readonly<Record<TaskStatus, string>> = {
  pending: ' ',
  in_progress: '~',
  completed: 'x',
  blocked: '!',
};

/** Status of a checkbox mark: ` ` pending, `~`/`-` in progress, `x` completed, `!` blocked. */
export function statusOfMark(mark: string): TaskStatus {
  if (mark === 'x' || mark === 'X') return 'completed';
  if (mark === '~' || mark === '-') return 'in_progress';
  if (mark === '!') return 'blocked';
  return 'pending';
}

/**
 * Files go on one comma-separated line; when a file name holds a comma, every file gets a line
 * of its own and that name is wrapped in backticks. Each check gets its own line.
 */
function metadataLines(item: TaskItem, indent: string): string[] {
  const out: string[] = [];
  if (item.files.some((f) => f.includes(','))) {
    for (const f of item.files) out.push(`${indent}files: ${f.includes(',') ? `\`${f}\`` : f}`);
  } else if (item.files.length > 0) {
    out.push(`${indent}files: ${item.files.join(', ')}`);
  }
  for (const v of item.verify) out.push(`${indent}verify: ${v}`);
  return out;
}

/** Renders the tracker in the file format. */
export function renderTrackerFile(t: Tracker): string {
  const lines = [`# ${t.title}`, ''];
  const walk = (items: readonly TaskItem[], depth: number) => {
    for (const item of items) {
      const indent = '  '.repeat(depth);
      lines.push(`${indent}- [${MARK[item.status]}] ${item.description.replace(/\s*\r?\n\s*/g, ' ')}`);
      lines.push(...metadataLines(item, `${indent}  `));
      walk(item.children, depth + 1);
    }
  };
  walk(t.items, 0);
  return `${lines.join('\n')}\n`;
}

const ITEM = /^(\s*)[-*+]\s+\[([ xX~!-])\]\s?(.*)$/;
const META = /^(\s*)(files|verify):\s*(.*)$/i;
const TITLE = /^#{1,6}\s+(.*?)\s*#*\s*$/;

/** Parses the file format back into a tracker. A missing title becomes 'Tasks'. */
export function parseTrackerFile(text: string): Tracker {
  let title: string | undefined;
  const items: TaskItem[] = [];
  /** The open path of items: stack[d] is the last item seen at depth d. */
  const stack: TaskItem[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/^[ \t]+/, (ws) => ws.replace(/\t/g, '  '));
    const item = ITEM.exec(line);
    if (item) {
      const depth = Math.min(Math.floor((item[1] as string).length / 2), stack.length);
      const node: TaskItem = {
        description: (item[3] as string).trim(),
        status: statusOfMark(item[2] as string),
        files: [],
        verify: [],
        children: [],
      };
      stack.length = depth;
      if (depth === 0) items.push(node);
      else (stack[depth - 1] as TaskItem).children.push(node);
      stack.push(node);
      continue;
    }
    const meta = META.exec(line);
    if (meta && stack.length > 0) {
      const owner = stack[stack.length - 1] as TaskItem;
      const value = (meta[3] as string).trim();
      if (value.length === 0) continue;
      if ((meta[2] as string).toLowerCase() === 'files') {
        const files = splitOutsideQuotes(value)
          .map((f) => f.trim().replace(/^`([^`]*)`$/, '$1'))
          .filter((f) => f.length > 0);
        owner.files.push(...files);
      } else {
        owner.verify.push(value);
      }
      continue;
    }
    const heading = TITLE.exec(line);
    if (heading && title === undefined && items.length === 0) title = (heading[1] as string).trim();
  }
  return { title: title ?? 'Tasks', items };
}
