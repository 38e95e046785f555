/**
 * One planning turn and what happens to its plan: the turn runs read-only; a truncated plan gets
 * one condense-and-re-emit request; an invalid plan gets one bounded repair request; a valid plan
 * is persisted with its tracker. Interview denials get one synthesis retry. When nothing valid
 * comes, planning stays active with a blocked handoff that says why.
 */
import { CONDENSE_DIRECTIVE, synthesisDirective } from '../agent/prompt';
import { runTurn, type TurnResult } from '../agent/turn';
import { trackerFromPlan, type Tracker } from '../plan/tracker';
import { planViewOf } from '../plan/planCard';
import { createTrackerHandle } from '../tools/session/trackerHandle';
import type { SessionCore } from './core';
import type { SessionEffect } from './state';
import { turnDepsOf } from './turnDeps';

export { awaitingChecks, emitTracker } from './trackerView';

export type PlanTurnOutcome =
  | {
      readonly kind: 'plan';
      readonly turnId: string;
      readonly file: string;
      readonly stem: string;
      readonly revision: number;
      readonly markdown: string;
      /** What the session applies: the plan adopted and its tracker opened. */
      readonly effects: readonly SessionEffect[];
      /** The tracker as opened, announced once the effects are applied. */
      readonly tracker: Tracker;
    }
  /** The model answered in prose (e.g. asked something); planning waits for the person. */
  | { readonly kind: 'reply'; readonly text: string }
  | { readonly kind: 'blocked'; readonly reason: string };

/**
 * One planning turn on `input`, which the session has already put on the thread (`user_said`).
 * It changes no session state itself: a plan comes back with the effects that adopt it.
 */
export async function runPlanningTurn(
  core: SessionCore,
  input: string,
  opts: {
    readonly recorded?: () => Promise<void>;
    /** Checkpoints the thread after each complete tool batch (its results, the interview's answers). */
    readonly afterBatch?: () => Promise<void>;
  } = {},
): Promise<PlanTurnOutcome> {
  const turnId = core.newId('turn');
  core.bus.emit({ type: 'turn.started', turn_id: turnId });
  core.guards.newTurn({ mode: 'plan' });
  core.bus.emit({
    type: 'item.completed',
    turn_id: turnId,
    item: { id: core.newId('user'), kind: 'user_message', text: input },
  });
  // The person's message is on record (the archive) before anything is sent: a window closing
  // mid-request then still shows it when the session comes back.
  await opts.recorded?.();

  const tracker = core.tracker ?? createTrackerHandle({ defaultTitle: 'Plan' });
  await core.prepareTurn('plan', turnId, input);
  const deps = turnDepsOf(core, 'plan', tracker);
  const outcome = await planLoop(
    core,
    turnId,
    () => runTurn(core.thread.messages, deps, { turnId, ...(opts.afterBatch ? { afterBatch: opts.afterBatch } : {}) }),
    (directive) => runTurn(core.thread.messages, deps, { turnId, toolFreeDirective: directive }),
  );
  core.bus.emit({ type: 'turn.completed', turn_id: turnId, usage: core.totalUsage });
  return outcome;
}

async function planLoop(
  core: SessionCore,
  turnId: string,
  first: () => Promise<TurnResult>,
  toolFree: (directive: string) => Promise<TurnResult>,
): Promise<PlanTurnOutcome> {
  let r = await first();
  let condensed = false;
  let repaired = false;
  let deniedRetry = false;
  for (;;) {
    const final = r.final;
    if (!final) {
      return { kind: 'blocked', reason: r.stop?.reason ?? 'the turn stopped before the model answered' };
    }
    if (final.plan === undefined) {
      if (r.emptyResponses >= 2) {
        return { kind: 'blocked', reason: 'the model returned empty responses, and the synthesis pass was empty too' };
      }
      if (core.interviewState.denied && !deniedRetry) {
        deniedRetry = true;
        r = await toolFree(
          synthesisDirective(
            'questions are unavailable in this session; decide with reasonable defaults and list them under Assumptions',
          ),
        );
        continue;
      }
      if (r.synthesis !== undefined) {
        return { kind: 'blocked', reason: `the synthesis pass (${r.synthesis}) did not produce a plan; keep planning` };
      }
      return { kind: 'reply', text: final.visible };
    }
    if (final.finishReason === 'length' && !condensed) {
      condensed = true;
      core.notice(
        'The plan was cut off at the output limit; asking the model to condense and re-emit it.',
        'warning',
        turnId,
      );
      r = await toolFree(CONDENSE_DIRECTIVE);
      continue;
    }
    const saved = await core.store.save(final.plan, core.planStem !== undefined ? { stem: core.planStem } : {});
    if (!saved.ok) {
      const reasons = saved.errors.map((e) => e.message).join('; ');
      const explained = saved.errors.map((e) => (e.hint ? `${e.message} (${e.hint})` : e.message)).join('; ');
      core.notice(`The proposed plan is invalid: ${explained}`, 'warning', turnId);
      if (!repaired) {
        repaired = true;
        r = await toolFree(saved.feedback);
        continue;
      }
      return { kind: 'blocked', reason: `the plan is still invalid after one repair request: ${reasons}` };
    }
    if (saved.summary.warnings.length > 0) {
      const listed = saved.summary.warnings.map((w) => w.message).join('; ');
      core.notice(`The plan is saved, with something to tidy: ${listed}`, 'warning', turnId);
    }
    const opened = await openTracker(core, saved.stem, final.plan);
    core.bus.emit({
      type: 'item.completed',
      turn_id: turnId,
      item: {
        id: core.newId('plan'),
        kind: 'plan',
        plan: {
          file: saved.file,
          markdown: final.plan,
          valid: true,
          revision: saved.revision,
          view: planViewOf(saved.summary),
        },
      },
    });
    return {
      kind: 'plan',
      turnId,
      file: saved.file,
      stem: saved.stem,
      revision: saved.revision,
      markdown: final.plan,
      effects: [{ type: 'plan_adopted', stem: saved.stem, file: saved.file }, ...opened.effects],
      tracker: opened.tracker,
    };
  }
}

/**
 * Builds the tracker from the plan's steps (keeping the progress a stored tracker has) and
 * persists it. Returns it with the effect that opens its live handle; nothing is announced here.
 */
export async function openTracker(
  core: SessionCore,
  stem: string,
  markdown: string,
): Promise<{ tracker: Tracker; effects: SessionEffect[] }> {
  const fresh = trackerFromPlan(core.plans.parse(markdown).summary);
  const loaded = await core.plans.plan(stem);
  // The plan's kept verify results (a reload, a resumed session) before the tracker is announced.
  await core.verifier.restore(loaded.file);
  const tracker = loaded.tracker ?? fresh;
  if (!loaded.tracker) await core.plans.saveTracker(loaded.file, tracker);
  // The workspace owns the tracker: the session announces every change of it (`followPlans`).
  const handle = core.plans.trackerHandle(loaded.file);
  return { tracker, effects: [{ type: 'tracker_opened', handle }] };
}
