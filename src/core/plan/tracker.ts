/**
 * The task tracker (rules §5): a checklist of any depth built from a plan's steps. Statuses are
 * stored on items; counts and percent are always derived. A parent's status is derived from its
 * children whenever they change. The actions (`applyTrackerAction`, `trackerActionSchema`) live in
 * `trackerActions.ts`, so that reading and rendering trackers does not load zod.
 */
import type { PlanSummary } from './types';
import { labelled } from './steps';
import { splitArrows, valueItems, verifyItems } from './text';
import { statusOfMark } from './trackerDocument';

export type TaskStatus = 'pending' | 'in_progress' | 'completed' | 'blocked';

export const TASK_STATUSES: readonly TaskStatus[] = ['pending', 'in_progress', 'completed', 'blocked'];

export interface TaskItem {
  /** One line of inline markdown (code spans, emphasis, file paths). */
  description: string;
  status: TaskStatus;
  files: string[];
  /** The expected outcome (`outcome:` in the file), when the item has one. */
  outcome?: string;
  verify: string[];
  children: TaskItem[];
}

export interface Tracker {
  title: string;
  items: TaskItem[];
}

export interface TrackerCounts {
  pending: number;
  in_progress: number;
  completed: number;
  blocked: number;
  /** Leaf items (items without children): the work itself. */
  total: number;
  /** Completed leaves as a whole-number percentage of all leaves; 0 for an empty tracker. */
  percent: number;
}

/** Display glyphs of the compact tree (rules §5). */
export const STATUS_GLYPH: Readonly<Record<TaskStatus, string>> = {
  pending: '□',
  in_progress: '[-]',
  completed: '[x]',
  blocked: '[!]',
};

function dedupe(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter((v) => v.length > 0))];
}

/**
 * Parses item text `Action -> files: a, b -> verify: npm test` into the description `Action`
 * and structured `files` and `verify` (duplicates dropped). Files split on commas; checks only as
 * a bracket list (`verify: [a, b]`), as the validator reads them. `outcome:` segments are dropped;
 * unlabelled segments after the action count as files.
 */
export function parseItemText(text: string): { description: string; files: string[]; verify: string[] } {
  const [head = '', ...segments] = splitArrows(text.replace(/\s*\r?\n\s*/g, ' '));
  const files: string[] = [];
  const verify: string[] = [];
  for (const segment of segments) {
    const label = labelled(segment);
    if (label?.kind === 'verify') verify.push(...verifyItems(label.value));
    else if (label?.kind === 'target') files.push(...valueItems(label.value));
    else if (!label && segment.trim().length > 0) files.push(...valueItems(segment));
  }
  return { description: head.trim(), files: dedupe(files.map(unquote)), verify: dedupe(verify.map(unquote)) };
}

function unquote(item: string): string {
  return item.trim().replace(/^`(.*)`$/s, '$1');
}

/** A new pending item from free text or parts. */
export function makeItem(
  input:
    string | { description: string; status?: TaskStatus; files?: string[]; verify?: string[]; children?: TaskItem[] },
): TaskItem {
  if (typeof input === 'string') return { ...parseItemText(input), status: 'pending', children: [] };
  const parsed = parseItemText(input.description);
  return {
    description: parsed.description,
    status: input.status ?? 'pending',
    files: dedupe([...parsed.files, ...(input.files ?? [])]),
    verify: dedupe([...parsed.verify, ...(input.verify ?? [])]),
    children: input.children ?? [],
  };
}

function itemKey(item: TaskItem): string {
  return JSON.stringify([item.description, item.files, item.verify]);
}

/** Drops items identical (description, files, verify) to an earlier sibling, at every depth. */
export function dropDuplicateItems(items: readonly TaskItem[]): TaskItem[] {
  const seen = new Set<string>();
  const out: TaskItem[] = [];
  for (const item of items) {
    const key = itemKey(item);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...item, children: dropDuplicateItems(item.children) });
  }
  return out;
}

const CHECKBOX_LINE = /^\s+[-*+]\s+\[([ xX~/!-])\]\s+(.+)$/;

/**
 * Builds the tracker from a plan: one pending item per step, with the step's targets as `files`
 * and its checks as `verify`; checkbox lines under a step become its children. Duplicates dropped.
 */
export function trackerFromPlan(summary: PlanSummary): Tracker {
  const items = summary.steps.map((step) => {
    // The validator's parse of the step: its action as written (prose arrows kept), its targets and checks.
    const description = step.action.replace(/\s*\r?\n\s*/g, ' ').trim();
    const children = step.text
      .split('\n')
      .slice(1)
      .map((l) => CHECKBOX_LINE.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ ...makeItem(m[2] as string), status: statusOfMark(m[1] as string) }));
    return deriveParents({
      description,
      status: 'pending' as TaskStatus,
      files: dedupe(step.targets),
      verify: dedupe(step.verify),
      children: dropDuplicateItems(children),
    });
  });
  return { title: summary.title.trim() || 'Plan', items: dropDuplicateItems(items) };
}

/**
 * A fresh tracker from a revised plan, keeping the status (and the outcome) of items whose
 * description survived, and the children of a step the plan gives none.
 */
export function refreshTracker(previous: Tracker, next: Tracker): Tracker {
  const merge = (old: readonly TaskItem[], items: readonly TaskItem[]): TaskItem[] =>
    items.map((item) => {
      const match = old.find((o) => o.description === item.description);
      if (!match) return item;
      const children = item.children.length > 0 ? merge(match.children, item.children) : match.children;
      const outcome = match.outcome !== undefined ? { outcome: match.outcome } : {};
      return { ...item, status: match.status, ...outcome, children };
    });
  return { title: next.title, items: merge(previous.items, next.items) };
}

/** The item at a 1-based index path ("2.1"), or undefined. */
export function itemAtPath(items: readonly TaskItem[], path: string): TaskItem | undefined {
  let list = items;
  let item: TaskItem | undefined;
  for (const part of path.split('.')) {
    item = list[Number(part) - 1];
    if (!item) return undefined;
    list = item.children;
  }
  return item;
}

/** A parent's status from its children's: all done → completed, any blocked → blocked… */
function statusFromChildren(children: readonly TaskItem[]): TaskStatus {
  const statuses = children.map((c) => c.status);
  if (statuses.every((s) => s === 'completed')) return 'completed';
  if (statuses.some((s) => s === 'blocked')) return 'blocked';
  if (statuses.every((s) => s === 'pending')) return 'pending';
  return 'in_progress';
}

/** Recomputes a parent's status from its children (recursively): all done → completed, any blocked → blocked… */
export function deriveParents(item: TaskItem): TaskItem {
  if (item.children.length === 0) return item;
  const children = item.children.map(deriveParents);
  return { ...item, status: statusFromChildren(children), children };
}

/**
 * Recomputes the status of the ancestors of the item at a 1-based path (`[2, 1]`), nearest first,
 * from their children; every other item keeps the status it has.
 */
export function deriveAncestors(items: readonly TaskItem[], path: readonly number[]): TaskItem[] {
  const [head, ...rest] = path;
  const node = head === undefined ? undefined : items[head - 1];
  if (!node || rest.length === 0) return [...items];
  const children = deriveAncestors(node.children, rest);
  const copy = [...items];
  copy[(head as number) - 1] = { ...node, status: statusFromChildren(children), children };
  return copy;
}

function leaves(items: readonly TaskItem[]): TaskItem[] {
  return items.flatMap((i) => (i.children.length === 0 ? [i] : leaves(i.children)));
}

/** Counts of leaf items by status, and percent complete. Always derived, never stored. */
export function trackerCounts(t: Tracker): TrackerCounts {
  const counts: TrackerCounts = { pending: 0, in_progress: 0, completed: 0, blocked: 0, total: 0, percent: 0 };
  for (const item of leaves(t.items)) {
    counts[item.status]++;
    counts.total++;
  }
  counts.percent = counts.total === 0 ? 0 : Math.floor((counts.completed * 100) / counts.total);
  return counts;
}

/** A tracker's progress as every surface shows it (`tracker.updated`, `planwise plans --json`). */
export interface TrackerProgress {
  counts: { done: number; inProgress: number; pending: number; blocked: number; total: number };
  percent: number;
}

/** The counts as `tracker.updated` carries them: the same leaf counts, under the event's names. */
export function trackerProgress(t: Tracker): TrackerProgress {
  const c = trackerCounts(t);
  return {
    counts: { done: c.completed, inProgress: c.in_progress, pending: c.pending, blocked: c.blocked, total: c.total },
    percent: c.percent,
  };
}

/**
 * The compact text tree (rules §5): parent rows show their branch and description, leaf rows a
 * glyph (`□` pending, `[-]` in progress, `[x]` completed, `[!]` blocked). Files and checks stay
 * structured metadata, not extra rows.
 */
export function renderTrackerTree(t: Tracker): string {
  const c = trackerCounts(t);
  const lines = [`${t.title} (${c.completed}/${c.total} completed, ${c.percent}%)`];
  const walk = (items: readonly TaskItem[], prefix: string) => {
    items.forEach((item, i) => {
      const last = i === items.length - 1;
      const branch = `${prefix}${last ? '└─ ' : '├─ '}`;
      const mark = item.children.length === 0 ? `${STATUS_GLYPH[item.status]} ` : '';
      lines.push(`${branch}${mark}${item.description}`);
      walk(item.children, `${prefix}${last ? '   ' : '│  '}`);
    });
  };
  walk(t.items, '');
  return lines.join('\n');
}

/** Deep copy, so callers can never mutate a tracker they handed in. */
export function cloneTracker(t: Tracker): Tracker {
  const copy = (items: readonly TaskItem[]): TaskItem[] =>
    items.map((i) => ({ ...i, files: [...i.files], verify: [...i.verify], children: copy(i.children) }));
  return { title: t.title, items: copy(t.items) };
}

export { renderTrackerFile, parseTrackerFile } from './trackerFormat';
export { statusOfMark } from './trackerDocument';
