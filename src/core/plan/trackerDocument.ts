/**
 * Reading a tracker file (rules §4) by the rules VT Code's reader follows, keeping where each item
 * and each of its metadata lines sit, so that a write can patch the file in place
 * (`trackerPatch.ts`) instead of rendering it anew.
 *
 * - The title is the first `# ` line. Lines under `## Notes` are never items.
 * - Task lines are `- `, `* ` or `+ ` bullets followed by `[ ]` pending, `[~]` or `[/]` in
 *   progress, `[x]`/`[X]` completed or `[!]` blocked, a space and a non-empty description. The
 *   level is the number of leading spaces over two; a level deeper than one below the previous
 *   line is clamped to it.
 * - When the file has a `## Plan of Work`, `## Concrete Steps`, `## Updated Plan` or
 *   `## Phase …` heading (any case), only task lines under such headings count: the sidecar and
 *   the block embedded in a plan. A file without one (the global mirror, or a tracker Planwise
 *   wrote before it wrote the heading) is read whole, except its `## Notes`; there, as in
 *   VT Code's flat mirror, spaces between the mark and the description also give the level
 *   (`- [ ]   sub-step` is a child).
 * - Under a task line, lines indented at least two spaces deeper are its metadata: `files: a, b`,
 *   `outcome: text`, `verify: cmd`, or `verify:` followed by `- cmd` lines. In a file with the
 *   heading a later `files:`, `outcome:` or `verify:` replaces an earlier one, as VT Code reads
 *   it; in a file without it, repeated `files:` and `verify:` lines add up, as Planwise wrote them
 *   before it wrote a `verify:` block.
 * - Every other line (prose, `### ` headings, other sections, unknown metadata) is kept by a patch
 *   and never read as an item.
 */
import type { TaskItem, TaskStatus } from './tracker';
import { splitOutsideQuotes } from './text';

/** Status of a checkbox mark: ` ` pending, `~`, `/` or `-` in progress, `x` completed, `!` blocked. */
export function statusOfMark(mark: string): TaskStatus {
  if (mark === 'x' || mark === 'X') return 'completed';
  if (mark === '~' || mark === '/' || mark === '-') return 'in_progress';
  if (mark === '!') return 'blocked';
  return 'pending';
}

/** One item as it sits in the file. */
export interface LocatedItem {
  /** Index of the task line. */
  readonly line: number;
  /** Leading spaces of the task line. */
  readonly indent: number;
  /** Offset of the mark character (`x` in `- [x] …`) in the task line. */
  readonly markAt: number;
  /** Offset where the description starts in the task line. */
  readonly textAt: number;
  /** The item as read, its children included. */
  readonly item: TaskItem;
  /** Lines holding the item's metadata, by kind (a `verify:` block: its heading and commands). */
  readonly meta: { readonly files: number[]; readonly outcome: number[]; readonly verify: number[] };
  /** One past the item's last own line (task line, metadata and deeper-indented lines after it). */
  end: number;
  readonly children: LocatedItem[];
}

export interface TrackerDocument {
  /** The file's lines, split on `\n` (a `\r` stays at the end of its line). */
  readonly lines: readonly string[];
  readonly crlf: boolean;
  /** The first `# ` line's text, and its index. */
  readonly title?: string;
  readonly titleLine?: number;
  /** In a file without `# ` title: the first heading above the first item (older Planwise blocks). */
  readonly legacyTitleLine?: number;
  /** True when the file has a plan-section heading, so that only those sections hold items. */
  readonly sectioned: boolean;
  /** Index of the first plan-section heading. */
  readonly sectionLine?: number;
  /** Index of the `## Notes` heading, when there is one. */
  readonly notesLine?: number;
  readonly items: LocatedItem[];
}

const PLAN_SECTIONS = new Set(['plan of work', 'concrete steps', 'updated plan']);
const MARKS = ['[x] ', '[X] ', '[~] ', '[/] ', '[!] ', '[ ] '];

/** True for the heading text (after `## `) of a section whose task lines VT Code reads. */
export function isPlanSectionHeading(header: string): boolean {
  const lowered = header.trim().toLowerCase();
  return PLAN_SECTIONS.has(lowered) || lowered.startsWith('phase ');
}

function leadingSpaces(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  return n;
}

/** The text after a `- `, `* ` or `+ ` bullet, or undefined. */
function afterBullet(trimmed: string): string | undefined {
  return /^[-*+] /.test(trimmed) ? trimmed.slice(2) : undefined;
}

interface TaskLine {
  level: number;
  indent: number;
  markAt: number;
  textAt: number;
  /** Spaces between the mark and the description, less the one that separates them. */
  innerIndent: number;
  status: TaskStatus;
  description: string;
}

/** A task line, or undefined. */
export function readTaskLine(line: string): TaskLine | undefined {
  const indent = leadingSpaces(line);
  const trimmed = line.trimStart();
  const rest = afterBullet(trimmed);
  if (rest === undefined) return undefined;
  const marked = rest.trimStart();
  const mark = MARKS.find((m) => marked.startsWith(m));
  if (mark === undefined) return undefined;
  const after = marked.slice(mark.length);
  const description = after.trim();
  if (description.length === 0) return undefined;
  const markAt = line.length - trimmed.length + 2 + (rest.length - marked.length) + 1;
  return {
    level: Math.floor(indent / 2),
    indent,
    markAt,
    textAt: markAt + 3 + (after.length - after.trimStart().length),
    innerIndent: leadingSpaces(after),
    status: statusOfMark(mark[1] as string),
    description,
  };
}

function splitFiles(value: string): string[] {
  return splitOutsideQuotes(value)
    .map((f) => f.trim().replace(/^`([^`]*)`$/, '$1'))
    .filter((f) => f.length > 0);
}

interface Open {
  located: LocatedItem;
  level: number;
  inVerifyBlock: boolean;
  /** Whether the own lines after the task line are still contiguous. */
  owning: boolean;
}

/** Applies one metadata line to the open item; false when the line is not metadata. */
function applyMetadata(open: Open, text: string, index: number, additive: boolean): boolean {
  const { item, meta } = open.located;
  const trimmed = text.trimStart();
  if (open.inVerifyBlock) {
    const command = afterBullet(trimmed);
    if (command !== undefined) {
      const value = command.trim();
      if (value.length > 0) item.verify.push(value);
      meta.verify.push(index);
      return true;
    }
    open.inVerifyBlock = false;
  }
  if (trimmed.startsWith('files:')) {
    const files = splitFiles(trimmed.slice('files:'.length));
    if (additive) item.files.push(...files);
    else item.files = files;
    meta.files.push(index);
    return true;
  }
  if (trimmed.startsWith('outcome:')) {
    const value = trimmed.slice('outcome:'.length).trim();
    if (value.length > 0) item.outcome = value;
    else delete item.outcome;
    meta.outcome.push(index);
    return true;
  }
  if (trimmed === 'verify:') {
    if (!additive) item.verify = [];
    open.inVerifyBlock = true;
    meta.verify.push(index);
    return true;
  }
  if (trimmed.startsWith('verify:')) {
    const value = trimmed.slice('verify:'.length).trim();
    const verify = value.length > 0 ? [value] : [];
    if (additive) item.verify.push(...verify);
    else item.verify = verify;
    meta.verify.push(index);
    return true;
  }
  return false;
}

/** Reads a tracker file with the place of every item and metadata line. */
export function readTrackerDocument(text: string): TrackerDocument {
  const lines = text.split('\n');
  const plain = lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const crlf = lines.length > 1 && (lines[0] as string).endsWith('\r');
  const sectioned = plain.some((l) => {
    const t = l.trim();
    return t.startsWith('## ') && isPlanSectionHeading(t.slice(3));
  });
  const additive = !sectioned;

  let title: string | undefined;
  let titleLine: number | undefined;
  let legacyTitleLine: number | undefined;
  let sectionLine: number | undefined;
  let notesLine: number | undefined;
  let inItems = !sectioned;
  let inNotes = false;
  const roots: LocatedItem[] = [];
  /** The open path: path[d] is the last item at depth d. */
  const path: LocatedItem[] = [];
  let previousLevel = 0;
  let open: Open | undefined;

  plain.forEach((line, index) => {
    const trimmed = line.trim();
    if (title === undefined && trimmed.startsWith('# ')) {
      title = trimmed.slice(2).trim();
      titleLine = index;
      if (open) open.owning = false;
      return;
    }
    if (trimmed.startsWith('## ')) {
      const header = trimmed.slice(3);
      inNotes = header.trim().toLowerCase() === 'notes';
      if (inNotes && notesLine === undefined) notesLine = index;
      const plan = isPlanSectionHeading(header);
      if (plan && sectionLine === undefined) sectionLine = index;
      inItems = sectioned ? plan : !inNotes;
      if (open) open.owning = false;
      return;
    }
    if (inNotes || !inItems) {
      if (open) open.owning = false;
      return;
    }
    const task = readTaskLine(line);
    if (task) {
      const wanted = sectioned ? task.level : task.level + Math.floor(task.innerIndent / 2);
      let level = Math.min(wanted, previousLevel + 1);
      if (path.length > level) path.length = level;
      level = Math.min(level, path.length);
      const located: LocatedItem = {
        line: index,
        indent: task.indent,
        markAt: task.markAt,
        textAt: task.textAt,
        item: { description: task.description, status: task.status, files: [], verify: [], children: [] },
        meta: { files: [], outcome: [], verify: [] },
        end: index + 1,
        children: [],
      };
      const parent = level === 0 ? undefined : path[level - 1];
      if (parent) {
        parent.children.push(located);
        parent.item.children.push(located.item);
        previousLevel = level;
      } else {
        roots.push(located);
        path.length = 0;
        previousLevel = 0;
      }
      path.push(located);
      open = { located, level: task.level, inVerifyBlock: false, owning: true };
      return;
    }
    if (open) {
      const deepEnough = leadingSpaces(line) >= (open.level + 1) * 2;
      if (deepEnough && applyMetadata(open, line, index, additive)) {
        if (open.owning) open.located.end = index + 1;
        return;
      }
      open.inVerifyBlock = false;
      if (deepEnough && open.owning && trimmed.length > 0) open.located.end = index + 1;
      else open.owning = false;
    }
  });

  if (title === undefined && !sectioned) {
    const firstItem = roots[0]?.line ?? plain.length;
    const heading = plain.findIndex((l, i) => i < firstItem && i !== notesLine && /^#{1,6}\s+\S/.test(l.trim()));
    if (heading >= 0) legacyTitleLine = heading;
  }
  return {
    lines,
    crlf,
    ...(title !== undefined ? { title, titleLine } : {}),
    ...(title === undefined && legacyTitleLine !== undefined ? { legacyTitleLine } : {}),
    sectioned,
    ...(sectionLine !== undefined ? { sectionLine } : {}),
    ...(notesLine !== undefined ? { notesLine } : {}),
    items: roots,
  };
}

/** The title a reader shows: the `# ` title, else an older Planwise heading above the items. */
export function documentTitle(doc: TrackerDocument): string | undefined {
  if (doc.title !== undefined) return doc.title;
  if (doc.legacyTitleLine === undefined) return undefined;
  const line = (doc.lines[doc.legacyTitleLine] as string).trim();
  return (
    line
      .replace(/^#{1,6}\s+/, '')
      .replace(/\s+#*\s*$/, '')
      .trim() || undefined
  );
}

/** One past the last line of an item and all its descendants. */
export function subtreeEnd(located: LocatedItem): number {
  return located.children.reduce((end, child) => Math.max(end, subtreeEnd(child)), located.end);
}
