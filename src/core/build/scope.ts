/**
 * The approved plan's scope: the union of its steps' file targets. A target may be a
 * path (`src/a.ts`), a glob (`src/**\/*.test.ts`) or a directory (`src/panel/`, or a path whose last
 * part has no extension), which covers everything under it. Files the plan names under "Test Cases
 * and Validation" are in scope too (they are the test files). Pure: no I/O, paths are
 * workspace-relative with forward slashes.
 */
import { globToRegExpSource } from '../tools/glob';
import type { PlanSummary } from '../plan/types';
import { EXTENSIONLESS_FILES } from '../plan/steps';

/** `ask` (the person decides each out-of-scope write), `record` (allow, record drift), `strict` (refuse). */
export type ScopeMode = 'ask' | 'record' | 'strict';

export const SCOPE_MODES: readonly ScopeMode[] = ['ask', 'record', 'strict'];

export function isScopeMode(value: unknown): value is ScopeMode {
  return typeof value === 'string' && (SCOPE_MODES as readonly string[]).includes(value);
}

export interface ScopeEntry {
  /** As normalised from the plan: forward slashes, no leading `./`, no trailing `/`. */
  readonly pattern: string;
  readonly kind: 'file' | 'dir' | 'glob';
  /** The 1-based step that named it; absent for the validation section. */
  readonly step?: number;
  readonly source: 'step' | 'validation';
}

export interface PlanScope {
  readonly entries: readonly ScopeEntry[];
  /** The entry that covers `relPath`, or undefined when the path is out of scope. */
  covers(relPath: string): ScopeEntry | undefined;
  /** The file entries (exact paths), for "planned but never touched". */
  readonly plannedFiles: readonly string[];
}

const FILE_NAME = /^[^/]*\.[A-Za-z0-9][A-Za-z0-9_-]{0,11}$/;
const GLOB_CHARS = /[*?[{]/;

/** Normalises one word of a target to a workspace-relative path, or undefined when it names no path. */
export function pathWord(word: string): string | undefined {
  let w = word.trim().replace(/^[`'"(<[]+|[`'")>\],.;:!?]+$/g, '');
  if (w === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(w) || w.includes('::')) return undefined;
  w = w.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '');
  if (w === '' || w === '.' || w.startsWith('../') || w.startsWith('~') || w.startsWith('-')) return undefined;
  if (/^\/|^[A-Za-z]:\//.test(w)) return undefined; // absolute: the caller relativises first
  const last = w.replace(/\/+$/, '').split('/').pop() ?? '';
  const pathy =
    w.includes('/') || GLOB_CHARS.test(w) || FILE_NAME.test(last) || EXTENSIONLESS_FILES.has(last.toLowerCase());
  if (!pathy) return undefined;
  // A dotted identifier (`this.state`, `foo.bar()`) is not a file: the extension must look like one.
  if (!w.includes('/') && !GLOB_CHARS.test(w) && /\(|\)/.test(w)) return undefined;
  return w;
}

function entryOf(word: string, source: ScopeEntry['source'], step?: number): ScopeEntry | undefined {
  const path = pathWord(word);
  if (path === undefined) return undefined;
  const trailingSlash = /\/$/.test(path);
  const pattern = path.replace(/\/+$/, '');
  if (pattern === '') return undefined;
  const last = pattern.split('/').pop() ?? '';
  const kind: ScopeEntry['kind'] = GLOB_CHARS.test(pattern)
    ? 'glob'
    : trailingSlash || !(FILE_NAME.test(last) || EXTENSIONLESS_FILES.has(last.toLowerCase()))
      ? 'dir'
      : 'file';
  return { pattern, kind, source, ...(step !== undefined ? { step } : {}) };
}

/** Path words of a free-text target or validation item (split on whitespace). */
function entriesOfText(text: string, source: ScopeEntry['source'], step?: number): ScopeEntry[] {
  return text
    .split(/\s+/)
    .map((w) => entryOf(w, source, step))
    .filter((e): e is ScopeEntry => e !== undefined);
}

function matcherOf(entry: ScopeEntry): (rel: string) => boolean {
  if (entry.kind === 'file') return (rel) => rel === entry.pattern;
  if (entry.kind === 'dir') return (rel) => rel === entry.pattern || rel.startsWith(`${entry.pattern}/`);
  const anchored = entry.pattern.includes('/');
  const re = new RegExp(`^${globToRegExpSource(entry.pattern)}$`);
  // A glob without a slash names a file anywhere (`*.test.ts`), as in the search tools.
  return anchored ? (rel) => re.test(rel) : (rel) => re.test(rel.slice(rel.lastIndexOf('/') + 1));
}

/** Builds a scope from entries (deduplicated by pattern, first one kept). */
export function scopeOfEntries(list: readonly ScopeEntry[]): PlanScope {
  const seen = new Set<string>();
  const entries = list.filter((e) => !seen.has(`${e.kind}:${e.pattern}`) && seen.add(`${e.kind}:${e.pattern}`));
  const matchers = entries.map((e) => ({ e, m: matcherOf(e) }));
  return {
    entries,
    covers(relPath: string) {
      const rel = relPath.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '');
      return matchers.find(({ m }) => m(rel))?.e;
    },
    plannedFiles: [...new Set(entries.filter((e) => e.kind === 'file').map((e) => e.pattern))],
  };
}

/**
 * The scope of a validated plan: every path word of every step target, and every path word of the
 * Test Cases and Validation items. A mid-execution replan builds a new scope from the new revision.
 */
export function scopeOfPlan(summary: Pick<PlanSummary, 'steps' | 'validationItems'>): PlanScope {
  const entries: ScopeEntry[] = [];
  for (const step of summary.steps) {
    for (const target of step.targets) entries.push(...entriesOfText(target, 'step', step.index));
  }
  // The validation section names test files; a slash in its prose ("pass/fail") is not a folder.
  for (const item of summary.validationItems) {
    entries.push(...entriesOfText(item, 'validation').filter((e) => e.kind !== 'dir'));
  }
  return scopeOfEntries(entries);
}
