/**
 * The tracker as the engine announces it: every item with the parse of its verify entries, each
 * entry's latest result from the `Verifier`, whether it awaits the person's check, and the counts
 * and percentage computed once here (leaves, as the tracker file counts them). Hosts render this;
 * none of them counts.
 */
import type { ThreadEventBody, TrackerItemInfo, VerifyEntryInfo } from '../events/types';
import { trackerProgress, type TaskItem, type Tracker } from '../plan/tracker';
import { verifyEntryOf } from '../plan/verification';
import { isAwaitingCheck, stepVerdict, type StepVerdict } from '../verify/stepVerdict';
import type { VerifyRecord } from '../verify/verifier';
import type { SessionCore } from './core';

/** A step left waiting for the person's check, for the end-of-run summary. */
export interface AwaitingCheck {
  readonly path: string;
  readonly description: string;
  readonly checks: readonly string[];
}

export function itemVerdict(core: SessionCore, path: string, item: TaskItem): StepVerdict {
  const planFile = core.planFile ?? '';
  return stepVerdict(item.verify.map(verifyEntryOf), (e) => core.verifier.latest(planFile, path, e));
}

function entryInfo(record: VerifyRecord | undefined, text: string): VerifyEntryInfo {
  const entry = verifyEntryOf(text);
  return {
    kind: entry.kind,
    text: entry.text,
    ...(entry.kind === 'command' ? { command: entry.command } : {}),
    // A check the build asked for shows as the step's "awaiting your check", not as a result.
    ...(record && record.status !== 'awaiting'
      ? {
          result: {
            status: record.status,
            exitCode: record.exitCode,
            at: record.at,
            durationMs: record.durationMs,
            ...(record.output !== '' ? { output: record.output } : {}),
            ...(record.refused ? { refused: true as const } : {}),
          },
        }
      : {}),
  };
}

export function trackerUpdated(core: SessionCore, t: Tracker): Extract<ThreadEventBody, { type: 'tracker.updated' }> {
  const planFile = core.planFile ?? '';
  const convert = (items: readonly TaskItem[], prefix: string): TrackerItemInfo[] =>
    items.map((item, i) => {
      const path = prefix === '' ? `${i + 1}` : `${prefix}.${i + 1}`;
      return {
        path,
        description: item.description,
        status: item.status,
        files: item.files,
        verify: item.verify,
        entries: item.verify.map((v) => entryInfo(core.verifier.latest(planFile, path, v.trim()), v)),
        awaitingCheck: isAwaitingCheck(item.status, itemVerdict(core, path, item)),
        children: convert(item.children, path),
      };
    });
  const { counts, percent } = trackerProgress(t);
  return {
    type: 'tracker.updated',
    ...(core.planFile !== undefined ? { plan_file: core.planFile } : {}),
    title: t.title,
    items: convert(t.items, ''),
    counts,
    percent,
  };
}

export function emitTracker(core: SessionCore, t: Tracker): void {
  core.bus.emit(trackerUpdated(core, t));
}

/** Steps in progress whose checks wait for the person (listed when a headless run ends). */
export function awaitingChecks(core: SessionCore): AwaitingCheck[] {
  const t = core.tracker?.get();
  if (!t) return [];
  const out: AwaitingCheck[] = [];
  const walk = (items: readonly TaskItem[], prefix: string) =>
    items.forEach((item, i) => {
      const path = prefix === '' ? `${i + 1}` : `${prefix}.${i + 1}`;
      const verdict = itemVerdict(core, path, item);
      if (isAwaitingCheck(item.status, verdict)) {
        out.push({ path, description: item.description, checks: verdict.unsignedChecks });
      }
      walk(item.children, path);
    });
  walk(t.items, '');
  return out;
}
