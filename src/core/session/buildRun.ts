/**
 * The handoff and the build agent's run. `execute` continues in the current thread;
 * `fresh_context` starts a new thread holding only the approved plan, its tracker and a short
 * handover note. The approved-plan turn gets the one-time loop allowance. A replan inside the
 * approved run is validated, stored as a new revision and the run continues; an invalid one is
 * rejected with feedback and never overwrites the plan.
 */
import { runTurn } from '../agent/turn';
import { approvedPlanLoopLimit } from '../lifecycle/loopAllowance';
import { renderTrackerTree, type Tracker } from '../plan/tracker';
import { createTrackerHandle } from '../tools/session/trackerHandle';
import type { SessionStop } from './api';
import type { SessionCore } from './core';
import { awaitingChecks, emitTracker, openTracker } from './planningTurn';
import type { FlowStep, SessionEffect } from './state';
import { turnDepsOf } from './turnDeps';
import { verifyingTracker } from './verifyGate';
import type { BuildGuard } from '../build/guard';
import type { BuildOutcome } from '../build/report';
import { checkpointingTracker, closeBuild, openBuild, rescope } from './buildBinding';

/** Replans followed within one approved run before the run stops and reports. */
const MAX_REPLANS = 3;

export const HANDOFF_STEPS = ['Preparing fresh execution thread...', 'Restoring approved plan...', 'Starting build...'];

function handoverMessage(planMarkdown: string, trackerTree: string, fresh: boolean): string {
  const note = fresh
    ? 'Handover: a fresh execution thread. The plan below was approved by the person after read-only research; implement it.'
    : 'The plan was approved by the person. Implement it now.';
  return `${note}\n\n<approved_plan>\n${planMarkdown}\n</approved_plan>\n\nTask tracker:\n${trackerTree}\n\nMark each step in_progress before you start it and completed when its verify passes.`;
}

/** What a handoff needs, checked before anything changes: the approved plan and its tracker. */
export interface PreparedHandoff {
  readonly markdown: string;
  readonly tracker: Tracker;
  /** What the session applies once it decided: a resumed session's tracker opened. */
  readonly effects: readonly SessionEffect[];
}

/**
 * Validates the approved plan and its tracker without touching the thread, the gate or the
 * lifecycle. A failure says why; the caller leaves the session at the gate with its thread intact.
 */
export async function prepareHandoff(
  core: SessionCore,
): Promise<{ ok: true; handoff: PreparedHandoff } | { ok: false; message: string }> {
  if (core.planStem === undefined) return { ok: false, message: 'no approved plan is persisted; plan first' };
  let plan;
  try {
    plan = await core.store.load(core.planStem);
  } catch (err) {
    return {
      ok: false,
      message: `the approved plan could not be read: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  if (!plan.valid) {
    const why = plan.errors.map((e) => e.message).join('; ') || 'the plan file is missing or empty';
    return { ok: false, message: `the approved plan no longer validates: ${why}` };
  }
  // Approval needs a persisted tracker, and a resumed session has no live handle yet.
  const live = plan.tracker && core.tracker?.get();
  if (live) return { ok: true, handoff: { markdown: plan.markdown, tracker: live, effects: [] } };
  const opened = await openTracker(core, plan.stem, plan.markdown);
  return { ok: true, handoff: { markdown: plan.markdown, tracker: opened.tracker, effects: opened.effects } };
}

type BuildHandoff = { kind: 'execute' | 'fresh_context'; prepared: PreparedHandoff } | { kind: 'none'; task: string };

/**
 * The build run bound to its plan: a guard for the run's writes (scope, reads,
 * checkpoints), and at the end (done, stopped or failed) the closing audit. The run changes no
 * session state itself: it yields its steps (`FlowStep`), and the session (`SessionCore.follow`)
 * applies each before the run resumes.
 */
export async function* runBuild(core: SessionCore, handoff: BuildHandoff): AsyncGenerator<FlowStep, SessionStop> {
  const guard = openBuild(core, handoff.kind === 'none' ? undefined : handoff.prepared.markdown);
  const signal = core.abort.signal;
  const audited = handoff.kind !== 'none';
  yield { type: 'build_opened', guard };
  let stop: SessionStop;
  try {
    stop = yield* runBuildTurns(core, handoff, guard);
  } catch (err) {
    yield { type: 'build_closed' };
    const message = err instanceof Error ? err.message : String(err);
    if (audited) await closeBuild(core, guard, signal.aborted ? 'stopped' : 'failed', message);
    throw err;
  }
  yield { type: 'build_closed' };
  const replan = guard.ledger.replanReason;
  // "Stop and replan" on a scope request: planning opens with the reason once the run has ended.
  if (replan !== undefined) yield { type: 'planning_requested', reason: replan };
  if (!audited) return stop;
  const [outcome, reason]: [BuildOutcome, string | undefined] =
    stop.kind === 'completed'
      ? replan !== undefined
        ? ['stopped', `the person stopped the build to replan: ${replan}`]
        : ['done', undefined]
      : stop.kind === 'error'
        ? ['failed', stop.message]
        : stop.kind === 'blocked'
          ? ['stopped', stop.reason]
          : stop.kind === 'awaiting_approval'
            ? ['stopped', 'a revised plan awaits approval']
            : ['stopped', 'cancelled by the person'];
  const report = await closeBuild(core, guard, outcome, reason);
  return stop.kind === 'completed' && report ? { ...stop, report } : stop;
}

async function* runBuildTurns(
  core: SessionCore,
  handoff: BuildHandoff,
  guard: BuildGuard,
): AsyncGenerator<FlowStep, SessionStop> {
  const progress = (message: string) => core.bus.emit({ type: 'progress', message });
  const base = core.guards.config.loopsPerTurn;
  let firstMessage: string;
  if (handoff.kind === 'none') {
    firstMessage = handoff.task;
    core.guards.newTurn({ mode: 'build' });
  } else {
    const fresh = handoff.kind === 'fresh_context';
    const previous = core.contextPercent();
    yield* handoff.prepared.effects;
    emitTracker(core, handoff.prepared.tracker);
    if (fresh) {
      progress(HANDOFF_STEPS[0]!);
      yield { type: 'thread_cleared' };
      progress(HANDOFF_STEPS[1]!);
    }
    progress(HANDOFF_STEPS[2]!);
    if (fresh) {
      core.bus.emit({
        type: 'context.reset',
        trigger: 'plan_approval',
        plan_preserved: true,
        previous_context_usage_percent: previous,
        tool_budget_reset: true,
      });
    }
    core.guards.newTurn({ mode: 'build', loopsPerTurn: approvedPlanLoopLimit(base, 0), freshContext: fresh });
    firstMessage = handoverMessage(handoff.prepared.markdown, renderTrackerTree(handoff.prepared.tracker), fresh);
    yield { type: 'lifecycle', event: { type: 'handoff_done' } };
  }

  let input = firstMessage;
  let replans = 0;
  let summary: string | undefined;
  for (;;) {
    const turnId = core.newId('turn');
    core.bus.emit({ type: 'turn.started', turn_id: turnId });
    yield { type: 'user_said', text: input };
    const inner = core.tracker ?? createTrackerHandle({ defaultTitle: 'Tasks' });
    const ask = core.deps.approver.signOffCheck;
    const tracker = checkpointingTracker(
      verifyingTracker(inner, {
        verifier: core.verifier,
        planFile: () => core.planFile ?? '',
        required: core.config.requireVerifyToComplete !== false,
        signal: core.abort.signal,
        commands: {
          approver: core.deps.approver,
          interactive: core.config.interactive !== false,
          approved: core.commands.approved,
          // Read at each run: an entry added with "Always allow" holds from the next command on.
          get allowList() {
            return core.commandPolicy().allowList ?? [];
          },
          remember: core.rememberCommand,
        },
        ...(core.config.interactive !== false && ask
          ? {
              askCheck: (step: string, check: string, signal?: AbortSignal) =>
                ask.call(core.deps.approver, step, check, signal),
            }
          : {}),
      }),
      guard,
    );
    await core.prepareTurn('build', turnId, input);
    const r = await runTurn(core.thread.messages, turnDepsOf(core, 'build', tracker), { turnId });
    core.bus.emit({ type: 'turn.completed', turn_id: turnId, usage: core.totalUsage });
    if (r.ended !== undefined) {
      // The person ended the turn (stop and replan): no closing reply is asked of the model.
      summary = `Stopped: ${r.ended}`;
      break;
    }
    if (!r.final) return { kind: 'blocked', reason: r.stop?.reason ?? 'the build turn stopped early' };

    if (r.final.plan !== undefined) {
      const saved = await core.store.save(r.final.plan, core.planStem !== undefined ? { stem: core.planStem } : {});
      if (!saved.ok) {
        core.notice(
          `The revised plan was rejected and the approved plan kept: ${saved.errors.map((e) => e.message).join('; ')}`,
          'warning',
          turnId,
        );
        break;
      }
      const opened = await openTracker(core, saved.stem, r.final.plan);
      yield { type: 'plan_adopted', stem: saved.stem, file: saved.file };
      yield* opened.effects;
      rescope(core, guard, r.final.plan, saved.file);
      emitTracker(core, opened.tracker);
      yield { type: 'lifecycle', event: { type: 'plan_ready', planFile: saved.file }, turnId };
      // Outside an approved run the gate opens again ("proposed during execution").
      if (core.machine.state === 'awaiting_approval') return { kind: 'awaiting_approval', planFile: saved.file };
      core.notice(
        `The plan was revised during the run (revision ${saved.revision}); execution continues.`,
        'info',
        turnId,
      );
      if (core.machine.state !== 'executing' || ++replans > MAX_REPLANS) break;
      input = 'The revised plan above is now the approved plan. Continue implementing it.';
      continue;
    }
    break;
  }
  yield { type: 'lifecycle', event: { type: 'execution_done' } };
  core.bus.emit({ type: 'thread.completed', thread_id: core.id });
  const waiting = awaitingChecks(core);
  return {
    kind: 'completed',
    summary: summary ?? core.thread.lastAssistantText(),
    ...(waiting.length > 0 ? { awaitingChecks: waiting } : {}),
  };
}
