/**
 * The tracker file format (rules §4), as VT Code writes and reads it: a `# Title`, a
 * `## Plan of Work` heading, then `- [ ] item` lines with two spaces of indent per level; `[ ]`
 * pending, `[~]` in progress, `[x]` completed, `[!]` blocked. Under an item, indented metadata
 * lines: `files: a, b`, `outcome: text`, and `verify: cmd` for one check or a `verify:` line
 * followed by `- cmd` lines for several (never two `verify:` lines: VT Code keeps only the last).
 *
 * The global mirror (`.vtcode/tasks/current_task.md`) is VT Code's flat checklist: the title, then
 * the items with `[/]` for in progress, no section heading, every item at the left margin (a
 * sub-item's level as spaces before its description, so no sub-item can be read as a check of a
 * `verify:` block above it). Reading is `trackerDocument.ts`;
 * updating a file already on disk is `trackerPatch.ts`, which keeps what it does not change.
 */
import type { TaskItem, TaskStatus, Tracker } from './tracker';
import { documentTitle, readTrackerDocument } from './trackerDocument';

/** Which file a tracker is written to: the sidecar and embedded block, or the global mirror. */
export type TrackerFlavour = 'plan' | 'mirror';

const MARKS: Readonly<Record<TrackerFlavour, Readonly<Record<TaskStatus, string>>>> = {
  plan: { pending: ' ', in_progress: '~', completed: 'x', blocked: '!' },
  mirror: { pending: ' ', in_progress: '/', completed: 'x', blocked: '!' },
};

/** The section heading under which VT Code reads a tracker's items. */
export const PLAN_OF_WORK_HEADING = '## Plan of Work';

export function markOf(status: TaskStatus, flavour: TrackerFlavour): string {
  return MARKS[flavour][status];
}

/** One line of text: newlines inside a description or command become spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ').trim();
}

/** The task line of an item at `indent`; `inner` goes between the mark and the description. */
export function taskLine(item: TaskItem, indent: string, flavour: TrackerFlavour, inner = ''): string {
  return `${indent}- [${markOf(item.status, flavour)}] ${inner}${oneLine(item.description)}`;
}

/**
 * The `files:` line. A file name holding a comma is wrapped in backticks (Planwise reads it back
 * whole; VT Code splits on every comma).
 */
export function filesLines(files: readonly string[], indent: string): string[] {
  if (files.length === 0) return [];
  const names = files.map((f) => (f.includes(',') ? `\`${oneLine(f)}\`` : oneLine(f)));
  return [`${indent}  files: ${names.join(', ')}`];
}

export function outcomeLines(outcome: string | undefined, indent: string): string[] {
  const text = outcome === undefined ? '' : oneLine(outcome);
  return text.length === 0 ? [] : [`${indent}  outcome: ${text}`];
}

/** One check on the `verify:` line; several as a `verify:` line followed by `- cmd` lines. */
export function verifyLines(verify: readonly string[], indent: string): string[] {
  const checks = verify.map(oneLine).filter((v) => v.length > 0);
  if (checks.length === 0) return [];
  if (checks.length === 1) return [`${indent}  verify: ${checks[0] as string}`];
  return [`${indent}  verify:`, ...checks.map((v) => `${indent}    - ${v}`)];
}

/**
 * An item, its metadata and its children, in the file format: in the sidecar each level two
 * spaces deeper; in the flat mirror every item at `indent`, its level as two spaces per level
 * between the mark and the description (`- [ ]   sub-step`), as VT Code writes its mirror.
 */
export function itemLines(item: TaskItem, indent: string, flavour: TrackerFlavour, level = 0): string[] {
  const children =
    flavour === 'mirror'
      ? item.children.flatMap((child) => itemLines(child, indent, flavour, level + 1))
      : item.children.flatMap((child) => itemLines(child, `${indent}  `, flavour));
  return [
    taskLine(item, indent, flavour, '  '.repeat(level)),
    ...filesLines(item.files, indent),
    ...outcomeLines(item.outcome, indent),
    ...verifyLines(item.verify, indent),
    ...children,
  ];
}

/** Renders the tracker in the file format: the sidecar and embedded block, or the global mirror. */
export function renderTrackerFile(t: Tracker, flavour: TrackerFlavour = 'plan'): string {
  const head = [`# ${oneLine(t.title)}`, ''];
  if (flavour === 'plan') head.push(PLAN_OF_WORK_HEADING, '');
  const items = t.items.flatMap((item) => itemLines(item, '', flavour));
  return `${[...head, ...items].join('\n')}\n`;
}

/** Parses the file format back into a tracker. A file without a title gets 'Tasks'. */
export function parseTrackerFile(text: string): Tracker {
  const doc = readTrackerDocument(text);
  return { title: documentTitle(doc) || 'Tasks', items: doc.items.map((l) => l.item) };
}

export { statusOfMark } from './trackerDocument';
