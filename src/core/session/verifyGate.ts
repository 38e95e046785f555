/**
 * `requireVerifyToComplete`: a step becomes completed only when its verification is satisfied:
 * every command entry ran through the engine's `Verifier` and passed, and a person signed every
 * check off. Each command is put to the build side's command policy first (rules §9): one that
 * needs a yes is asked for through the build's approver, and a refusal leaves the step in progress
 * with why and how to allow it. A failing command leaves the step in progress with its output; an unsigned check
 * leaves it in progress too, "awaiting your check". The build agent can state its evidence, but it
 * has no way to sign a check off.
 */
import { itemAtPath, type TaskItem, type Tracker } from '../plan/tracker';
import type { TrackerAction } from '../plan/trackerActions';
import { verifyEntryOf } from '../plan/verification';
import type { TrackerHandle } from '../tools/session/context';
import type { Verifier, VerifyAsk } from '../verify/verifier';

export interface VerifyGateOptions {
  readonly verifier: Verifier;
  /** The plan the results belong to ('' for a build without a plan). */
  readonly planFile: () => string;
  readonly required: boolean;
  readonly signal?: AbortSignal;
  /** The interactive CLI asks the person at once; absent, the step waits for "Mark checked". */
  readonly askCheck?: (step: string, check: string, signal?: AbortSignal) => Promise<boolean>;
  /**
   * How a verify command that needs the person's yes is asked for: the build's approver (absent in a
   * non-interactive run, which refuses it), the commands approved with the plan, "always allow".
   */
  readonly commands: Omit<VerifyAsk, 'origin' | 'signal'>;
}

/** The item an `update` action addresses, with its path, or undefined. */
export function addressedItem(
  tracker: Tracker | undefined,
  action: TrackerAction,
): { path: string; item: TaskItem } | undefined {
  if (!tracker || action.action !== 'update' || action.items !== undefined) return undefined;
  const path = action.index_path ?? (action.index !== undefined && action.index > 0 ? String(action.index) : undefined);
  if (path === undefined) return undefined;
  const item = itemAtPath(tracker.items, path);
  return item ? { path, item } : undefined;
}

/** Paths of the items that are completed and have verify entries. */
function verifiedDone(items: readonly TaskItem[], prefix = '', out = new Set<string>()): Set<string> {
  items.forEach((item, k) => {
    const path = prefix === '' ? String(k + 1) : `${prefix}.${k + 1}`;
    if (item.status === 'completed' && item.verify.length > 0) out.add(path);
    verifiedDone(item.children, path, out);
  });
  return out;
}

/**
 * An update that addresses no single step (`index: 0` for the whole checklist, or a bulk `items`
 * sync) may not complete a step with verify entries past its verify: such steps are put back in
 * progress, and the model is told to complete them one by one so each verify runs.
 */
async function applyWhole(inner: TrackerHandle, action: TrackerAction): ReturnType<TrackerHandle['apply']> {
  const before = verifiedDone(inner.get()?.items ?? []);
  const r = await inner.apply(action);
  if (!r.ok) return r;
  const skipped = [...verifiedDone(r.tracker.items)].filter((p) => !before.has(p));
  if (skipped.length === 0) return r;
  for (const path of skipped) await inner.apply({ action: 'update', index_path: path, status: 'in_progress' });
  const steps = skipped.length === 1 ? `step ${skipped[0]} has` : `steps ${skipped.join(', ')} have`;
  return {
    ok: false,
    error:
      `${steps} verify entries, so ${skipped.length === 1 ? 'it stays' : 'they stay'} in progress: mark each ` +
      'completed on its own (index_path) so its verify runs.',
  };
}

/** Wraps a tracker handle so "completed" on a step with verify entries first satisfies them. */
export function verifyingTracker(inner: TrackerHandle, o: VerifyGateOptions): TrackerHandle {
  return {
    get: () => inner.get(),
    async apply(action) {
      const target = o.required && action.status === 'completed' ? addressedItem(inner.get(), action) : undefined;
      if (!target && o.required && action.action === 'update') return applyWhole(inner, action);
      if (!target || target.item.verify.length === 0) return inner.apply(action);
      const planFile = o.planFile();
      const stay = () => inner.apply({ action: 'update', index_path: target.path, status: 'in_progress' });
      const entries = target.item.verify.map(verifyEntryOf);
      for (const entry of entries) {
        if (entry.kind !== 'command') continue;
        const r = await o.verifier.run(planFile, target.path, entry, {
          ...o.commands,
          origin: 'build',
          ...(o.signal ? { signal: o.signal } : {}),
        });
        if (r.refused) {
          await stay();
          return {
            ok: false,
            error:
              `step ${target.path} stays in progress: its verify command did not run.\n${r.output}\n` +
              'Do not mark this step completed again until the person allows it; continue with the next step.',
          };
        }
        if (r.status !== 'passed') {
          await stay();
          const code = r.exitCode === null ? r.status.replace('_', ' ') : `exit ${r.exitCode}`;
          return {
            ok: false,
            error: `step ${target.path} stays in progress: verify \`${entry.command}\` failed (${code}).\n${r.output}`,
          };
        }
      }
      const unsigned: string[] = [];
      for (const entry of entries) {
        if (entry.kind !== 'check') continue;
        if (o.verifier.latest(planFile, target.path, entry.text)?.status === 'checked') continue;
        if (o.askCheck && (await o.askCheck(target.path, entry.text, o.signal))) {
          o.verifier.signOff(planFile, target.path, entry.text);
          continue;
        }
        unsigned.push(entry.text);
      }
      if (unsigned.length > 0) {
        for (const check of unsigned) o.verifier.requestCheck(planFile, target.path, check);
        await stay();
        return {
          ok: false,
          error:
            `step ${target.path} is awaiting the person's check: ${unsigned.map((c) => `"${c}"`).join(', ')}. ` +
            'Only the person can sign a check off. State the evidence you observed in your reply, do not mark ' +
            'this step completed again, and continue with the next step.',
        };
      }
      return inner.apply(action);
    },
  };
}
