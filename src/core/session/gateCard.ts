/**
 * The "Ready to code?" card, built once by the engine from the stored, validated plan and carried
 * in `plan.approval.requested` and the `PlanApprovalRequest`. Every host renders it as it is: none
 * re-reads or re-validates the plan.
 */
import { basename, dirname, join } from 'node:path';
import type { GateCardChanges, GateCardInfo, VerifyCommandInfo } from '../events/types';
import type { PlanApprovalRequest } from '../lifecycle/ports';
import { diffPlans } from '../plan/diff';
import { planPaths, revisionFileName } from '../plan/storeLayout';
import type { ParsedStep } from '../plan/types';
import { decideBuildCommand } from '../tools/build/buildPolicy';
import type { SessionCore } from './core';

/** Steps the card lists before "…and N more steps". */
export const GATE_VISIBLE_STEPS = 5;

/**
 * The card and the approval request for the plan now at the gate, from one load of the stored
 * plan (validated when it was saved and again when loaded; nothing here validates it anew).
 */
export async function gateRequest(core: SessionCore): Promise<PlanApprovalRequest> {
  const snapshot = core.machine.pendingApproval();
  const contextPercent = Math.min(100, Math.max(0, core.contextPercent()));
  const proposedDuringExecution = snapshot?.proposedDuringExecution ?? false;
  let plan;
  try {
    plan = await core.store.load(core.planStem!);
  } catch (err) {
    const planFile = core.planFile ?? '';
    const card: GateCardInfo = {
      title: basename(planFile),
      summary: '',
      steps: [],
      moreSteps: 0,
      validation: { valid: false, problems: [`The plan file could not be read: ${String(err)}`] },
      contextPercent,
      revision: 0,
      proposedDuringExecution,
    };
    return { card, planFile };
  }
  const actions = plan.summary.steps.map((s) => s.action);
  const previous =
    plan.revisions >= 2
      ? join(planPaths(dirname(plan.file), plan.stem).history, revisionFileName(plan.revisions - 1))
      : snapshot?.previousPlanFile;
  let changes: Pick<PlanApprovalRequest, 'diff' | 'stepChanges'> = {};
  let cardChanges: GateCardChanges | undefined;
  if (plan.revisions >= 2) {
    const before = await core.store.readRevision(plan.stem, plan.revisions - 1);
    const d = diffPlans(before, plan.markdown, {}, (text) => core.plans.parse(text));
    const stepChanges = { added: d.added.length, removed: d.removed.length, changed: d.changed.length };
    changes = { diff: d.unified, stepChanges };
    cardChanges = { ...stepChanges, summary: describeChanges(stepChanges, d.unified !== '') };
  }
  const card: GateCardInfo = {
    title: plan.summary.title || basename(plan.file),
    summary: plan.summary.summary,
    steps: actions.slice(0, GATE_VISIBLE_STEPS),
    moreSteps: Math.max(0, actions.length - GATE_VISIBLE_STEPS),
    validation: {
      valid: plan.valid,
      problems: plan.errors.map((e) => (e.line !== undefined ? `line ${e.line}: ${e.message}` : e.message)),
    },
    contextPercent,
    revision: plan.revisions,
    proposedDuringExecution,
    ...(previous !== undefined ? { previousRevision: previous } : {}),
    // Who wrote this revision, as its history records it, so a reload or resume still says so.
    ...(plan.author === 'person' ? { author: 'person' as const } : {}),
    ...(await openComments(core, plan.file)),
    ...(cardChanges ? { changes: cardChanges } : {}),
    ...(await verifyCommands(core, plan.summary.steps, plan.author === 'person')),
  };
  return { card, planFile: plan.file, ...changes };
}

/**
 * The plan's verify commands with the command policy's verdict on each. A planner's revision
 * records what it listed; only those commands can be approved with the plan, so a command a hand
 * edit added is asked for when it first runs. The approvable ones are kept for the decision.
 */
async function verifyCommands(
  core: SessionCore,
  steps: readonly ParsedStep[],
  byPerson: boolean,
): Promise<Pick<GateCardInfo, 'verifyCommands'>> {
  const ctx = core.commandPolicy();
  const out: VerifyCommandInfo[] = [];
  const seen = new Set<string>();
  for (const step of steps) {
    for (const entry of step.entries) {
      if (entry.kind !== 'command' || seen.has(`${step.index}\u0000${entry.command}`)) continue;
      seen.add(`${step.index}\u0000${entry.command}`);
      const d = await decideBuildCommand(entry.command, ctx);
      const verdict = 'ask' in d ? 'ask' : !d.run ? 'refused' : d.via === 'read_only' ? 'read_only' : 'allow_list';
      out.push({
        step: String(step.index),
        command: entry.command,
        verdict,
        ...('reason' in d ? { reason: d.reason } : {}),
        approvable: false,
      });
    }
  }
  if (!byPerson) core.commands.listedByPlanner = new Set(out.map((c) => c.command));
  const listed = core.commands.listedByPlanner;
  const cards = out.map((c) => ({ ...c, approvable: c.verdict === 'ask' && (listed?.has(c.command) ?? false) }));
  core.commands.approvable = new Set(cards.filter((c) => c.approvable).map((c) => c.command));
  return cards.length > 0 ? { verifyCommands: cards } : {};
}

/**
 * A revision's change in words, counted once here for every host: "1 step removed, 1 changed",
 * "2 steps added"; "wording only" when no step was added, removed or changed but the text was;
 * "no changes" when the texts are the same.
 */
export function describeChanges(
  counts: { readonly added: number; readonly removed: number; readonly changed: number },
  textChanged: boolean,
): string {
  const parts = (
    [
      [counts.added, 'added'],
      [counts.removed, 'removed'],
      [counts.changed, 'changed'],
    ] as const
  ).filter(([n]) => n > 0);
  if (parts.length === 0) return textChanged ? 'wording only' : 'no changes';
  return parts.map(([n, verb], i) => (i === 0 ? `${n} step${n === 1 ? '' : 's'} ${verb}` : `${n} ${verb}`)).join(', ');
}

/**
 * The plan's unresolved review threads. Reading the review brings its anchors up to this
 * revision first (threads whose element changed become outdated, announced on the bus).
 */
async function openComments(core: SessionCore, planFile: string): Promise<Pick<GateCardInfo, 'openComments'>> {
  try {
    const review = await core.review.state(planFile);
    const open = review.threads
      .filter((t) => t.status === 'open')
      .map((t) => ({
        id: t.id,
        label: t.label,
        line: t.range.start,
        outdated: t.outdated !== undefined,
        answered: t.answered,
      }));
    return open.length > 0 ? { openComments: open } : {};
  } catch (err) {
    core.deps.log?.(`review: ${err instanceof Error ? err.message : String(err)}`);
    return {};
  }
}

/**
 * Emits `plan.approval.requested` with the card for an approval the machine just requested, and
 * returns the request for the `Approver` (undefined when the machine requested none).
 */
export async function announceGate(core: SessionCore): Promise<PlanApprovalRequest | undefined> {
  const pending = core.takeGateRequest();
  if (!pending) return undefined;
  const request = await gateRequest(core);
  const e = pending.effect;
  core.bus.emit({
    type: 'plan.approval.requested',
    turn_id: pending.turnId,
    plan_file: e.planFile,
    ...(e.proposedDuringExecution ? { proposed_during_execution: true } : {}),
    ...(e.previousPlanFile !== undefined ? { previous_revision: e.previousPlanFile } : {}),
    card: request.card,
  });
  return request;
}
