/**
 * A person's edit of the plan file while it awaits approval. The store validates the saved file:
 * a valid edit becomes the next revision (its author is the person), the tracker follows it, and
 * the gate is announced again with the new card; an invalid edit writes nothing, so history and
 * the tracker stay as they were, and the gate shows its problems (a build is refused until the
 * file is valid again). The errors carry the plan file's lines, for the host's diagnostics.
 */
import type { PlanError } from '../plan/types';
import { planViewOf } from '../plan/planCard';
import type { SessionCore } from './core';
import { gateRequest } from './gateCard';
import { emitTracker, openTracker } from './planningTurn';

export type HandEditOutcome =
  | { readonly kind: 'revision'; readonly revision: number }
  | { readonly kind: 'invalid'; readonly revision: number; readonly errors: readonly PlanError[] }
  | { readonly kind: 'unchanged'; readonly revision: number }
  /** Not the plan at the gate, or no plan awaits approval: the edit is the person's business. */
  | { readonly kind: 'ignored'; readonly reason: string };

export async function acceptHandEdit(core: SessionCore, planFile: string): Promise<HandEditOutcome> {
  const stem = core.planStem;
  if (core.machine.state !== 'awaiting_approval' || stem === undefined) {
    return { kind: 'ignored', reason: 'no plan awaits approval' };
  }
  if (core.planFile !== planFile) return { kind: 'ignored', reason: 'not the plan at the gate' };
  const r = await core.store.recordEdit(stem);
  if (r.kind === 'unchanged') return { kind: 'unchanged', revision: r.revision };
  if (r.kind === 'recorded') {
    const plan = await core.store.load(stem);
    const opened = await openTracker(core, stem, plan.markdown);
    core.apply(...opened.effects);
    core.bus.emit({
      type: 'item.completed',
      turn_id: '',
      item: {
        id: core.newId('plan'),
        kind: 'plan',
        plan: {
          file: r.file,
          markdown: plan.markdown,
          valid: true,
          revision: r.revision,
          view: planViewOf(core.plans.parse(plan.markdown).summary),
        },
      },
    });
    emitTracker(core, opened.tracker);
    core.notice(`Your edit of the plan is revision ${r.revision}.`);
  } else {
    const lines = r.errors.map((e) => (e.line !== undefined ? `line ${e.line}: ${e.message}` : e.message));
    core.notice(
      `Your edit of the plan is not valid, so it is not a revision and cannot be approved: ${lines.join('; ')}`,
      'warning',
    );
  }
  const request = await gateRequest(core);
  core.bus.emit({
    type: 'plan.approval.requested',
    turn_id: '',
    plan_file: r.file,
    ...(request.card.previousRevision !== undefined ? { previous_revision: request.card.previousRevision } : {}),
    card: request.card, // a recorded edit's card says author 'person': the store wrote it in the history
  });
  return r.kind === 'recorded'
    ? { kind: 'revision', revision: r.revision }
    : { kind: 'invalid', revision: r.revision, errors: r.errors };
}
