/**
 * The engine announced the gate again while it is open (the person edited the plan file, or
 * changed its review): the open request takes the new card, so the panel's gate and the native
 * prompts (the QuickPick, the palette's approve commands) read the same, current card.
 */
import type { GateCardInfo } from '../../core/api/sessions';
import type { DeltaOp } from '../../protocol';
import { gateOf, type ApprovalData } from './hostApprover';
import type { PendingRequests } from './pending';

export function regate(
  pending: PendingRequests,
  view: { update(ops: readonly DeltaOp[]): void },
  e: { readonly plan_file: string; readonly card: GateCardInfo },
  relativePath: (path: string) => string,
): boolean {
  const open = pending.first('approval');
  if (!open) return false;
  const data = open.data as ApprovalData | undefined;
  if (data) pending.setData(open.id, { ...data, request: { ...data.request, card: e.card } } satisfies ApprovalData);
  view.update([{ op: 'gate.set', gate: gateOf(e.card, open.id, relativePath(e.plan_file)) }]);
  return true;
}
