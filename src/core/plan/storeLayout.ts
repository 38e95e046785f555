/**
 * Where the plan store keeps things (rules §4), shared with VT Code's `.vtcode/plans/` format:
 *
 *   .vtcode/plans/<stem>.md              the current plan (+ embedded tracker block)
 *   .vtcode/plans/<stem>.tasks.md        the tracker sidecar
 *   .vtcode/plans/<stem>.verify.json     the kept verify results (src/core/verify/journal.ts)
 *   .vtcode/plans/<stem>.history/NNN.md  every accepted revision
 *   .vtcode/plans/<stem>.history/NNN.meta.json  who wrote revision NNN, when it was the person
 *                                        (`{"author":"person","recordedAt":"<ISO time>"}`); absent:
 *                                        the planner's (or VT Code's, or unknown)
 *   .vtcode/plans/.rejected/<stem>.md    the last rejected draft (bounded, for the next repair)
 *   .vtcode/tasks/current_task.md        the global tracker mirror
 */
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { WorkspaceReader } from '../ports';

/** What listing a plans folder or a history folder reads. */
export type FolderReader = Pick<WorkspaceReader, 'stat' | 'readDir'>;

export const DEFAULT_PLANS_DIR = '.vtcode/plans';
export const TASK_MIRROR = '.vtcode/tasks/current_task.md';
/** Stem used for a rejected draft that was not a revision of a known plan. */
export const NEW_PLAN_DRAFT = 'new-plan';

function words(...lines: string[]): string[] {
  return lines.join(' ').split(' ');
}

const ADJECTIVES = words(
  'amber brisk calm clear crisp eager gentle golden keen lucid mellow nimble',
  'quiet rapid sharp silver steady sunny swift tidy vivid warm wise bold',
);
const NOUNS = words(
  'anchor beacon bridge canyon cedar comet delta falcon harbor island lantern maple',
  'meadow orbit otter pine river summit thistle valley willow wren zephyr atlas',
);

function pick(list: readonly string[], random: () => number): string {
  const i = Math.min(list.length - 1, Math.max(0, Math.floor(random() * list.length)));
  return list[i] as string;
}

/** `<epoch-ms>-<adjective>-<noun>`. */
export function generatedStem(now: number, random: () => number): string {
  return `${Math.floor(now)}-${pick(ADJECTIVES, random)}-${pick(NOUNS, random)}`;
}

/**
 * A new plan's stem: the day and its title, `2026-12-01-add-input-validation`, so the file is
 * found by what it is about (the store adds `-2`, `-3` when that name is taken). A title without
 * letters or digits gives `<date>-plan`. The day is the local one, as the person reads it.
 */
export function datedStem(now: number, title: string): string {
  const d = new Date(now);
  const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  const words = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  // At most 60 characters, cut at a dash so no word is halved.
  const slug = words.length <= 60 ? words : words.slice(0, 61).replace(/-[^-]*$/, '') || words.slice(0, 60);
  return `${day}-${slug || 'plan'}`;
}

/** A person-given plan name as a safe file stem: lower-case letters, digits and dashes. */
export function stemFromName(name: string): string {
  const stem = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  if (stem.length === 0)
    throw new Error(`plan name "${name}" has no letters or digits; use a name such as "auth-refactor"`);
  return stem;
}

/** True for a file name in the plans folder that is a plan (not a sidecar, execution report, temp file or draft). */
export function isPlanFileName(name: string): boolean {
  return name.endsWith('.md') && !name.endsWith('.tasks.md') && !name.endsWith('.report.md') && !name.startsWith('.');
}

/** Three-digit (or wider) revision file name: 1 → `001.md`. */
export function revisionFileName(n: number): string {
  return `${String(n).padStart(3, '0')}.md`;
}

/** The metadata file of revision `n`: 3 → `003.meta.json` (not a revision: `revisionOf` skips it). */
export function revisionMetaFileName(n: number): string {
  return `${String(n).padStart(3, '0')}.meta.json`;
}

/** Revision number of a history file name, or undefined for anything else (temp files…). */
export function revisionOf(name: string): number | undefined {
  const m = /^(\d+)\.md$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** The plan files directly in `dir` with their modification times, newest first (none when it does not exist). */
export async function listPlanFiles(reader: FolderReader, dir: string): Promise<{ file: string; mtimeMs: number }[]> {
  if ((await reader.stat(dir))?.type !== 'dir') return [];
  const out: { file: string; mtimeMs: number }[] = [];
  for (const entry of await reader.readDir(dir)) {
    if (entry.type !== 'file' || !isPlanFileName(entry.name)) continue;
    const file = join(dir, entry.name);
    out.push({ file, mtimeMs: (await reader.stat(file))?.mtimeMs ?? 0 });
  }
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs || b.file.localeCompare(a.file));
}

/** The revision numbers a plan's history folder holds, oldest first. */
export async function historyRevisions(reader: FolderReader, historyDir: string): Promise<number[]> {
  if ((await reader.stat(historyDir))?.type !== 'dir') return [];
  return (await reader.readDir(historyDir))
    .filter((e) => e.type === 'file')
    .map((e) => revisionOf(e.name))
    .filter((n): n is number => n !== undefined)
    .sort((a, b) => a - b);
}

export interface PlanPaths {
  stem: string;
  plan: string;
  sidecar: string;
  history: string;
}

/** Paths of one plan, given the folder that holds it. */
export function planPaths(dir: string, stem: string): PlanPaths {
  return {
    stem,
    plan: join(dir, `${stem}.md`),
    sidecar: join(dir, `${stem}.tasks.md`),
    history: join(dir, `${stem}.history`),
  };
}

/**
 * Paths for a stem (`1700000000000-calm-otter`), a file name (`x.md`) or a path to a plan file
 * anywhere (relative to the workspace root, or absolute): plans written by hand or by VT Code.
 */
export function resolvePlanRef(root: string, plansDir: string, ref: string): PlanPaths {
  const looksLikePath = /[\\/]/.test(ref) || ref.endsWith('.md');
  if (!looksLikePath) return planPaths(plansDir, ref);
  const file = isAbsolute(ref) ? ref : /[\\/]/.test(ref) ? resolve(root, ref) : join(plansDir, ref);
  return planPaths(dirname(file), basename(file).replace(/\.md$/, ''));
}
